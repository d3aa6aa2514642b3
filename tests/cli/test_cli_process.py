"""End-to-end: `boruna` as a real process (console script and `python -m boruna.cli`).

Kept small (two cores): exit codes, stream separation, the no-traceback guarantee on bad
files, colour rules, Ctrl-C on a running program, and a closed stdout pipe.
"""
import os
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


def test_ctrl_c_stops_a_running_program(tmp_path):
    prog = tmp_path / "loop.ax"
    prog.write_text(LOOP)
    proc = subprocess.Popen([sys.executable, "-m", "boruna.cli", "run", str(prog),
                             "--max-steps", "100000000000"], env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(2.0)
        assert proc.poll() is None, "the loop should still be running"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130
    assert out == b""
    text = err.decode()
    assert text.startswith("interrupted: stopped after ") and text.endswith(" steps\n")
    assert int(text.split()[3]) >= 100_000


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
