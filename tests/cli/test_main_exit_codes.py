"""`main()` turns every way a command can end into an exit status and at most one line."""
from boruna.cli.commands import codes_cmd


def test_unexpected_exception_is_one_line(cli, monkeypatch):
    def boom(args, console):
        raise RuntimeError("kaput")

    monkeypatch.setattr(codes_cmd, "cmd_codes", boom)
    monkeypatch.delenv("BORUNA_DEBUG", raising=False)
    result = cli("codes")
    assert result.code == 1
    assert result.err == ("error: internal error: RuntimeError: kaput "
                          "(set BORUNA_DEBUG=1 for details)\n")


def test_debug_env_shows_the_traceback(cli, monkeypatch):
    def boom(args, console):
        raise RuntimeError("kaput")

    monkeypatch.setattr(codes_cmd, "cmd_codes", boom)
    monkeypatch.setenv("BORUNA_DEBUG", "1")
    result = cli("codes")
    assert result.code == 1
    assert result.err.startswith("Traceback (most recent call last):\n")


def test_keyboard_interrupt_outside_a_run(cli, monkeypatch):
    def interrupted(args, console):
        raise KeyboardInterrupt

    monkeypatch.setattr(codes_cmd, "cmd_codes", interrupted)
    result = cli("codes")
    assert (result.code, result.err) == (130, "interrupted\n")


def test_recursion_error_is_reported(cli, monkeypatch):
    def deep(args, console):
        raise RecursionError

    monkeypatch.setattr(codes_cmd, "cmd_codes", deep)
    result = cli("codes")
    assert (result.code, result.err) == (1, "error: internal error: input nested too deeply\n")


def test_color_always_on_a_pipe(cli, tmp_path):
    bad = tmp_path / "bad.ax"
    bad.write_text("fn main() { @ }\n")
    result = cli("--color", "always", "check", bad)
    assert result.out.startswith("\x1b[1;31merror[E001]\x1b[0m")
    plain = cli("check", bad)
    assert "\x1b[" not in plain.out


def test_help_and_version_import_neither_the_sdk_nor_pydantic():
    import subprocess
    import sys

    probe = ("import sys\nfrom boruna.cli.main import main\n"
             "codes = [main(['--version']), main(['--help'])]\n"
             "print(codes, sorted(m for m in ('mcp', 'mcp_types', 'pydantic') "
             "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.splitlines()[-1] == "[0, 0] []"
