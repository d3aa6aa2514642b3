"""The output budget: what a tool may build for its response, and `limits.max_output_bytes`.

Every tool's rendered response is capped at DEFAULT_MAX_OUTPUT_BYTES (`envelope.render`).
Tools that encode runtime values (run, run_sealed, framework_test) also give the encoder an
`OutputBudget`: each JSON node it builds is charged a lower bound of its JSON size, so a
value sharing one large part in many places stops being encoded once the budget is spent,
instead of being materialised in full first. `exceeds_budget` is `boruna_run`'s exact
`limits.max_output_bytes` check (compact JSON of `result`, then each UI tree).
"""
from __future__ import annotations

from boruna.service.envelope import DEFAULT_MAX_OUTPUT_BYTES, output_limit_failure
from boruna.core.json_text import json_size

__all__ = ["DEFAULT_MAX_OUTPUT_BYTES", "OutputBudget", "OutputLimitExceeded",
           "output_limit_failure", "compact_size", "exceeds_budget"]


class OutputLimitExceeded(Exception):
    """The encoded values of a response passed the budget of `limit` bytes."""

    def __init__(self, limit: int):
        super().__init__(f"serialized output exceeded {limit} bytes")
        self.limit = limit


class OutputBudget:
    """Bytes a response's encoded values may still take; `charge(n)` raises
    OutputLimitExceeded once more than `limit` were charged in all."""

    def __init__(self, limit: int = DEFAULT_MAX_OUTPUT_BYTES):
        self.limit = limit
        self.remaining = limit

    def charge(self, n: int) -> None:
        self.remaining -= n
        if self.remaining < 0:
            raise OutputLimitExceeded(self.limit)


def compact_size(value) -> int:
    """Bytes of `value` as compact JSON (no spaces, raw UTF-8), as the response prints it."""
    return json_size(value, float("inf"))


def exceeds_budget(cap: int, result, ui_output) -> bool:
    """True when result then each UI tree, charged in turn, overrun `cap` (strictly greater)."""
    remaining = cap
    for value in (result, *ui_output):
        size = json_size(value, remaining)
        if size is None:
            return True
        remaining -= size
    return False
