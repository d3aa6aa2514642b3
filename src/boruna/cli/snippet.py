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
                   underline_word: bool = True, end_col: int | None = None,
                   labels=()) -> list[str]:
    """The `--> path:line:col` header and the excerpt lines (no trailing newline); with
    `end_col` (exclusive, on the same line) the caret underlines exactly that span.

    Secondary `labels` `(line, col, end_col, message)` are underlined with `-` and their
    message, in line order as rustc draws them: a label on an earlier line above the
    reported line, one on the same line under its caret, `...` for skipped lines."""
    where = f"{path}:{line}:{col}" if col else f"{path}:{line}"
    text = source_line(source, line)
    marks: dict[int, list] = {}
    for label_line, label_col, label_end, message in labels:
        if source_line(source, label_line) is not None:
            marks.setdefault(label_line, []).append((label_col, label_end, message))
    width = gutter_width(source, line, labels)
    pad = " " * width
    lines = [f"{pad}{style.gutter('-->')} {where}"]
    if text is None:
        return lines
    bar = style.gutter("|")
    lines.append(f"{pad} {bar}")
    previous = None
    for number in sorted({line, *marks}):
        if previous is not None and number > previous + 1:
            lines.append(style.gutter("..."))
        previous = number
        shown = source_line(source, number)
        lines.append(f"{style.gutter(str(number).rjust(width))} {bar} {_display(shown)}")
        if number == line and col:
            start = min(char_index(text, col), len(text))
            offset = _cells(text[:start])
            length = _underline_length(text, start) if underline_word else 1
            if end_col is not None and end_col > col:
                length = max(min(char_index(text, end_col), len(text)) - start, 1)
            caret_cells = _cells(text[start:start + length]) or 1
            lines.append(f"{pad} {bar} {' ' * offset}{style.error('^' * caret_cells)}")
        for label_col, label_end, message in marks.get(number, ()):
            start = min(char_index(shown, label_col), len(shown))
            stop = max(min(char_index(shown, label_end), len(shown)), start + 1)
            dashes = style.note("-" * (_cells(shown[start:stop]) or 1))
            lines.append(f"{pad} {bar} {' ' * _cells(shown[:start])}{dashes} {message}")
    return lines


def gutter_width(source: str, line: int, labels=()) -> int:
    """The width of the line-number gutter of `render_snippet(source, ..., line, ...,
    labels=labels)`: the widest line number it draws."""
    if source_line(source, line) is None:
        return len(str(line))
    shown = [n for n, *_ in labels if source_line(source, n) is not None]
    return len(str(max([line, *shown])))


def _cells(text: str) -> int:
    """The display width of `text` (non-printable characters are not drawn)."""
    return sum(_cell_width(ch) for ch in text if ch.isprintable() or ch == "\t")
