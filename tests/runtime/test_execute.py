"""runtime.execute drives the VM over a compiled Module through one loop."""
import threading

import pytest

from boruna.compiler import compile_source
from boruna.core.errors import ErrorKind
from boruna.runtime.execute import call_function, run
from boruna.runtime.gateway import EventLog

LOOP = ("fn main() -> Int {\n    let mut i = 0\n    while i < 300000 {\n        i = i + 1\n"
        "    }\n    i\n}\n")
CAPS = ('fn main() -> String !{step.input} {\n    let a = step_input("x")\n'
        '    let b = step_input("y")\n    a\n}\n')


def test_takes_a_module_only():
    with pytest.raises(TypeError) as info:
        run("fn main() -> Int { 1 }\n")
    assert str(info.value) == ("runtime.execute.run takes a compiled Module "
                               "(boruna.run compiles source)")


def test_progress_and_cancellation_between_slices():
    module = compile_source(LOOP)
    seen = []
    whole = run(module)
    sliced = run(module, slice_steps=100_000, on_progress=seen.append)
    assert (sliced.ok, sliced.result, sliced.steps) == (True, 300000, whole.steps)
    assert seen == sorted(seen) and len(seen) == whole.steps // 100_000
    stop = threading.Event()
    stop.set()
    cancelled = run(module, cancel_event=stop)
    assert (cancelled.ok, cancelled.steps, cancelled.error, cancelled.error_kind) == (
        False, 0, "execution cancelled", ErrorKind.CANCELLED)


def test_the_event_log_is_the_record_of_capability_calls():
    log = EventLog()
    outcome = run(compile_source(CAPS), event_log=log)
    assert outcome.ok and outcome.capabilities_called == ["step.input", "step.input"]
    assert [e["event"] for e in log.events] == ["cap_call", "cap_result", "cap_call",
                                                "cap_result"]
    assert log.drain_called() == ["step.input", "step.input"] and log.drain_called() == []


def test_call_function_reports_a_missing_function():
    outcome = call_function(compile_source("fn main() -> Int { 1 }\n"), "nope")
    assert (outcome.ok, outcome.error, outcome.error_kind) == (
        False, "function not found: nope", ErrorKind.RUNTIME_ERROR)
