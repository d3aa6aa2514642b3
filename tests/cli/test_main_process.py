"""End-to-end: `boruna` as a real process (console script and `python -m boruna.cli`).

Kept small (two cores): exit codes, stream separation, the no-traceback guarantee on bad
files, colour rules, Ctrl-C on a running program, and a closed stdout pipe.
"""
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from boruna import __version__

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LOOP = "fn main() -> Int {\n    let mut i = 0\n    while true {\n        i = i + 1\n    }\n    i\n}\n"


def _env():
    env = dict(os.environ)
    for key in ("FORCE_COLOR", "CLICOLOR_FORCE", "NO_COLOR", "BORUNA_DEBUG"):
        env.pop(key, None)
    return env


def test_console_script_version():
    script = Path(sys.executable).with_name("boruna")
    proc = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, f"boruna {__version__}\n", "")


def test_run_example(run_boruna):
    proc = run_boruna("run", EXAMPLES / "hello.ax")
    assert proc.returncode == 0
    assert proc.stdout.decode().startswith("55\n\n--- UI Output ---\n")
    assert proc.stderr == b""


def test_bad_files_give_one_line_and_exit_1(run_boruna, tmp_path):
    (tmp_path / "latin1.ax").write_bytes(b"fn main() -> String { \"caf\xe9\" }\n")
    (tmp_path / "junk.axbc").write_bytes(os.urandom(64))
    cases = [
        (("run", tmp_path / "missing.ax"),
         f"error: cannot read '{tmp_path / 'missing.ax'}': no such file or directory\n"),
        (("check", tmp_path), f"error: cannot read '{tmp_path}': is a directory\n"),
        (("compile", tmp_path / "latin1.ax"),
         f"error: '{tmp_path / 'latin1.ax'}' is not valid UTF-8: invalid byte 0xe9 at line 1, "
         "column 27\n"),
        (("run", tmp_path / "junk.axbc"), None),
    ]
    for argv, expected in cases:
        proc = run_boruna(*argv)
        err = proc.stderr.decode()
        assert proc.returncode == 1, argv
        assert proc.stdout == b""
        assert "Traceback" not in err
        assert err.count("\n") == 1, err
        if expected is None:
            assert err.startswith(f"error: cannot load bytecode '{tmp_path / 'junk.axbc'}': ")
        else:
            assert err == expected


def test_usage_error_exits_2(run_boruna):
    proc = run_boruna("run", "x.ax", "--max-steps", "lots")
    assert proc.returncode == 2
    assert proc.stdout == b""
    assert b"--max-steps" in proc.stderr and b"Traceback" not in proc.stderr


def test_colour_only_when_asked(run_boruna, tmp_path):
    bad = tmp_path / "bad.ax"
    bad.write_text("fn main() { @ }\n")
    plain = run_boruna("compile", bad)
    assert b"\x1b[" not in plain.stderr
    forced = run_boruna("compile", bad, env_extra={"FORCE_COLOR": "1"})
    assert b"\x1b[1;31merror[E001]\x1b[0m" in forced.stderr
    vetoed = run_boruna("compile", bad, env_extra={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert b"\x1b[" not in vetoed.stderr
    assert vetoed.stderr == plain.stderr


def _read_until(fd, needle: bytes, timeout: float) -> bytes:
    """Read a pty master until `needle` appears (or EOF / timeout)."""
    seen = b""
    deadline = time.monotonic() + timeout
    while needle not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    return seen


def test_progress_on_a_terminal_and_ctrl_c(tmp_path):
    """stderr is a real terminal: the progress line appears, Ctrl-C stops the run cleanly."""
    prog = tmp_path / "loop.ax"
    prog.write_text(LOOP)
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "boruna.cli", "run", str(prog),
                             "--max-steps", "100000000000"], env=_env(),
                            stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    try:
        seen = _read_until(master, b" steps/s", timeout=60)
        assert b"running" in seen and b" steps (" in seen and b"Ctrl-C to stop" in seen
        proc.send_signal(signal.SIGINT)
        seen += _read_until(master, b"steps\r\n", timeout=30)
        out = proc.stdout.read()
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    assert proc.returncode == 130
    assert out == b""
    tail = re.sub(r"\x1b\[[0-9;]*m", "", seen.rsplit(b"\x1b[2K", 1)[-1].decode())
    assert tail.startswith("interrupted: stopped after ") and tail.endswith(" steps\r\n")
    steps = int(tail.split()[3])
    assert steps % 1024 == 0 or steps % 100_000 == 0        # a VM checkpoint or a slice end


def test_closed_stdout_pipe_is_quiet(tmp_path):
    big = tmp_path / "big.ax"
    big.write_text("".join(f"fn f{i}() -> Int {{ {i} }}\n" for i in range(3000)))
    proc = subprocess.Popen([sys.executable, "-m", "boruna.cli", "ast", str(big)], env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=60)
    assert first == b"{\n"
    assert b"Traceback" not in err


def test_every_command_through_the_console_script(tmp_path):
    """Each command once, as a user types it: exit status, stdout only, JSON where asked."""
    import json

    script = str(Path(sys.executable).with_name("boruna"))
    hello, counter = EXAMPLES / "hello.ax", EXAMPLES / "counter_app.ax"
    (tmp_path / "wf").mkdir()
    (tmp_path / "wf" / "workflow.json").write_text(json.dumps({
        "schema_version": 1, "name": "w", "version": "1", "edges": [],
        "steps": {"only": {"kind": "source", "source": "a.ax"}}}))
    (tmp_path / "policy.json").write_text('{"schema_version": 1, "rules": {}}')
    commands = [
        (["compile", hello, "-o", tmp_path / "hello.axbc"], 0, False),
        (["run", tmp_path / "hello.axbc"], 0, False),
        (["run", hello, "--json"], 0, True),
        (["ast", hello], 0, True),
        (["symbols", counter], 0, False),
        (["check", hello, "--json"], 0, True),
        (["repair", counter, "--dry-run"], 0, False),
        (["codes", "--json"], 0, True),
        (["framework", "validate", counter, "--json"], 0, True),
        (["framework", "test", counter, "-m", "increment:2", "--json"], 0, True),
        (["workflow", "validate", tmp_path / "wf", "--json"], 0, True),
        (["template", "list", "--json"], 0, True),
        (["template", "apply", "form-basic", "--args", "form_name=F,fields=x", "-o", "-"], 0, False),
        (["capability", "list", "--json"], 0, True),
        (["policy", "validate", tmp_path / "policy.json", "--json"], 0, True),
        (["policy", "show", tmp_path / "policy.json"], 0, False),
    ]
    for argv, code, is_json in commands:
        proc = subprocess.run([script, *map(str, argv)], capture_output=True, env=_env(),
                              timeout=120, cwd=tmp_path)
        assert proc.returncode == code, (argv, proc.stderr)
        assert proc.stderr == b"", (argv, proc.stderr)
        assert proc.stdout.strip(), argv
        if is_json:
            json.loads(proc.stdout)
