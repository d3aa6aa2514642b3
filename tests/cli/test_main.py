"""`main`'s output guarantees: a full disk is one `cannot write output` line (exit 1), and
text the terminal cannot encode is printed escaped instead of failing (backslash escapes for
text, JSON escapes for `--json`, so the JSON stays valid)."""
import json
import os
import subprocess
import sys

import pytest

from .conftest import boruna_process

UNICODE = 'fn main() -> String {\n    "żółw ✓ 😀"\n}\n'


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("flags", [[], ["--json"]], ids=["text", "json"])
def test_a_full_disk_says_what_failed(tmp_path, flags):
    prog = tmp_path / "p.ax"
    prog.write_text("fn main() -> Int {\n    1\n}\n")
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "boruna.cli", "run", str(prog), *flags],
                              stdout=full, stderr=subprocess.PIPE, timeout=60)
    assert done.returncode == 1
    assert done.stderr.decode() == "error: cannot write output: No space left on device\n"


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"},
                                 {"PYTHONIOENCODING": "latin-1"}], ids=["ascii", "latin-1"])
def test_unencodable_results_are_printed_escaped(tmp_path, env):
    prog = tmp_path / "u.ax"
    prog.write_text(UNICODE, encoding="utf-8")
    done = boruna_process("run", prog, env_extra=env)
    assert done.returncode == 0, done.stderr
    expected = {"ascii": b'"\\u017c\\xf3\\u0142w \\u2713 \\U0001f600"\nsteps: 3\n',
                "latin-1": b'"\\u017c\xf3\\u0142w \\u2713 \\U0001f600"\nsteps: 3\n'}
    assert done.stdout == expected[env["PYTHONIOENCODING"]]


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_escaped_json_is_still_the_same_json(tmp_path, encoding):
    prog = tmp_path / "u.ax"
    prog.write_text(UNICODE, encoding="utf-8")
    done = boruna_process("run", prog, "--json", env_extra={"PYTHONIOENCODING": encoding})
    assert done.returncode == 0
    assert b'"result": "\\u017c' in done.stdout
    assert json.loads(done.stdout.decode(encoding))["result"] == "żółw ✓ 😀"


def test_an_ascii_error_stream_is_escaped_too(tmp_path):
    prog = tmp_path / "żółw.ax"
    done = boruna_process("run", prog, env_extra={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 1
    assert done.stderr == (b"error: cannot read '" + str(tmp_path).encode() +
                           b"/\\u017c\\xf3\\u0142w.ax': no such file or directory\n")
