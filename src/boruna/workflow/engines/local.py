"""The local engine: steps run on a pool of threads of this process (`--concurrency N`)."""
from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Optional

from boruna.workflow.engines.base import StepTask
from boruna.workflow.engines.step import run_step


class LocalExecutor:
    name = "local"

    def __init__(self, concurrency: int = 1):
        self.pool = ThreadPoolExecutor(max_workers=max(1, concurrency),
                                       thread_name_prefix="boruna-step")

    def submit(self, task: StepTask, journal, cancel: threading.Event,
               on_progress=None) -> Future:
        return self.pool.submit(run_step, task, journal, cancel, on_progress)

    def shutdown(self) -> None:
        self.pool.shutdown(wait=True)
