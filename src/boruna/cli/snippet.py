"""A source excerpt with a caret under the reported column, in the style of rustc:

```
  --> prog.ax:3:5
   |
 3 |     widht * 2
   |     ^^^^^
```

Columns from the compiler count bytes from 1; they are turned into display columns here
(tabs shown as four spaces, wide East-Asian characters as two cells).
"""
from __future__ import annotations

import unicodedata

from boruna.cli.style import Style

TAB = "    "


def source_line(source: str, line: int) -> str | None:
    """Line `line` (1-based) of `source` without its line ending, or None if absent."""
    if line < 1:
        return None
    lines = source.split("\n")
    if line > len(lines):
        return None
    text = lines[line - 1]
    return text[:-1] if text.endswith("\r") else text


def _cell_width(ch: str) -> int:
    if ch == "\t":
        return len(TAB)
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _display(text: str) -> str:
    return "".join(TAB if ch == "\t" else ch for ch in text if ch.isprintable() or ch == "\t")


def char_index(text: str, byte_col: int) -> int:
    """The character index in `text` for a 1-based byte column (clamped to the line)."""
    prefix = text.encode("utf-8")[: max(byte_col - 1, 0)]
    return len(prefix.decode("utf-8", errors="ignore"))


def _underline_length(text: str, start: int) -> int:
    """Underline a whole identifier or number starting at `start`, else one character."""
    end = start
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return max(end - start, 1)


def render_snippet(source: str, path: str, line: int, col: int | None, style: Style,
                   underline_word: bool = True, end_col: int | None = None) -> list[str]:
    """The `--> path:line:col` header and the excerpt lines (no trailing newline); with
    `end_col` (exclusive, on the same line) the caret underlines exactly that span."""
    where = f"{path}:{line}:{col}" if col else f"{path}:{line}"
    text = source_line(source, line)
    width = len(str(line))
    pad = " " * width
    lines = [f"{pad}{style.gutter('-->')} {where}"]
    if text is None:
        return lines
    bar = style.gutter("|")
    lines.append(f"{pad} {bar}")
    lines.append(f"{style.gutter(str(line))} {bar} {_display(text)}")
    if col:
        start = min(char_index(text, col), len(text))
        offset = sum(_cell_width(ch) for ch in text[:start] if ch.isprintable() or ch == "\t")
        length = _underline_length(text, start) if underline_word else 1
        if end_col is not None and end_col > col:
            length = max(min(char_index(text, end_col), len(text)) - start, 1)
        caret_cells = sum(_cell_width(ch) for ch in text[start:start + length]) or 1
        lines.append(f"{pad} {bar} {' ' * offset}{style.error('^' * caret_cells)}")
    return lines


def render_label(source: str, line: int, col: int, end_col: int, message: str, style: Style,
                 width: int, shown_line: int | None = None) -> list[str]:
    """A secondary label: its source line (unless it is `shown_line`, the excerpt just
    drawn) and a `-` underline of the span, then the message (the gutter `width` is the
    primary excerpt's)."""
    text = source_line(source, line)
    if text is None:
        return []
    pad = " " * max(width, len(str(line)))
    bar = style.gutter("|")
    start = min(char_index(text, col), len(text))
    stop = max(min(char_index(text, end_col), len(text)), start + 1)
    offset = sum(_cell_width(ch) for ch in text[:start] if ch.isprintable() or ch == "\t")
    cells = sum(_cell_width(ch) for ch in text[start:stop]) or 1
    number = str(line).rjust(len(pad))
    underline = f"{pad} {bar} {' ' * offset}{style.note('-' * cells)} {message}"
    if line == shown_line:
        return [underline]
    return [f"{style.gutter(number)} {bar} {_display(text)}", underline]
