"""Where a command writes: results to stdout, errors and progress to stderr.

The streams are looked up at call time (`sys.stdout` / `sys.stderr`), so pytest's capsys
and redirections see everything. Each stream has its own colour decision. A failing write
to stdout (other than a closed pipe) is an `OutputError`: `cannot write output: REASON`.
"""
from __future__ import annotations

import sys

from boruna.cli.errors import OutputError
from boruna.cli.style import Style, colour_enabled


class Console:
    """The output side of one command invocation."""

    def __init__(self, colour_mode: str = "auto"):
        self.colour_mode = colour_mode
        self.out_style = Style(colour_enabled(sys.stdout, colour_mode))
        self.err_style = Style(colour_enabled(sys.stderr, colour_mode))

    @property
    def stdout(self):
        return sys.stdout

    @property
    def stderr(self):
        return sys.stderr

    def out(self, text: str = "") -> None:
        """Print one or more lines of results on stdout."""
        try:
            sys.stdout.write(text + "\n")
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(exc) from None

    def flush(self) -> None:
        """Push stdout's buffer out now, so a full disk is reported like any failure."""
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(exc) from None

    def err(self, text: str = "") -> None:
        """Print one or more lines on stderr."""
        sys.stderr.write(text + "\n")

    def error(self, message: str) -> None:
        """`error: message` on stderr, the label in bold red on a terminal."""
        self.err(f"{self.err_style.error('error')}: {message}")

    def warning(self, message: str) -> None:
        self.err(f"{self.err_style.warning('warning')}: {message}")

    def stderr_is_terminal(self) -> bool:
        try:
            return bool(sys.stderr.isatty())
        except (AttributeError, ValueError, OSError):
            return False
