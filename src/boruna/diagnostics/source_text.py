"""Text helpers shared by the analyzers and repair: line splitting (docs/spec/tooling.md §0),
whole-word search, and a code mask that blanks string literals and `//` comments so
brace matching and identifier search never look inside them.
"""
from __future__ import annotations

import re
from typing import Iterator, Optional


def split_lines(text: str) -> list[str]:
    """Split on "\\n"; drop the empty piece after a final "\\n"; strip one trailing "\\r"
    from each piece. The empty string has no lines. (Not `str.splitlines()`.)"""
    if text == "":
        return []
    pieces = text.split("\n")
    if text.endswith("\n"):
        pieces.pop()
    if "\r" not in text:
        return pieces
    return [p[:-1] if p.endswith("\r") else p for p in pieces]


def is_word_char(ch: str) -> bool:
    """ASCII letter, digit or underscore."""
    return ch == "_" or ("a" <= ch <= "z") or ("A" <= ch <= "Z") or ("0" <= ch <= "9")


def word_positions(line: str, word: str) -> Iterator[int]:
    """Start indexes of `word` in `line` where it is not glued to other word characters."""
    if not word:
        return
    start = line.find(word)
    while start != -1:
        end = start + len(word)
        before_ok = start == 0 or not is_word_char(line[start - 1])
        after_ok = end >= len(line) or not is_word_char(line[end])
        if before_ok and after_ok:
            yield start
        start = line.find(word, start + 1)


def contains_word(line: str, word: str) -> bool:
    return next(word_positions(line, word), None) is not None


def replace_word_at(line: str, positions: list[int], old: str, new: str) -> str:
    """Replace `old` by `new` at each of the given start indexes (ascending or not)."""
    for pos in sorted(positions, reverse=True):
        line = line[:pos] + new + line[pos + len(old):]
    return line


# A string literal as the lexer reads it (`"`, units, closing `"` or end of text), or a
# `//` comment. Scanning left to right, whichever starts first wins, as in the lexer.
_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\]|\\[^\n])*"?|//[^\n]*')
_NOT_NEWLINE = re.compile(r"[^\n]")


def code_mask(text: str) -> list[str]:
    """The lines of `text` with string literals and comments blanked to spaces.

    Lengths are preserved, so an index into a masked line is an index into the real line.
    Strings follow the lexer: `"`, then units (a char other than `"`/`\\`, or `\\` plus any
    char except newline), then `"`; an unterminated string runs to where matching stops.
    """
    masked = _STRING_OR_COMMENT.sub(lambda m: _NOT_NEWLINE.sub(" ", m.group()), text)
    return split_lines(masked)


def byte_col_to_index(line: str, col: int) -> int:
    """Convert a 1-based byte column (the lexer's unit) to a 0-based character index."""
    if col <= 1:
        return 0
    target = col - 1
    consumed = 0
    for index, ch in enumerate(line):
        if consumed >= target:
            return index
        consumed += len(ch.encode("utf-8", "surrogatepass"))
    return len(line)


def matching_close_brace(masked: list[str], line_idx: int, char_idx: int
                         ) -> Optional[tuple[int, int]]:
    """Position of the `}` that closes the first `{` at or after (line_idx, char_idx)."""
    depth = 0
    opened = False
    for li in range(line_idx, len(masked)):
        start = char_idx if li == line_idx else 0
        text = masked[li]
        for ci in range(start, len(text)):
            ch = text[ci]
            if ch == "{":
                depth += 1
                opened = True
            elif ch == "}" and opened:
                depth -= 1
                if depth == 0:
                    return li, ci
    return None


def find_identifier_line(lines: list[str], name: str) -> Optional[int]:
    """The reference's text search for an undefined name (docs/spec/tooling.md §1.5 E003): first line,
    1-based, holding `name` as a whole word, skipping comments and its own definition."""
    for number, line in enumerate(lines, start=1):
        trimmed = line.strip()
        if trimmed.startswith("//"):
            continue
        if (trimmed.startswith(("fn ", "type ", "enum "))
                and any(f"{kw} {name}" in line for kw in ("fn", "type", "enum"))):
            continue
        if contains_word(line, name):
            return number
    return None


def first_line_with(lines: list[str], needle: str) -> Optional[int]:
    """1-based number of the first line containing `needle` as a plain substring."""
    for number, line in enumerate(lines, start=1):
        if needle in line:
            return number
    return None


def leading_whitespace(line: str) -> str:
    return line[:len(line) - len(line.lstrip())]
