"""boruna-mcp's command line: --help, --version, --templates-dir, --libs-dir and their defaults."""
import json
import subprocess
import sys

from boruna import __version__

LIB = "fn triple(x: Int) -> Int {\n    x * 3\n}\n"
USES_LIB = "import mylib\n\nfn main() -> Int {\n    triple(4)\n}\n"
APP_USES_LIB = """import mylib

type State { n: Int }
type Msg { tag: String, payload: Int }
type UpdateResult { state: State, effects: List<Int> }

fn init() -> State { State { n: 1 } }

fn update(state: State, msg: Msg) -> UpdateResult {
    UpdateResult { state: State { n: triple(state.n) }, effects: [] }
}

fn view(state: State) -> Int { state.n }
"""


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "boruna.mcp", *args], capture_output=True,
                          text=True, timeout=60)


def test_version_flag():
    done = _cli("--version")
    assert (done.returncode, done.stdout.strip()) == (0, f"boruna-mcp {__version__}")


def test_help_flag_documents_both_directories():
    done = _cli("--help")
    assert done.returncode == 0
    assert "--templates-dir" in done.stdout and "--libs-dir" in done.stdout
    assert done.stdout.startswith("usage: boruna-mcp")


def test_unknown_flag_is_a_usage_error():
    done = _cli("--bogus")
    assert done.returncode == 2
    assert "unrecognized arguments: --bogus" in done.stderr
    assert "Traceback" not in done.stderr


def _write_fixture_tree(root):
    (root / "libs" / "mylib" / "src").mkdir(parents=True)
    (root / "libs" / "mylib" / "src" / "core.ax").write_text(LIB)
    template = root / "templates" / "hello"
    template.mkdir(parents=True)
    (template / "template.json").write_text(json.dumps({
        "name": "hello", "version": "1.0.0", "description": "greets", "dependencies": [],
        "capabilities": [], "args": {"who": {"type": "string", "required": True,
                                             "description": "name"}}}))
    (template / "app.ax.template").write_text('fn main() -> String { "hi {{who}}" }\n')


def test_defaults_are_templates_and_libs_in_the_working_directory(tmp_path, call_fresh_server):
    _write_fixture_tree(tmp_path)
    listed, compiled, ran, sealed, app, applied = call_fresh_server([
        ("boruna_template_list", {}),
        ("boruna_compile", {"source": USES_LIB}),
        ("boruna_run", {"source": USES_LIB}),
        ("boruna_run_sealed", {"source": USES_LIB}),
        ("boruna_framework_test", {"source": APP_USES_LIB, "messages": ["go"]}),
        ("boruna_template_apply", {"template_name": "hello", "args": ["who=Ada"],
                                   "validate": True}),
    ], cwd=tmp_path)
    # the project's own template, and the bundled ones it does not hide (issue 23)
    assert listed["count"] == 6
    by_name = {t["name"]: t for t in listed["templates"]}
    assert by_name["hello"] == {"name": "hello", "version": "1.0.0", "description": "greets",
                                "dependencies": [], "capabilities": [], "args": ["who"],
                                "origin": "local"}
    assert sorted(n for n, t in by_name.items() if t["origin"] == "bundled") == [
        "auth-app", "crud-admin", "form-basic", "offline-sync", "realtime-feed"]
    assert compiled["success"] is True and compiled["module"]["functions"] == 2
    assert ran["result"] == 12 and sealed["result"] == 12
    assert app["cycles"][0]["state"] == [3]
    assert applied == {"success": True, "protocol_version": 1, "template_name": "hello",
                       "output_file": "hello_app.ax",
                       "source": 'fn main() -> String { "hi Ada" }\n', "dependencies": [],
                       "capabilities": [], "validation": {"passed": True}}


def test_explicit_directories_override_the_defaults(tmp_path, call_fresh_server):
    _write_fixture_tree(tmp_path)
    missing = tmp_path / "nowhere"
    listed, compiled = call_fresh_server(
        [("boruna_template_list", {}), ("boruna_compile", {"source": USES_LIB})],
        "--templates-dir", str(missing), "--libs-dir", str(tmp_path / "libs"),
        cwd=tmp_path.parent)
    assert listed["success"] is False and listed["error_kind"] == "template_error"
    assert listed["message"] == f"read templates dir: {missing}: No such file or directory"
    assert compiled["module"]["functions"] == 2


def test_console_script_is_installed_next_to_the_interpreter():
    from pathlib import Path

    script = Path(sys.executable).parent / "boruna-mcp"
    assert script.is_file()
    done = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, f"boruna-mcp {__version__}")


LIVE = ('fn main() -> String !{fs.read, fs.write, db.query, net.fetch} {\n'
        '    let w = fs_write("out.txt", "from mcp")\n'
        '    let rows = db_query("select 7 as n")\n'
        '    fs_read("out.txt") ++ " " ++ __builtin_int_to_string(list_len(rows)) ++ " "'
        ' ++ net_fetch("URL")\n}\n')


def test_live_reaches_the_file_root_the_database_and_the_network(tmp_path, loopback,
                                                                    call_fresh_server):
    import sqlite3

    base, paths = loopback
    root = tmp_path / "root"
    root.mkdir()
    db = tmp_path / "d.sqlite"
    sqlite3.connect(db).close()
    source = LIVE.replace("URL", base + "/hello")
    policy = {"default_allow": True, "net_policy": {"allowed_domains": ["127.0.0.1"]}}
    ran, sealed, mocked = call_fresh_server(
        [("boruna_run", {"source": source, "policy": policy}),
         ("boruna_run_sealed", {"source": source, "policy": policy}),
         ("boruna_run", {"source": source, "policy": "deny-all"})],
        "--live", "--fs-root", str(root), "--db", str(db))
    assert ran["result"] == "from mcp 1 hello from loopback"
    assert (root / "out.txt").read_text(encoding="utf-8") == "from mcp"
    assert sealed["result"] == "from mcp 1 hello from loopback"
    assert sealed["replay_verified"] is True
    assert mocked["message"] == "capability denied: fs.write"
    assert paths == ["/hello", "/hello"]


def test_without_live_the_server_uses_the_mock(tmp_path, loopback, call_fresh_server):
    base, paths = loopback
    (ran,) = call_fresh_server([("boruna_run", {"source": LIVE.replace("URL", base)})])
    assert ran["result"] == ('mock file content for "out.txt" 0 {"mock": true, "url": ""'
                             + base + '""}')
    assert paths == []


def test_live_flags_need_live():
    for flags, message in ((["--fs-root", "x"], "--fs-root needs --live"),
                           (["--live", "--db-write"], "--db-write needs --db FILE")):
        done = _cli(*flags)
        assert done.returncode == 2
        assert done.stderr.strip().endswith(f"error: {message}")


READ_ONLY = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True,
             "openWorldHint": False}
REAL_IO = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False,
           "openWorldHint": True}


def _hints(tools):
    return {tool.name: tool.annotations.model_dump(exclude={"title"}, by_alias=True)
            for tool in tools}


def test_annotations_are_read_only_without_live_and_real_io_for_runs_with_live(
        tmp_path, list_fresh_server):
    mocked = _hints(list_fresh_server())
    live = _hints(list_fresh_server("--live", "--fs-root", str(tmp_path)))
    journal = {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": False,
               "openWorldHint": False}
    writers = ("boruna_workflow_decide", "boruna_workflow_resume", "boruna_workflow_run")
    assert len(mocked) == 20
    assert {name: hints for name, hints in mocked.items() if hints != READ_ONLY} == {
        name: journal for name in writers}
    assert {name: hints for name, hints in live.items() if hints != READ_ONLY} == {
        "boruna_run": REAL_IO, "boruna_run_sealed": REAL_IO, "boruna_resume": REAL_IO, **{n: REAL_IO for n in writers}}
    assert sorted(live) == sorted(mocked)
