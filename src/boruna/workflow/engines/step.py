"""One step's run, the same on every engine: a pure function of (source, inputs, policy,
its effect journal so far).

`run_step(task, journal, cancel)` compiles the step's `.ax`, runs `main` under the run's
policy narrowed to the step's `capabilities` (step.input is always allowed), its budget
(`max_calls` capability calls, `max_steps` VM steps) and `timeout_ms` as the wall clock.
Every capability call goes through `JournalingHandler`: while the attempt's journal holds
calls it answers from there (the call must be the one journaled, else `replay mismatch`),
after that it performs the call live and hands call and result to `journal(...)` before the
step continues. `main`'s value becomes the step's outputs (`result`, or the fields of a
record naming the declared outputs); anything else is `contract_violation`.

A call of a capability the task delegates (`task.delegated`) stops the step: the outcome
carries the VM's snapshot and the request, which the scheduler journals. A task with
`resume_snapshot` restores that machine, gives it the answered call's journaled result and
goes on from there (docs/workflows.md, "Delegated calls").
"""
from __future__ import annotations

import functools
import threading
from typing import Optional

from boruna.core import capabilities as caps
from boruna.core import errors
from boruna.core.errors import ErrorKind
from boruna.runtime.handlers import HandlerError, MockHandler
from boruna.runtime.tape import TapeError, from_plain, to_plain
from boruna.workflow.engines.base import StepOutcome, StepTask
from boruna.workflow.model import RESULT
from boruna.workflow.values import ValueError_, input_text, json_kind, to_json_value, type_mismatch

_HANDLER_CLASSES = {caps.NET_FETCH: "transient_network", caps.LLM_CALL: "transient_network",
                    caps.FS_READ: "io_error", caps.FS_WRITE: "io_error",
                    caps.DB_QUERY: "io_error", caps.STEP_INPUT: "input_resolution"}


class StepInputs:
    """`step.input(name)`: the step's resolved inputs; every other call goes to `inner`."""

    def __init__(self, inputs: dict, inner):
        self.inputs = inputs
        self.inner = inner

    def handle(self, cap, args):
        if cap.id != caps.STEP_INPUT:
            return self.inner.handle(cap, args)
        name = args[0] if args else ""
        if not isinstance(name, str) or name not in self.inputs:
            known = ", ".join(sorted(self.inputs)) or "none"
            raise HandlerError(f"step.input: this step has no input named {name!r} "
                               f"(its inputs: {known})")
        return input_text(self.inputs[name])


def _same(a, b) -> bool:
    if type(a) is not type(b):
        return False
    if type(a) is list:
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if type(a) is dict:
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


class JournalingHandler:
    """Replays the attempt's journaled calls, then goes live, journaling each call first."""

    def __init__(self, inner, replay: list, journal, allowed: Optional[set],
                 max_calls: Optional[int], cancel: threading.Event):
        self.inner = inner
        self.replay = replay
        self.journal = journal
        self.allowed = allowed
        self.max_calls = max_calls
        self.cancel = cancel
        self.seq = 0
        self.calls = 0
        self.replayed = 0
        self.failed_class: Optional[str] = None
        self.aborted: Optional[str] = None
        self.aborted_kind: Optional[str] = None
        self.mismatch: Optional[str] = None
        self.resumed_at = None      # the VM step a stored snapshot was restored at

    def handle(self, cap, args):
        name = cap.wire_name
        if cap.id != caps.STEP_INPUT:
            if self.allowed is not None and name not in self.allowed:
                raise errors.capability_denied(name)
            if self.max_calls is not None and self.calls >= self.max_calls:
                raise errors.capability_budget_exceeded(name)
            self.calls += 1
        seq = self.seq + 1
        try:
            plain_args = to_plain(list(args))
        except TapeError as err:
            raise HandlerError(f"cannot journal the call: {err}") from None
        if seq <= len(self.replay):
            entry = self.replay[seq - 1]
            if entry["capability"] != name or not _same(entry["args"], plain_args):
                self.mismatch = (f"replay mismatch at capability call {seq}: the journal has "
                                 f"{entry['capability']}{entry['args']}, the step asked for "
                                 f"{name}{plain_args}")
                raise HandlerError(self.mismatch)
            self.seq = seq
            self.replayed += 1
            if "error" in entry:
                self.failed_class = _HANDLER_CLASSES.get(cap.id, "runtime_error")
                raise HandlerError(entry["error"])
            return from_plain(entry["result"])
        error = None
        result = None
        try:
            result = self.inner.handle(cap, args)
            plain = to_plain(result)
        except HandlerError as exc:
            error = exc.message
        except TapeError as exc:
            error = f"cannot journal the result: {exc}"
        try:
            if error is None:
                self.journal(seq=seq, capability=name, args=plain_args, result=plain)
            else:
                self.journal(seq=seq, capability=name, args=plain_args, error=error)
        except Exception as exc:  # noqa: BLE001 - the journal's failure stops the step
            self.aborted = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
            self.aborted_kind = getattr(exc, "kind", None) or "journal_error"
            self.cancel.set()
            raise HandlerError(f"journal write failed: {self.aborted}") from None
        self.seq = seq
        if error is not None:
            self.failed_class = _HANDLER_CLASSES.get(cap.id, "runtime_error")
            raise HandlerError(error)
        return result

    # a VM snapshot holds the handler's counters (vm/snapshot.pxi: `handler_state`), so a
    # step restored from it numbers its next calls and counts its budget as it would have
    def snapshot_state(self) -> dict:
        return {"seq": self.seq, "calls": self.calls}

    def restore_state(self, state) -> None:
        if type(state) is dict:
            self.seq = int(state.get("seq", 0))
            self.calls = int(state.get("calls", 0))


def _classify(outcome, handler: JournalingHandler) -> str:
    if outcome.error_kind == ErrorKind.WALL_TIME:
        return "wall_time_exceeded"
    kind = getattr(outcome.vm_error, "kind", None)
    if kind == ErrorKind.STEP_LIMIT:
        return "step_limit_exceeded"
    if kind == ErrorKind.CAPABILITY_DENIED:
        return "capability_denied"
    if kind == ErrorKind.CAPABILITY_BUDGET_EXCEEDED:
        return "capability_budget_exceeded"
    if handler.mismatch is None and handler.failed_class is not None:
        return handler.failed_class
    return "runtime_error"


def outputs_of(value, declared: dict, module=None) -> tuple[Optional[dict], Optional[str]]:
    """The step outputs from `main`'s value, or the contract violation."""
    try:
        plain = to_json_value(value, module)
    except ValueError_ as err:
        return None, str(err)
    names = sorted(declared)
    if not names or names == [RESULT]:
        label = declared.get(RESULT)
        if label is not None:
            got = type_mismatch(label, plain)
            if got is not None:
                return None, f"output 'result' must be {label}, main returned {got}"
        return {RESULT: plain}, None
    if type(plain) is not dict:
        return None, (f"main must return a record with the declared outputs "
                      f"({', '.join(names)}); it returned {json_kind(plain)}")
    missing = [n for n in names if n not in plain]
    if missing:
        return None, (f"main's record lacks declared output(s) {', '.join(missing)} "
                      f"(it has: {', '.join(sorted(plain)) or 'no fields'})")
    for name in names:
        got = type_mismatch(declared[name], plain[name])
        if got is not None:
            return None, f"output '{name}' must be {declared[name]}, main returned {got}"
    return {n: plain[n] for n in names}, None


@functools.lru_cache(maxsize=256)
def _compile(source: str, name: str, libs_dir: Optional[str]):
    """Compiled once per (source, libs): a 1,000-step chain of one file compiles once."""
    from boruna.compiler import compile_source

    return compile_source(source, name=name, libs_dir=libs_dir)


def run_step(task: StepTask, journal, cancel: Optional[threading.Event] = None,
             on_progress=None) -> StepOutcome:
    """Run one attempt of a source step; never raises for the step's own failures."""
    from boruna.core.limits import DEFAULT_MAX_STEPS
    from boruna.language.errors import CompileError
    from boruna.runtime.execute import run
    from boruna.runtime.policy import parse_policy

    cancel = cancel if cancel is not None else threading.Event()
    try:
        module = _compile(task.source, "step", task.libs_dir)
    except CompileError as err:
        return StepOutcome(False, error_class="compile_error",
                           error=f"{err.code} at line {err.line}: {err.message}")
    policy = parse_policy(task.policy)
    inner = task.handlers.handler(policy) if task.handlers is not None else MockHandler()
    if task.delegated:
        from boruna.runtime.suspend import DelegatingHandler

        inner = DelegatingHandler(inner, task.delegated)
    allowed = set(task.capabilities) - {"step.input"}
    handler = JournalingHandler(StepInputs(task.inputs, inner), task.replay, journal,
                                allowed, task.max_calls, cancel)
    progress = None
    if on_progress is not None:
        def progress(steps):
            on_progress(task.step_id, steps)
    max_steps = task.max_steps if task.max_steps is not None else DEFAULT_MAX_STEPS
    if task.delegated or task.resume_snapshot is not None:
        outcome, stop = _run_pausable(module, task, policy, handler, max_steps, progress,
                                      cancel)
    else:
        outcome, stop = run(module, policy=policy, max_steps=max_steps,
                            max_wall_ms=task.timeout_ms, on_progress=progress,
                            cancel_event=cancel, handler=handler), None
    if stop is not None:
        return stop
    done = StepOutcome(False, vm_steps=outcome.steps, effects=handler.seq,
                       replayed=handler.replayed, resumed_at=handler.resumed_at)
    if handler.aborted is not None:
        done.aborted, done.aborted_kind = handler.aborted, handler.aborted_kind
        return done
    if outcome.error_kind == ErrorKind.CANCELLED:
        done.cancelled = True
        return done
    if not outcome.ok:
        done.error_class = _classify(outcome, handler)
        done.error = outcome.error
        return done
    outputs, violation = outputs_of(outcome.result, task.outputs, module)
    if violation is not None:
        done.error_class, done.error = "contract_violation", violation
        return done
    done.ok, done.outputs = True, outputs
    return done


def _run_pausable(module, task: StepTask, policy, handler: JournalingHandler, max_steps: int,
                  progress, cancel: threading.Event):
    """Run the step on a machine that may stop at a delegated capability call, or go on
    from `task.resume_snapshot` with its answered call's journaled result; (the RunOutcome,
    None) when the run ended, (None, a suspended StepOutcome) when it stopped at such a
    call. A snapshot this build cannot read (another VM build's limits, ...) is not lost
    work: the attempt runs from its start, its journal (the answer too) replayed."""
    from boruna import _vm
    from boruna.core.suspension import SnapshotError
    from boruna.runtime.deadline import RunClock
    from boruna.runtime.execute import _outcome, drive
    from boruna.runtime.gateway import CapabilityGateway, EventLog

    gateway = CapabilityGateway(policy, handler, EventLog(), RunClock(task.timeout_ms, cancel))
    machine = None
    if task.resume_snapshot is not None:
        try:
            machine = _vm.Machine.restore(task.resume_snapshot, module, gateway=gateway,
                                          max_wall_ms=task.timeout_ms)
            entry = task.replay[task.resume_seq - 1]
            if machine.pending_call is None or entry["capability"] != machine.pending_call[0]:
                raise SnapshotError("the snapshot's pending call is not the journaled one")
            machine.answer(from_plain(entry["result"]))
            handler.seq = task.resume_seq            # the answered call is the journal's
            handler.replayed += 1
            handler.resumed_at = machine.steps
        except (SnapshotError, IndexError, KeyError, TypeError):
            handler.seq = handler.calls = handler.replayed = 0
            handler.resumed_at = None
            machine = None
            gateway = CapabilityGateway(policy, handler, EventLog(),
                                        RunClock(task.timeout_ms, cancel))
        if machine is not None:
            machine.max_steps = max_steps
    if machine is None:
        machine = _vm.Machine(module, gateway=gateway, max_steps=max_steps,
                              max_wall_ms=task.timeout_ms)
        machine.set_entry(module.entry)
    machine.cancel_event = cancel
    cancelled = drive(machine, on_progress=progress, cancel_event=cancel)
    pending = None if cancelled or machine.finished else machine.pending_call
    if pending is None:
        return _outcome(machine, module, gateway, cancelled), None
    try:
        data = machine.snapshot()
        args = to_plain(list(pending[1]))
    except (SnapshotError, TapeError) as err:
        return None, StepOutcome(False, error_class="runtime_error", vm_steps=machine.steps,
                                 error=f"cannot store the step's paused run: {err}",
                                 effects=handler.seq, replayed=handler.replayed)
    return None, StepOutcome(False, vm_steps=machine.steps, effects=handler.seq,
                             replayed=handler.replayed, suspended=data,
                             resumed_at=handler.resumed_at,
                             request={"seq": handler.seq + 1, "capability": pending[0],
                                      "args": args})
