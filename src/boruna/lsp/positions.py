"""The compiler's positions (1-based line, 1-based byte column) and LSP positions (0-based
line, 0-based character in the negotiated encoding: UTF-16 code units unless the client
offers UTF-8 or UTF-32) converted on a text's lines."""
from __future__ import annotations

from lsprotocol import types

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


def _units(text: str, encoding: str) -> int:
    if encoding == UTF32:
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


class Lines:
    """One text's lines and the client's position encoding."""

    def __init__(self, text: str, encoding=UTF16):
        self.lines = text.split("\n")
        self.encoding = str(encoding.value if hasattr(encoding, "value") else encoding)

    def text(self, line: int) -> str:
        """1-based line's text ('' beyond the end), without a trailing `\\r`."""
        if 1 <= line <= len(self.lines):
            return self.lines[line - 1].rstrip("\r")
        return ""

    def position(self, line: int, col) -> types.Position:
        """The LSP position of byte column `col` (None: the line's start) of `line`."""
        line = max(1, line)
        raw = self.text(line).encode("utf-8", "surrogatepass")
        col = 1 if not col else min(max(col, 1), len(raw) + 1)
        prefix = raw[:col - 1].decode("utf-8", "replace")
        return types.Position(line=line - 1, character=_units(prefix, self.encoding))

    def range(self, line: int, col, end_line=None, end_col=None) -> types.Range:
        """An LSP range; an unknown start column is the line's first non-blank, an unknown
        end the end of the word at the start (else of the line)."""
        text = self.text(line)
        raw = text.encode("utf-8", "surrogatepass")
        if not col:
            col = len(raw) - len(raw.lstrip()) + 1
        if not end_line or not end_col or (end_line, end_col) <= (line, col):
            end_line, end_col = line, _word_end(raw, col)
        return types.Range(start=self.position(line, col), end=self.position(end_line, end_col))

    def from_position(self, pos: types.Position) -> tuple[int, int]:
        """(1-based line, 1-based byte column) of an LSP position, clamped to the text."""
        line = min(max(pos.line, 0) + 1, max(len(self.lines), 1))
        text = self.text(line)
        want, units, index = max(pos.character, 0), 0, 0
        while index < len(text) and units < want:
            units += _units(text[index], self.encoding)
            index += 1
        return line, len(text[:index].encode("utf-8", "surrogatepass")) + 1


def _word_end(raw: bytes, col: int) -> int:
    """Exclusive end of the identifier-like run at `col`, or the line's end (a one-byte
    range at least when the line has text there)."""
    i = col - 1
    if i >= len(raw):
        return len(raw) + 1
    j = i
    while j < len(raw) and (chr(raw[j]).isalnum() or raw[j] in b"_" or raw[j] > 127):
        j += 1
    if j == i:
        j = len(raw.rstrip()) if len(raw.rstrip()) > i else i + 1
    return j + 1
