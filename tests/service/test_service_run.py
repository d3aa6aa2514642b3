"""run_tool as the CLI calls it: progress callbacks, cancellation, argument checks."""
import threading

import pytest

from boruna.service import InvalidParams, run_tool

COUNT = """fn main() -> Int !{step.input} {
    let _a: String = step_input("x")
    let _b: String = step_input("y")
    let mut i = 0
    while i < 30000 {
        i = i + 1
    }
    i
}
"""


def test_progress_callback_gets_steps_and_the_slice_capability_message():
    calls = []
    response = run_tool(COUNT, on_progress=lambda steps, message: calls.append((steps, message)))
    assert response["result"] == 30000
    assert calls == [(100_000, "caps: step.input, step.input"), (200_000, None)]
    assert run_tool(COUNT)["steps"] == response["steps"]


def test_a_set_cancel_event_stops_the_run():
    event = threading.Event()
    event.set()
    response = run_tool(COUNT, cancel_event=event)
    assert response == {"success": False, "protocol_version": 1, "error_kind": "cancelled",
                        "message": "execution cancelled", "steps": 0}


def test_cancel_from_the_progress_callback_stops_between_slices():
    event = threading.Event()
    response = run_tool(COUNT, cancel_event=event, on_progress=lambda steps, msg: event.set())
    assert response["error_kind"] == "cancelled" and response["steps"] == 100_000


def test_extreme_limits_are_accepted():
    response = run_tool("fn main() -> Int { 1 }", max_steps=2**64 - 1,
                        limits={"max_wall_ms": 2**64 - 1, "max_output_bytes": 2**64 - 1})
    assert response["result"] == 1


@pytest.mark.parametrize("kwargs", [{"max_steps": -1}, {"max_steps": 2**64}, {"max_steps": 1.0},
                                    {"max_steps": True}, {"limits": {"max_wall_ms": "5"}}])
def test_out_of_range_numbers_are_invalid_params(kwargs):
    with pytest.raises(InvalidParams):
        run_tool("fn main() -> Int { 1 }", **kwargs)


def test_policy_object_from_the_runtime_is_accepted():
    from boruna.runtime.policy import Policy

    response = run_tool(COUNT, policy=Policy.deny_all())
    assert response["message"] == "capability denied: step.input"


def test_progress_reports_are_time_throttled_and_the_last_slice_is_reported():
    from boruna.service.running import CallRecorder, ProgressRelay

    calls, now = [], [0.0]
    recorder = CallRecorder()
    relay = ProgressRelay(lambda steps, message: calls.append((steps, message)), recorder,
                          interval=0.1, clock=lambda: now[0])
    for steps, clock, cap in [(100_000, 0.0, None), (200_000, 0.05, "step.input"),
                              (300_000, 0.09, "step.input"), (400_000, 0.1, None),
                              (500_000, 0.15, None), (600_000, 0.3, None),
                              (700_000, 0.31, None)]:
        now[0] = clock
        if cap:
            recorder.names.append(cap)
        relay(steps)
    assert calls == [(100_000, None), (400_000, "caps: step.input, step.input"),
                     (600_000, None)]
    relay.finish()
    assert calls[-1] == (700_000, None)
    relay.finish()
    assert len(calls) == 4


def test_a_fast_run_reports_its_first_and_last_slices_only():
    calls = []
    source = COUNT.replace("30000", "80000")
    response = run_tool(source, on_progress=lambda steps, message: calls.append(steps))
    assert response == run_tool(source) and response["steps"] == 720_015
    assert calls[0] == 100_000 and calls[-1] == 700_000
    assert calls == sorted(set(calls)) and all(s % 100_000 == 0 for s in calls)
