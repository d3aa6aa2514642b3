"""The DAG scheduler: which steps are ready, start them, record what they return.

A step starts as soon as every step it depends on (edges, `depends_on`, the producers of its
inputs) has completed, up to `concurrency` steps at once; a failed step's dependents are
skipped and unrelated branches go on. A failure whose class the step's `retry` lists is
retried after 100 ms · 2^(attempt-1), capped at 5 s. An approval gate or an external trigger
that becomes ready waits (`awaiting_approval`, `awaiting_external_event`); when nothing else
can run the run pauses. A source step that reaches a capability call its run or its
`handlers` delegate to the caller stops there (`awaiting_input`): the journal stores its VM
snapshot and the request; once answered it goes on from that snapshot, not from its start.
The scheduler asks the journal for state and tells it every change; the engine only runs
steps.
"""
from __future__ import annotations

import heapq
import secrets
import threading
import time
from concurrent.futures import FIRST_COMPLETED, wait
from typing import Callable, Optional

from boruna.workflow.engines.base import StepTask
from boruna.workflow.journal.store import TERMINAL_STEP, WAITING_STEP, JournalError, now_ms
from boruna.workflow.model import (ApprovalGateStep, ExternalTriggerStep, SourceStep,
                                   WorkflowDefinition, dependencies, step_delegated, step_refs)

BACKOFF_BASE_MS = 100
BACKOFF_CAP_MS = 5_000


def backoff_ms(attempt: int) -> int:
    """The wait before attempt `attempt + 1`: 100 ms · 2^(attempt-1), at most 5 s."""
    return min(BACKOFF_BASE_MS * (2 ** max(0, attempt - 1)), BACKOFF_CAP_MS)


class Scheduler:
    def __init__(self, journal, run_id: str, definition: WorkflowDefinition, executor,
                 *, inputs: dict, policy, concurrency: int = 1, handlers=None,
                 libs_dir=None, delegated=(), cancel: Optional[threading.Event] = None,
                 on_event: Optional[Callable[[dict], None]] = None, on_progress=None):
        self.journal = journal
        self.run_id = run_id
        self.definition = definition
        self.workflow = definition.workflow
        self.executor = executor
        self.inputs = inputs
        self.policy = policy
        self.concurrency = max(1, int(concurrency))
        self.handlers = handlers
        self.libs_dir = None if libs_dir is None else str(libs_dir)
        self.delegated = tuple(delegated or ())    # the run's delegated capabilities
        self.cancel = cancel if cancel is not None else threading.Event()
        self.on_event = on_event
        self.on_progress = on_progress
        self.deps = dependencies(self.workflow)
        self.dependents: dict[str, list[str]] = {sid: [] for sid in self.workflow.steps}
        for sid, ds in self.deps.items():
            for d in ds:
                self.dependents.setdefault(d, []).append(sid)

    def _emit(self, event: str, step: Optional[str] = None, **data) -> None:
        if self.on_event is not None:
            try:
                self.on_event(dict(event=event, step=step, **data))
            except Exception:  # noqa: BLE001 - a lost notification never stops the run
                pass

    # ------------------------------------------------------------------ state

    def _load(self):
        self.states = self.journal.steps(self.run_id)
        self.status = {sid: row["status"] for sid, row in self.states.items()}
        self.outputs = {sid: row["outputs"] for sid, row in self.states.items()
                        if row["status"] == "completed"}
        self.remaining = {sid: sum(1 for d in self.deps[sid] if self.status.get(d) != "completed")
                          for sid in self.workflow.steps}
        self.ready: list = []      # heap of (due_ms, step id)
        for sid, st in self.status.items():
            if st in ("pending", "running") and self.remaining[sid] == 0:
                heapq.heappush(self.ready, (self.states[sid]["retry_at_ms"] or 0, sid))

    def _skip_dependents_of(self, failed: str) -> None:
        skipped: dict[str, str] = {}
        stack = [failed]
        while stack:
            for nxt in self.dependents.get(stack.pop(), ()):
                if self.status.get(nxt) in ("pending",) and nxt not in skipped:
                    skipped[nxt] = failed
                    stack.append(nxt)
        if skipped:
            self.journal.skip_steps(self.run_id, skipped)
            for sid in skipped:
                self.status[sid] = "skipped"
                self._emit("step_skipped", sid, because=skipped[sid])

    def _skip_blocked(self) -> None:
        """Pending steps behind a failed or skipped one (after a resume)."""
        for sid, st in list(self.status.items()):
            if st in ("failed", "skipped"):
                self._skip_dependents_of(sid)

    # ------------------------------------------------------------------ starting

    def _resolve(self, sid: str) -> tuple[Optional[dict], Optional[str]]:
        values = {}
        for ref in step_refs(self.workflow.steps[sid]):
            if ref.step is None:
                if ref.name not in self.inputs:
                    return None, f"run input '{ref.name}' was not given (--input {ref.name}=JSON)"
                values[ref.local] = self.inputs[ref.name]
            else:
                produced = self.outputs.get(ref.step) or {}
                if ref.name not in produced:
                    return None, f"input '{ref.local}': step '{ref.step}' has no output '{ref.name}'"
                values[ref.local] = produced[ref.name]
        return values, None

    def _start(self, sid: str, running: dict) -> None:
        step = self.workflow.steps[sid]
        if isinstance(step, ApprovalGateStep):
            wait_for = {"required_role": step.required_role, "condition": step.condition}
            self.journal.await_step(self.run_id, sid, "awaiting_approval", wait_for, wait_for)
            self.status[sid] = "awaiting_approval"
            self._emit("awaiting_approval", sid, required_role=step.required_role)
            return
        if isinstance(step, ExternalTriggerStep):
            token = secrets.token_hex(16)
            self.journal.await_step(self.run_id, sid, "awaiting_external_event",
                                    {"token": token, "description": step.description},
                                    {"description": step.description})
            self.status[sid] = "awaiting_external_event"
            self._emit("awaiting_external_event", sid, token=token)
            return
        assert isinstance(step, SourceStep)
        values, problem = self._resolve(sid)
        attempt, replay = self.journal.start_attempt(self.run_id, sid)
        self.status[sid] = "running"
        if problem is not None:
            self._finish_failure(sid, attempt, "input_resolution", problem, 0, step)
            return
        budget = step.budget
        snapshot, seq = None, None
        delegated = step_delegated(step, self.delegated)
        suspension = self.journal.suspension(self.run_id, sid) if delegated else None
        if suspension is not None and suspension["answered"] and \
                suspension["attempt"] == attempt and len(replay) >= suspension["seq"]:
            snapshot, seq = suspension["snapshot"], suspension["seq"]
        task = StepTask(self.run_id, sid, attempt, self.definition.sources.get(sid, ""),
                        self.policy, list(step.capabilities), values, dict(step.outputs),
                        replay, max_calls=budget.max_calls if budget else None,
                        max_steps=budget.max_steps if budget else None,
                        timeout_ms=step.timeout_ms, handlers=self.handlers,
                        libs_dir=self.libs_dir,
                        delegated=delegated,
                        resume_snapshot=snapshot, resume_seq=seq)
        journal, run_id = self.journal, self.run_id

        def record(seq, capability, args, result=None, error=None):
            journal.record_effect(run_id, sid, attempt, seq, capability, args, result, error)

        event = self.cancel         # the run's cancellation stops its steps at once
        future = self.executor.submit(task, record, event, self.on_progress)
        running[future] = (sid, attempt, event)
        self._emit("step_started", sid, attempt=attempt, replaying=len(replay),
                   **({"from_snapshot": True} if snapshot is not None else {}))

    # ------------------------------------------------------------------ finishing

    def _finish_failure(self, sid, attempt, error_class, error, vm_steps, step) -> None:
        retry = step.retry
        if (retry is not None and error_class in retry.retry_classes()
                and attempt < retry.max_attempts):
            due = now_ms() + backoff_ms(attempt)
            self.journal.fail_step(self.run_id, sid, error_class, error, retry_at_ms=due,
                                   vm_steps=vm_steps, data={"attempt": attempt,
                                                            "backoff_ms": backoff_ms(attempt)})
            self.status[sid] = "pending"
            heapq.heappush(self.ready, (due, sid))
            self._emit("step_retrying", sid, attempt=attempt, error_kind=error_class,
                       error=error, backoff_ms=backoff_ms(attempt))
            return
        self.journal.fail_step(self.run_id, sid, error_class, error, vm_steps=vm_steps,
                               data={"attempt": attempt})
        self.status[sid] = "failed"
        self._emit("step_failed", sid, error_kind=error_class, error=error)
        self._skip_dependents_of(sid)

    def complete(self, sid: str, outputs: dict) -> None:
        """A step completed (run, approved or triggered): its dependents may become ready."""
        self.status[sid] = "completed"
        self.outputs[sid] = outputs
        for nxt in self.dependents.get(sid, ()):
            self.remaining[nxt] -= 1
            if self.remaining[nxt] == 0 and self.status.get(nxt) in ("pending", "running"):
                heapq.heappush(self.ready, (0, nxt))

    def _finish(self, sid: str, attempt: int, outcome) -> None:
        step = self.workflow.steps[sid]
        if outcome.aborted is not None:
            raise JournalError(outcome.aborted_kind or "journal_error", outcome.aborted)
        if outcome.cancelled:
            self.journal.interrupt_step(self.run_id, sid)
            self.status[sid] = "pending"
            return
        if outcome.suspended is not None:
            req = outcome.request
            self.journal.suspend_step(self.run_id, sid, attempt, req["seq"], req["capability"],
                                      req["args"], outcome.suspended, outcome.vm_steps)
            self.status[sid] = "awaiting_input"
            self._emit("awaiting_input", sid, capability=req["capability"])
            return
        resumed = {} if outcome.resumed_at is None else {"resumed_at": outcome.resumed_at}
        if outcome.ok:
            self.journal.complete_step(self.run_id, sid, outcome.outputs, outcome.vm_steps,
                                       data=dict(attempt=attempt, **resumed))
            self._emit("step_completed", sid, outputs=outcome.outputs, steps=outcome.vm_steps,
                       replayed=outcome.replayed, **resumed)
            self.complete(sid, outcome.outputs)
            return
        self._finish_failure(sid, attempt, outcome.error_class, outcome.error,
                             outcome.vm_steps, step)

    # ------------------------------------------------------------------ the loop

    def drive(self) -> str:
        """Run until every step is done, the run pauses, or it is cancelled; the run's
        status. A `JournalError` stops everything and propagates (the run stays resumable)."""
        self._load()
        self._skip_blocked()
        running: dict = {}
        try:
            while True:
                if self.cancel.is_set():
                    self._drain(running, cancel=True)
                    return "cancelled"
                now = now_ms()
                while self.ready and len(running) < self.concurrency:
                    due, sid = self.ready[0]
                    if due > now:
                        break
                    heapq.heappop(self.ready)
                    if self.status.get(sid) not in ("pending", "running") or \
                            any(f for f, v in running.items() if v[0] == sid):
                        continue
                    self._start(sid, running)
                if not running:
                    self._refresh_waiting()
                    if self.ready and self.ready[0][0] <= now_ms():
                        continue
                    if self.ready:
                        delay = max(0.0, (self.ready[0][0] - now_ms()) / 1000)
                        self.cancel.wait(min(delay, 0.25))
                        continue
                    return self._final_status()
                timeout = 0.05
                if self.ready and len(running) < self.concurrency:
                    timeout = max(0.0, min(timeout, (self.ready[0][0] - now_ms()) / 1000))
                done, _ = wait(list(running), timeout=timeout, return_when=FIRST_COMPLETED)
                if not done:
                    self._refresh_waiting()
                for future in sorted(done, key=lambda f: running[f][0]):
                    sid, attempt, _event = running.pop(future)
                    self._finish(sid, attempt, future.result())
        except BaseException:
            self._drain(running, cancel=True)
            raise

    def _drain(self, running: dict, cancel: bool) -> None:
        """Stop the running steps; each stopped attempt keeps its journal for replay."""
        for _sid, _attempt, event in running.values():
            if cancel:
                event.set()
        for future, (sid, attempt, _event) in list(running.items()):
            try:
                outcome = future.result()
            except BaseException:  # noqa: BLE001
                continue
            try:
                if outcome.ok or outcome.suspended is not None:
                    self._finish(sid, attempt, outcome)
                elif outcome.aborted is None:
                    self.journal.interrupt_step(self.run_id, sid)
            except JournalError:
                pass
        running.clear()

    def _refresh_waiting(self) -> None:
        """Pick up decisions another process journaled for the steps this run waits on."""
        waiting = [sid for sid, st in self.status.items() if st in WAITING_STEP]
        if not waiting:
            return
        states = self.journal.step_states(self.run_id, waiting)
        for sid in waiting:
            status, outputs = states.get(sid, (None, None))
            if status == "completed":
                self.complete(sid, outputs)
            elif status == "pending" and self.status[sid] == "awaiting_input":
                self.status[sid] = "pending"       # answered: it goes on from its snapshot
                heapq.heappush(self.ready, (0, sid))
            elif status == "failed":
                self.status[sid] = "failed"
                self._skip_dependents_of(sid)

    def _final_status(self) -> str:
        values = set(self.status.values())
        if values & set(WAITING_STEP):
            return "paused"
        if "failed" in values:
            return "failed"
        if values <= set(TERMINAL_STEP):
            return "completed"
        return "paused"
