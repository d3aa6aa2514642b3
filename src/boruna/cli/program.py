"""Loading a program for a command: the source text, its libraries directory, and the drawing
of a compile error (compiler style, on stderr, ending the command with exit 1)."""
from __future__ import annotations

import os
from pathlib import Path

from boruna.cli.console import Console
from boruna.cli.errors import CliError
from boruna.cli.files import decode_utf8, read_bytes, read_limited, read_text
from boruna.cli.render import format_compile_error


STDIN = "-"


def label(path: str) -> str:
    """How a source path is shown in messages: `<stdin>` for `-`."""
    return "<stdin>" if path == STDIN else path


def module_name(path: str) -> str:
    """The module name for a file: its stem (`examples/hello.ax` -> `hello`)."""
    if path == STDIN:
        return "module"
    return Path(path).stem or "module"


def resolve_libs_dir(option: str | None) -> str | None:
    """`--libs-dir DIR` as given (it must be a directory), else ./libs, else the bundled libs."""
    if option is not None:
        if not os.path.isdir(option):
            raise CliError(f"libs directory '{option}' does not exist or is not a directory")
        return option
    from boruna.assets.directories import LIBS, resolve_dir

    found = resolve_dir(None, LIBS)
    return str(found) if os.path.isdir(found) else None


def report_compile_error(failure, path: str, source: str, console: Console) -> CliError:
    """Draw a service `CompileFailure` on stderr (its error, excerpt and advice); the returned
    CliError ends the command with exit 1."""
    fix = "" if path == STDIN else f" (boruna repair {path} does it)"
    helps = [a.text + fix if a.repairable else a.text for a in failure.advice]
    console.err(format_compile_error(failure.compile_error, label(path), source,
                                     console.err_style, helps))
    return CliError(None)


def is_bytecode_path(path: str) -> bool:
    return path.lower().endswith(".axbc")


def read_source(path: str) -> str:
    """The source text of FILE; `-` reads standard input."""
    if path == STDIN:
        import sys

        stream = getattr(sys.stdin, "buffer", None)
        try:
            data = (read_limited(stream, "standard input") if stream is not None
                    else sys.stdin.read().encode("utf-8"))
        except (OSError, ValueError) as exc:
            raise CliError(f"cannot read standard input: {exc}") from None
        return decode_utf8(data, "<stdin>")
    return read_text(path)


def read_program(path: str) -> tuple[str | None, bytes | None]:
    """(source, None) for a `.ax` FILE or `-`, (None, bytecode) for a `.axbc` file."""
    if is_bytecode_path(path):
        return None, read_bytes(path)
    return read_source(path), None
