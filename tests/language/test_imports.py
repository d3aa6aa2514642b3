"""Library imports (docs/spec/tooling.md §6.2) resolved on ASTs: user line numbers stay correct."""
import pytest

from boruna.language import ast
from boruna.language.errors import CompileError
from boruna.language.frontend import check, parse
from boruna.language.imports import find_import_lines, resolve_imports


@pytest.fixture
def libs(tmp_path):
    def add(name, source):
        path = tmp_path / name / "src"
        path.mkdir(parents=True)
        (path / "core.ax").write_text(source, encoding="utf-8")
    add("std-a", "fn a() -> Int { 1 }\nfn main() -> Int { a() }\n")
    add("std-b", "// b\ntype B { v: Int }\nfn b(x: Int) -> B { B { v: x } }\n"
                 "fn main() -> Int { 0 }\nfn main() -> Int { 2 }\n")
    add("bad-parse", "fn broken( { }\n")
    add("bad-name", "fn c() -> Int { nope }\n")
    return tmp_path


def names(program):
    return [item.name for item in program.items]


def test_string_and_bare_imports_merge_libraries_once_in_order(libs):
    source = 'import "std-a"\nimport std-a\nimport std-b\nfn main() -> Int { a() + b(1).v }\n'
    program = check(source, libs_dir=str(libs))
    assert names(program) == ["a", "B", "b", "main", "main"]
    # only the library's first `main` is dropped; the user's main keeps its own line
    assert program.items[-1].line == 4
    assert program.items[-2].body.stmts[0].expr == ast.IntLit(2)


def test_errors_in_user_code_keep_their_line_numbers(libs):
    source = 'import "std-a"\nimport "std-b"\nfn main() -> Int {\n    missing\n}\n'
    with pytest.raises(CompileError) as info:
        check(source, libs_dir=str(libs))
    assert (info.value.code, info.value.message, info.value.line, info.value.col) == \
        ("E009", "undefined variable: missing", 4, 5)


def test_missing_library_is_an_import_error_at_the_name(libs):
    with pytest.raises(CompileError) as info:
        check('fn f() { 0 }\n  import "std-nope"\n', libs_dir=str(libs))
    err = info.value
    assert (err.code, err.message, err.line, err.col) == \
        ("E002", "import error: library 'std-nope' not found", 2, 10)


@pytest.mark.parametrize("name", ["../std-a", "std-a/../std-a", ".", ".."])
def test_path_like_names_are_not_found(libs, name):
    with pytest.raises(CompileError) as info:
        check(f'import "{name}"\n', libs_dir=str(libs))
    assert info.value.message == f"import error: library '{name}' not found"


def test_errors_inside_a_library_name_the_library(libs):
    with pytest.raises(CompileError) as info:
        check('import "bad-parse"\n', libs_dir=str(libs))
    assert info.value.code == "E002"
    assert info.value.message.startswith("in library 'bad-parse': expected identifier")
    with pytest.raises(CompileError) as info:
        check("import bad-name\n", libs_dir=str(libs))
    assert (info.value.code, info.value.message, info.value.line) == \
        ("E009", "in library 'bad-name': undefined variable: nope", 1)


def test_without_libs_dir_imports_are_the_parser_s_business():
    assert check("import std_json\nfn main() -> Int { 0 }\n").items[0] == ast.ImportDef("std_json")
    with pytest.raises(CompileError) as info:
        check('import "std-json"\n')
    assert info.value.message == "expected identifier, found <string literal>"


def test_source_without_imports_comes_back_unchanged(libs):
    source = "fn main() -> Int { 0 }\r\n"
    assert resolve_imports(source, str(libs)) == (source, [])
    assert resolve_imports('import "std-a"\n', None) == ('import "std-a"\n', [])


def test_import_lines_are_found_on_tokens_not_text(libs):
    source = ('fn f() -> String { "x\nimport std-a\n" }\nimported_x\n  import "std-a" // c\n'
              'fn g() { 0 } import std-b\n')
    found = find_import_lines(source)
    assert [(i.name, i.line, i.col) for i in found] == [("std-a", 5, 10)]
    text, libraries = resolve_imports(source, str(libs))
    assert [lib.name for lib in libraries] == ["std-a"]
    assert text.split("\n")[4] == "" and text.split("\n")[1] == "import std-a"


def test_check_of_a_parsed_program_resolves_its_import_items(libs):
    program = parse("import std_b_alias\nfn main() -> Int { 0 }\n")
    # an unknown bare-word import stays the reference's no-op import item
    assert check(program, libs_dir=str(libs)).items[0] == ast.ImportDef("std_b_alias")
    (libs / "std_b_alias" / "src").mkdir(parents=True)
    (libs / "std_b_alias" / "src" / "core.ax").write_text("fn z() -> Int { 9 }\n")
    merged = check(parse("import std_b_alias\nfn main() -> Int { z() }\n"), libs_dir=str(libs))
    assert names(merged) == ["z", "main"]


def test_module_header_survives_imports(libs):
    program = check('module app\nimport "std-a"\nfn main() -> Int { a() }\n', libs_dir=str(libs))
    assert program.module_name == "app"


def test_unknown_bare_word_import_is_a_no_op_with_a_libs_dir(libs):
    # docs/spec/language.md T31 compiles in the reference; a configured libs dir must not change that
    program = check("import std_json\nfn main() -> Int { 0 }\n", libs_dir=str(libs))
    assert [type(i).__name__ for i in program.items] == ["ImportDef", "FnDef"]
    assert program.items[0] == ast.ImportDef("std_json")


def test_bare_word_with_underscores_finds_the_dashed_library(libs):
    program = check("import std_a\nfn main() -> Int { a() }\n", libs_dir=str(libs))
    assert names(program) == ["a", "main"]
    assert program.items[-1].line == 2


# --- symlinks never lead an import out of the libs directory (issue 15, security 2) ----------

def _outside_library(tmp_path):
    outside = tmp_path / "outside" / "evil"
    (outside / "src").mkdir(parents=True)
    (outside / "src" / "core.ax").write_text("fn evil() -> Int { 666 }\n", encoding="utf-8")
    libs = tmp_path / "libs"
    libs.mkdir()
    return libs, outside


def test_library_directory_linking_outside_is_not_found(tmp_path):
    libs, outside = _outside_library(tmp_path)
    (libs / "std-evil").symlink_to(outside, target_is_directory=True)
    with pytest.raises(CompileError) as info:
        check('import "std-evil"\nfn main() -> Int { evil() }\n', libs_dir=str(libs))
    assert (info.value.code, info.value.message, info.value.line) == (
        "E002", "import error: library 'std-evil' not found", 1)
    # a bare word finding no library is the reference's no-op import: evil() stays undefined
    with pytest.raises(CompileError) as info:
        check('import std_evil\nfn main() -> Int { evil() }\n', libs_dir=str(libs))
    assert info.value.message == "undefined variable: evil"


def test_library_source_linking_to_any_file_is_not_read(tmp_path):
    libs, _ = _outside_library(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET token here\n", encoding="utf-8")
    (libs / "std-leak" / "src").mkdir(parents=True)
    (libs / "std-leak" / "src" / "core.ax").symlink_to(secret)
    with pytest.raises(CompileError) as info:
        check('import "std-leak"\nfn main() -> Int { 1 }\n', libs_dir=str(libs))
    assert info.value.message == "import error: library 'std-leak' not found"
    assert "TOPSECRET" not in info.value.message


def test_symlinks_inside_the_libs_directory_still_work(tmp_path):
    libs, _ = _outside_library(tmp_path)
    real = libs / "std-real" / "src"
    real.mkdir(parents=True)
    (real / "core.ax").write_text("fn r() -> Int { 7 }\n", encoding="utf-8")
    (libs / "std-alias").symlink_to(libs / "std-real", target_is_directory=True)
    linked_libs = tmp_path / "linked-libs"
    linked_libs.symlink_to(libs, target_is_directory=True)
    for libs_dir in (libs, linked_libs):
        program = check('import "std-alias"\nfn main() -> Int { r() }\n', libs_dir=str(libs_dir))
        assert [item.name for item in program.items] == ["r", "main"]
