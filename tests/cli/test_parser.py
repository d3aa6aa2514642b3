"""Argument parsing: --help on every level, --version, usage errors exit 2."""
import pytest

from boruna import __version__

LEVELS = [
    [], ["compile"], ["run"], ["ast"], ["check"], ["repair"], ["codes"],
    ["framework"], ["framework", "validate"], ["framework", "test"],
    ["workflow"], ["workflow", "validate"], ["template"], ["template", "list"],
    ["template", "apply"], ["symbols"], ["capability"], ["capability", "list"], ["policy"],
    ["policy", "validate"], ["policy", "show"], ["lang"], ["lang", "check"], ["lang", "repair"], ["lang", "codes"],
]


@pytest.mark.parametrize("level", LEVELS, ids=lambda lv: " ".join(lv) or "boruna")
def test_help_on_every_level(cli, level):
    result = cli(*level, "--help")
    assert result.code == 0
    assert result.out.startswith("usage: boruna")
    assert result.err == ""


def test_version(cli):
    result = cli("--version")
    assert (result.code, result.out) == (0, f"boruna {__version__}\n")


def test_no_command_prints_help_and_exits_2(cli):
    result = cli()
    assert result.code == 2
    assert result.out == ""
    assert "commands:" in result.err and "compile" in result.err


def test_group_without_command_exits_2(cli):
    result = cli("framework")
    assert result.code == 2
    assert "validate" in result.err and "test" in result.err


def test_unknown_command(cli):
    result = cli("frobnicate")
    assert result.code == 2
    assert "invalid choice: 'frobnicate'" in result.err


def test_missing_argument(cli):
    result = cli("run")
    assert result.code == 2
    assert result.err.endswith("boruna run: error: the following arguments are required: FILE\n")


def test_negative_max_steps(cli):
    result = cli("run", "x.ax", "--max-steps", "-1")
    assert result.code == 2
    assert "expected a non-negative integer, got '-1'" in result.err


def test_bad_color_choice(cli):
    result = cli("--color", "purple", "codes")
    assert result.code == 2
    assert "invalid choice: 'purple'" in result.err


def test_color_flag_after_the_command_is_accepted(cli):
    assert cli("codes", "--color", "never").code == 0


def test_max_steps_accepts_underscores_and_u64_range(cli, tmp_path):
    prog = tmp_path / "p.ax"
    prog.write_text("fn main() -> Int { 1 }")
    assert cli("run", prog, "--max-steps", "1_000").out == "1\nsteps: 3\n"
    assert cli("run", prog, "--max-steps", str(2**64 - 1), "--json").code == 0
    too_big = cli("run", prog, "--max-steps", str(2**64))
    assert too_big.code == 2
    assert f"'{2**64}' is larger than the maximum {2**64 - 1}" in too_big.err
