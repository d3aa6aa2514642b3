"""Does a patch break the program when it runs? A quick, bounded run of both versions.

`run_breaks(before, after, libs_dir)` compiles both texts and runs each program's `main`
for at most `GUARD_STEPS` steps and `GUARD_WALL_MS` of wall clock, capabilities answered by
the deterministic mock handler under `allow-all` (nothing leaves the process). The patch
breaks the program when `after` fails at run time (a real runtime error, not a limit) and
`before` did not fail with the same message, or when `after` no longer compiles though
`before` did. Programs without `main` (Apps, libraries) are not run: None.
"""
from __future__ import annotations

from typing import Optional

from boruna.core.errors import ErrorKind

GUARD_STEPS = 200_000
GUARD_WALL_MS = 1_000
_LIMIT_KINDS = (ErrorKind.STEP_LIMIT, ErrorKind.WALL_TIME, ErrorKind.WORK_LIMIT,
                ErrorKind.MEMORY_LIMIT, ErrorKind.CANCELLED)


def _outcome(text: str, libs_dir):
    """("compile", message) | ("runtime", message, line) | ("ok",) | None (not run)."""
    from boruna.compiler import compile_source
    from boruna.language.errors import CompileError
    from boruna.runtime.execute import run

    try:
        module = compile_source(text, libs_dir=libs_dir)
    except CompileError as err:
        return ("compile", err.message)
    except Exception:       # noqa: BLE001 - the guard must never break repair itself
        return None
    if module.function_index("main") is None:
        return None
    try:
        outcome = run(module, policy="allow-all", max_steps=GUARD_STEPS,
                      max_wall_ms=GUARD_WALL_MS)
    except Exception:       # noqa: BLE001 - no VM in this checkout, a malformed module
        return None
    if outcome.ok:
        return ("ok",)
    kind = getattr(outcome.vm_error, "kind", None)
    if kind in _LIMIT_KINDS or outcome.error_kind != ErrorKind.RUNTIME_ERROR:
        return ("limit",)
    line = None
    frames = getattr(outcome.vm_error, "frames", ())
    if frames and 0 <= frames[0][0] < len(module.functions):
        pos = module.functions[frames[0][0]].position(max(frames[0][1], 0))
        line = pos[0] if pos else None
    return ("runtime", outcome.error, line)


def run_breaks(before: str, after: str, libs_dir=None) -> Optional[str]:
    """Why the patched text `after` breaks a program that `before` ran, or None."""
    new = _outcome(after, libs_dir)
    if new is None or new[0] in ("ok", "limit"):
        return None
    old = _outcome(before, libs_dir)
    if new[0] == "compile":
        if old is not None and old[0] != "compile":
            return f"patch makes the program fail to compile: {new[1]}"
        return None
    if old is not None and old[0] == "runtime" and old[1] == new[1]:
        return None
    where = f" at line {new[2]}" if new[2] else ""
    return f"patch makes the program fail when it runs{where}: {new[1]}"
