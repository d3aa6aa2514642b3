"""The local engine: steps run in this process, on a pool of `--concurrency N` threads (with
N = 1, on the scheduler's own thread: no hand-off per step; the run's cancel event still
stops a running step, as the VM watches it)."""
from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor

from boruna.workflow.engines.base import StepTask
from boruna.workflow.engines.step import run_step


class LocalExecutor:
    name = "local"

    def __init__(self, concurrency: int = 1):
        self.pool = None
        if concurrency > 1:
            self.pool = ThreadPoolExecutor(max_workers=concurrency,
                                           thread_name_prefix="boruna-step")

    def submit(self, task: StepTask, journal, cancel: threading.Event,
               on_progress=None) -> Future:
        if self.pool is not None:
            return self.pool.submit(run_step, task, journal, cancel, on_progress)
        done: Future = Future()
        try:
            done.set_result(run_step(task, journal, cancel, on_progress))
        except BaseException as exc:  # noqa: BLE001 - delivered like a pool's failure
            done.set_exception(exc)
        return done

    def shutdown(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True)
