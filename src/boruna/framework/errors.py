"""`FrameworkError`: every App-framework failure, carrying the reference's display string."""
from __future__ import annotations


class FrameworkError(Exception):
    """`message` is the display string, e.g. `missing required function: view` or
    `policy violation: too many effects: 2 exceeds limit of 1`."""

    def __init__(self, message: str):
        self.message = message
        self.vm_error = None       # the VmError behind a runtime error (its frames)
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


class FrameworkLimit(FrameworkError):
    """A bound of the whole run was reached: `kind` is `total_steps` or `wall_ms`."""

    def __init__(self, message: str, kind: str, limit: int):
        super().__init__(message)
        self.kind = kind
        self.limit = limit


def total_steps_exceeded(limit: int) -> FrameworkLimit:
    return FrameworkLimit(f"runtime error: total step budget exceeded ({limit} steps)",
                          "total_steps", limit)


def wall_time_exceeded(limit_ms: int) -> FrameworkLimit:
    return FrameworkLimit(f"runtime error: wall-clock execution limit exceeded ({limit_ms} ms)",
                          "wall_ms", limit_ms)


class FrameworkCancelled(FrameworkError):
    """The caller's cancel event stopped the App."""


def cancelled() -> FrameworkCancelled:
    return FrameworkCancelled("runtime error: execution cancelled")
