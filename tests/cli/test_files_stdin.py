"""FILE `-` reads the program from standard input."""
import io
import sys

import pytest

TYPO = "fn main() -> Int {\n    let count = 1\n    countt\n}\n"


@pytest.fixture
def stdin(monkeypatch):
    def feed(data: bytes):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    return feed


def test_run_from_stdin(cli, stdin):
    stdin(b"fn main() -> Int { 40 + 2 }")
    assert cli("run", "-").out == "42\nsteps: 5\n"


def test_check_labels_stdin(cli, stdin):
    stdin(TYPO.encode())
    result = cli("check", "-")
    assert result.code == 1
    assert result.out.splitlines()[1] == " --> <stdin>:3:5"
    assert result.out.splitlines()[-1] == \
        "<stdin>: 1 error; 1 fix available (run: boruna repair - --dry-run)"


def test_repair_stdin_needs_dry_run(cli, stdin):
    stdin(TYPO.encode())
    result = cli("repair", "-")
    assert (result.code, result.err) == (
        2, "error: standard input cannot be rewritten; use --dry-run or --json\n")
    stdin(TYPO.encode())
    assert "+    count\n" in cli("repair", "-", "--dry-run").out


def test_compile_stdin_needs_output(cli, stdin, tmp_path):
    stdin(b"fn main() -> Int { 1 }")
    assert cli("compile", "-").code == 2
    stdin(b"fn main() -> Int { 1 }")
    out = tmp_path / "s.axbc"
    assert cli("compile", "-", "-o", out).code == 0
    assert cli("run", out).out == "1\nsteps: 3\n"


def test_non_utf8_stdin(cli, stdin):
    stdin(b"\xff")
    result = cli("ast", "-")
    assert (result.code, result.err) == (
        1, "error: '<stdin>' is not valid UTF-8: invalid byte 0xff at line 1, column 1\n")
