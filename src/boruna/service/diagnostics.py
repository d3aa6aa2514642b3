"""`boruna_check` and `boruna_repair`: diagnostics with suggested patches, and applying them."""
from __future__ import annotations

from boruna.service.boundary import tool_boundary
from boruna.service.envelope import ok
from boruna.service.errors import guard_source

DEFAULT_FILE_NAME = "<source>"


@tool_boundary
def check_tool(source: str, file_name: str | None = DEFAULT_FILE_NAME, libs_dir=None) -> dict:
    """All diagnostics for `source`; always success (findings are not failures).
    `libs_dir` resolves `import` lines against that directory."""
    from boruna.diagnostics import check_source

    guard_source(source)
    found = check_source(source, DEFAULT_FILE_NAME if file_name is None else file_name,
                         libs_dir)
    return ok(**found.to_mcp_dict())


@tool_boundary
def repair_tool(source: str, strategy: str | None = "best", patch_id: str | None = None,
                file_name: str | None = DEFAULT_FILE_NAME, libs_dir=None) -> dict:
    """Apply suggested patches ("best", "all", or only `patch_id`) and re-check the result.

    `verify_passed` is true exactly when the repaired source has no error diagnostics.
    """
    from boruna.diagnostics.repair import repair_source

    guard_source(source)
    report = repair_source(source, strategy="best" if strategy is None else strategy,
                           patch_id=patch_id,
                           file_name=DEFAULT_FILE_NAME if file_name is None else file_name,
                           libs_dir=libs_dir)
    return ok(**report.to_mcp_dict())
