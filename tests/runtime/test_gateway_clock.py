"""The run's clock at the capability gateway (issue 19, items 4, 6 and 10).

A capability call that comes back after the run's wall clock ends the run with the VM's own
`wall_time_exceeded` (not with its answer); a cancel during a call ends it `cancelled`; a
handler that gives up at the deadline is reported as the wall clock, not as its own error; a
result over the VM's value limits is the VM's `memory_limit` error.
"""
from __future__ import annotations

import threading
import time

from boruna import service
from boruna.compiler import compile_source
from boruna.core.errors import ErrorKind
from boruna.core.limits import MAX_COLLECTION_LEN, MAX_STRING_BYTES
from boruna.runtime.execute import run
from boruna.runtime.handlers import HandlerError, MockHandler

FETCH = compile_source('fn main() -> String !{net.fetch} { net_fetch("http://x/") }')


class Slow(MockHandler):
    """Answers after `delay` seconds (`fail`: with a HandlerError instead)."""

    def __init__(self, delay, answer="late answer", fail=False):
        self.delay, self.answer, self.fail = delay, answer, fail
        self.clock = None

    def bind_clock(self, clock):
        self.clock = clock

    def handle(self, cap, args):
        time.sleep(self.delay)
        if self.fail:
            raise HandlerError("gave up")
        return self.answer


def test_a_call_returning_after_the_wall_clock_is_wall_time_exceeded():
    outcome = run(FETCH, handler=Slow(0.4), max_wall_ms=100)
    assert not outcome.ok
    assert (outcome.error_kind, outcome.error) == (
        ErrorKind.WALL_TIME, "wall-clock execution limit exceeded (100 ms)")
    assert outcome.capabilities_called == []          # its answer never reached the program


def test_the_same_call_within_the_wall_clock_succeeds():
    outcome = run(FETCH, handler=Slow(0.0), max_wall_ms=10_000)
    assert (outcome.ok, outcome.result) == (True, "late answer")


def test_a_handler_giving_up_at_the_deadline_is_reported_as_the_wall_clock():
    handler = Slow(0.3, fail=True)
    outcome = run(FETCH, handler=handler, max_wall_ms=100)
    assert outcome.error_kind == ErrorKind.WALL_TIME
    assert handler.clock is not None and handler.clock.max_wall_ms == 100
    early = run(FETCH, handler=Slow(0.0, fail=True), max_wall_ms=10_000)
    assert (early.error_kind, early.error) == (
        ErrorKind.RUNTIME_ERROR, "assertion failed: capability error: gave up")


def test_a_cancel_during_a_call_ends_the_run_cancelled():
    cancel = threading.Event()
    threading.Timer(0.05, cancel.set).start()
    outcome = run(FETCH, handler=Slow(0.3), cancel_event=cancel)
    assert (outcome.error_kind, outcome.error) == (ErrorKind.CANCELLED, "execution cancelled")


def test_the_service_reports_a_late_call_as_limit_exceeded():
    source = 'fn main() -> String !{net.fetch} { net_fetch("http://x/") }'

    class Config(service.HandlerConfig):
        def handler(self, policy=None):
            return Slow(0.4)

    response = service.run_tool(source, limits={"max_wall_ms": 100}, handlers=Config(live=True))
    assert response == {"success": False, "protocol_version": 1, "error_kind": "limit_exceeded",
                        "message": "wall-clock execution limit of 100 ms exceeded",
                        "limit_kind": "wall_ms", "limit": 100, "phase": "execution",
                        "steps": response["steps"],
                        "location": {"line": 1, "col": 36, "function": "main"},
                        "stack": [{"function": "main", "line": 1, "col": 36}]}


def test_results_over_the_vm_limits_are_memory_limit_errors():
    big = "x" * (MAX_STRING_BYTES + 1)
    outcome = run(FETCH, handler=Slow(0.0, answer=big))
    assert (outcome.error_kind, outcome.error) == (
        ErrorKind.RUNTIME_ERROR, f"string too large: {MAX_STRING_BYTES + 1} bytes exceeds the "
                                 f"limit of {MAX_STRING_BYTES} bytes")
    assert outcome.vm_error.kind == ErrorKind.MEMORY_LIMIT
    many = tuple(range(MAX_COLLECTION_LEN + 1))
    outcome = run(FETCH, handler=Slow(0.0, answer=many))
    assert outcome.error == (f"collection too large: {MAX_COLLECTION_LEN + 1} elements exceeds "
                             f"the limit of {MAX_COLLECTION_LEN} elements")
