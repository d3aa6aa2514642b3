"""Auto-repair behind `boruna_repair` (docs/spec/tooling.md §2, docs/spec/mcp.md §3.5, README rule 1).

`repair_source` checks the source, selects fixes (`best`, `all`, or one `patch_id`; a fix's
applicability gates what `best` and `conservative` take), applies them one after another
with an old-text guard (`apply.py`), skips any patch that would make the
source worse (stop parsing, or gain errors), and re-checks the result: `verify_passed` is
true exactly when the repaired source has no error-severity diagnostic. A repaired program
with a `main` is also run briefly (`run_guard.py`: bounded steps, the mock handler); when
the patches make it fail at run time where the original did not, repair redoes them one by
one and skips each patch that breaks the run.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .apply import LineShifts, PatchFailed, apply_edit, apply_fix, apply_patch
from .collector import check_source
from .fix import Applicability, Fix
from .model import DiagnosticSet
from .run_guard import run_breaks

__all__ = ["PatchFailed", "RepairResult", "apply_edit", "apply_fix", "apply_patch",
           "repair_diagnostics", "repair_source", "select_patches", "strategy_mode"]

NO_PATCHES_REASON = "no applicable patches found"
PARSE_CODES = ("E001", "E002")


@dataclass
class RepairResult:
    """The outcome of one repair, with the seed's fields."""

    repaired_source: str
    applied: list[dict] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)
    verify_passed: bool = False
    diagnostics_before: int = 0
    diagnostics_after: int = 0
    before: Optional[DiagnosticSet] = None
    after: Optional[DiagnosticSet] = None

    @property
    def patches_applied(self) -> int:
        return len(self.applied)

    @property
    def patches_skipped(self) -> int:
        return len(self.skipped)

    def to_mcp_dict(self) -> dict:
        """The `boruna_repair` fields in the seed's order (service adds the envelope)."""
        return {"repaired_source": self.repaired_source,
                "patches_applied": self.patches_applied,
                "patches_skipped": self.patches_skipped,
                "applied": [dict(a) for a in self.applied],
                "skipped": [dict(s) for s in self.skipped],
                "verify_passed": self.verify_passed,
                "diagnostics_before": self.diagnostics_before,
                "diagnostics_after": self.diagnostics_after}


# ---------------------------------------------------------------- selection

# The least applicability each strategy applies without being asked for the fix by id.
FLOOR = {"best": Applicability.DISPLAY_ONLY, "all": Applicability.DISPLAY_ONLY,
         "conservative": Applicability.SAFE}


def select_patches(diagnostics: DiagnosticSet, mode: str, target: Optional[str] = None
                   ) -> list[tuple[str, Fix]]:
    """(diagnostic id, fix) pairs for `mode` in "best", "all", "conservative", "by_id".

    Per diagnostic, among the fixes its applicability floor admits: `best` and
    `conservative` take the most applicable one (the last of equals), `all` the first of
    the most applicable; `by_id` takes every fix named `target`."""
    chosen: list[tuple[str, Fix]] = []
    floor = FLOOR.get(mode, Applicability.DISPLAY_ONLY).value
    for diag in diagnostics.diagnostics:
        if mode == "by_id":
            chosen.extend((diag.code, f) for f in diag.fixes
                          if target is not None and f.id == target)
            continue
        fixes = [f for f in diag.fixes if f.applicability.value >= floor]
        if not fixes:
            continue
        top = max(f.applicability.value for f in fixes)
        most = [f for f in fixes if f.applicability.value == top]
        chosen.append((diag.code, most[0] if mode == "all" else most[-1]))
    return chosen


def strategy_mode(strategy: Optional[str], patch_id: Optional[str]) -> str:
    """The MCP mapping: "all" wins; otherwise a patch_id means by-id; otherwise best."""
    if strategy == "all":
        return "all"
    if patch_id is not None:
        return "by_id"
    return "best"


# ---------------------------------------------------------------- the repair loop

def _parse_error(found: DiagnosticSet):
    return next((d for d in found.diagnostics if d.code in PARSE_CODES), None)


def _position(diag) -> tuple[int, int]:
    if diag.location is None:
        return (0, 0)
    return (diag.location.line, diag.location.col or 0)


def _worse(before: DiagnosticSet, after: DiagnosticSet) -> Optional[str]:
    """Why `after` is worse than `before`, or None when it is not.

    Source that parsed must keep parsing and must not gain errors. Source that did not parse
    improves when it parses afterwards or when its first parse error moves further down.
    """
    before_broken, after_broken = _parse_error(before), _parse_error(after)
    if before_broken is None:
        if after_broken is not None:
            first_line = after_broken.message.split("\n", 1)[0]
            where = f" at line {after_broken.location.line}" if after_broken.location else ""
            return f"patch would make the source fail to parse{where}: {first_line}"
        if after.error_count > before.error_count:
            return (f"patch would increase the errors from {before.error_count} "
                    f"to {after.error_count}")
        return None
    if after_broken is not None and _position(after_broken) <= _position(before_broken):
        return "patch does not get the parser past the error"
    return None


BATCH_MIN_PATCHES = 8
"""From this many selected patches, repair first tries them all with one re-check."""


def _entry(diagnostic_id: str, patch: Fix) -> dict:
    return {"diagnostic_id": diagnostic_id, "patch_id": patch.id,
            "description": patch.description}


def _apply_one_by_one(text: str, selection, current: DiagnosticSet, file, libs_dir,
                      guard=None):
    """Apply each patch to the previous result, re-checking after each and skipping any
    that would make the source worse (or, with `guard(before, after)`, that it rejects).
    Returns (text, diagnostics, applied, skipped)."""
    applied, skipped = [], []
    shifts = LineShifts()
    for diagnostic_id, patch in selection:
        try:
            candidate = apply_fix(text, shifts.rebase(patch))
        except PatchFailed as failure:
            skipped.append({"diagnostic_id": diagnostic_id, "reason": failure.reason})
            continue
        if candidate != text:
            checked = check_source(candidate, file, libs_dir)
            reason = _worse(current, checked)
            if reason is None and guard is not None:
                reason = guard(text, candidate)
            if reason is not None:
                skipped.append({"diagnostic_id": diagnostic_id, "reason": reason})
                continue
            text, current = candidate, checked
            shifts.record(patch)
        applied.append(_entry(diagnostic_id, patch))
    return text, current, applied, skipped


def _apply_in_one_go(text: str, selection, current: DiagnosticSet, file, libs_dir,
                     fixes_error: set):
    """Many patches (say a hundred misspelt names in a large file) would cost a re-check
    each. Apply them all and check once; keep the outcome when it parses as well as before,
    has no more errors, and every applied patch of an error diagnostic removed at least one
    error or the errors left are all of kinds seen before. Otherwise (None) repair goes one
    by one."""
    if len(selection) < BATCH_MIN_PATCHES:
        return None
    applied, skipped = [], []
    expected_fixes = 0
    shifts = LineShifts()
    original = text
    for diagnostic_id, patch in selection:
        try:
            candidate = apply_fix(text, shifts.rebase(patch))
        except PatchFailed as failure:
            skipped.append({"diagnostic_id": diagnostic_id, "reason": failure.reason})
            continue
        if candidate != text:
            text = candidate
            shifts.record(patch)
            expected_fixes += id(patch) in fixes_error
        applied.append(_entry(diagnostic_id, patch))
    if text == original:
        return None
    checked = check_source(text, file, libs_dir)
    if _worse(current, checked) is not None or checked.error_count > current.error_count:
        return None
    if checked.error_count > current.error_count - expected_fixes:
        # fewer fixes than patches: fine only when the rest are errors already seen before
        # (past the check's cap of 100 name errors), never a new kind of error
        known = {_error_key(d) for d in current.diagnostics if d.is_error}
        if any(_error_key(d) not in known for d in checked.diagnostics if d.is_error):
            return None
    return text, checked, applied, skipped


def _error_key(diag) -> tuple[str, str]:
    return diag.code, diag.message.split("\n", 1)[0]


def repair_diagnostics(source: str, diagnostics: DiagnosticSet, mode: str = "best",
                       target: Optional[str] = None, file: Optional[str] = None, *,
                       fresh: bool = False, libs_dir=None) -> RepairResult:
    """Repair `source` with an already collected diagnostic set (the CLI's `--from`);
    `fresh` says the set was just collected from this very source (skips a re-check)."""
    file = diagnostics.file if file is None else file
    result = RepairResult(repaired_source=source, before=diagnostics,
                          diagnostics_before=len(diagnostics))
    selection = select_patches(diagnostics, mode, target)
    if not selection and any(d.fixes for d in diagnostics.diagnostics):
        result.skipped.append({"diagnostic_id": "all", "reason": NO_PATCHES_REASON})
    current = diagnostics if fresh else check_source(source, file, libs_dir)
    fixes_error = {id(p) for d in diagnostics.diagnostics if d.is_error for p in d.fixes}
    batch = _apply_in_one_go(source, selection, current, file, libs_dir, fixes_error)
    if batch is not None:
        current_text, current, applied, skipped = batch
    else:
        current_text, current, applied, skipped = _apply_one_by_one(
            source, selection, current, file, libs_dir)
    if current_text != source and run_breaks(source, current_text, libs_dir) is not None:
        start = diagnostics if fresh else check_source(source, file, libs_dir)
        current_text, current, applied, skipped = _apply_one_by_one(
            source, selection, start, file, libs_dir,
            guard=lambda before, after: run_breaks(before, after, libs_dir))
    result.applied.extend(applied)
    result.skipped.extend(skipped)
    result.repaired_source = current_text
    result.after = current
    result.diagnostics_after = len(current)
    result.verify_passed = not current.has_errors()
    return result


def repair_source(source: str, strategy: Optional[str] = "best",
                  patch_id: Optional[str] = None, file: str = "<source>", *,
                  file_name: Optional[str] = None, libs_dir=None) -> RepairResult:
    """Check `source`, apply patches by `strategy`/`patch_id` (MCP mapping), re-verify.
    `libs_dir` resolves `import` lines as `check_source` does."""
    name = file_name if file_name is not None else file
    diagnostics = check_source(source, name, libs_dir)
    return repair_diagnostics(source, diagnostics, strategy_mode(strategy, patch_id),
                              patch_id, name, fresh=True, libs_dir=libs_dir)
