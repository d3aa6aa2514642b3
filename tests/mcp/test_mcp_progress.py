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


def test_progress_reports_cumulative_steps_and_steps_match_a_plain_run(mcp_server):
    plain, _ = mcp_server.call("boruna_run", {"source": COUNT_80K})
    assert plain == {"success": True, "protocol_version": 1, "result": 80000, "steps": 720009,
                     "ui_output": []}
    payload, received, wire = _call_with_progress(mcp_server, {"source": COUNT_80K})
    assert payload == plain
    expected = [float(n * 100_000) for n in range(1, 8)]
    assert _progress_values(wire) == expected
    assert [r[0] for r in received] == expected
    assert all(total is None for _, total, _m in received)
    notifications = [m for m in wire if m.get("method") == "notifications/progress"]
    assert all("total" not in m["params"] for m in notifications)


def test_all_notifications_arrive_before_the_response(mcp_server):
    _payload, _received, wire = _call_with_progress(mcp_server, {"source": COUNT_80K})
    kinds = ["progress" if m.get("method") == "notifications/progress" else
             "response" if "result" in m or "error" in m else "other" for m in wire]
    kinds = [k for k in kinds if k != "other"]
    assert kinds == ["progress"] * 7 + ["response"]


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
                                "steps": 250001}
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
