"""Runtime errors carrying the reference VM's exact Display texts (vm.md §4.6).

`VmError.message` is the string users see (`boruna_run`'s `message`, the CLI's
`runtime error: ...`). `kind` names the error variant so callers can branch
without parsing text (e.g. `"wall_time"` → `limit_exceeded`, `"capability_denied"`
→ `boruna_run_sealed`'s `capability_denied`).
"""
from __future__ import annotations

from typing import Iterable, Optional

MAX_STACK = 4096
MAX_CALL_DEPTH = 256


class VmError(Exception):
    """A runtime error. `str(err) == err.message`."""

    def __init__(self, message: str, kind: str = "runtime", *,
                 capability: Optional[str] = None, limit: Optional[int] = None):
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.capability = capability  # wire name, for capability_denied / budget errors
        self.limit = limit             # max_steps / wall ms / max rounds, where relevant

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"VmError({self.kind!r}, {self.message!r})"


def stack_underflow() -> VmError:
    return VmError("stack underflow", "stack_underflow")


def stack_overflow(limit: int = MAX_STACK) -> VmError:
    """`limit` is 4096 for the operand stack, 256 for call depth."""
    return VmError(f"stack overflow (max {limit})", "stack_overflow", limit=limit)


def invalid_function(index: int) -> VmError:
    return VmError(f"invalid function index: {index}", "invalid_function")


def invalid_constant(index: int) -> VmError:
    return VmError(f"invalid constant index: {index}", "invalid_constant")


def invalid_local(index: int) -> VmError:
    return VmError(f"invalid local index: {index}", "invalid_local")


def invalid_global(index: int) -> VmError:
    return VmError(f"invalid global index: {index}", "invalid_global")


def invalid_ip(ip: int) -> VmError:
    return VmError(f"invalid instruction pointer: {ip}", "invalid_ip")


def type_error(expected: str, got: str) -> VmError:
    """`type error: expected {expected}, got {got}`; `got` is usually `values.type_name(v)`."""
    return VmError(f"type error: expected {expected}, got {got}", "type_error")


def division_by_zero() -> VmError:
    return VmError("division by zero", "division_by_zero")


OVERFLOW_OPS = ("addition", "subtraction", "multiplication", "division", "remainder", "negation")


def overflow(op: str) -> VmError:
    """`op` is one of OVERFLOW_OPS."""
    return VmError(f"integer overflow in {op}", "overflow")


def capability_denied(wire_name: str) -> VmError:
    return VmError(f"capability denied: {wire_name}", "capability_denied", capability=wire_name)


def capability_budget_exceeded(wire_name: str) -> VmError:
    return VmError(f"capability budget exceeded: {wire_name}", "capability_budget_exceeded",
                   capability=wire_name)


def unknown_capability(cap_id: int) -> VmError:
    return VmError(f"unknown capability id: {cap_id}", "unknown_capability")


def assertion_failed(msg: str) -> VmError:
    return VmError(f"assertion failed: {msg}", "assertion_failed")


def capability_error(handler_message: str) -> VmError:
    """A capability handler failure: `assertion failed: capability error: {msg}`."""
    return assertion_failed(f"capability error: {handler_message}")


def contract_violation(message: str, counterexample: Iterable[str] = ()) -> VmError:
    """`{message} [counterexample: ({args})]`; `counterexample` holds Display strings."""
    joined = ", ".join(counterexample)
    return VmError(f"{message} [counterexample: ({joined})]", "contract_violation")


def index_out_of_bounds(index: int, length: int) -> VmError:
    return VmError(f"list index out of bounds: index {index}, length {length}",
                   "index_out_of_bounds")


def match_exhausted() -> VmError:
    return VmError("no match found for value", "match_exhausted")


def mailbox_empty() -> VmError:
    return VmError("actor mailbox empty (blocking not supported in this mode)", "mailbox_empty")


def step_limit(max_steps: int) -> VmError:
    return VmError(f"max execution steps exceeded ({max_steps})", "step_limit", limit=max_steps)


def wall_time_exceeded(ms: int) -> VmError:
    return VmError(f"wall-clock execution limit exceeded ({ms} ms)", "wall_time", limit=ms)


def deadlock() -> VmError:
    return VmError("deadlock: all actors blocked with no pending messages", "deadlock")


def max_rounds_exceeded(rounds: int) -> VmError:
    return VmError(f"max scheduler rounds exceeded ({rounds})", "max_rounds", limit=rounds)


def actor_not_found(actor_id: int) -> VmError:
    return VmError(f"actor not found: {actor_id}", "actor_not_found")


def halt() -> VmError:
    return VmError("halt", "halt")


def budget_exhausted() -> VmError:
    return VmError("execution budget exhausted", "budget_exhausted")


def bytecode_error(detail: str) -> VmError:
    return VmError(f"bytecode error: {detail}", "bytecode")
