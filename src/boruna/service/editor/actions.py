"""Code actions: every fix `boruna repair` knows for the diagnostics at a range, as text
edits, with its applicability (the most applicable fix of a diagnostic, when it is safe,
is the preferred one); and one action applying every safe fix, as
`boruna repair --strategy conservative` does."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from boruna.diagnostics.fix import Applicability
from boruna.diagnostics.model import Diagnostic

from .analysis import Analysis
from .navigation import Location, TextEdit


@dataclass(frozen=True)
class CodeAction:
    """`kind` is quickfix (one fix) or fix_all (every safe fix of the file)."""

    title: str
    kind: str
    edits: dict                     # file -> list[TextEdit]
    diagnostic: Optional[Diagnostic]
    preferred: bool
    applicability: Applicability


def _line_edits(source: str, file: str, fix) -> Optional[list[TextEdit]]:
    """A fix's line-based edits as range edits on `source`, None when its guard (the old
    text) no longer matches the lines (a stale fix)."""
    lines = source.split("\n")
    out = []
    for edit in fix.edits:
        count = edit.old_text.count("\n") + 1
        first, last = edit.start_line, edit.start_line + count - 1
        if first < 1 or last > len(lines):
            return None
        current = "\n".join(lines[first - 1:last])
        if current != edit.old_text and current.strip() != edit.old_text.strip():
            return None
        end_col = len(lines[last - 1].encode("utf-8", "surrogatepass")) + 1
        target = edit.file if edit.file not in ("<source>", "") else file
        out.append(TextEdit(Location(target, first, 1, last, end_col), edit.new_text))
    return out


def _overlaps(d: Diagnostic, start_line: int, end_line: int) -> bool:
    if d.span is None:
        return True
    last = d.span.end_line or d.span.line
    return d.span.line <= end_line and last >= start_line


def code_actions(analysis: Analysis, start_line: int, end_line: int) -> list[CodeAction]:
    """The fixes of the diagnostics touching lines start_line..end_line, then (when any
    diagnostic of the file has a safe fix) the fix-all action."""
    out = []
    for d in analysis.diagnostics:
        if not d.fixes or not _overlaps(d, start_line, end_line):
            continue
        best = max(d.fixes, key=lambda f: f.applicability.value)
        for fix in d.fixes:
            edits = _line_edits(analysis.source, analysis.file, fix)
            if not edits:
                continue
            grouped: dict = {}
            for e in edits:
                grouped.setdefault(e.location.file, []).append(e)
            preferred = fix is best and fix.applicability is Applicability.SAFE
            out.append(CodeAction(f"{fix.description} ({d.code})", "quickfix", grouped, d,
                                  preferred, fix.applicability))
    if any(f.applicability is Applicability.SAFE for d in analysis.diagnostics
           for f in d.fixes):
        action = fix_all(analysis)
        if action is not None:
            out.append(action)
    return out


def fix_all(analysis: Analysis) -> Optional[CodeAction]:
    """Every safe fix applied and re-checked (`repair`'s conservative strategy), as one
    edit of the whole document; None when nothing changes."""
    from boruna.diagnostics.repair import repair_source

    result = repair_source(analysis.source, strategy="conservative", file=analysis.file,
                           libs_dir=analysis.libs_dir)
    if result.repaired_source == analysis.source or not result.applied:
        return None
    lines = analysis.source.split("\n")
    end = Location(analysis.file, 1, 1, len(lines), len(lines[-1].encode("utf-8",
                                                                         "surrogatepass")) + 1)
    count = len(result.applied)
    return CodeAction(f"Apply {count} safe fix{'es' if count != 1 else ''} (boruna repair "
                      f"--strategy conservative)", "fix_all",
                      {analysis.file: [TextEdit(end, result.repaired_source)]}, None, False,
                      Applicability.SAFE)
