"""`boruna compile` and running its bytecode; `boruna ast`."""
import json

from boruna.language import ast_json
from boruna.language.frontend import parse
from boruna.service import ast_tool, compile_tool, render

T03 = "fn add(a: Int, b: Int) -> Int {\n    a + b\n}\nfn main() -> Int {\n    add(2, 3)\n}\n"


def test_compile_writes_bytecode_next_to_the_source(cli, tmp_path):
    src = tmp_path / "add.ax"
    src.write_text(T03)
    result = cli("compile", src)
    assert result.code == 0
    assert result.out == f"compiled {src} -> {tmp_path / 'add.axbc'}\n  2 functions, 2 constants, 0 types\n"
    run = cli("run", tmp_path / "add.axbc")
    assert (run.code, run.out) == (0, "5\nsteps: 9\n")


def test_compile_output_option_and_json(cli, tmp_path):
    src = tmp_path / "add.ax"
    src.write_text(T03)
    out = tmp_path / "build.axbc"
    result = cli("compile", src, "-o", out, "--json")
    assert result.code == 0
    assert result.out == render(compile_tool(T03, name="add")) + "\n"
    assert json.loads(result.out)["module"]["functions"] == 2
    assert out.read_bytes()


def test_compile_error_writes_nothing(cli, tmp_path):
    src = tmp_path / "bad.ax"
    src.write_text("fn main() -> Int {\n    let x = ;\n}\n")
    result = cli("compile", src)
    assert result.code == 1
    assert result.out == ""
    assert result.err == (f"error[E002]: expected expression, found Semi\n --> {src}:2:13\n"
                          "  |\n2 |     let x = ;\n  |             ^\n")
    assert not (tmp_path / "bad.axbc").exists()
    as_json = cli("compile", src, "--json")
    assert as_json.code == 1
    assert as_json.out == render(compile_tool(src.read_text(), name="bad")) + "\n"


def test_garbage_bytecode_is_one_clean_line(cli, tmp_path):
    for data in (b"", b"\x00\x01garbage\xff", b"AXBC" + bytes(range(256))):
        path = tmp_path / "junk.axbc"
        path.write_bytes(data)
        result = cli("run", path)
        assert result.code == 1
        assert result.err.startswith(f"error: cannot load bytecode '{path}': ")
        assert result.err.count("\n") == 1
        assert "Traceback" not in result.err


def test_ast_prints_the_declaration_order_tree(cli, tmp_path):
    src = tmp_path / "add.ax"
    src.write_text(T03)
    result = cli("ast", src)
    assert result.code == 0
    assert result.out == ast_json.pretty_json(parse(T03)) + "\n"
    assert list(json.loads(result.out)) == ["module_name", "items"]


def test_ast_json_is_the_tool_response(cli, tmp_path):
    src = tmp_path / "add.ax"
    for text in (T03, "fn main() { @ }"):
        src.write_text(text)
        result = cli("ast", src, "--json")
        assert result.out == render(ast_tool(text)) + "\n"
        assert result.code == (0 if text == T03 else 1)


def test_ast_lexer_error(cli, tmp_path):
    src = tmp_path / "lex.ax"
    src.write_text("fn main() { @ }\n")
    result = cli("ast", src)
    assert result.code == 1
    assert result.err == (f"error[E001]: unexpected character: \"@\"\n --> {src}:1:13\n  |\n"
                          "1 | fn main() { @ }\n  |             ^\n")
