"""The executor interface the scheduler drives: submit a `StepTask`, get a future of its
`StepOutcome`. An engine runs the task with `step.run_step` wherever it likes; every
capability call is sent to `journal` (a callable of the coordinating process) before the
step continues past it. Another engine (Ray, ...) is a new file implementing `Executor`."""
from __future__ import annotations

import threading
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Callable, Optional, Protocol


@dataclass
class StepTask:
    """Everything a step's run depends on, as plain (picklable) data."""

    run_id: str
    step_id: str
    attempt: int
    source: str
    policy: object                  # a policy value (`"allow-all"`, a dict, ...)
    capabilities: list              # the step's allowed capabilities ([] = only step.input)
    inputs: dict                    # local name → plain JSON value
    outputs: dict                   # declared outputs (name → type label)
    replay: list                    # journaled effects of this attempt, in order
    max_calls: Optional[int] = None
    max_steps: Optional[int] = None
    timeout_ms: Optional[int] = None
    handlers: object = None         # runtime.live.HandlerConfig; None = the mock
    libs_dir: Optional[str] = None
    delegated: list = field(default_factory=list)   # wire names the run's caller answers
    resume_snapshot: Optional[bytes] = None  # go on from this VM snapshot (an answered call)
    resume_seq: Optional[int] = None         # ... whose answer is `replay[resume_seq - 1]`


@dataclass
class StepOutcome:
    ok: bool
    outputs: dict = field(default_factory=dict)
    error_class: Optional[str] = None
    error: Optional[str] = None
    vm_steps: int = 0
    effects: int = 0                # capability calls answered (replayed + live)
    replayed: int = 0
    aborted: Optional[str] = None   # the journal could not be written: the step stopped
    aborted_kind: Optional[str] = None
    cancelled: bool = False
    suspended: Optional[bytes] = None   # stopped at a delegated call: the VM's snapshot
    request: Optional[dict] = None      # ... and the call: {"seq", "capability", "args"}
    resumed_at: Optional[int] = None    # went on from `resume_snapshot`, taken at this step


JournalFn = Callable[..., None]
ProgressFn = Callable[[str, int], None]


class Executor(Protocol):
    name: str

    def submit(self, task: StepTask, journal: JournalFn, cancel: threading.Event,
               on_progress: Optional[ProgressFn] = None) -> Future: ...

    def shutdown(self) -> None: ...
