"""Tool calls run on worker threads of the server's own, in two bounded lanes.

A lane is a fixed set of long-lived worker threads, started with the server, and a bound on
the calls waiting for one of them. A call beyond `workers + queue_limit` accepted calls of
its lane is refused at once (`LaneBusy`), never queued without bound. The runs
(`RUN_TOOLS`) take the run lane and every other tool the quick lane, so however many runs
are in progress, a compile or a check is answered by a quick worker. A call leaves its lane
when it is answered or cancelled: a cancelled call that has not started never starts, and a
running one stops at its cancel event (the VM checks it every 1,024 steps).

A run waits in its lane's queue at most its own wall clock (`limits.max_wall_ms`, else
DEFAULT_MAX_WALL_MS: `queue_wait_seconds`): one still queued then never starts and is
answered `server_busy` (`LaneTimeout`) instead of waiting on. Once started, a run is bounded
by its wall clock (blocking capability handlers included: they stop at the run's deadline),
so a worker is never held longer than the wall clock of the run it serves.

The transport (stdin, stdout) and the event loop never wait for a lane (`transport.py`).
"""
from __future__ import annotations

import asyncio
import logging
import queue
import threading

import anyio

from boruna.core.limits import DEFAULT_MAX_WALL_MS
from boruna.mcp.loop_calls import loop_caller

log = logging.getLogger("boruna.mcp")

RUN_TOOLS = frozenset({"boruna_run", "boruna_run_sealed", "boruna_framework_test",
                       "boruna_workflow_run", "boruna_workflow_resume", "boruna_workflow_decide",
                       "boruna_resume"})
RUN_WORKERS, RUN_QUEUE = 4, 16
QUICK_WORKERS, QUICK_QUEUE = 2, 64
MIN_QUEUE_WAIT = 0.1
"""Seconds any run may wait for a worker (a tiny wall clock still gets a free worker)."""


class LaneBusy(Exception):
    """A call arrived while its lane already held `capacity` accepted calls."""

    def __init__(self, lane: "Lane"):
        super().__init__(lane.name)
        self.lane = lane


class LaneTimeout(LaneBusy):
    """A call waited `waited` seconds, its whole wall clock, for a worker of its lane."""

    def __init__(self, lane: "Lane", waited: float):
        super().__init__(lane)
        self.waited = waited


def queue_wait_seconds(tool_name: str, args) -> float | None:
    """How long a call may wait for a worker: a run tool's wall clock (its
    `limits.max_wall_ms`, else DEFAULT_MAX_WALL_MS); None (no bound) for the other tools."""
    if tool_name not in RUN_TOOLS:
        return None
    limits = getattr(args, "limits", None)
    wall_ms = getattr(limits, "max_wall_ms", None) if limits is not None else None
    if type(wall_ms) is not int or wall_ms < 0:
        wall_ms = DEFAULT_MAX_WALL_MS
    return max(MIN_QUEUE_WAIT, wall_ms / 1000.0)


class _Job:
    """One call handed to a worker. On asyncio the caller awaits `future` (resolved on the
    loop by `finish`, or failed by `expire`); elsewhere it waits for `done`."""

    __slots__ = ("fn", "call_loop", "done", "future", "outcome", "dropped", "started", "lock")

    def __init__(self, fn, call_loop, future=None):
        self.fn = fn
        self.call_loop = call_loop    # a thread-safe call into the loop awaiting the job
        self.future = future
        self.done = anyio.Event() if future is None else None
        self.outcome = None
        self.dropped = False          # cancelled: a worker that has not begun it skips it
        self.started = False          # a worker has begun it (under `lock`)
        self.lock = threading.Lock()

    def finish(self, outcome) -> None:
        """On the loop: the worker's answer."""
        if self.future is None:
            self.outcome = outcome
            self.done.set()
        elif not self.future.done():
            self.future.set_result(outcome)

    def expire(self, lane: "Lane", waited: float) -> None:
        """On the loop, `waited` seconds after the call was queued: a job no worker has
        begun is dropped and its call answered LaneTimeout; a running one is waited for."""
        with self.lock:
            if self.started:
                return
            self.dropped = True
        if not self.future.done():
            self.future.set_exception(LaneTimeout(lane, waited))


class Lane:
    """`await lane.run(fn)` runs `fn()` on one of the lane's workers and returns its value
    (`fn` must not raise: its exceptions come back as the value)."""

    def __init__(self, name: str, workers: int, queue_limit: int):
        self.name = name
        self.queue_limit = queue_limit
        self.accepted = 0             # calls queued or running; touched by the event loop only
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self.workers = 0
        for number in range(1, workers + 1):
            try:
                threading.Thread(target=self._work, name=f"boruna-mcp-{name}-{number}",
                                 daemon=True).start()
            except RuntimeError:      # no room for another thread (an address-space limit)
                log.warning("lane %s: started %d of %d workers", name, self.workers, workers)
                break
            self.workers += 1

    @property
    def capacity(self) -> int:
        """Calls the lane accepts at once (none when not one worker could be started)."""
        return self.workers + self.queue_limit if self.workers else 0

    def has_idle_worker(self) -> bool:
        """Whether a call accepted now would start at once (fewer calls than workers)."""
        return self.accepted < self.workers

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            with job.lock:
                if job.dropped:
                    continue
                job.started = True
            try:
                outcome = job.fn()
            except BaseException as exc:  # noqa: BLE001 - a worker must survive anything
                outcome = exc
            try:                          # the worker moves on at once, not waiting for the loop
                job.call_loop(job.finish, outcome)
            except Exception:             # the event loop has ended: nobody waits
                log.debug("lane %s: answer not delivered", self.name, exc_info=True)

    async def run(self, fn, max_wait: float | None = None):
        """`fn()`'s value; LaneBusy when the lane is full, LaneTimeout when no worker began
        it within `max_wait` seconds (None: no bound)."""
        if self.accepted >= self.capacity:
            raise LaneBusy(self)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:          # another backend than asyncio
            loop = None
        if loop is None:
            return await self._run_any(fn, max_wait)
        self.accepted += 1
        job = _Job(fn, loop.call_soon_threadsafe, loop.create_future())
        timer = None
        try:
            self._jobs.put(job)
            if max_wait is not None:
                timer = loop.call_later(max_wait, job.expire, self, max_wait)
            return await job.future
        finally:
            if timer is not None:
                timer.cancel()
            with job.lock:
                job.dropped = True
            self.accepted -= 1

    async def _run_any(self, fn, max_wait: float | None):
        """`run` on any anyio backend (anyio's event and timeout)."""
        self.accepted += 1
        job = _Job(fn, loop_caller())
        try:
            self._jobs.put(job)
            if max_wait is not None:
                with anyio.move_on_after(max_wait):
                    await job.done.wait()
                if not job.done.is_set():
                    with job.lock:
                        if not job.started:
                            job.dropped = True
                            raise LaneTimeout(self, max_wait)
            await job.done.wait()
            return job.outcome
        finally:
            with job.lock:
                job.dropped = True
            self.accepted -= 1


class Lanes:
    """The run lane and the quick lane."""

    def __init__(self, run_workers: int = RUN_WORKERS, run_queue: int = RUN_QUEUE,
                 quick_workers: int = QUICK_WORKERS, quick_queue: int = QUICK_QUEUE):
        self.run = Lane("run", run_workers, run_queue)
        self.quick = Lane("quick", quick_workers, quick_queue)

    def for_tool(self, name: str) -> Lane:
        return self.run if name in RUN_TOOLS else self.quick
