"""Formatting a document or a range of it through the formatter (`boruna fmt`).

A document: the formatter's output as the smallest line edits that turn the text into it. A
range: the formatter lays out a whole program, so the document is formatted whole and each
top-level item (function, type, import) touching the range is replaced by its formatted text
(items are matched in order: the formatter keeps the program's items and their order); the
text between items is left as it is.
"""
from __future__ import annotations

import difflib
from typing import Callable, Optional

from .navigation import Location, TextEdit


def available() -> bool:
    """Whether this installation has the formatter (`boruna.format`)."""
    try:
        from boruna import format as _format  # noqa: F401
    except ImportError:
        return False
    return hasattr(_format, "format_source")


def formatter() -> Callable[[str], str]:
    from boruna.format import format_source

    return format_source


def _width(line: str) -> int:
    return len(line.encode("utf-8", "surrogatepass"))


def line_edits(file: str, source: str, formatted: str, start_line: Optional[int] = None,
               end_line: Optional[int] = None) -> list[TextEdit]:
    """Edits turning `source` into `formatted`, one per changed run of lines; with a range
    (1-based lines, inclusive), only the runs touching it."""
    old, new = source.split("\n"), formatted.split("\n")
    count = len(old)
    edits = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        first, last = i1 + 1, max(i2, i1 + 1)           # the old lines the run touches
        if start_line is not None and (last < start_line or first > (end_line or start_line)):
            continue
        if i2 < count:          # whole lines, up to the start of the next kept line
            location = Location(file, i1 + 1, 1, i2 + 1, 1)
            text = "".join(line + "\n" for line in new[j1:j2])
        elif i1 == count:       # lines added after the last one
            location = Location(file, count, _width(old[-1]) + 1, count, _width(old[-1]) + 1)
            text = "".join("\n" + line for line in new[j1:j2])
        elif j1 == j2 and i1 > 0:   # the last lines removed, with the break before them
            location = Location(file, i1, _width(old[i1 - 1]) + 1, count, _width(old[-1]) + 1)
            text = ""
        else:                   # the last lines replaced
            location = Location(file, i1 + 1, 1, count, _width(old[-1]) + 1)
            text = "\n".join(new[j1:j2])
        edits.append(TextEdit(location, text))
    return edits


def item_lines(source: str) -> list[tuple[int, int]]:
    """(first line, last line) of each top-level item of `source`, in order."""
    from boruna.core.deep_stack import call_deep
    from boruna.diagnostics.types.spans import Spans
    from boruna.language import ast as A
    from boruna.language.frontend import parse

    program = call_deep(parse, source)
    spans = Spans(source)
    out = []
    for item in program.items:
        brace = (item.body.line, item.body.col) if isinstance(item, A.FnDef) else (
            (item.kind.line, item.kind.col) if isinstance(item, A.TypeDef) else None)
        end = spans.closing_after(brace) if brace is not None else None
        out.append((item.line, end[0] if end is not None else item.line))
    return out


def _item_edits(file: str, source: str, formatted: str, start_line: int, end_line: int
                ) -> Optional[list[TextEdit]]:
    old_items, new_items = item_lines(source), item_lines(formatted)
    if len(old_items) != len(new_items):
        return None
    old, new = source.split("\n"), formatted.split("\n")
    edits = []
    for (first, last), (nfirst, nlast) in zip(old_items, new_items):
        if last < start_line or first > end_line:
            continue
        text = "\n".join(new[nfirst - 1:nlast])
        if "\n".join(old[first - 1:last]) == text:
            continue
        edits.append(TextEdit(Location(file, first, 1, last, _width(old[last - 1]) + 1), text))
    return edits


def format_document(file: str, source: str, start_line: Optional[int] = None,
                    end_line: Optional[int] = None,
                    fmt: Optional[Callable[[str], str]] = None) -> list[TextEdit]:
    """The edits formatting `source`, or only its items touching lines start..end; raises
    the formatter's `CompileError` when the source does not parse."""
    formatted = (fmt or formatter())(source)
    if formatted == source:
        return []
    if start_line is not None:
        edits = _item_edits(file, source, formatted, start_line, end_line or start_line)
        if edits is not None:
            return edits
    return line_edits(file, source, formatted, start_line, end_line)
