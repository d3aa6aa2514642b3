"""`boruna_run_sealed`: a run plus a replay proof over its event log.

The program runs once under the mock handler (or the live ones, `boruna-mcp --live`),
recording its event log; it then runs again with a replay handler serving the recorded
capability results, and the two logs must match event for event. The seal is the SHA-256 of the full canonical log (compact JSON, sorted
keys, values in the `boruna_run` encoding) — a replay proof, not a signed evidence bundle.

The MCP tool gives each run DEFAULT_MAX_WALL_MS of wall clock. The encoded result and event
log share one output budget (DEFAULT_MAX_OUTPUT_BYTES); logs are compared and digested one
event's canonical text at a time (iteratively, so values nested at any depth are handled).
"""
from __future__ import annotations

import json

from boruna.core.errors import CAPABILITY_REFUSALS, ErrorKind
from boruna.core.limits import DEFAULT_MAX_WALL_MS, EVENT_LOG_LIMIT, SLICE_STEPS
from boruna.service.boundary import tool_boundary
from boruna.service.errors import guard_source
from boruna.service.event_log import canonical_event, canonical_log, encode_event, log_digest
from boruna.core.json_text import deeper_than
from boruna.service.output_budget import OutputBudget, OutputLimitExceeded, output_limit_failure
from boruna.service.policy_argument import PolicyRejected, resolve_policy
from boruna.service.results import Success, failure, failure_of, use_case
from boruna.service.running import check_max_steps, work_limit_failure
from boruna.service.vm import vm_missing

SEAL_KIND = "replay-verified-event-log"
SEAL_NOTE = (
    "This seal is a deterministic replay proof over the VM event log (every event of the "
    "original run recurs, in order and with identical payloads, when the program is replayed "
    "against the recorded capability results), not a signed evidence bundle. A signed, "
    "hash-chained evidence bundle is a workflow-directory artifact produced by the "
    "orchestrator — see `boruna workflow run --record` and `boruna evidence verify`.")
def _shown(event: dict) -> str:
    """An event as the divergence message quotes it (compact when deeply nested)."""
    if deeper_than(event, 200):
        return canonical_event(event)
    return json.dumps(event, sort_keys=True)


def first_divergence(original: list[dict], replayed: list[dict]) -> str | None:
    """Why two encoded logs differ (None when identical). Events are compared by their
    canonical text, which is iterative at any depth."""
    for index, (a, b) in enumerate(zip(original, replayed)):
        if a is not b and canonical_event(a) != canonical_event(b):
            return f"event {index} differs: original {_shown(a)} vs replay {_shown(b)}"
    if len(original) != len(replayed):
        return f"event count differs: original {len(original)} vs replay {len(replayed)}"
    return None


class RecordedRun:
    """One run (its `RunOutcome`) with its event log: `error` is the VmError (None on success;
    a cancellation between slices is `execution cancelled`)."""

    def __init__(self, outcome, log):
        from boruna.core.errors import VmError

        self.result = outcome.result
        self.steps = outcome.steps
        self.error = None
        if not outcome.ok:
            self.error = outcome.vm_error or VmError(
                outcome.error, ErrorKind.CANCELLED
                if outcome.error_kind == ErrorKind.CANCELLED else ErrorKind.RUNTIME)
        self.log = log


def run_recorded(module, policy, max_steps: int, handler=None, cancel_event=None,
                 max_wall_ms=None) -> RecordedRun:
    """Run `module`'s entry through the runtime's drive loop, recording the full event log."""
    from boruna.runtime.execute import run
    from boruna.runtime.gateway import EventLog

    log = EventLog()
    outcome = run(module, policy=policy, max_steps=max_steps, max_wall_ms=max_wall_ms,
                  handler=handler, event_log=log, slice_steps=SLICE_STEPS,
                  cancel_event=cancel_event)
    return RecordedRun(outcome, log)


def _run_failure(run: RecordedRun, module, max_wall_ms=None):
    from boruna.service.error_places import place_fields

    error = run.error
    places = place_fields(error, module)
    if error.kind in CAPABILITY_REFUSALS:
        return failure(ErrorKind.CAPABILITY_DENIED, error.message, capability=error.capability,
                       steps=run.steps, **places)
    if error.kind == ErrorKind.CANCELLED:
        return failure(ErrorKind.CANCELLED, error.message, steps=run.steps)
    if error.kind == ErrorKind.WALL_TIME:
        return failure(ErrorKind.LIMIT_EXCEEDED,
                       f"wall-clock execution limit of {max_wall_ms} ms exceeded",
                       limit_kind="wall_ms", limit=max_wall_ms, phase="execution",
                       steps=run.steps)
    if error.kind == ErrorKind.WORK_LIMIT:
        return failure_of(work_limit_failure(error.message, run.steps))
    return failure(ErrorKind.RUNTIME_ERROR, error.message, steps=run.steps, **places)


class SealedRun(Success):
    """A sealed run: result, steps, replay verdict, event log and seal (`fields`)."""


@use_case
def run_sealed(source: str, policy=None, max_steps=None, libs_dir=None, cancel_event=None,
               max_wall_ms=None, handlers=None):
    """Run, replay against the recorded capability results, and seal the event log.
    `max_wall_ms` bounds each of the two runs. `handlers` (a `HandlerConfig`) gives the
    original run live handlers; the replay always answers from the recorded results."""
    from boruna.compiler import compile_source
    from boruna.language.errors import CompileError
    from boruna.service.encoding import format_value
    from boruna.runtime.handlers import ReplayHandler

    guard_source(source)
    steps_cap = check_max_steps(max_steps)
    try:
        module = compile_source(source, name="module", libs_dir=libs_dir)
    except CompileError as err:
        return failure(err.error_kind, err.message, error=err.message, line=err.line or None,
                       col=err.col or None)
    try:
        resolved = resolve_policy(policy, getattr(handlers, "default_policy", None))
    except PolicyRejected as rejected:
        return failure_of(rejected.response)
    missing = vm_missing()
    if missing is not None:
        return failure(ErrorKind.RUNTIME_ERROR, missing, steps=0)

    live = None if handlers is None else handlers.handler(resolved)
    original = run_recorded(module, resolved, steps_cap, handler=live,
                            cancel_event=cancel_event, max_wall_ms=max_wall_ms)
    if original.error is not None:
        return _run_failure(original, module, max_wall_ms)
    log = original.log
    budget = OutputBudget()
    try:
        result = format_value(original.result, module, budget)
        events = [encode_event(e, module, budget) for e in log.events]
    except OutputLimitExceeded as exc:
        return failure_of(output_limit_failure(exc.limit, original.steps))

    replay = run_recorded(module, resolved, steps_cap, cancel_event=cancel_event,
                          handler=ReplayHandler(log.capability_results()),
                          max_wall_ms=max_wall_ms)
    if replay.error is not None and replay.error.kind == ErrorKind.WALL_TIME:
        return _run_failure(replay, module, max_wall_ms)
    if replay.error is not None:
        verified, reason = False, f"replay execution failed: {replay.error.message}"
    else:
        replay_budget = OutputBudget()
        try:
            replayed = [encode_event(e, module, replay_budget) for e in replay.log.events]
        except OutputLimitExceeded as exc:
            return failure_of(output_limit_failure(exc.limit, original.steps))
        reason = first_divergence(events, replayed)
        verified = reason is None

    digest = log_digest(log.version, events)
    calls = [{"capability": e["capability"], "args": e["args"]}
             for e in events if e["event"] == "cap_call"][:EVENT_LOG_LIMIT]
    return SealedRun(dict(
        result=result,
        steps=original.steps,
        replay_verified=verified,
        replay_divergence_reason=reason,
        event_count=len(events),
        capability_calls=calls,
        event_log={"version": log.version, "events": events[:EVENT_LOG_LIMIT],
                   "truncated": len(events) > EVENT_LOG_LIMIT},
        event_log_sha256=digest,
        seal={"kind": SEAL_KIND, "verified": verified, "digest_alg": "sha256",
              "digest": digest, "note": SEAL_NOTE},
    ))


@tool_boundary
def run_sealed_tool(source: str, policy=None, max_steps=None, libs_dir=None,
                    cancel_event=None, handlers=None) -> dict:
    """The `boruna_run_sealed` response; see `run_sealed`. Each run has DEFAULT_MAX_WALL_MS
    of wall clock."""
    return run_sealed(source, policy, max_steps, libs_dir, cancel_event,
                      DEFAULT_MAX_WALL_MS, handlers).to_json()
