"""`boruna compile`: one compilation per invocation, text or `--json`."""
import json

import pytest

import boruna.compiler
from boruna.bytecode import axbc


@pytest.fixture
def compiles(monkeypatch):
    seen = []
    real = boruna.compiler.compile_source

    def counted(*args, **kwargs):
        seen.append(kwargs.get("name"))
        return real(*args, **kwargs)

    monkeypatch.setattr(boruna.compiler, "compile_source", counted)
    return seen


@pytest.mark.parametrize("flags", [[], ["--json"]], ids=["text", "json"])
def test_compile_compiles_once_and_writes_the_bytecode(cli, compiles, tmp_path, flags):
    source = tmp_path / "prog.ax"
    source.write_text("fn main() -> Int {\n    1 + 2\n}\n")
    result = cli("compile", source, *flags)
    assert result.code == 0
    assert compiles == ["prog"]
    module = axbc.from_bytes((tmp_path / "prog.axbc").read_bytes())
    assert (module.name, len(module.functions)) == ("prog", 1)
    if flags:
        assert json.loads(result.out)["module"]["name"] == "prog"
    else:
        assert result.out == (f"compiled {source} -> {tmp_path / 'prog.axbc'}\n"
                              "  1 function, 2 constants, 0 types\n")


def test_a_compile_error_is_drawn_from_the_one_compilation(cli, compiles, tmp_path):
    source = tmp_path / "bad.ax"
    source.write_text("fn main() -> Int {\n    let x = 1;\n    x\n}\n")
    result = cli("compile", source)
    assert result.code == 1
    assert compiles == ["bad"]
    assert result.err.splitlines()[-1] == (
        "  = help: statements end at the end of their line; remove the ';' "
        f"(boruna repair {source} does it)")
    assert not (tmp_path / "bad.axbc").exists()
