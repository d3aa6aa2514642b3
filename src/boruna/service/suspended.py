"""Runs that stop and continue (docs/snapshots.md): `boruna_run` with `handlers` delegating
capabilities to the caller, `boruna_resume`, and the CLI's `run --pause-after`, `resume` and
`snapshot inspect`.

A run that waits for a delegated call answers `{"success": true, "status": "input_required",
"request": {"capability", "args"}, "resume_token", "steps"}`; the token is the suspended run
sealed with the server's key (`runtime.suspend.Sealer`). Resuming restores the snapshot in a
new machine, so a token can be resumed again (a wrong answer leaves it usable; two answers
give two independent runs). A run that ends answers exactly as `boruna_run` does.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from boruna.core.errors import ErrorKind
from boruna.core.limits import DEFAULT_MAX_WALL_MS
from boruna.service.boundary import tool_boundary
from boruna.service.envelope import ok
from boruna.service.results import Failure, use_case
from boruna.service.running import RunRequest, RunResult, prepare, settle


@dataclass
class InputRequired:
    """A run waiting for the caller's answer to a delegated capability call."""

    capability: str
    args: list
    token: str
    steps: int
    module: Any

    success = True

    def to_json(self) -> dict:
        from boruna.service.encoding import format_value

        return ok(status="input_required",
                  request={"capability": self.capability,
                           "args": [format_value(a, self.module) for a in self.args]},
                  resume_token=self.token, steps=self.steps)


@dataclass
class Paused:
    """A run stopped after `--pause-after` steps (or waiting for an answer), written to
    `suspended` (a runtime.suspend.SuspendedRun) for `boruna resume`."""

    suspended: Any
    steps: int
    pending: Optional[tuple]
    at_limit: bool = False          # stopped at the run's step limit (max_steps)

    success = True

    def to_json(self) -> dict:
        from boruna.service.encoding import format_value

        fields = {"status": "input_required" if self.pending else "paused", "steps": self.steps}
        if not self.pending and self.at_limit:
            fields["reason"] = "step_limit"
        if self.pending:
            fields["request"] = {"capability": self.pending[0],
                                 "args": [format_value(a, self.suspended.module)
                                          for a in self.pending[1]]}
        return ok(**fields)


def _failure(err) -> Failure:
    return Failure(err.kind, err.message)


def _live_handler(config, policy):
    return config.handler(policy) if config is not None else None


class _NoCalls:
    """A log for ProgressRelay that names no capability calls."""

    @staticmethod
    def drain_called() -> list:
        return []


def _relay(on_progress):
    """`on_progress(steps, message)` throttled as boruna_run's (service.running.ProgressRelay)."""
    if on_progress is None:
        return None
    from boruna.service.running import ProgressRelay

    return ProgressRelay(on_progress, _NoCalls())


def _result(stop, module, settings, sealer):
    """The use case's result for a drive's `Stop`."""
    if stop.outcome is not None:
        ran = RunResult(stop.outcome, module, bool(settings.get("trace")),
                        settings.get("max_wall_ms"), None, stop.log)
        return settle(ran, settings.get("max_output_bytes"), settings.get("output_schema"))
    if sealer is None:
        return Paused(stop.suspended, stop.steps, stop.pending, stop.at_limit)
    capability, args = stop.pending if stop.pending else ("", [])
    return InputRequired(capability, args, sealer.seal(stop.suspended), stop.steps, module)


@use_case
def run_delegating(request: RunRequest, delegated, sealer=None, pause_after=None,
                   on_progress=None, cancel_event=None, pause_at_limit=False):
    """`service.run` for a run whose `delegated` capabilities (wire names) the caller
    answers: an `InputRequired` (sealed with `sealer`) when it stops at such a call, a
    `Paused` without a sealer (the CLI writes the suspended run to a file), else the ended
    run's `RunResult` or `Failure` as `service.run` gives them."""
    from boruna.runtime import suspend

    module, failure = prepare(request)
    if failure is not None:
        return failure
    settings = {"policy": request.policy.normalized(), "delegated": list(delegated),
                "trace": request.trace, "max_wall_ms": request.max_wall_ms,
                "max_output_bytes": request.max_output_bytes,
                "output_schema": request.output_schema, "max_steps": request.max_steps}
    try:
        stop = suspend.start(module, settings,
                             handler=_live_handler(request.handlers, request.policy),
                             max_steps=request.max_steps, pause_after=pause_after,
                             on_progress=on_progress, cancel_event=cancel_event,
                             pause_at_limit=pause_at_limit)
    except suspend.SuspendError as err:
        return _failure(err)
    return _result(stop, module, settings, sealer)


@use_case
def resume_run(suspended, answer=None, answered=False, sealer=None, handlers=None,
               max_steps=None, pause_after=None, on_progress=None, cancel_event=None,
               pause_at_limit=False):
    """Continue a suspended run (a `runtime.suspend.SuspendedRun`, or a resume token opened
    with `sealer`) with `answer` for its pending call; results as `run_delegating`.
    `handlers` (a HandlerConfig) answers the calls not delegated."""
    from boruna.runtime import suspend
    from boruna.runtime.policy import parse_policy

    try:
        if isinstance(suspended, str):
            if sealer is None:
                return Failure(ErrorKind.INVALID_RESUME_TOKEN, "this server seals no tokens")
            suspended = sealer.open(suspended)
        settings = suspended.settings
        stop = suspend.resume(suspended, answer, answered=answered,
                              handler=_live_handler(handlers, parse_policy(settings.get("policy"))),
                              max_steps=max_steps, pause_after=pause_after,
                              on_progress=on_progress, cancel_event=cancel_event,
                              pause_at_limit=pause_at_limit)
    except suspend.SuspendError as err:
        return _failure(err)
    return _result(stop, suspended.module, settings, sealer)


@use_case
def inspect_snapshot(suspended):
    """What a suspended run holds: frames, step, pending call, counters."""
    from boruna.runtime import suspend

    try:
        header = suspended.header()
    except suspend.SuspendError as err:
        return _failure(err)
    module = suspended.module
    frames = []
    for func, ip, stack_base, locals_base in header.get("frames", []):
        name = module.functions[func].name if 0 <= func < len(module.functions) else str(func)
        frames.append({"function": name, "ip": ip, "stack_base": stack_base,
                       "locals_base": locals_base})
    pending = header.get("pending")
    fields = {"format": header.get("format"), "module": module.name,
              "module_sha256": header.get("module_sha256"),
              "status": "input_required" if pending else "paused",
              "steps": header.get("steps"), "max_steps": header.get("max_steps"),
              "work": header.get("work"), "frames": frames,
              "stack_depth": header.get("sp"), "locals": header.get("lp"),
              "events": len(header.get("events", [])),
              "ui_output": header.get("ui"),
              "trace_lines": len(header.get("trace", {}).get("lines", [])),
              "pending_call": None if pending is None else {
                  "capability": pending.get("capability"), "args": pending.get("nargs"),
                  "answered": pending.get("answered")},
              "settings": {k: v for k, v in suspended.settings.items() if k != "output_schema"},
              "snapshot_bytes": len(suspended.snapshot)}
    return _Inspected(fields)


@dataclass
class _Inspected:
    fields: dict
    success = True

    def to_json(self) -> dict:
        return ok(**self.fields)


@tool_boundary
def run_delegating_tool(source: str, handlers, sealer, policy=None, max_steps=None,
                        trace=False, limits=None, output_schema=None, libs_dir=None,
                        on_progress=None, cancel_event=None, live=None) -> dict:
    """The `boruna_run` response when `handlers` delegates capabilities to the client."""
    from boruna.runtime import suspend

    try:
        delegated = suspend.delegated_names(handlers)
    except suspend.SuspendError as err:
        return _failure(err).to_json()
    request = RunRequest.of(source, policy, max_steps, trace, limits, output_schema, libs_dir,
                            default_wall_ms=DEFAULT_MAX_WALL_MS, handlers=live)
    return run_delegating(request, delegated, sealer, None, _relay(on_progress),
                          cancel_event).to_json()


@tool_boundary
def resume_tool(resume_token, result, sealer, handlers=None, on_progress=None,
                cancel_event=None) -> dict:
    """The `boruna_resume` response."""
    return resume_run(resume_token, result, True, sealer, handlers, None, None,
                      _relay(on_progress), cancel_event).to_json()
