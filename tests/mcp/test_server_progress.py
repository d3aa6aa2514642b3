"""Progress notifications, concurrent calls during a long run, and cancellation."""
import os
import time

import anyio
import pytest

@pytest.fixture(scope="module")
def mcp_server(server_factory):
    """Its own server: these tests load it with long runs and watch its CPU time."""
    with server_factory() as handle:
        yield handle


COUNT_80K = """fn main() -> Int {
    let mut i = 0
    while i < 80000 {
        i = i + 1
    }
    i
}
"""
LOOP_FOREVER = """fn main() -> Int {
    let mut i = 0
    while true {
        i = i + 1
    }
    i
}
"""
INPUT_THEN_LOOP = """fn main() -> Int !{step.input} {
    let _a: String = step_input("x")
    let mut i = 0
    while i < 20000 {
        i = i + 1
    }
    i
}
"""


def _call_with_progress(server, arguments):
    """boruna_run with a progress token; returns (payload, notifications, wire slice)."""
    received = []

    async def on_progress(progress, total, message):
        received.append((progress, total, message))

    start = len(server.wire)
    payload, _ = server.call("boruna_run", arguments, progress_callback=on_progress)
    return payload, received, server.wire[start:]


def _progress_values(wire):
    return [m["params"]["progress"] for m in wire if m.get("method") == "notifications/progress"]


def _assert_throttled_slices(values, last):
    """Reports are time-throttled: which slices in between are reported depends on the
    clock, but the first slice and the last one before the end are always reported, and
    every report is a cumulative slice boundary, increasing."""
    assert values[0] == 100_000.0 and values[-1] == last
    assert all(v % 100_000 == 0 for v in values)
    assert values == sorted(set(values))


def test_progress_reports_cumulative_steps_and_steps_match_a_plain_run(mcp_server):
    plain, _ = mcp_server.call("boruna_run", {"source": COUNT_80K})
    assert plain == {"success": True, "protocol_version": 1, "result": 80000, "steps": 720009,
                     "ui_output": []}
    payload, received, wire = _call_with_progress(mcp_server, {"source": COUNT_80K})
    assert payload == plain
    values = _progress_values(wire)
    _assert_throttled_slices(values, last=700_000.0)
    assert [r[0] for r in received] == values
    assert all(total is None for _, total, _m in received)
    notifications = [m for m in wire if m.get("method") == "notifications/progress"]
    assert all("total" not in m["params"] for m in notifications)


def test_all_notifications_arrive_before_the_response(mcp_server):
    _payload, _received, wire = _call_with_progress(mcp_server, {"source": COUNT_80K})
    kinds = ["progress" if m.get("method") == "notifications/progress" else
             "response" if "result" in m or "error" in m else "other" for m in wire]
    kinds = [k for k in kinds if k != "other"]
    assert kinds == ["progress"] * len(_progress_values(wire)) + ["response"]
    assert len(kinds) >= 3


def test_short_run_sends_no_notifications(mcp_server):
    payload, received, wire = _call_with_progress(mcp_server, {"source": "fn main() -> Int { 7 }"})
    assert payload["result"] == 7 and payload["steps"] == 3
    assert received == [] and _progress_values(wire) == []


def test_step_limit_trips_at_the_same_step_with_a_token(mcp_server):
    arguments = {"source": LOOP_FOREVER, "max_steps": 250_000}
    plain, _ = mcp_server.call("boruna_run", arguments)
    payload, received, _wire = _call_with_progress(mcp_server, arguments)
    assert plain == payload == {"success": False, "protocol_version": 1,
                                "error_kind": "runtime_error",
                                "message": "max execution steps exceeded (250000)",
                                "steps": 250001, "location": {"line": 3, "col": 5, "function": "main"}, "stack": [{"function": "main", "line": 3, "col": 5}]}
    assert [r[0] for r in received] == [100000.0, 200000.0]


def test_progress_message_names_capability_calls_of_the_slice(mcp_server):
    payload, received, _wire = _call_with_progress(mcp_server, {"source": INPUT_THEN_LOOP})
    assert payload["success"] is True and payload["result"] == 20000
    assert received[0] == (100000.0, None, "cap: step.input")
    assert all(message is None for _p, _t, message in received[1:])


def test_other_requests_are_answered_while_a_long_run_is_in_progress(mcp_server):
    finished = []

    async def scenario():
        async def long_run():
            await mcp_server.session.call_tool("boruna_run", {
                "source": LOOP_FOREVER, "max_steps": 2**62, "limits": {"max_wall_ms": 4000}})
            finished.append(("run", time.monotonic()))

        async with anyio.create_task_group() as tg:
            tg.start_soon(long_run)
            await anyio.sleep(0.3)
            for _ in range(3):
                result = await mcp_server.session.call_tool("boruna_capability_list", {})
                assert result.content[0].text.startswith('{\n  "success": true')
                finished.append(("list", time.monotonic()))

    started = time.monotonic()
    mcp_server.run(scenario)
    assert [name for name, _ in finished] == ["list", "list", "list", "run"]
    assert finished[2][1] - started < 3.0


def _cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])       # utime + stime
    return ticks / os.sysconf("SC_CLK_TCK")


def test_a_cancelled_run_stops_its_vm(mcp_server):
    assert len(mcp_server.process_ids) == 1
    pid = mcp_server.process_ids[0]

    async def cancel_after_half_a_second():
        with anyio.move_on_after(0.5) as scope:
            await mcp_server.session.call_tool("boruna_run", {
                "source": LOOP_FOREVER, "max_steps": 2**62, "limits": {"max_wall_ms": 30000}})
        return scope.cancelled_caught

    assert mcp_server.run(cancel_after_half_a_second) is True
    time.sleep(0.5)                                   # let the worker notice the cancel
    before = _cpu_seconds(pid)
    time.sleep(1.0)
    used = _cpu_seconds(pid) - before
    assert used < 0.5, f"server kept computing after cancellation ({used:.2f}s CPU in 1s)"
    payload, _ = mcp_server.call("boruna_run", {"source": "fn main() -> Int { 1 + 2 }"})
    assert payload["result"] == 3


def test_an_endless_cheap_loop_sends_about_ten_notifications_a_second(mcp_server):
    """Issue 15, item 12: ~1,300 notifications a second used to flood the client."""
    started = time.monotonic()
    payload, received, wire = _call_with_progress(mcp_server, {
        "source": LOOP_FOREVER, "max_steps": 2**62, "limits": {"max_wall_ms": 1500}})
    elapsed = time.monotonic() - started
    assert payload["error_kind"] == "limit_exceeded" and payload["limit_kind"] == "wall_ms"
    values = _progress_values(wire)
    assert 2 <= len(values) <= 10 * elapsed + 2
    assert values == sorted(set(values)) and all(v % 100_000 == 0 for v in values)
    assert [r[0] for r in received] == values


# Each step of these loops costs ~1 ms (a replace over a 1 MiB string): 100,000 steps, the
# slice between two looks at the cancel event outside the VM, take minutes.
EXPENSIVE_LOOP = """fn spin() -> Int {
    let mut s = "ab"
    let mut n = 0
    while n < 19 {
        s = s ++ s
        n = n + 1
    }
    let mut t = s
    while true {
        t = __builtin_string_replace(s, "a", "c")
    }
    0
}
"""
EXPENSIVE_APP = """type State { n: Int }
type Msg { tag: String, payload: Int }
type UpdateResult { state: State, effects: List<Int> }

fn init() -> State { State { n: 0 } }

fn update(state: State, msg: Msg) -> UpdateResult {
    UpdateResult { state: State { n: spin() }, effects: [] }
}

fn view(state: State) -> Int { state.n }
""" + EXPENSIVE_LOOP
EXPENSIVE_CALLS = {
    "boruna_run": {"source": EXPENSIVE_LOOP + "fn main() -> Int { spin() }\n",
                   "max_steps": 2**62, "limits": {"max_wall_ms": 120_000}},
    "boruna_run_sealed": {"source": EXPENSIVE_LOOP + "fn main() -> Int { spin() }\n",
                          "max_steps": 2**62},
    "boruna_framework_test": {"source": EXPENSIVE_APP, "messages": ["tick"]},
}


@pytest.mark.parametrize("tool", sorted(EXPENSIVE_CALLS))
def test_cancel_stops_expensive_steps_within_a_second(mcp_server, tool):
    """Issue 15, items 8 and 9: the VM itself sees the cancel event (every 1,024 steps and
    after every builtin), for runs, sealed runs and framework tests alike."""
    pid = mcp_server.process_ids[0]

    async def cancel_after_a_second():
        with anyio.move_on_after(1.0) as scope:
            await mcp_server.session.call_tool(tool, EXPENSIVE_CALLS[tool])
        return scope.cancelled_caught

    assert mcp_server.run(cancel_after_a_second) is True
    time.sleep(1.0)
    before = _cpu_seconds(pid)
    time.sleep(1.0)
    used = _cpu_seconds(pid) - before
    assert used < 0.5, f"server kept computing after cancellation ({used:.2f}s CPU in 1s)"


SPIN_APP = """type State { n: Int }
type Msg { tag: String, payload: Int }
type UpdateResult { state: State, effects: List<Int> }

fn init() -> State { State { n: 0 } }

fn update(state: State, msg: Msg) -> UpdateResult {
    UpdateResult { state: State { n: spin(1000000) }, effects: [] }
}

fn view(state: State) -> Int { state.n }

fn spin(n: Int) -> Int {
    let mut i = 0
    while i < n {
        i = i + 1
    }
    i
}
"""


def test_framework_test_has_a_total_step_bound(mcp_server):
    """Issue 15, item 9: each update takes 9,000,000 steps (under the 10,000,000 a VM call
    may take); the whole test may take 100,000,000."""
    payload, _ = mcp_server.call("boruna_framework_test", {"source": SPIN_APP,
                                                           "messages": ["tick"] * 20})
    assert payload == {
        "success": False, "protocol_version": 1, "error_kind": "limit_exceeded",
        "message": "cycle 12 failed: runtime error: total step budget exceeded "
                   "(100000000 steps)",
        "limit_kind": "total_steps", "limit": 100_000_000, "phase": "execution",
        "cycles_completed": 11}
