"""Drive the Cython VM over a compiled `Module` and report the outcome.

`run()` runs the module's entry function (`boruna_run`, `boruna_run_sealed`, `boruna run`);
`call_function()` calls one named function (the App framework's `init`/`update`/`view`).
Both go through the one drive loop, `drive()`: `Machine.execute_bounded` in slices, calling
`on_progress(steps)` after every unfinished slice and stopping between slices when
`cancel_event` is set. The `cancel_event` is also handed to the `Machine`, which looks at it
every 1,024 steps and after every builtin, so a cancelled run stops promptly however
expensive its steps are. Slicing never changes `steps` or the result. The run's wall clock
and cancel event also reach the capability gateway (`deadline.RunClock`): blocking handlers
stop at the deadline, and a call that returns past it ends the run with `wall_time_exceeded`.

Compiling is the caller's job (`boruna.run` accepts source and compiles it first). An invalid
policy raises `PolicyError`; everything that goes wrong while running is reported in the
returned `RunOutcome`, never raised.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from time import perf_counter
from typing import Any, Callable, Optional, Sequence

from boruna.bytecode.module import Module
from boruna.core.errors import ErrorKind
from boruna.core.limits import DEFAULT_MAX_STEPS, SLICE_STEPS, TRACE_LIMIT
from boruna.runtime.deadline import RunClock
from boruna.runtime.gateway import CapabilityGateway


@dataclass
class RunOutcome:
    ok: bool
    result: Any = None
    steps: int = 0
    ui_output: list = field(default_factory=list)
    trace: list = field(default_factory=list)
    trace_truncated: bool = False
    error: Optional[str] = None
    error_kind: Optional[ErrorKind] = None  # RUNTIME_ERROR | WALL_TIME | WORK_LIMIT | CANCELLED
    module: Optional[Module] = None
    capabilities_called: list = field(default_factory=list)
    vm_error: Any = None                  # the VmError object, for callers that branch on kind
    trace_total: int = 0                  # trace entries produced (len(trace) <= trace_limit)


_OUTCOME_KINDS = {ErrorKind.WALL_TIME: ErrorKind.WALL_TIME,
                  ErrorKind.WORK_LIMIT: ErrorKind.WORK_LIMIT,
                  ErrorKind.CANCELLED: ErrorKind.CANCELLED}


def drive(machine, slice_steps: Optional[int] = SLICE_STEPS,
          on_progress: Optional[Callable[[int], None]] = None, cancel_event=None) -> bool:
    """Run `machine` until it stops; True when `cancel_event` stopped it between slices.

    Unobserved runs (no `on_progress`, no `cancel_event`) go in one unbounded call."""
    from boruna import _vm

    step = SLICE_STEPS if slice_steps is None else max(1, int(slice_steps))
    if on_progress is None and cancel_event is None:
        step = 0
    while True:
        if cancel_event is not None and cancel_event.is_set():
            return True
        if machine.execute_bounded(step) != _vm.PAUSED:
            return False
        if cancel_event is not None and cancel_event.is_set():
            return True
        if on_progress is not None:
            try:
                on_progress(machine.steps)
            except Exception:
                pass


def _outcome(machine, module, gateway, cancelled: bool) -> RunOutcome:
    trace = list(machine.trace)
    total = machine.trace_total
    truncated = total > len(trace)
    called = gateway.called
    if cancelled:
        return RunOutcome(False, None, machine.steps, list(machine.ui_output), trace, truncated,
                          "execution cancelled", ErrorKind.CANCELLED, module, called, None, total)
    if machine.error is not None:
        kind = _OUTCOME_KINDS.get(machine.error_kind, ErrorKind.RUNTIME_ERROR)
        return RunOutcome(False, None, machine.steps, list(machine.ui_output), trace, truncated,
                          machine.error, kind, module, called, machine.error_obj, total)
    return RunOutcome(True, machine.result, machine.steps, list(machine.ui_output), trace,
                      truncated, None, None, module, called, None, total)


def _failed(message: str, module) -> RunOutcome:
    return RunOutcome(False, None, 0, [], [], False, message, ErrorKind.RUNTIME_ERROR, module, [])


def _start(module: Module, fn_index, args, policy, handler, event_log, max_steps, trace,
           max_wall_ms, trace_limit, slice_steps, on_progress, cancel_event) -> RunOutcome:
    """Build a machine for `module.functions[fn_index](*args)`, drive it, report the outcome."""
    started = _build(module, fn_index, args, policy, handler, event_log, max_steps, trace,
                     max_wall_ms, trace_limit, cancel_event)
    if isinstance(started, RunOutcome):
        return started
    return started.finish(slice_steps, on_progress, cancel_event)


class Started:
    """A machine built for a run and not yet driven to its end: `advance` takes a few steps
    where the caller is (bounded in steps, work and time), `finish` drives the rest."""

    __slots__ = ("machine", "module", "gateway", "stopped")

    def __init__(self, machine, module, gateway):
        self.machine, self.module, self.gateway = machine, module, gateway
        self.stopped = False          # `advance` saw the machine stop

    def advance(self, max_steps: int, max_work: int, seconds: float) -> bool:
        """Take steps one at a time until the machine stops (True), or `max_steps` steps,
        more than `max_work` work units since the run began, or `seconds` have passed
        (False: it continues with `finish`). One step at a time changes no step count, result
        or trace (slicing never does); the bound is the limits plus one step."""
        from boruna import _vm

        machine = self.machine
        execute, paused = machine.execute_bounded, _vm.PAUSED
        deadline = perf_counter() + seconds
        for _ in range(max_steps):
            if execute(1) != paused:
                self.stopped = True
                return True
            if machine.work > max_work or perf_counter() > deadline:
                break
        return False

    def finish(self, slice_steps, on_progress, cancel_event) -> RunOutcome:
        """Drive the machine until it stops (see `drive`) and report the outcome."""
        cancelled = not self.stopped and drive(self.machine, slice_steps, on_progress,
                                               cancel_event)
        return _outcome(self.machine, self.module, self.gateway, cancelled)


def _build(module: Module, fn_index, args, policy, handler, event_log, max_steps, trace,
           max_wall_ms, trace_limit, cancel_event):
    """The run's machine, set to call `module.functions[fn_index](*args)` (a `Started`), or
    the failed outcome of a module no machine can be built for."""
    from boruna import _vm
    import boruna.runtime.policy as runtime_policy   # not `from`: no __path__ lookup per run

    clock = RunClock(max_wall_ms, cancel_event)
    gateway = CapabilityGateway(runtime_policy.parse_policy(policy), handler, event_log, clock)
    try:
        machine = _vm.Machine(module, gateway=gateway,
                              max_steps=DEFAULT_MAX_STEPS if max_steps is None else max_steps,
                              trace=trace, max_wall_ms=max_wall_ms, trace_limit=trace_limit)
        machine.cancel_event = cancel_event
    except Exception as exc:   # a malformed hand-built module
        return _failed(f"bytecode error: {exc}", module)
    machine.set_entry(fn_index, tuple(args))
    return Started(machine, module, gateway)


def start(module: Module, policy="allow-all", max_steps: int = DEFAULT_MAX_STEPS,
          trace: bool = False, max_wall_ms: Optional[int] = None, cancel_event=None,
          handler=None, trace_limit: int = TRACE_LIMIT, event_log=None):
    """`run` in two parts: the entry's machine built (a `Started`, whose `finish` gives what
    `run` returns), or the failed `RunOutcome` when no machine could be built."""
    if not isinstance(module, Module):
        raise TypeError("runtime.execute.start takes a compiled Module")
    return _build(module, module.entry, (), policy, handler, event_log, max_steps, trace,
                  max_wall_ms, trace_limit, cancel_event)


def run(module: Module, policy="allow-all", max_steps: int = DEFAULT_MAX_STEPS,
        trace: bool = False, max_wall_ms: Optional[int] = None,
        on_progress: Optional[Callable[[int], None]] = None,
        slice_steps: int = SLICE_STEPS, cancel_event=None, handler=None,
        trace_limit: int = TRACE_LIMIT, event_log=None) -> RunOutcome:
    """Run the module's entry function.

    `trace_limit` trace entries are kept (500, as `boruna_run` returns; the CLI may ask for
    more); `trace_total` counts all of them. `event_log` (a `gateway.EventLog`) receives the
    run's events; by default the run keeps its own."""
    if not isinstance(module, Module):
        raise TypeError("runtime.execute.run takes a compiled Module (boruna.run compiles source)")
    return _start(module, module.entry, (), policy, handler, event_log, max_steps, trace,
                  max_wall_ms, trace_limit, slice_steps, on_progress, cancel_event)


def call_function(module: Module, fn_name: str, args: Sequence = (), policy="allow-all",
                  max_steps: int = DEFAULT_MAX_STEPS, trace: bool = False,
                  max_wall_ms: Optional[int] = None, handler=None,
                  on_progress: Optional[Callable[[int], None]] = None,
                  slice_steps: int = SLICE_STEPS, cancel_event=None) -> RunOutcome:
    """Call the function named `fn_name` with argument values `args` (first slots)."""
    index = module.function_index(fn_name)
    if index is None:
        return _failed(f"function not found: {fn_name}", module)
    return _start(module, index, args, policy, handler, None, max_steps, trace, max_wall_ms,
                  TRACE_LIMIT, slice_steps, on_progress, cancel_event)
