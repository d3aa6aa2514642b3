"""The formatter's result as edits of the source, for editors (the language server's whole
document and range formatting).

`format_edits(source, width)` -> the `TextEdit`s that turn `source` into
`format_source(source)`: the lines that differ, found by a line diff, each edit replacing
whole lines. `format_range(source, start_line, end_line, width)` -> the source with only the
edits that touch lines `start_line..end_line` (1-based, inclusive) applied.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass

from .formatter import DEFAULT_WIDTH, format_source


@dataclass(frozen=True)
class TextEdit:
    """Replace the text from (start_line, start_col) up to (end_line, end_col) by `new_text`.
    Lines are 0-based, columns count characters (code points) from 0: an edit starts at a
    line's beginning and ends at the beginning of a line (or at the end of a last line that
    has no newline), as an LSP `TextEdit` after converting columns to its encoding."""

    start_line: int
    start_col: int
    end_line: int
    end_col: int
    new_text: str


def _line_edits(source: str, formatted: str) -> list[tuple[int, int, str]]:
    """(first line, line after the last, new text) of each changed run of lines."""
    before = source.splitlines(keepends=True)
    after = formatted.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return [(i1, i2, "".join(after[j1:j2]))
            for op, i1, i2, j1, j2 in matcher.get_opcodes() if op != "equal"]


def _edit(source_lines: list[str], i1: int, i2: int, text: str) -> TextEdit:
    if i2 == len(source_lines) and source_lines and not source_lines[-1].endswith(("\n", "\r")):
        last = source_lines[-1]
        return TextEdit(i1, 0, i2 - 1, len(last), text)
    return TextEdit(i1, 0, i2, 0, text)


def format_edits(source: str, *, width: int = DEFAULT_WIDTH) -> list[TextEdit]:
    """The edits that format `source` (none when it is formatted); `CompileError` when it
    does not lex or parse."""
    formatted = format_source(source, width=width)
    lines = source.splitlines(keepends=True)
    return [_edit(lines, i1, i2, text) for i1, i2, text in _line_edits(source, formatted)]


def format_range(source: str, start_line: int, end_line: int, *,
                 width: int = DEFAULT_WIDTH) -> str:
    """`source` with the formatting edits that touch lines `start_line..end_line` (1-based,
    inclusive) applied, the other lines as they were."""
    formatted = format_source(source, width=width)
    lines = source.splitlines(keepends=True)
    first, last = start_line - 1, end_line      # 0-based, end exclusive
    out = []
    at = 0
    for i1, i2, text in _line_edits(source, formatted):
        touches = (i1 < last and i2 > first) if i1 < i2 else first <= i1 <= last
        if not touches:
            continue
        out.append("".join(lines[at:i1]))
        out.append(text)
        at = i2
    out.append("".join(lines[at:]))
    return "".join(out)
