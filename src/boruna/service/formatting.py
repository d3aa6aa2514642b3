"""`boruna_format` and `boruna fmt`: the canonical layout of .ax source (docs/formatting.md)."""
from __future__ import annotations

from dataclasses import dataclass

from boruna.service.boundary import tool_boundary
from boruna.service.compile_errors import compile_failure
from boruna.service.envelope import ok
from boruna.service.errors import MAX_SOURCE_BYTES, InvalidParams, guard_source
from boruna.service.results import use_case

MIN_WIDTH = 20
MAX_WIDTH = 1000
"""The line widths a caller may ask for (the default is the formatter's 100)."""


@dataclass
class Formatted:
    """A formatted source; `changed` when the layout differs from the input."""

    source: str
    formatted: str
    success = True

    @property
    def changed(self) -> bool:
        return self.formatted != self.source

    def to_json(self) -> dict:
        return ok(formatted=self.formatted, changed=self.changed)


def check_width(width) -> int:
    """The requested line width (None: the default), or InvalidParams."""
    from boruna.format import DEFAULT_WIDTH

    if width is None:
        return DEFAULT_WIDTH
    if isinstance(width, bool) or not isinstance(width, int) or not MIN_WIDTH <= width <= MAX_WIDTH:
        raise InvalidParams(f"width must be an integer from {MIN_WIDTH} to {MAX_WIDTH}")
    return width


@use_case
def format_code(source: str, width: int | None = None,
                source_limit: int | None = MAX_SOURCE_BYTES):
    """Lay `source` out canonically: `Formatted` or, when it does not lex or parse, a
    `CompileFailure` (E001/E002)."""
    from boruna.format import format_source
    from boruna.language.errors import CompileError

    guard_source(source, source_limit)
    width = check_width(width)
    try:
        return Formatted(source, format_source(source, width=width))
    except CompileError as err:
        return compile_failure(err, source)


@tool_boundary
def format_tool(source: str, width: int | None = None) -> dict:
    """Format `source`: `formatted` (the text) and `changed`; a parse failure is the errors
    array of boruna_compile."""
    return format_code(source, width).to_json()
