"""Tool calls run in bounded lanes of their own: many long runs never wedge the server.

The attack (issue 15, item 7): 45 concurrent endless runs used to take every thread the
transport needed, so no request, cancel or EOF was read any more.
"""
import pytest

from boruna.mcp.lanes import QUICK_QUEUE, QUICK_WORKERS, RUN_QUEUE, RUN_WORKERS, Lanes

RUN_CAPACITY = RUN_WORKERS + RUN_QUEUE
FOREVER = "fn main() -> Int { let mut i = 0\n while true { i = i + 1 }\n i }"
ONE = "fn main() -> Int { 1 }"


def _start_endless_runs(server, ids):
    for request_id in ids:
        server.call(request_id, "boruna_run", {"source": FOREVER, "max_steps": 10**15,
                                               "limits": {"max_wall_ms": 120_000}})


def _busy_payload(tool):
    return {"success": False, "protocol_version": 1, "error_kind": "server_busy",
            "message": f"server busy: {tool} was refused because {RUN_CAPACITY} calls of the "
                       f"run lane are already accepted ({RUN_WORKERS} running, {RUN_QUEUE} "
                       "waiting); retry once one is answered, or cancel one",
            "lane": "run", "workers": RUN_WORKERS, "queue_limit": RUN_QUEUE}


def test_lane_bounds_and_tool_assignment():
    assert (RUN_WORKERS, RUN_QUEUE, QUICK_WORKERS, QUICK_QUEUE) == (4, 16, 2, 64)
    lanes = Lanes(run_workers=1, run_queue=0, quick_workers=1, quick_queue=3)
    assert [lanes.for_tool(name) is lanes.run for name in (
        "boruna_run", "boruna_run_sealed", "boruna_framework_test", "boruna_compile",
        "boruna_check", "boruna_template_apply", "boruna_capability_list")] == [
        True, True, True, False, False, False, False]
    assert (lanes.run.capacity, lanes.quick.capacity) == (1, 4)


@pytest.fixture
def crowded(raw_server_factory, tool_payload):
    """A server sent 45 endless runs: RUN_CAPACITY accepted (ids 100..), the rest refused."""
    server = raw_server_factory()
    server.initialize()
    _start_endless_runs(server, range(100, 145))
    refused = server.answers(range(100 + RUN_CAPACITY, 145))
    assert [tool_payload(refused[i]) for i in sorted(refused)] == \
        [_busy_payload("boruna_run")] * (45 - RUN_CAPACITY)
    yield server
    status, stderr = server.close(timeout=60)
    assert status == 0 and "Traceback" not in stderr


def test_cheap_calls_are_answered_while_runs_fill_the_run_lane(crowded, tool_payload):
    for request_id in range(200, 250):
        crowded.call(request_id, "boruna_compile", {"source": ONE})
    compiled = crowded.answers(range(200, 250))
    assert [tool_payload(compiled[i]) for i in range(200, 250)] == [{
        "success": True, "protocol_version": 1,
        "module": {"name": "module", "version": 1, "functions": 1, "types": 0, "constants": 1,
                   "entry": 0}}] * 50
    crowded.call(300, "boruna_run_sealed", {"source": ONE})
    assert tool_payload(crowded.answers([300])[300]) == _busy_payload("boruna_run_sealed")


def test_cancelling_frees_lane_slots(crowded, tool_payload):
    for request_id in range(100, 100 + RUN_CAPACITY):
        crowded.cancel(request_id)
    crowded.call(400, "boruna_run", {"source": "fn main() -> Int { 6 * 7 }"})
    assert tool_payload(crowded.answers([400])[400]) == {
        "success": True, "protocol_version": 1, "result": 42, "steps": 5, "ui_output": []}


def test_eof_ends_the_server_while_runs_fill_every_worker(raw_server_factory):
    """EOF is read although every run worker is busy; after the grace period for in-flight
    answers the process ends and each run still in flight is answered `Connection closed`."""
    server = raw_server_factory()
    server.initialize()
    ids = range(10, 10 + RUN_CAPACITY)
    _start_endless_runs(server, ids)
    assert server.request(2, "ping", {}) == {"jsonrpc": "2.0", "id": 2, "result": {}}
    status, stderr = server.close(timeout=60)
    assert status == 0 and "Traceback" not in stderr
    closed = {m["id"]: m["error"] for m in server.drain() if "error" in m}
    assert closed == {i: {"code": -32000, "message": "Connection closed"} for i in ids}
