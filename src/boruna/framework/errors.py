"""`FrameworkError`: every App-framework failure, carrying the reference's display string."""
from __future__ import annotations


class FrameworkError(Exception):
    """`message` is the display string, e.g. `missing required function: view` or
    `policy violation: too many effects: 2 exceeds limit of 1`."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


def validation(detail: str) -> FrameworkError:
    return FrameworkError(f"validation: {detail}")


def missing_function(name: str) -> FrameworkError:
    return FrameworkError(f"missing required function: {name}")


def capability_in_pure(name: str) -> FrameworkError:
    return FrameworkError(f"function `{name}` must not have capability annotations")


def effect_error(detail: str) -> FrameworkError:
    return FrameworkError(f"effect error: {detail}")


def policy_violation(detail: str) -> FrameworkError:
    return FrameworkError(f"policy violation: {detail}")


def runtime_error(detail: str) -> FrameworkError:
    return FrameworkError(f"runtime error: {detail}")


def max_cycles_exceeded(limit: int) -> FrameworkError:
    return FrameworkError(f"max cycles exceeded: {limit}")
