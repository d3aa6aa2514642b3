"""`boruna run --pause-after/--delegate --snapshot`, `boruna resume`, `boruna snapshot
inspect` (cli/commands/snapshot_cmd.py, docs/snapshots.md)."""
import json

SRC = """fn main() -> String !{llm.call} {
    let mut i = 0
    while i < 100 { i = i + 1 }
    let a: String = llm_call("q" ++ __builtin_int_to_string(i))
    a ++ "!"
}
"""
LOOP = "fn main() -> Int {\n    let mut i = 0\n    while i < 500 { i = i + 1 }\n    i\n}\n"


def test_pause_then_resume_prints_what_the_whole_run_prints(cli, tmp_path):
    prog = tmp_path / "loop.ax"
    prog.write_text(LOOP)
    whole = cli("run", prog)
    snap = tmp_path / "loop.snap"
    paused = cli("run", prog, "--pause-after", "100", "--snapshot", snap)
    assert paused.code == 0 and paused.out == (
        f"paused after 100 steps\nsnapshot written to {snap}; continue with: "
        f"boruna resume {snap}\n")
    resumed = cli("resume", snap)
    assert (resumed.code, resumed.out) == (0, whole.out) and whole.out == "500\nsteps: 4509\n"


def test_a_delegated_call_is_answered_with_resume_and_forks(cli, tmp_path):
    prog = tmp_path / "ask.ax"
    prog.write_text(SRC)
    snap = tmp_path / "ask.snap"
    first = cli("run", prog, "--delegate", "llm.call", "--snapshot", snap)
    assert first.out.startswith('waiting for llm.call("q100") after ')
    one = cli("resume", snap, "--answer", '"yes"')
    two = cli("resume", snap, "--answer", '"no"', "--json")
    assert one.out.splitlines()[0] == '"yes!"'
    assert json.loads(two.out)["result"] == "no!"
    missing = cli("resume", snap)
    assert missing.code == 1 and "waits for the result of llm.call: pass --answer JSON" in missing.err
    wrong = cli("resume", snap, "--answer", "not json")
    assert wrong.code == 1 and "--answer is not JSON" in wrong.err


def test_inspect_shows_frames_steps_and_the_pending_call(cli, tmp_path):
    prog = tmp_path / "ask.ax"
    prog.write_text(SRC)
    snap = tmp_path / "ask.snap"
    cli("run", prog, "--delegate", "llm", "--snapshot", snap)
    text = cli("snapshot", "inspect", snap)
    assert "status: input_required after" in text.out
    assert "pending call: llm.call with 1 argument" in text.out
    assert "  main at instruction" in text.out
    data = json.loads(cli("snapshot", "inspect", snap, "--json").out)
    assert data["pending_call"] == {"capability": "llm.call", "args": 1, "answered": False}
    assert data["frames"][0]["function"] == "main" and data["settings"]["delegated"] == ["llm.call"]


def test_bad_snapshot_files_and_flags_are_clean_errors(cli, tmp_path):
    bad = tmp_path / "bad.snap"
    bad.write_bytes(b"BORUNA-RUN\x00" + b"\x00" * 60)
    for argv in (("resume", bad), ("snapshot", "inspect", bad)):
        done = cli(*argv)
        assert done.code == 1 and "cannot read snapshot" in done.err and "Traceback" not in done.err
    prog = tmp_path / "loop.ax"
    prog.write_text(LOOP)
    done = cli("run", prog, "--pause-after", "5")
    assert done.code == 1 and "need --snapshot FILE" in done.err
    done = cli("run", prog, "--delegate", "gpu", "--snapshot", tmp_path / "x")
    assert done.code == 1 and "--delegate: unknown capability 'gpu'" in done.err


def test_with_snapshot_the_step_limit_pauses_the_run_instead_of_failing_it(cli, tmp_path):
    prog = tmp_path / "loop.ax"
    prog.write_text(LOOP)
    snap = tmp_path / "limit.snap"
    first = cli("run", prog, "--max-steps", "1000", "--snapshot", snap)
    assert first.code == 0 and first.out.startswith("paused at the step limit, after 1000 steps")
    again = cli("resume", snap)
    assert again.out.startswith("paused at the step limit, after 1000 steps")
    done = cli("resume", snap, "--max-steps", "10000")
    assert (done.code, done.out) == (0, "500\nsteps: 4509\n")
    data = json.loads(cli("run", prog, "--max-steps", "10", "--snapshot", snap, "--json").out)
    assert (data["status"], data["reason"], data["steps"]) == ("paused", "step_limit", 10)
