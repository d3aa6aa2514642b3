"""`run_app_test`: send a list of messages to an App and report every cycle (docs/spec/tooling.md §3.5).

Values are reported in the brief encoding. The first failing cycle stops the run; the
result then holds the successful cycles, the failing entry (`message`, `error`) and
`error = "cycle K failed: ..."`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Union

from boruna.core.limits import DEFAULT_MAX_STEPS
from boruna.service.encoding import format_value_brief

from .app_policy import AppPolicy
from .errors import FrameworkCancelled, FrameworkError, FrameworkLimit
from .messages import parse_message, split_message_list
from .runtime import MAX_CYCLES, AppRuntime

APP_MODULE_NAME = "app"


@dataclass
class AppTestResult:
    """`ok` with init/cycles/final/total, or `error` (construction or `cycle K failed: ...`).

    A construction failure has `init_state` None and no cycles; a cycle failure keeps
    `init_state` and the cycles up to and including the failing one.
    """

    ok: bool
    init_state: Any = None
    cycles: list[dict] = field(default_factory=list)
    final_state: Any = None
    total_cycles: int = 0
    error: Optional[str] = None
    started: bool = False       # the App was constructed (init_state is meaningful)
    stopped_by: Optional[FrameworkError] = None   # a FrameworkLimit or FrameworkCancelled
    vm_error: Any = None        # the VmError of a failed cycle (where it failed)

    def to_dict(self) -> dict:
        """The tool fields after the envelope, in the seed's order."""
        if self.ok:
            return {"init_state": self.init_state, "cycles": self.cycles,
                    "final_state": self.final_state, "total_cycles": self.total_cycles}
        if not self.started:
            return {"message": self.error}
        return {"message": self.error, "init_state": self.init_state, "cycles": self.cycles}


def _module_of(source_or_module, libs_dir):
    if isinstance(source_or_module, (str, bytes)):
        from boruna.compiler import compile_source
        return compile_source(source_or_module, name=APP_MODULE_NAME, libs_dir=libs_dir)
    return source_or_module


def _policy_of(policy) -> Optional[AppPolicy]:
    if policy is None or isinstance(policy, AppPolicy):
        return policy
    if isinstance(policy, dict):
        return AppPolicy.from_mapping(policy)
    raise TypeError("policy must be an AppPolicy or a mapping")


def _stop_reason(exc: FrameworkError) -> Optional[FrameworkError]:
    return exc if isinstance(exc, (FrameworkLimit, FrameworkCancelled)) else None


def run_app_test(source_or_module, messages: Union[str, list[str]],
                 policy: Union[AppPolicy, dict, None] = None,
                 max_steps: int = DEFAULT_MAX_STEPS, libs_dir=None,
                 max_cycles: int = MAX_CYCLES, max_wall_ms: Optional[int] = None,
                 cancel_event=None, max_total_steps: Optional[int] = None,
                 budget=None) -> AppTestResult:
    """Run the App (source text or compiled Module) through `messages`.

    `messages` is a list of `"tag:payload"` strings or the CLI's comma-separated string.
    `policy` overrides the App's own `policies()`; `max_steps` bounds every VM call,
    `max_total_steps` and `max_wall_ms` the whole run; `cancel_event` (a threading.Event)
    stops it. A run ended by one of these keeps the exception in `stopped_by`. `budget`
    (with `charge(n)`, e.g. `service.output_budget.OutputBudget`) is charged for every
    encoded state and UI tree; what it raises propagates.
    Raises `CompileError` for source that does not compile.
    """
    module = _module_of(source_or_module, libs_dir)
    items = split_message_list(messages)
    try:
        app = AppRuntime(module, max_steps=max_steps, policy=_policy_of(policy),
                         max_cycles=max_cycles, max_wall_ms=max_wall_ms,
                         cancel_event=cancel_event, max_total_steps=max_total_steps)
    except FrameworkError as exc:
        return AppTestResult(ok=False, error=exc.message, stopped_by=_stop_reason(exc))
    brief = lambda value: format_value_brief(value, module, budget)     # noqa: E731
    result = AppTestResult(ok=True, init_state=brief(app.state), started=True)
    for position, raw in enumerate(items, start=1):
        tag, payload = parse_message(raw)
        try:
            outcome = app.send(tag, payload)
        except FrameworkError as exc:
            result.cycles.append({"message": raw, "error": exc.message})
            result.ok = False
            result.error = f"cycle {position} failed: {exc.message}"
            result.stopped_by = _stop_reason(exc)
            result.vm_error = exc.vm_error
            return result
        entry = {"message": raw, "state": brief(outcome.state),
                 "effects": len(outcome.effects), "ui_tree": brief(outcome.ui_tree)}
        if outcome.ignored_effects:
            entry["unknown_effects"] = [e.to_dict() for e in outcome.ignored_effects]
        result.cycles.append(entry)
    result.final_state = brief(app.state)
    result.total_cycles = app.cycle
    return result
