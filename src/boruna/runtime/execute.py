"""Run a program (or one named function) on the Cython VM and report the outcome.

`run()` is what `boruna_run` and `boruna run` use; `call_function()` is how the App framework
calls `init`/`update`/`view`. Both drive `Machine.execute_bounded` in slices, calling
`on_progress(steps)` after every unfinished slice. A `cancel_event` is also handed to the
`Machine`, which looks at it every 1,024 steps and after every builtin, so a cancelled run
stops promptly however expensive its steps are. Slicing never changes `steps` or the result.

Compile failures raise `CompileError`; an invalid policy raises `PolicyError` (policy is parsed
after compiling, as the reference does). Everything that goes wrong while running is reported
in the returned `RunOutcome`, never raised.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

from boruna.bytecode.module import Module

DEFAULT_MAX_STEPS = 10_000_000
DEFAULT_SLICE = 100_000
TRACE_LIMIT = 500


@dataclass
class RunOutcome:
    ok: bool
    result: Any = None
    steps: int = 0
    ui_output: list = field(default_factory=list)
    trace: list = field(default_factory=list)
    trace_truncated: bool = False
    error: Optional[str] = None
    error_kind: Optional[str] = None      # "runtime_error" | "wall_time" | "work_limit" | "cancelled" | None
    module: Optional[Module] = None
    capabilities_called: list = field(default_factory=list)
    vm_error: Any = None                  # the VmError object, for callers that branch on kind
    trace_total: int = 0                  # trace entries produced (len(trace) <= trace_limit)


def _policy(policy):
    from boruna.runtime.policy import parse_policy
    return parse_policy(policy)


def _error_kind(kind: Optional[str]) -> str:
    if kind == "wall_time":
        return "wall_time"
    if kind == "cancelled":
        return "cancelled"
    if kind == "work_limit":
        return "work_limit"
    return "runtime_error"


def _drive(machine, module, gateway, slice_steps, on_progress, cancel_event) -> RunOutcome:
    from boruna import _vm

    step = DEFAULT_SLICE if slice_steps is None else max(1, int(slice_steps))
    if on_progress is None and cancel_event is None:
        step = 0          # nobody observes slices: one unbounded call
    while True:
        if cancel_event is not None and cancel_event.is_set():
            return _outcome(machine, module, gateway, cancelled=True)
        status = machine.execute_bounded(step)
        if status != _vm.PAUSED:
            break
        if cancel_event is not None and cancel_event.is_set():
            return _outcome(machine, module, gateway, cancelled=True)
        if on_progress is not None:
            try:
                on_progress(machine.steps)
            except Exception:
                pass
    return _outcome(machine, module, gateway)


def _outcome(machine, module, gateway, cancelled: bool = False) -> RunOutcome:
    from boruna import _vm

    trace = list(machine.trace)
    total = machine.trace_total
    truncated = total > len(trace)
    called = list(getattr(gateway, "called", []))
    if cancelled:
        return RunOutcome(False, None, machine.steps, list(machine.ui_output), trace, truncated,
                          "execution cancelled", "cancelled", module, called, None, total)
    if machine.error is not None:
        return RunOutcome(False, None, machine.steps, list(machine.ui_output), trace, truncated,
                          machine.error, _error_kind(machine.error_kind), module, called,
                          machine.error_obj, total)
    return RunOutcome(True, machine.result, machine.steps, list(machine.ui_output), trace,
                      truncated, None, None, module, called, None, total)


def _machine(module, policy, handler, max_steps, trace, max_wall_ms, trace_limit=TRACE_LIMIT,
             cancel_event=None):
    from boruna import _vm
    from boruna.runtime.gateway import CapabilityGateway

    gateway = CapabilityGateway(_policy(policy), handler)
    if max_steps is None:
        max_steps = DEFAULT_MAX_STEPS
    machine = _vm.Machine(module, gateway=gateway, max_steps=max_steps, trace=trace,
                          max_wall_ms=max_wall_ms, trace_limit=trace_limit)
    machine.cancel_event = cancel_event
    return machine, gateway


def _failed(message: str, module) -> RunOutcome:
    return RunOutcome(False, None, 0, [], [], False, message, "runtime_error", module, [])


def run(source_or_module, policy="allow-all", max_steps: int = DEFAULT_MAX_STEPS,
        trace: bool = False, max_wall_ms: Optional[int] = None,
        on_progress: Optional[Callable[[int], None]] = None,
        slice_steps: int = DEFAULT_SLICE, cancel_event=None, handler=None,
        name: str = "module", trace_limit: int = TRACE_LIMIT) -> RunOutcome:
    """Compile (if given source) and run the module's entry function.

    `trace_limit` trace entries are kept (500, as `boruna_run` returns; the CLI may ask for
    more); `trace_total` counts all of them."""
    if isinstance(source_or_module, Module):
        module = source_or_module
    else:
        from boruna.compiler import compile_source
        module = compile_source(source_or_module, name=name)
    pol = _policy(policy)
    try:
        machine, gateway = _machine(module, pol, handler, max_steps, trace, max_wall_ms,
                                    trace_limit, cancel_event)
    except Exception as exc:   # a malformed hand-built module
        return _failed(f"bytecode error: {exc}", module)
    machine.set_entry(module.entry)
    return _drive(machine, module, gateway, slice_steps, on_progress, cancel_event)


def call_function(module: Module, fn_name: str, args: Sequence = (), policy="allow-all",
                  max_steps: int = DEFAULT_MAX_STEPS, trace: bool = False,
                  max_wall_ms: Optional[int] = None, handler=None,
                  on_progress: Optional[Callable[[int], None]] = None,
                  slice_steps: int = DEFAULT_SLICE, cancel_event=None) -> RunOutcome:
    """Call the function named `fn_name` with argument values `args` (first slots)."""
    index = module.function_index(fn_name)
    if index is None:
        return _failed(f"function not found: {fn_name}", module)
    pol = _policy(policy)
    try:
        machine, gateway = _machine(module, pol, handler, max_steps, trace, max_wall_ms,
                                    cancel_event=cancel_event)
    except Exception as exc:
        return _failed(f"bytecode error: {exc}", module)
    machine.set_entry(index, tuple(args))
    return _drive(machine, module, gateway, slice_steps, on_progress, cancel_event)
