"""Where a runtime error happened: the `location` and `stack` fields of failed runs.

The VM notes, when an error stops a run, the (function index, pc) of every frame, innermost
first (`VmError.frames`); the module's line tables (`Function.lines`, written by codegen and
kept in `.axbc`) turn them into source places. Nothing of this runs while a program runs.

`location` is `{"line", "col", "function"}` of the innermost frame (absent when the module
has no line table, e.g. an `.axbc` written before line tables existed); `stack` lists
`{"function", "line", "col"}` for every frame, innermost first (`line`/`col` are null for a
function without a line table). The stack is capped at `MAX_STACK_ENTRIES` (the innermost
and outermost frames kept, `{"function": "...", "omitted": N}` between them).
"""
from __future__ import annotations

from typing import Any, Optional

MAX_STACK_ENTRIES = 32


def _frame_entry(module, fn_index: int, pc: int) -> Optional[dict]:
    functions = getattr(module, "functions", None) or []
    if not 0 <= fn_index < len(functions):
        return None
    fn = functions[fn_index]
    pos = fn.position(max(pc, 0))
    line, col = pos if pos is not None else (None, None)
    return {"function": fn.name, "line": line, "col": col}


def error_stack(vm_error: Any, module) -> list[dict]:
    """The frames of `vm_error` as `{"function", "line", "col"}`, innermost first."""
    frames = getattr(vm_error, "frames", None) or ()
    entries = [e for e in (_frame_entry(module, f, pc) for f, pc in frames) if e is not None]
    if len(entries) > MAX_STACK_ENTRIES:
        head = MAX_STACK_ENTRIES - 8
        omitted = len(entries) - MAX_STACK_ENTRIES + 1
        entries = entries[:head] + [{"function": "...", "omitted": omitted}] + entries[-7:]
    return entries


def error_location(vm_error: Any, module) -> Optional[dict]:
    """`{"line", "col", "function"}` of the innermost frame, or None when unknown."""
    frames = getattr(vm_error, "frames", None) or ()
    if not frames:
        return None
    entry = _frame_entry(module, *frames[0])
    if entry is None or entry["line"] is None:
        return None
    return {"line": entry["line"], "col": entry["col"], "function": entry["function"]}


def place_fields(vm_error: Any, module) -> dict:
    """The additive `location` and `stack` fields of a failed run's response ({} when the
    error carries no frames: a failure before the VM started)."""
    stack = error_stack(vm_error, module)
    if not stack:
        return {}
    fields: dict = {}
    location = error_location(vm_error, module)
    if location is not None:
        fields["location"] = location
    fields["stack"] = stack
    return fields


def stack_text(stack: list[dict]) -> list[str]:
    """`in f at line 3, col 5` lines for the CLI, innermost first."""
    lines = []
    for entry in stack:
        if "omitted" in entry:
            lines.append(f"... {entry['omitted']} more frames")
        elif entry.get("line") is None:
            lines.append(f"in {entry['function']}")
        else:
            lines.append(f"in {entry['function']} at line {entry['line']}, col {entry['col']}")
    return lines


def failing_op(vm_error: Any, module) -> Optional[str]:
    """The opcode name of the instruction that failed (None when unknown)."""
    frames = getattr(vm_error, "frames", None) or ()
    functions = getattr(module, "functions", None) or []
    if not frames or not 0 <= frames[0][0] < len(functions):
        return None
    code = functions[frames[0][0]].code
    pc = frames[0][1]
    return code[pc][0] if 0 <= pc < len(code) else None
