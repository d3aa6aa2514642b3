"""`boruna symbols` / `boruna_symbols` on a source that imports a library list the source's
own declarations (the reference could not parse `import "NAME"` here)."""
from boruna.service import symbols_tool
from boruna.assets.directories import default_libs_dir

SOURCE = '''import "std-validation"

type Form { name: String }

fn check(form: Form) -> Int {
    validate_min_length("name", form.name, 2).valid
}
'''


def test_symbols_lists_own_declarations(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "form.ax").write_text(SOURCE)
    result = cli("symbols", "form.ax")
    assert (result.code, result.err) == (0, "")
    assert result.out == "type Form { name: String }\nfn check(form: Form) -> Int\n"


def test_symbols_missing_library(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "form.ax").write_text(SOURCE.replace("std-validation", "std-nope"))
    result = cli("symbols", "form.ax")
    assert result.code == 1
    assert result.err.splitlines()[:2] == [
        "error[E002]: import error: library 'std-nope' not found", " --> form.ax:1:8"]


def test_symbols_tool_with_and_without_libs_dir():
    response = symbols_tool(SOURCE, libs_dir=str(default_libs_dir()))
    assert response["success"] is True
    assert [s["signature"] for s in response["symbols"]] == [
        "type Form { name: String }", "fn check(form: Form) -> Int"]
    response = symbols_tool(SOURCE)
    assert (response["success"], response["error_kind"], response["line"], response["col"]) == (
        False, "parse_error", 1, 8)
