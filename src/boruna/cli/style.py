"""Terminal colour: on for a terminal only, off under NO_COLOR, forced by --color=always.

Rules (https://no-color.org, https://bixense.com/clicolors): `--color=never|always` wins;
otherwise a non-empty NO_COLOR turns colour off, a non-empty FORCE_COLOR or
CLICOLOR_FORCE (other than "0") turns it on, and else colour follows `stream.isatty()`.
"""
from __future__ import annotations

import os

_CODES = {
    "bold": "1",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "cyan": "36",
    "dim": "2",
}


def colour_enabled(stream, mode: str = "auto", environ=None) -> bool:
    """Whether text written to `stream` should carry ANSI colour."""
    env = os.environ if environ is None else environ
    if mode == "always":
        return True
    if mode == "never":
        return False
    if env.get("NO_COLOR"):
        return False
    for key in ("FORCE_COLOR", "CLICOLOR_FORCE"):
        value = env.get(key)
        if value and value != "0":
            return True
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class Style:
    """Wraps text in ANSI styles when enabled, returns it unchanged otherwise."""

    def __init__(self, enabled: bool):
        self.enabled = enabled

    def paint(self, text: str, *styles: str) -> str:
        if not self.enabled or not styles or not text:
            return text
        codes = ";".join(_CODES[s] for s in styles)
        return f"\x1b[{codes}m{text}\x1b[0m"

    def error(self, text: str) -> str:
        return self.paint(text, "bold", "red")

    def warning(self, text: str) -> str:
        return self.paint(text, "bold", "yellow")

    def note(self, text: str) -> str:
        return self.paint(text, "bold", "cyan")

    def ok(self, text: str) -> str:
        return self.paint(text, "bold", "green")

    def gutter(self, text: str) -> str:
        return self.paint(text, "bold", "blue")

    def bold(self, text: str) -> str:
        return self.paint(text, "bold")
