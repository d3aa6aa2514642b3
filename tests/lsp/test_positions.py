"""Compiler positions (1-based line, byte column) ↔ LSP positions in each encoding."""
from __future__ import annotations

from lsprotocol import types as T

from boruna.lsp.positions import Lines

TEXT = 'let s = "é😀" ++ name\nnext'


def test_utf16_counts_astral_characters_twice():
    lines = Lines(TEXT, "utf-16")
    col = TEXT.encode().index(b"name") + 1          # byte column of `name`
    assert lines.position(1, col) == T.Position(0, 17)
    assert lines.from_position(T.Position(0, 17)) == (1, col)


def test_utf8_and_utf32():
    col = TEXT.encode().index(b"name") + 1
    assert Lines(TEXT, "utf-8").position(1, col) == T.Position(0, col - 1)
    assert Lines(TEXT, "utf-32").position(1, col) == T.Position(0, 16)
    assert Lines(TEXT, "utf-32").from_position(T.Position(0, 16)) == (1, col)


def test_ranges_with_unknown_parts_and_clamping():
    lines = Lines("    total + 1\n", "utf-16")
    assert lines.range(1, None) == T.Range(T.Position(0, 4), T.Position(0, 9))
    assert lines.range(1, 5, None, None) == T.Range(T.Position(0, 4), T.Position(0, 9))
    assert lines.from_position(T.Position(99, 99)) == (2, 1)
    assert lines.position(1, 999) == T.Position(0, 13)
