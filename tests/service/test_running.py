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
    from boruna.runtime.gateway import EventLog
    from boruna.service.running import ProgressRelay

    calls, now = [], [0.0]
    log = EventLog()
    relay = ProgressRelay(lambda steps, message: calls.append((steps, message)), log,
                          interval=0.1, clock=lambda: now[0])
    for steps, clock, cap in [(100_000, 0.0, None), (200_000, 0.05, "step.input"),
                              (300_000, 0.09, "step.input"), (400_000, 0.1, None),
                              (500_000, 0.15, None), (600_000, 0.3, None),
                              (700_000, 0.31, None)]:
        now[0] = clock
        if cap:
            log.cap_result(cap, "")
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


# ------------------------------------------------------------------ default limits (#15)

ENDLESS = "fn main() -> Int {\n    let mut i = 0\n    while true {\n        i = i + 1\n    }\n    i\n}\n"

REPLACE_LOOP = """fn main() -> Int {
    let mut s = "x"
    let mut i = 0
    while i < 23 { s = s ++ s
        i = i + 1 }
    let mut n = 0
    while n < 10000000 { s = __builtin_string_replace(s, "y", "z")
        n = n + 1 }
    n
}
"""

QUADRATIC_CONCAT = """fn main() -> Int {
    let mut s = ""
    let mut last = ""
    let mut n = 0
    while n < 10000000 { last = s  s = s ++ "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdef"
        n = n + 1 }
    n + __builtin_string_len(last)
}
"""

# the same appends onto a String nothing else holds: built in place (vm/string_builders.pxi)
# up to the String limit
APPEND_LOOP = QUADRATIC_CONCAT.replace("last = s  ", "")

WORK_MESSAGE = "work limit exceeded: builtins processed more than 8589934592 characters or elements"


def _work_limit(steps):
    return {"success": False, "protocol_version": 1, "error_kind": "limit_exceeded",
            "message": WORK_MESSAGE, "limit_kind": "work", "limit": 2**33,
            "phase": "execution", "steps": steps}


def test_a_replace_loop_on_an_8_mib_string_stops_at_the_work_limit():
    # a wall clock far past the default 30 s: the work limit must be what stops it, on a
    # loaded machine too
    assert run_tool(REPLACE_LOOP, limits={"max_wall_ms": 600_000}) == {**_work_limit(7457), "location": {"line": 7, "col": 30, "function": "main"}, "stack": [{"function": "main", "line": 7, "col": 30}]}


def test_a_quadratic_concat_loop_stops_at_the_work_limit():
    # `last` still holds the String, so every append copies it
    response = run_tool(QUADRATIC_CONCAT)
    assert response == {**_work_limit(response["steps"]), "location": {"line": 5, "col": 40, "function": "main"}, "stack": [{"function": "main", "line": 5, "col": 40}]}
    assert response["steps"] < 1_000_000


def test_an_append_loop_builds_in_place_up_to_the_string_limit():
    assert run_tool(APPEND_LOOP) == {
        "success": False, "protocol_version": 1, "error_kind": "runtime_error",
        "message": "string too large: 16777288 bytes exceeds the limit of 16777216 bytes",
        "steps": 2478463, "location": {"line": 5, "col": 30, "function": "main"},
        "stack": [{"function": "main", "line": 5, "col": 30}]}


def test_runs_have_a_default_wall_clock(monkeypatch):
    import boruna.service.running as running

    assert running.DEFAULT_MAX_WALL_MS == 30_000
    monkeypatch.setattr(running, "DEFAULT_MAX_WALL_MS", 50)
    response = run_tool(ENDLESS, max_steps=2**62)
    assert {k: v for k, v in response.items() if k != "steps"} == {
        "success": False, "protocol_version": 1, "error_kind": "limit_exceeded",
        "message": "wall-clock execution limit of 50 ms exceeded", "limit_kind": "wall_ms",
        "limit": 50, "phase": "execution", "location": response["location"],
        "stack": [{"function": "main", **{k: response["location"][k] for k in ("line", "col")}}]}
    assert response["location"]["line"] in (3, 4)
    assert run_tool(ENDLESS, max_steps=5000, limits={"max_wall_ms": 2**40})["message"] == \
        "max execution steps exceeded (5000)"
