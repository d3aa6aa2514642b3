"""The one input rule of every command: at most `MAX_INPUT_BYTES` (50 MiB) from a file or
standard input, refused in one line after reading one byte more, never read to the end."""
import io
import os

import pytest

from boruna.cli import files
from boruna.cli.errors import CliError

from .conftest import boruna_process

LIMIT_LINE = "larger than the 50 MiB input limit"


def test_the_limit_is_50_mib():
    assert files.MAX_INPUT_BYTES == 52_428_800
    assert files.INPUT_TOO_LARGE == LIMIT_LINE


def test_exactly_the_limit_is_read_and_one_byte_more_is_refused(monkeypatch):
    monkeypatch.setattr(files, "MAX_INPUT_BYTES", 10)
    assert files.read_limited(io.BytesIO(b"x" * 10), "'a'") == b"x" * 10
    stream = io.BytesIO(b"x" * 25)
    with pytest.raises(CliError) as info:
        files.read_limited(stream, "'a'")
    assert info.value.message == f"cannot read 'a': {LIMIT_LINE}"
    assert stream.tell() == 11              # stopped one byte past the limit


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("argv, message", [
    (["run", "/dev/zero"], f"error: cannot read '/dev/zero': {LIMIT_LINE}\n"),
    (["check", "/dev/zero", "--json"], f"error: cannot read '/dev/zero': {LIMIT_LINE}\n"),
    (["symbols", "/dev/zero"], f"error: cannot read '/dev/zero': {LIMIT_LINE}\n"),
    (["run", "-", "--policy", "/dev/zero"],
     f"error: invalid policy '/dev/zero': policy.io_error: cannot read '/dev/zero': "
     f"{LIMIT_LINE}\n"),
], ids=["run", "check-json", "symbols", "policy"])
def test_endless_files_are_refused_in_one_line(argv, message):
    done = boruna_process(*argv, input_bytes=b"fn main() -> Int { 1 }\n", timeout=60)
    assert (done.returncode, done.stdout, done.stderr.decode()) == (1, b"", message)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_endless_standard_input_is_refused_in_one_line():
    import subprocess
    import sys

    with open("/dev/zero", "rb") as zero:
        done = subprocess.run([sys.executable, "-m", "boruna.cli", "check", "-"], stdin=zero,
                              capture_output=True, timeout=60)
    assert (done.returncode, done.stdout) == (1, b"")
    assert done.stderr.decode() == f"error: cannot read standard input: {LIMIT_LINE}\n"


def test_text_commands_take_sources_over_the_tool_limit(cli, tmp_path):
    """The 1 MB source limit is the MCP tools'; it applies under --json only."""
    path = tmp_path / "big.ax"
    path.write_text("// " + "x" * 1_048_576 + "\nfn main() -> Int { 1 }\n")
    assert cli("symbols", path).out == "fn main() -> Int\n"
    assert cli("ast", path).code == 0
    refused = cli("symbols", path, "--json")
    assert (refused.code, refused.out, refused.err) == (1, "", "error: source exceeds 1 MB limit\n")
