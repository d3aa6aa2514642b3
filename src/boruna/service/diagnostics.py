"""`boruna_check` and `boruna_repair`: diagnostics with suggested patches, and applying them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boruna.core.errors import ErrorKind
from boruna.service.boundary import tool_boundary
from boruna.service.envelope import ok
from boruna.service.errors import MAX_SOURCE_BYTES, guard_source
from boruna.service.results import Failure, use_case

DEFAULT_FILE_NAME = "<source>"


@dataclass
class Checked:
    """The diagnostic set of a source (findings are not failures)."""

    found: Any      # diagnostics.model.DiagnosticSet
    success = True

    def to_json(self) -> dict:
        return ok(**self.found.to_mcp_dict())


@dataclass
class Repaired:
    """What a repair applied and skipped, the repaired source and its verification."""

    report: Any     # diagnostics.repair.RepairResult
    success = True

    def to_json(self) -> dict:
        return ok(**self.report.to_mcp_dict())


@use_case
def check(source: str, file_name: str | None = DEFAULT_FILE_NAME, libs_dir=None,
          source_limit: int | None = MAX_SOURCE_BYTES):
    """All diagnostics for `source`. `libs_dir` resolves `import` lines against that directory."""
    from boruna.diagnostics import check_source

    guard_source(source, source_limit)
    return Checked(check_source(source, DEFAULT_FILE_NAME if file_name is None else file_name,
                                libs_dir))


@use_case
def repair(source: str, strategy: str | None = "best", patch_id: str | None = None,
           file_name: str | None = DEFAULT_FILE_NAME, libs_dir=None,
           source_limit: int | None = MAX_SOURCE_BYTES, saved_json: str | None = None):
    """Apply suggested patches ("best", "all", or only `patch_id`) and re-check the result.

    `saved_json` is a diagnostic set saved by `boruna check -o` to repair with instead of
    checking the source (unreadable: an `invalid_diagnostics` Failure).
    `verify_passed` is true exactly when the repaired source has no error diagnostics.
    """
    from boruna.diagnostics.repair import repair_diagnostics, repair_source, strategy_mode

    guard_source(source, source_limit)
    strategy = "best" if strategy is None else strategy
    name = DEFAULT_FILE_NAME if file_name is None else file_name
    if saved_json is None:
        return Repaired(repair_source(source, strategy=strategy, patch_id=patch_id,
                                      file_name=name, libs_dir=libs_dir))
    import json

    from boruna.diagnostics.model import DiagnosticSet

    try:
        saved = DiagnosticSet.from_full_dict(json.loads(saved_json))
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        return Failure(ErrorKind.INVALID_DIAGNOSTICS, str(exc))
    return Repaired(repair_diagnostics(source, saved, strategy_mode(strategy, patch_id),
                                       patch_id, file=name, libs_dir=libs_dir))


@tool_boundary
def check_tool(source: str, file_name: str | None = DEFAULT_FILE_NAME, libs_dir=None) -> dict:
    """All diagnostics for `source`; always success (findings are not failures)."""
    return check(source, file_name, libs_dir).to_json()


@tool_boundary
def repair_tool(source: str, strategy: str | None = "best", patch_id: str | None = None,
                file_name: str | None = DEFAULT_FILE_NAME, libs_dir=None) -> dict:
    """Apply suggested patches and re-check; see `repair`."""
    return repair(source, strategy, patch_id, file_name, libs_dir).to_json()
