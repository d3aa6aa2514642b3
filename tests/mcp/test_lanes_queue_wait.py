"""A run waits for a worker at most its own wall clock (issue 19, item 12): with every run
worker held, the next run is answered `server_busy` once its wall clock has passed instead
of waiting on, and it never starts later."""
from __future__ import annotations

import threading
import time

import anyio
import pytest

from boruna.mcp.lanes import (MIN_QUEUE_WAIT, RUN_WORKERS, Lane, LaneTimeout,
                              queue_wait_seconds)
from boruna.mcp.params import RunParams, RunSealedParams

FOREVER = "fn main() -> Int { let mut i = 0\n while true { i = i + 1 }\n i }"


def test_a_queued_call_past_its_wait_is_refused_and_never_starts():
    release = threading.Event()
    ran = []

    async def main():
        lane = Lane("run", 1, 4)
        async with anyio.create_task_group() as group:
            group.start_soon(lane.run, lambda: release.wait(5))
            await anyio.sleep(0.05)
            start = time.monotonic()
            with pytest.raises(LaneTimeout) as info:
                await lane.run(lambda: ran.append("late"), max_wait=0.2)
            assert info.value.waited == 0.2 and 0.15 < time.monotonic() - start < 3.0
            assert lane.accepted == 1
            release.set()
        assert await lane.run(lambda: "next", max_wait=0.2) == "next"

    anyio.run(main)
    assert ran == []


def test_the_wait_is_the_runs_wall_clock():
    assert queue_wait_seconds("boruna_run", RunParams(source="x")) == 30.0
    assert queue_wait_seconds("boruna_run", RunParams(source="x",
                                                      limits={"max_wall_ms": 1500})) == 1.5
    assert queue_wait_seconds("boruna_run", RunParams(source="x",
                                                      limits={"max_wall_ms": 0})) == MIN_QUEUE_WAIT
    assert queue_wait_seconds("boruna_run_sealed", RunSealedParams(source="x")) == 30.0
    assert queue_wait_seconds("boruna_compile", object()) is None


def test_the_server_answers_a_run_queued_past_its_wall_clock_busy(raw_server_factory,
                                                                   tool_payload):
    server = raw_server_factory()
    server.initialize()
    held = range(10, 10 + RUN_WORKERS)
    for request_id in held:
        server.call(request_id, "boruna_run", {"source": FOREVER, "max_steps": 10**15,
                                               "limits": {"max_wall_ms": 60_000}})
    time.sleep(0.5)
    start = time.monotonic()
    server.call(50, "boruna_run", {"source": "fn main() -> Int { 1 }",
                                   "limits": {"max_wall_ms": 400}})
    answer = tool_payload(server.answers([50])[50])
    assert time.monotonic() - start < 10
    assert answer == {
        "success": False, "protocol_version": 1, "error_kind": "server_busy",
        "message": f"server busy: boruna_run waited 400 ms, its whole wall clock, for one of "
                   f"the {RUN_WORKERS} workers of the run lane and was not started; retry once "
                   "a run is answered, or cancel one",
        "lane": "run", "workers": RUN_WORKERS, "queue_limit": 16, "waited_ms": 400}
    for request_id in held:
        server.cancel(request_id)
    server.call(60, "boruna_run", {"source": "fn main() -> Int { 6 * 7 }"})
    assert tool_payload(server.answers([60])[60])["result"] == 42
    status, stderr = server.close(timeout=60)
    assert status == 0 and "Traceback" not in stderr
