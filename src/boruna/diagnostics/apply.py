"""Applying fixes to text (docs/spec/tooling.md §2.3): below the rules, which use it to test their own
fixes (`parse_fixes`), and below `repair`, which applies the fixes a check selected.

`apply_fix(text, fix)` applies a fix's line edits bottom-up behind their old-text guards;
`LineShifts` moves a later fix's lines past the lines earlier fixes inserted or deleted.
"""
from __future__ import annotations

from .fix import Edit, Fix
from .source_text import split_lines


class PatchFailed(Exception):
    """A fix could not be applied; `reason` is the user-facing text."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def apply_edit(lines: list[str], edit: Edit) -> list[str]:
    """Apply one line-based edit to a list of lines; raises PatchFailed."""
    start = edit.start_line
    if start < 1 or start > len(lines):
        raise PatchFailed(f"edit line {start} out of range (1-{len(lines)})")
    old_lines = split_lines(edit.old_text)
    count = max(len(old_lines), 1)
    if count == 1:
        actual = lines[start - 1]
        expected = edit.old_text
        if actual != expected and actual.strip() != expected.strip():
            raise PatchFailed(f"line {start} mismatch: expected '{expected.strip()}', "
                              f"got '{actual.strip()}'")
    return lines[:start - 1] + split_lines(edit.new_text) + lines[start - 1 + count:]


def apply_fix(text: str, fix: Fix) -> str:
    """Apply all edits of a fix, bottom-up; any failing edit aborts the whole fix.

    The text keeps its line endings: a text whose first line ends with CRLF is joined with
    CRLF again (the reference normalised every line to LF)."""
    lines = split_lines(text)
    ordered = sorted(enumerate(fix.edits), key=lambda pair: (-pair[1].start_line, pair[0]))
    for _, edit in ordered:
        lines = apply_edit(lines, edit)
    first_end = text.find("\n")
    eol = "\r\n" if first_end > 0 and text[first_end - 1] == "\r" else "\n"
    out = eol.join(lines)
    if text.endswith("\n"):
        out += eol
    return out


apply_patch = apply_fix


class LineShifts:
    """Maps line numbers of the checked source to the text after earlier fixes, so a fix
    below an inserted or deleted line still finds its line."""

    def __init__(self) -> None:
        self._shifts: list[tuple[int, int]] = []     # (last original line replaced, delta)

    def line(self, original: int) -> int:
        return original + sum(delta for end, delta in self._shifts if end < original)

    def rebase(self, fix: Fix) -> Fix:
        if not self._shifts:
            return fix
        return fix.moved([Edit(self.line(e.start_line), e.old_text, e.new_text, e.file)
                          for e in fix.edits])

    def record(self, fix: Fix) -> None:
        """Remember the line-count change of an applied fix (original coordinates)."""
        for edit in fix.edits:
            replaced = max(len(split_lines(edit.old_text)), 1)
            delta = len(split_lines(edit.new_text)) - replaced
            if delta:
                self._shifts.append((edit.start_line + replaced - 1, delta))
