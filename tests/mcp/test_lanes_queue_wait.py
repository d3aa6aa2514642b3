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


def test_runs_blocked_on_slow_io_free_their_workers_by_their_deadlines(raw_server_factory,
                                                                        tool_payload):
    """The attack of item 12 with --live: four runs wait on a server that never answers;
    they end at their 1.5 s wall clock, so the next trivial run is answered soon after,
    not after the handlers' own 30 s timeouts."""
    import socket
    import subprocess
    import sys
    import threading as _threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held = []
    _threading.Thread(target=lambda: [held.append(listener.accept()) for _ in range(8)],
                      daemon=True).start()
    port = listener.getsockname()[1]

    class LiveServer(raw_server_factory):
        def __init__(self):
            self.proc = subprocess.Popen([sys.executable, "-m", "boruna.mcp", "--live"],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, encoding="utf-8")
            import queue
            self.lines = queue.Queue()
            self._pump_thread = _threading.Thread(target=self._pump, daemon=True)
            self._pump_thread.start()

    server = LiveServer()
    server.initialize()
    fetch = ('fn main() -> String !{net.fetch} { net_fetch("http://127.0.0.1:' + str(port)
             + '/") }')
    policy = {"default_allow": True, "net_policy": {"allowed_domains": ["127.0.0.1"]}}
    for request_id in range(10, 10 + RUN_WORKERS):
        server.call(request_id, "boruna_run", {"source": fetch, "policy": policy,
                                               "limits": {"max_wall_ms": 1500}})
    time.sleep(0.3)
    start = time.monotonic()
    server.call(50, "boruna_run", {"source": "fn main() -> Int { 6 * 7 }",
                                   "limits": {"max_wall_ms": 20_000}})
    answers = server.answers([50, *range(10, 10 + RUN_WORKERS)])
    waited = time.monotonic() - start
    assert tool_payload(answers[50])["result"] == 42
    assert waited < 10                              # not the 30 s of the handlers' timeout
    for request_id in range(10, 10 + RUN_WORKERS):
        assert tool_payload(answers[request_id])["message"] == \
            "wall-clock execution limit of 1500 ms exceeded"
    status, stderr = server.close(timeout=60)
    listener.close()
    assert status == 0 and "Traceback" not in stderr
