"""An App that imports a standard library validates and runs under `boruna framework`, as it
compiles under `boruna run` (the reference's framework commands did not resolve imports)."""
from pathlib import Path

from boruna.service import validate_app_tool
from boruna.assets.directories import default_libs_dir

APP = '''import "std-validation"

type State { name: String, ok: Bool }
type Msg { tag: String, payload: String }
type Effect { kind: String, payload: String, callback_tag: String }
type UpdateResult { state: State, effects: List<Effect> }
type UINode { tag: String, text: String }

fn init() -> State { State { name: "", ok: false } }

fn update(state: State, msg: Msg) -> UpdateResult {
    let r = validate_min_length("name", msg.payload, 2)
    UpdateResult { state: State { name: msg.payload, ok: r.valid }, effects: [] }
}

fn view(state: State) -> UINode { UINode { tag: "name", text: state.name } }
'''


def _write(tmp_path, text=APP) -> Path:
    path = tmp_path / "app.ax"
    path.write_text(text)
    return path


def test_framework_validate_resolves_imports(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("framework", "validate", _write(tmp_path))
    assert (result.code, result.err) == (0, "")
    assert result.out.splitlines() == [
        "valid App protocol", "  init:     yes", "  update:   yes", "  view:     yes",
        "  policies: none (using defaults)", "  state type: State", "  message type: Msg"]


def test_framework_test_resolves_imports(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("framework", "test", _write(tmp_path), "-m", "set:Ada,set:A")
    assert (result.code, result.err) == (0, "")
    assert result.out.splitlines() == [
        'init state: ["", false]',
        'cycle 1 (set:Ada): state=["Ada", true]', '  view: ["name", "Ada"]',
        'cycle 2 (set:A): state=["A", false]', '  view: ["name", "A"]',
        "", 'final state: ["A", false]', "cycles: 2"]


def test_framework_json_resolves_imports(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = _write(tmp_path)
    result = cli("framework", "validate", path, "--json")
    assert result.code == 0
    assert '"valid": true' in result.out
    result = cli("framework", "test", path, "-m", "set:Ada", "--json")
    assert result.code == 0
    assert '"total_cycles": 1' in result.out


def test_framework_libs_dir_flag(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lib = tmp_path / "mylibs" / "std-validation" / "src"
    lib.mkdir(parents=True)
    (lib / "core.ax").write_text(
        "type ValidationResult { valid: Int }\n"
        "fn validate_min_length(f: String, v: String, n: Int) -> ValidationResult {\n"
        "    ValidationResult { valid: 7 }\n}\n")
    result = cli("framework", "test", _write(tmp_path), "-m", "set:A",
                 "--libs-dir", tmp_path / "mylibs")
    assert result.code == 0
    assert 'cycle 1 (set:A): state=["A", 7]' in result.out.splitlines()


def test_framework_missing_library_is_a_compile_error(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = _write(tmp_path, APP.replace("std-validation", "std-nope"))
    for argv in (("framework", "validate", path), ("framework", "test", path, "-m", "a")):
        result = cli(*argv)
        assert result.code == 1
        assert result.out == ""
        assert result.err.splitlines()[:2] == [
            "error[E002]: import error: library 'std-nope' not found",
            f" --> {path}:1:8"]


def test_validate_app_tool_resolves_imports_against_libs_dir():
    response = validate_app_tool(APP, libs_dir=str(default_libs_dir()))
    assert response["success"] is True
    assert (response["valid"], response["errors"]) == (True, [])
    assert (response["state_type"], response["message_type"]) == ("State", "Msg")


def test_validate_app_tool_without_libs_dir_keeps_the_reference_parse_error():
    response = validate_app_tool(APP)
    assert response["success"] is False
    assert response["errors"][0]["code"] == "E002"
    assert response["errors"][0]["message"] == "expected identifier, found <string literal>"
