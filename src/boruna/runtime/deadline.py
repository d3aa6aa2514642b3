"""The run's clock as its capability handlers see it: one deadline and one cancel event.

`RunClock(max_wall_ms, cancel_event)` starts when the run starts. Every blocking handler
(net.fetch, llm.call, db.query) takes `clock.budget(own_timeout)` as its own deadline, so no
call outlives the run's wall clock, and polls `clock.stopped()` where it can (SQLite's
progress handler, the HTTP watchdog) so a cancelled run stops inside a call too. The gateway
asks `clock.vm_error()` before and right after every call: a call that returned (or failed)
past the deadline ends the run with the VM's own `wall_time_exceeded` error, a cancelled one
with `execution cancelled`, exactly as the VM's 1,024-step checkpoint would.
"""
from __future__ import annotations

import time
from typing import Optional

from boruna.core import errors


class RunClock:
    """Monotonic deadline (None: no wall clock) and cancel event (None: not cancellable)."""

    __slots__ = ("max_wall_ms", "deadline", "cancel_event")

    def __init__(self, max_wall_ms: Optional[int] = None, cancel_event=None,
                 start: Optional[float] = None):
        self.max_wall_ms = max_wall_ms
        begin = time.monotonic() if start is None else start
        self.deadline = None if max_wall_ms is None else begin + max_wall_ms / 1000.0
        self.cancel_event = cancel_event

    @property
    def bounded(self) -> bool:
        """Whether anything can stop a call early (a wall clock or a cancel event)."""
        return self.deadline is not None or self.cancel_event is not None

    def remaining(self) -> Optional[float]:
        """Seconds left before the deadline (0.0 once past it); None without a wall clock."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def budget(self, seconds: float) -> float:
        """`seconds`, shortened to what is left of the run's wall clock."""
        left = self.remaining()
        return seconds if left is None else min(seconds, left)

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline

    def cancelled(self) -> bool:
        event = self.cancel_event
        return event is not None and event.is_set()

    def stopped(self) -> bool:
        """Past the deadline or cancelled: a handler should give up now."""
        return self.cancelled() or self.expired()

    def vm_error(self):
        """The VmError the run ends with now (cancelled, else past the wall clock), or None."""
        if self.cancelled():
            return errors.execution_cancelled()
        if self.expired():
            return errors.wall_time_exceeded(self.max_wall_ms)
        return None


UNBOUNDED = RunClock()
"""The clock of a handler used outside a run (no deadline, no cancellation)."""
