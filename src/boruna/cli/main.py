"""Entry point of the `boruna` command: parse, dispatch, turn every failure into an exit code.

`main(argv=None) -> int` never raises (except SystemExit from nowhere): usage errors give 2,
command failures 1 (with `error: ...` on stderr), Ctrl-C 130, and an unexpected internal
failure prints one line (set BORUNA_DEBUG=1 to see the traceback) and gives 1. A stdout that
cannot take the output (`> /dev/full`) is `error: cannot write output: REASON` (exit 1); text a
stream cannot encode (an ASCII terminal) is written escaped (errors="backslashreplace").
"""
from __future__ import annotations

import importlib
import os
import sys

from boruna.cli.console import Console
from boruna.cli.errors import (EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, CliError,
                               OutputError)
from boruna.cli.parser import ParserExit, build_parser


def _dispatch(args, console: Console) -> int:
    handler = getattr(args, "handler", None)
    if handler is None:
        # `boruna` or `boruna framework` without a command: show what is available.
        args.group_parser.print_help(sys.stderr)
        return EXIT_USAGE
    module_name, func_name = handler.split(":")
    module = importlib.import_module(f"boruna.cli.commands.{module_name}")
    status = getattr(module, func_name)(args, console)
    return EXIT_OK if status is None else int(status)


def _escape_unencodable() -> None:
    """stdout and stderr write what their encoding lacks as backslash escapes instead of
    failing (`--json` text arrives already escaped the JSON way, see `json_output`)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError, OSError):
            pass


def _quiet_broken_pipe() -> None:
    """stdout went away (`boruna ast f | head`) or is full: stop writing without a traceback
    (the interpreter's final flush of the lost output then has nowhere to fail)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: list[str] | None = None) -> int:
    """Run `boruna` with `argv` (default: sys.argv[1:]) and return the exit status."""
    if argv is None:
        argv = sys.argv[1:]
    try:
        args = build_parser().parse_args(argv)
    except ParserExit as exc:
        return exc.status
    _escape_unencodable()
    console = Console(getattr(args, "color", "auto"))
    try:
        status = _dispatch(args, console)
        console.flush()
        return status
    except OutputError as exc:
        _quiet_broken_pipe()
        console.error(exc.message)
        return exc.exit_code
    except CliError as exc:
        if exc.message:
            console.error(exc.message)
        return exc.exit_code
    except KeyboardInterrupt:
        console.err("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _quiet_broken_pipe()
        return EXIT_FAILURE
    except RecursionError:
        console.error("internal error: input nested too deeply")
        return EXIT_FAILURE
    except MemoryError:
        console.error("internal error: out of memory")
        return EXIT_FAILURE
    except Exception as exc:  # the no-traceback guarantee: one line, exit 1
        if os.environ.get("BORUNA_DEBUG"):
            import traceback
            traceback.print_exc()
        console.error(f"internal error: {type(exc).__name__}: {exc} "
                      "(set BORUNA_DEBUG=1 for details)")
        return EXIT_FAILURE


if __name__ == "__main__":
    sys.exit(main())
