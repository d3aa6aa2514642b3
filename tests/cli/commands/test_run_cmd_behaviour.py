"""`boruna run`: result, UI output, steps; errors; policies; limits; --json; progress; Ctrl-C."""
import functools
import json
import os
import re
import signal
from pathlib import Path

import pytest

from boruna.cli.commands import run_cmd
from boruna.cli.console import Console
from boruna.cli.progress import ProgressLine
from boruna.service import render, run_tool

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

T01 = "fn main() -> Int {\n    1 + 2 * 3\n}\n"
FIB = ("fn fib(n: Int) -> Int {\n    if n < 2 { n } else { fib(n - 1) + fib(n - 2) }\n}\n"
       "fn main() -> Int {\n    fib(%d)\n}\n")
LOOP = "fn main() -> Int {\n    let mut i = 0\n    while true {\n        i = i + 1\n    }\n    i\n}\n"
DIV0 = "fn main() -> Int {\n    let z = 0\n    10 / z\n}\n"
STEP_INPUT = 'fn main() -> String !{step.input} {\n    step_input("x")\n}\n'


@pytest.fixture
def prog(tmp_path):
    def make(text: str, name: str = "prog.ax"):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path
    return make


def test_result_and_steps(cli, prog):
    result = cli("run", prog(T01))
    assert (result.code, result.out, result.err) == (0, "7\nsteps: 7\n", "")


def test_fib_10(cli, prog):
    result = cli("run", prog(FIB % 10))
    assert (result.code, result.out) == (0, "55\nsteps: 1859\n")


def test_hello_example_prints_its_ui_output(cli):
    source = (EXAMPLES / "hello.ax").read_text()
    expected = run_tool(source)
    result = cli("run", EXAMPLES / "hello.ax")
    assert result.code == 0
    trees = "\n".join(json.dumps(t, indent=2, ensure_ascii=False) for t in expected["ui_output"])
    assert result.out == f"55\n\n--- UI Output ---\n{trees}\nsteps: {expected['steps']}\n"
    assert expected["ui_output"][0]["fields"] == ["hello, world", 10]


def test_counter_example_runs_main(cli):
    result = cli("run", EXAMPLES / "counter_app.ax")
    assert result.code == 0
    assert result.out.startswith("3\n\n--- UI Output ---\n")


def test_json_is_the_run_tool_response(cli, prog):
    for text in (T01, FIB % 10, DIV0, (EXAMPLES / "hello.ax").read_text()):
        result = cli("run", prog(text), "--json")
        expected = run_tool(text)
        assert result.out == render(expected) + "\n"
        assert result.code == (0 if expected["success"] else 1)


def test_json_with_options(cli, prog):
    path = prog(LOOP)
    result = cli("run", path, "--json", "--max-steps", "50", "--policy", "deny-all")
    assert result.code == 1
    assert result.out == render(run_tool(LOOP, policy="deny-all", max_steps=50)) + "\n"
    assert json.loads(result.out)["message"] == "max execution steps exceeded (50)"


def test_json_trace(cli, prog):
    result = cli("run", prog(T01), "--json", "--trace")
    assert result.out == render(run_tool(T01, trace=True)) + "\n"
    assert len(json.loads(result.out)["trace"]) == 6


def test_runtime_error(cli, prog):
    steps = run_tool(DIV0)["steps"]
    result = cli("run", prog(DIV0))
    assert result.code == 1
    assert result.out == ""
    path = prog(DIV0)
    assert result.err == (f"error: runtime error: division by zero\n --> {path}:3:5\n  |\n"
                          "3 |     10 / z\n  |     ^^\n"
                          f"  = note: in main at {path}:3:5\n  after {steps} steps\n")


def test_step_limit(cli, prog):
    result = cli("run", prog(LOOP), "--max-steps", "1000")
    assert result.code == 1
    path = prog(LOOP)
    assert result.err == ("error: runtime error: max execution steps exceeded (1000)\n"
                          f" --> {path}:4:13\n  |\n4 |         i = i + 1\n  |             ^\n"
                          f"  = note: in main at {path}:4:13\n"
                          "  after 1001 steps\n  = help: raise the limit with --max-steps N\n")


def test_step_limit_alias(cli, prog):
    result = cli("run", prog(LOOP), "--step-limit", "10")
    assert "max execution steps exceeded (10)" in result.err


def test_deny_all_policy(cli, prog):
    path = prog(STEP_INPUT)
    allowed = cli("run", path)
    assert (allowed.code, allowed.out.splitlines()[0]) == (0, '""')
    denied = cli("run", path, "--policy", "deny-all")
    assert denied.code == 1
    assert denied.err.startswith("error: runtime error: capability denied: step.input\n")


def test_policy_file(cli, prog, tmp_path):
    policy = tmp_path / "policy.json"
    policy.write_text('{"schema_version": 1, "default_allow": false, '
                      '"rules": {"step.input": {"allow": true, "budget": 1}}}')
    assert cli("run", prog(STEP_INPUT), "-p", policy).code == 0
    json_run = cli("run", prog(STEP_INPUT), "-p", policy, "--json")
    assert json.loads(json_run.out)["success"] is True


def test_invalid_policy_file(cli, prog, tmp_path):
    policy = tmp_path / "policy.json"
    policy.write_text('{"schema_version": 1, "rules": {}, "extra": true}')
    result = cli("run", prog(T01), "--policy", policy)
    assert result.code == 1
    assert result.err == (f"error: invalid policy '{policy}': policy.unknown_field: "
                          "unknown field \"extra\" at extra\n")
    as_json = cli("run", prog(T01), "--policy", policy, "--json")
    assert as_json.code == 1
    assert json.loads(as_json.out) == {
        "success": False, "protocol_version": 1, "error_kind": "invalid_policy",
        "message": "policy.unknown_field: unknown field \"extra\" at extra",
        "policy_error": "policy.unknown_field"}


def test_missing_policy_file(cli, prog, tmp_path):
    result = cli("run", prog(T01), "--policy", tmp_path / "nope.json")
    assert result.code == 1
    assert result.err == (f"error: invalid policy '{tmp_path / 'nope.json'}': policy.io_error: "
                          f"cannot read '{tmp_path / 'nope.json'}': no such file or directory\n")


def test_compile_error_is_drawn(cli, prog):
    path = prog("fn main() -> Int {\n    let width = 3\n    widthh * 2\n}\n", "typo.ax")
    result = cli("run", path)
    assert result.code == 1
    assert result.out == ""
    assert result.err == (f"error[E003]: undefined variable: widthh\n --> {path}:3:5\n  |\n"
                          "3 |     widthh * 2\n  |     ^^^^^^\n"
                          "  = help: did you mean: 'width'?\n")


def test_trace_is_printed_before_the_result(cli, prog):
    result = cli("run", prog(T01), "--trace")
    lines = result.out.splitlines()
    assert lines[0] == "--- Trace (6 entries) ---"
    assert all(line.startswith("  [main:") for line in lines[1:7])
    assert lines[-2:] == ["7", "steps: 7"]


def test_progress_line_on_a_terminal(cli, prog, monkeypatch):
    monkeypatch.setattr(Console, "stderr_is_terminal", lambda self: True)
    monkeypatch.setattr(run_cmd, "ProgressLine",
                        functools.partial(ProgressLine, delay=0, interval=0))
    result = cli("run", prog(FIB % 20))
    assert (result.code, result.out) == (0, "6765\nsteps: 229856\n")
    assert "running 100,000 steps" in result.err
    assert "running 200,000 steps" in result.err
    assert result.err.endswith("\r\x1b[2K")


def test_no_progress_line_when_stderr_is_not_a_terminal(cli, prog):
    result = cli("run", prog(FIB % 20))
    assert (result.code, result.err) == (0, "")


def test_ctrl_c_stops_the_run_with_its_steps(cli, prog, monkeypatch):
    def press_ctrl_c(self, steps, *rest):
        os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(run_cmd._Watch, "on_progress", press_ctrl_c)
    result = cli("run", prog(LOOP))
    assert result.code == 130
    assert result.out == ""
    assert result.err == "interrupted: stopped after 100000 steps\n"


def test_bytecode_json_is_refused(cli, tmp_path):
    path = tmp_path / "x.axbc"
    path.write_bytes(b"whatever")
    result = cli("run", path, "--json")
    assert result.code == 1
    assert "--json needs a .ax source file" in result.err


IMPORTING = 'import "std-validation"\nfn main() -> Bool {\n    validate_required("name", "").valid\n}\n'


def test_imports_resolve_from_the_bundled_libs(cli, prog, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)          # no ./libs here: the bundled copy is used
    result = cli("run", prog(IMPORTING))
    assert (result.code, result.out.splitlines()[0]) == (0, "false")


def test_libs_dir_option_and_local_libs(cli, prog, tmp_path, monkeypatch):
    lib = tmp_path / "mylibs" / "tiny" / "src"
    lib.mkdir(parents=True)
    (lib / "core.ax").write_text("fn triple(x: Int) -> Int {\n    x * 3\n}\n")
    path = prog('import "tiny"\nfn main() -> Int {\n    triple(14)\n}\n')
    result = cli("run", path, "--libs-dir", tmp_path / "mylibs")
    assert (result.code, result.out.splitlines()[0]) == (0, "42")
    (tmp_path / "mylibs").rename(tmp_path / "libs")
    monkeypatch.chdir(tmp_path)          # ./libs wins over the bundled libraries
    assert cli("run", path).out.splitlines()[0] == "42"


def test_missing_libs_dir(cli, prog, tmp_path):
    result = cli("run", prog(T01), "--libs-dir", tmp_path / "nope")
    assert result.code == 1
    assert result.err == (f"error: libs directory '{tmp_path / 'nope'}' does not exist or is "
                          "not a directory\n")


def test_json_source_over_1_mb_is_refused(cli, prog):
    text = "// " + "x" * 1_048_576 + "\nfn main() -> Int { 1 }\n"
    path = prog(text)
    result = cli("run", path, "--json")
    assert (result.code, result.out, result.err) == (1, "", "error: source exceeds 1 MB limit\n")
    assert cli("run", path).out == "1\nsteps: 3\n"


def test_ctrl_c_with_json_prints_the_cancelled_response(cli, prog, monkeypatch):
    def press_ctrl_c(self, steps, *rest):
        os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(run_cmd._Watch, "on_progress", press_ctrl_c)
    result = cli("run", prog(LOOP), "--json")
    assert result.code == 130
    doc = json.loads(result.out)
    assert (doc["success"], doc["error_kind"], doc["steps"]) == (False, "cancelled", 100_000)


def test_wall_clock_limit(cli, prog):
    path = prog(LOOP)
    result = cli("run", path, "--max-wall-ms", "30", "--max-steps", str(10**12))
    assert result.code == 1
    lines = result.err.splitlines()
    assert lines[0].startswith("error: wall-clock execution limit")
    assert "30 ms" in lines[0]
    assert lines[-1] == "  = help: raise the limit with --max-wall-ms MS"
    as_json = json.loads(cli("run", path, "--max-wall-ms", "30", "--max-steps", str(10**12),
                             "--json").out)
    assert (as_json["error_kind"], as_json["limit_kind"], as_json["limit"]) == \
        ("limit_exceeded", "wall_ms", 30)


def test_long_trace_says_how_much_was_kept(cli, prog):
    result = cli("run", prog(FIB % 10), "--trace")
    lines = result.out.splitlines()
    assert lines[0] == "--- Trace (first 500 of 1858 entries) ---"
    assert len([line for line in lines if line.startswith("  [")]) == 500
    assert lines[-2:] == ["55", "steps: 1859"]


SHARED_2_MIB = """fn main() -> List<String> {
    let mut s = "x"
    let mut i = 0
    while i < 21 { s = s ++ s
        i = i + 1 }
    let mut l = []
    let mut j = 0
    while j < 256 { l = list_push(l, s)
        j = j + 1 }
    l
}
"""


def test_a_result_over_the_output_budget_is_refused_in_one_line(cli, prog):
    path = prog(SHARED_2_MIB)
    result = cli("run", path)
    assert (result.code, result.out) == (1, "")
    assert result.err == "error: serialized output exceeded 16777216 bytes\n"
    as_json = cli("run", "--json", path)
    assert as_json.code == 1
    assert json.loads(as_json.out)["error_kind"] == "limit_exceeded"
