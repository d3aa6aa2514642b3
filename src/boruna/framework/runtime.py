"""`AppRuntime`: an App module driven one message at a time (docs/spec/tooling.md §3.3).

`init()` runs under allow-all, `policies()`, `update()` and `view()` under deny-all (they
must be pure). Each `send` is one cycle: update, interpret the result positionally, check
the effect batch against the App's policy, transition, render the view.

Bounds of the whole App (init, policies and every cycle's update and view together):
`max_total_steps` VM steps and `max_wall_ms` of wall clock, both failing with a
`FrameworkLimit`; a set `cancel_event` stops the VM within 1,024 steps.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Optional

from boruna.core.errors import CAPABILITY_REFUSALS, ErrorKind
from boruna.core.limits import DEFAULT_MAX_STEPS, MAX_APP_CYCLES as MAX_CYCLES
from boruna.core.values import Record
from boruna.runtime.policy import Policy

from .app_policy import AppPolicy
from .effects import Effect, IgnoredEffect, parse_effects
from .errors import (cancelled, capability_in_pure, effect_error, max_cycles_exceeded,
                     missing_function, runtime_error, total_steps_exceeded, wall_time_exceeded)

MESSAGE_TYPE_ID = 0
REQUIRED_FUNCTIONS = ("init", "update", "view")


@dataclass
class CycleOutcome:
    """What one successful `send` produced."""

    cycle: int
    state: Any
    effects: list[Effect]
    ignored_effects: list[IgnoredEffect]
    ui_tree: Any


def _error_text(error: Any) -> str:
    text = getattr(error, "message", None)
    return text if isinstance(text, str) else str(error)


class AppRuntime:
    """A constructed App: `state`, `cycle`, `policy`; `send(tag, payload)`."""

    def __init__(self, module, *, max_steps: int = DEFAULT_MAX_STEPS,
                 policy: Optional[AppPolicy] = None, max_cycles: int = MAX_CYCLES,
                 max_wall_ms: Optional[int] = None, cancel_event=None,
                 max_total_steps: Optional[int] = None):
        self.module = module
        self.max_cycles = max_cycles
        self._max_steps = max_steps
        self._max_wall_ms = max_wall_ms
        self._deadline = (time.monotonic() + max_wall_ms / 1000.0
                          if max_wall_ms is not None else None)
        self._cancel_event = cancel_event
        self._max_total_steps = max_total_steps
        self.total_steps = 0
        for name in REQUIRED_FUNCTIONS:
            if module.function_index(name) is None:
                raise missing_function(name)
        self.state = self._call("init", (), Policy.allow_all(), pure=False)
        if policy is not None:
            self.policy = policy
        elif module.function_index("policies") is not None:
            self.policy = AppPolicy.from_value(
                self._call("policies", (), Policy.deny_all(), pure=False))
        else:
            self.policy = AppPolicy.allow_all()
        self.cycle = 0

    def step_limit(self) -> int:
        """Steps allowed per VM call: the caller's bound, tightened by the App's policy."""
        asked = self.policy.step_limit() if hasattr(self, "policy") else None
        return min(self._max_steps, asked) if asked else self._max_steps

    def _wall_time_error(self):
        return wall_time_exceeded(self._max_wall_ms)

    def _remaining_ms(self) -> Optional[int]:
        """What is left of the run's wall-clock budget (None = unbounded)."""
        if self._deadline is None:
            return None
        left = int((self._deadline - time.monotonic()) * 1000)
        if left <= 0:
            raise self._wall_time_error()
        return left

    def _call(self, name: str, args: tuple, policy: Policy, pure: bool) -> Any:
        from boruna.runtime.execute import call_function

        max_steps = self.step_limit()
        left = None
        if self._max_total_steps is not None:
            left = max(0, self._max_total_steps - self.total_steps)
            max_steps = min(max_steps, left)
        outcome = call_function(self.module, name, args, policy=policy,
                                max_steps=max_steps, max_wall_ms=self._remaining_ms(),
                                cancel_event=self._cancel_event)
        self.total_steps += min(outcome.steps, max_steps)
        if outcome.ok:
            return outcome.result
        if outcome.error_kind == ErrorKind.WALL_TIME:
            raise self._wall_time_error()
        if outcome.error_kind == ErrorKind.CANCELLED:
            raise cancelled()
        kind = getattr(outcome.vm_error, "kind", None)
        if max_steps == left and kind == ErrorKind.STEP_LIMIT:
            raise total_steps_exceeded(self._max_total_steps)
        if pure and kind in CAPABILITY_REFUSALS:
            raise capability_in_pure(name)
        err = runtime_error(_error_text(outcome.error))
        err.vm_error = outcome.vm_error     # its frames: where in the App it failed
        raise err

    def send(self, tag: str, payload: Any) -> CycleOutcome:
        """Run one update/view cycle; raises FrameworkError (state unchanged unless `view` fails)."""
        if self.cycle >= self.max_cycles:
            raise max_cycles_exceeded(self.max_cycles)
        msg = Record(MESSAGE_TYPE_ID, (tag, payload))
        result = self._call("update", (self.state, msg), Policy.deny_all(), pure=True)
        if type(result) is not Record or len(result.fields) < 2:
            raise effect_error("update() must return a Record with [state, effects] fields")
        new_state = result.fields[0]
        effects, ignored = parse_effects(result.fields[1])
        self.policy.check(effects)
        self.cycle += 1
        self.state = new_state
        ui_tree = self._call("view", (new_state,), Policy.deny_all(), pure=True)
        return CycleOutcome(self.cycle, new_state, effects, ignored, ui_tree)
