"""`boruna_run`: compile and execute under a capability policy, with limits and schema checks.

Checks run in the reference's order: `limits.max_memory_mb` → compile → policy → execute →
output budget → output schema. A run driven in progress slices reports exactly the same
`steps` and result as one run in a single go.

`run_tool` (the MCP tool) gives a run without `limits.max_wall_ms` DEFAULT_MAX_WALL_MS of
wall clock. The output budget is `limits.max_output_bytes` (compact JSON of `result` plus
every UI tree) when it is lower than DEFAULT_MAX_OUTPUT_BYTES, which bounds the encoding of
every run (and `envelope.render` every response) anyway.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Optional, Sequence

from boruna.core.errors import ErrorKind
from boruna.core.limits import (
    DEFAULT_MAX_STEPS, DEFAULT_MAX_WALL_MS, MAX_WORK, SLICE_STEPS, TRACE_LIMIT, U64_MAX,
)
from boruna.language.errors import CompileError
from boruna.runtime.execute import Started, start
from boruna.runtime.gateway import EventLog
from boruna.service.boundary import tool_boundary
from boruna.service.compile_errors import compile_failure
from boruna.service.encoding import format_value
from boruna.service.envelope import fail, ok
from boruna.service.errors import MAX_SOURCE_BYTES, InvalidParams, guard_source
from boruna.service.module_cache import compiled
from boruna.service.output_budget import (
    DEFAULT_MAX_OUTPUT_BYTES, OutputBudget, OutputLimitExceeded, exceeds_budget,
    output_limit_failure,
)
from boruna.service.output_schema import check_output
from boruna.service.policy_argument import PolicyFile, PolicyRejected, resolve_policy
from boruna.service.results import Failure, failure_of, use_case
from boruna.service.vm import vm_missing


MEMORY_LIMIT_MESSAGE = (
    "max_memory_mb is reserved for a future release and is not enforced in 0.3.x. Setting it "
    "would silently permit memory exhaustion. Use process-level cgroups or ulimits at your "
    "orchestration layer until this lands.")


def _limit(limits, key: str):
    """`limits[key]` for a dict or attribute holder; None when unset."""
    if limits is None:
        return None
    value = limits.get(key) if isinstance(limits, dict) else getattr(limits, key, None)
    if value is None:
        return None
    if type(value) is not int or not 0 <= value <= U64_MAX:
        raise InvalidParams(f"limits.{key} must be a non-negative integer")
    return value


def check_max_steps(max_steps) -> int:
    """`max_steps` or the default; InvalidParams for anything but an integer in 0..2^64-1."""
    if max_steps is None:
        return DEFAULT_MAX_STEPS
    if type(max_steps) is not int or not 0 <= max_steps <= U64_MAX:
        raise InvalidParams("max_steps must be a non-negative integer")
    return max_steps


def progress_message(names: Sequence[str]) -> Optional[str]:
    """`None`, `"cap: {name}"` or `"caps: {a}, {b}, ..."` (duplicates kept, in call order)."""
    if not names:
        return None
    if len(names) == 1:
        return f"cap: {names[0]}"
    return "caps: " + ", ".join(names)


PROGRESS_INTERVAL = 0.1
"""Seconds between two progress reports of one run (at most ~10 per second)."""


class ProgressRelay:
    """`relay(steps)` for the VM, called after every unfinished slice, forwarding
    `(steps, message)` to the caller at most every PROGRESS_INTERVAL seconds: the first slice
    at once, later ones once the interval has passed since the last report, and `finish()`
    reports the last slice not yet reported. `steps` is cumulative; `message` names the
    capabilities the run's event log `log` recorded since the previous report."""

    def __init__(self, on_progress, log, interval: float = PROGRESS_INTERVAL, clock=None):
        import time

        self.on_progress = on_progress
        self.log = log
        self.interval = interval
        self.clock = clock or time.monotonic
        self.last_time = None
        self.pending = None               # the latest slice not reported yet

    def __call__(self, steps: int) -> None:
        now = self.clock()
        if self.last_time is not None and now - self.last_time < self.interval:
            self.pending = steps
            return
        self.last_time = now
        self._report(steps)

    def finish(self) -> None:
        if self.pending is not None:
            self._report(self.pending)

    def _report(self, steps: int) -> None:
        self.pending = None
        self.on_progress(steps, progress_message(self.log.drain_called()))


def work_limit_failure(error, steps: int) -> dict:
    """`limit_exceeded` / `work` from the VM's work-limit error."""
    return fail(ErrorKind.LIMIT_EXCEEDED, error, limit_kind="work", limit=MAX_WORK,
                phase="execution", steps=steps)


def runtime_failure(outcome, max_wall_ms) -> dict:
    """`runtime_error` (or `limit_exceeded` for the wall clock and the work limit) from a
    failed run; with the `location` and `stack` of the error where the VM noted them."""
    from boruna.service.error_places import place_fields

    places = place_fields(outcome.vm_error, outcome.module)
    if outcome.error_kind == ErrorKind.WALL_TIME:
        return fail(ErrorKind.LIMIT_EXCEEDED,
                    f"wall-clock execution limit of {max_wall_ms} ms exceeded",
                    limit_kind="wall_ms", limit=max_wall_ms, phase="execution",
                    steps=outcome.steps, **places)
    if outcome.error_kind == ErrorKind.WORK_LIMIT:
        return {**work_limit_failure(outcome.error, outcome.steps), **places}
    if outcome.error_kind == ErrorKind.CANCELLED:
        return fail(ErrorKind.CANCELLED, "execution cancelled", steps=outcome.steps)
    return fail(ErrorKind.RUNTIME_ERROR, outcome.error, steps=outcome.steps, **places)


@dataclass
class RunResult:
    """A finished, failed or cancelled run: the `RunOutcome` and the module it ran.

    `success` is the outcome's; `to_json()` is the `boruna_run` response (the values in the
    docs/spec/mcp.md §2.5 encoding, computed once)."""

    outcome: Any        # runtime.execute.RunOutcome
    module: Any
    trace: bool = False
    max_wall_ms: int | None = None
    tape_calls: list | None = None      # the capability calls, when the request recorded
    event_log: Any = None               # the run's gateway.EventLog

    @cached_property
    def event_log_sha256(self) -> str:
        """Hex SHA-256 of the run's canonical event log (as `boruna_run_sealed` seals it)."""
        from boruna.service.event_log import event_log_sha256

        return event_log_sha256(self.event_log, self.module)

    def tape_outcome(self) -> dict:
        """What a capability tape pins of this run (`runtime.tape.first_outcome_difference`
        compares two of these)."""
        outcome = self.outcome
        pinned = {"success": bool(outcome.ok), "steps": outcome.steps,
                  "event_log_sha256": self.event_log_sha256}
        if outcome.ok:
            pinned["result"] = self.result_json
            pinned["ui_output"] = self.ui_output_json
        else:
            pinned["error"] = outcome.error
        return pinned

    def tape(self, key: bytes | None = None) -> str:
        """The capability tape of a recording run, as JSON text (signed with `key`, the
        bytes of a tape key file, when given)."""
        from boruna.runtime.tape import tape_json

        return tape_json(self.tape_calls or [], self.tape_outcome(), key)

    @property
    def success(self) -> bool:
        return bool(self.outcome.ok)

    @cached_property
    def result_json(self):
        """The result in the `boruna_run` JSON encoding."""
        return format_value(self.outcome.result, self.module)

    @cached_property
    def ui_output_json(self) -> list:
        """The emitted UI trees in the `boruna_run` JSON encoding."""
        return [format_value(tree, self.module) for tree in self.outcome.ui_output]

    def encode(self, budget) -> None:
        """Compute `result_json` and `ui_output_json` charging `budget` (an OutputBudget,
        which raises OutputLimitExceeded once they pass it)."""
        self.result_json = format_value(self.outcome.result, self.module, budget)
        self.ui_output_json = [format_value(tree, self.module, budget)
                               for tree in self.outcome.ui_output]

    def to_json(self) -> dict:
        outcome = self.outcome
        if not outcome.ok:
            return runtime_failure(outcome, self.max_wall_ms)
        response = ok(result=self.result_json, steps=outcome.steps,
                      ui_output=self.ui_output_json)
        if self.trace:
            response["trace"] = list(outcome.trace)[:TRACE_LIMIT]
            response["trace_truncated"] = bool(outcome.trace_truncated)
        return response


def _module_of(source, bytecode, name, libs_dir):
    """The module to run: `bytecode` (a `.axbc` image) decoded, else `source` compiled (a
    recent small source's module comes from `module_cache`).
    Returns (module, None) or (None, the Failure)."""
    if bytecode is not None:
        from boruna.bytecode import axbc

        try:
            return axbc.from_bytes(bytecode), None
        except Exception as exc:  # any reader failure is the image's fault
            detail = getattr(exc, "message", None) or str(exc) or type(exc).__name__
            return None, Failure(ErrorKind.INVALID_BYTECODE, detail)
    try:
        return compiled(source, "module" if name is None else name, libs_dir), None
    except CompileError as err:
        return None, compile_failure(err, source)


@dataclass(frozen=True)
class RunRequest:
    """A `boruna_run` request, validated once by `RunRequest.of` (which raises `InvalidParams`
    for a source over the limit, a bad `max_steps` or a bad limit). The policy is parsed here,
    once: `policy` is the runtime Policy, or `policy_failure` the rejection, reported before
    compiling for a policy file the caller read (`PolicyFile`), after compiling otherwise."""

    source: str | None
    bytecode: bytes | None
    max_steps: int
    trace: bool
    max_wall_ms: int | None
    max_output_bytes: int | None
    memory_limit_asked: bool
    policy: Any
    policy_failure: Failure | None
    policy_failure_first: bool
    output_schema: Any
    libs_dir: Any
    name: str
    handlers: Any = None            # runtime.live.HandlerConfig; None = the mock
    record: bool = False            # keep the capability calls for a tape
    replay: Any = None              # a tape (runtime.tape.read_tape) to answer the calls

    @classmethod
    def of(cls, source: str | None = None, policy=None, max_steps=None, trace=False,
           limits=None, output_schema=None, libs_dir=None, *, bytecode: bytes | None = None,
           name: str | None = "module", source_limit: int | None = MAX_SOURCE_BYTES,
           default_wall_ms: int | None = None, handlers=None, record: bool = False,
           replay=None):
        """`policy`: None/"allow-all"/"deny-all"/Policy object or dict, or a `PolicyFile`.
        `limits`: dict (or attribute holder) with `max_wall_ms` (else `default_wall_ms`),
        `max_output_bytes`; `max_memory_mb` is refused by the run. `bytecode` is a `.axbc`
        image to run instead of `source`. `handlers` (a `HandlerConfig`) picks live handlers;
        `record` keeps the capability calls (`RunResult.tape()`); `replay` (a read tape)
        answers them instead, and the run must reproduce the tape's outcome."""
        if bytecode is None:
            guard_source(source, source_limit)
        steps_cap = check_max_steps(max_steps)
        memory = limits is not None and (limits.get("max_memory_mb") if isinstance(limits, dict)
                                         else getattr(limits, "max_memory_mb", None)) is not None
        if isinstance(policy, PolicyFile):
            resolved, first = policy.policy, True
            refused = policy.failure() if policy.rejected else None
        else:
            first = False
            try:
                resolved, refused = resolve_policy(
                    policy, getattr(handlers, "default_policy", None)), None
            except PolicyRejected as rejected:
                resolved, refused = None, failure_of(rejected.response)
        wall_ms = None if memory else _limit(limits, "max_wall_ms")
        if wall_ms is None and not memory:
            wall_ms = default_wall_ms
        return cls(source, bytecode, steps_cap, bool(trace), wall_ms,
                   None if memory else _limit(limits, "max_output_bytes"), memory,
                   resolved, refused, first, output_schema, libs_dir,
                   "module" if name is None else name, handlers, bool(record), replay)


@use_case
def prepare(request: "RunRequest"):
    """The checks every run makes before its machine starts, in their order (an unsupported
    limit, a policy error reported first, the module, a policy error, a missing VM):
    `(module, None)`, or `(None, failure)`."""
    if request.memory_limit_asked:
        return None, Failure(ErrorKind.UNSUPPORTED_LIMIT, MEMORY_LIMIT_MESSAGE,
                             {"limit_kind": "memory_mb"})
    if request.policy_failure is not None and request.policy_failure_first:
        return None, request.policy_failure
    module, failure = _module_of(request.source, request.bytecode, request.name,
                                 request.libs_dir)
    if failure is not None:
        return None, failure
    if request.policy_failure is not None:
        return None, request.policy_failure
    missing = vm_missing()
    if missing is not None:
        return None, Failure(ErrorKind.RUNTIME_ERROR, missing, {"steps": 0})
    return module, None


def run(request: RunRequest, on_progress=None, cancel_event=None):
    """Run the request's program (entry `main`, else function 0) under the request's
    capability handler (the deterministic mock unless `handlers` is live, a tape when
    replaying): a `RunResult`, or a `Failure` from before the run.

    Checks run in the reference's order: `limits.max_memory_mb` → compile → policy → execute
    → output budget → output schema (a rejected policy file comes before compiling).
    `on_progress(steps, message)` is called after an unfinished 100,000-step slice at most
    every 0.1 s (see `ProgressRelay`; `message` is None, "cap: <name>" or "caps: <a>, <b>"
    for the capability calls since the previous call); `cancel_event` (threading.Event) stops
    the run within 1,024 steps or one builtin (`error_kind: "cancelled"`).
    A `.axbc` image that cannot be read is `invalid_bytecode`.
    """
    started = begin(request, on_progress, cancel_event)
    return started if isinstance(started, Failure) else started.result()


def begin(request: RunRequest, on_progress=None, cancel_event=None):
    """`run` in two parts: the checks before the run and its machine built (a `PendingRun`,
    whose `result()` is what `run` returns), or the `Failure` from before the run."""
    module, failure = prepare(request)
    if failure is not None:
        return failure

    log = EventLog()
    handler, taping = _handler(request)
    relay = None if on_progress is None else ProgressRelay(on_progress, log)
    started = start(module, policy=request.policy, max_steps=request.max_steps,
                    trace=request.trace, max_wall_ms=request.max_wall_ms, event_log=log,
                    handler=handler, cancel_event=cancel_event)
    if isinstance(started, Started):
        return PendingRun(request, module, log, taping, relay, started, None, cancel_event)
    return PendingRun(request, module, log, taping, relay, None, started, cancel_event)


class PendingRun:
    """A run whose machine is built (`begin`): `advance` takes a bounded few steps where the
    caller is, `result()` drives the rest on the caller's thread and settles the outcome."""

    def __init__(self, request, module, log, taping, relay, started, outcome, cancel_event):
        self.request, self.module, self.log, self.taping = request, module, log, taping
        self.relay, self.cancel_event = relay, cancel_event
        self.started = started        # runtime.execute.Started, or None when no machine
        self.outcome = outcome        # the failed RunOutcome when no machine could be built
        self.stopped = started is None
        # (result_json, ui_output_json, bytes) when `advance` encoded the stopped run's
        # values within that many bytes: `result()` settles with them instead of encoding
        # the same values again
        self.encoded = None

    def advance(self, max_steps: int, max_work: int, seconds: float,
                max_bytes: int) -> bool:
        """Take steps here (see `runtime.execute.Started.advance`); True when the machine has
        stopped having spent at most `max_work` work units and its result and UI output
        encode within `max_bytes` (values that share parts spend no work however large their
        encoding grows), so `result()` is cheap."""
        if not self.stopped:
            self.stopped = self.started.advance(max_steps, max_work, seconds)
        if not self.stopped or self.started is None:
            return self.stopped
        machine = self.started.machine
        return machine.work <= max_work and self._encodes_within(machine, max_bytes)

    def _encodes_within(self, machine, max_bytes: int) -> bool:
        budget = OutputBudget(max_bytes)
        try:
            result = None if machine.error is not None else format_value(
                machine.result, self.module, budget)
            trees = [format_value(tree, self.module, budget) for tree in machine.ui_output]
        except Exception:   # over the bytes, or anything else: `result()` meets it as before
            return False
        self.encoded = (result, trees, max_bytes)
        return True

    def result(self):
        """The `RunResult` (settled: see `settle`) or `Failure`, as `run` answers."""
        request, relay, outcome = self.request, self.relay, self.outcome
        if outcome is None:
            outcome = self.started.finish(SLICE_STEPS, relay, self.cancel_event)
        if relay is not None and outcome.error_kind != ErrorKind.CANCELLED:
            relay.finish()
        ran = RunResult(outcome, self.module, request.trace, request.max_wall_ms,
                        self.taping.calls if request.record else None, self.log)
        if request.replay is not None:
            mismatch = _replay_mismatch(ran, request.replay, self.taping)
            if mismatch is not None:
                return mismatch
        return settle(ran, request.max_output_bytes, request.output_schema, self.encoded)


def settle(ran: RunResult, max_output_bytes, output_schema, encoded=None):
    """A finished run after its output checks: `ran` (encoded within the output budget), or
    the output-limit or output-schema Failure; a failed run as it is.

    `encoded` is `(result_json, ui_output_json, bytes)` when the run's values were already
    encoded charging a budget of `bytes` (`PendingRun.advance`): with an output budget at
    least that large they are taken as they are, since encoding them again would give the
    same values and charge the same bytes, within it."""
    outcome = ran.outcome
    if not outcome.ok:
        return ran
    cap = DEFAULT_MAX_OUTPUT_BYTES
    if max_output_bytes is not None and max_output_bytes < cap:
        cap = max_output_bytes
    if encoded is not None and cap >= encoded[2]:
        ran.result_json, ran.ui_output_json = encoded[0], encoded[1]
    else:
        try:
            ran.encode(OutputBudget(cap))
        except OutputLimitExceeded:
            return failure_of(output_limit_failure(cap, outcome.steps))
    if max_output_bytes is not None and exceeds_budget(max_output_bytes, ran.result_json,
                                                       ran.ui_output_json):
        return failure_of(output_limit_failure(max_output_bytes, outcome.steps))
    if output_schema is not None:
        from boruna.core.deep_stack import call_deep

        try:
            rejected = call_deep(check_output, output_schema, ran.result_json,
                                 outcome.steps)
        except RecursionError:
            rejected = fail(ErrorKind.INVALID_OUTPUT_SCHEMA,
                            "output_schema is not a valid JSON Schema: nested too deeply")
        if rejected is not None:
            return failure_of(rejected)
    return ran


def _handler(request: RunRequest):
    """The run's capability handler and the tape handler in it (or None)."""
    if request.replay is not None:
        from boruna.runtime.tape import TapeReplayHandler

        handler = TapeReplayHandler(request.replay["calls"])
        return handler, handler
    config = request.handlers
    handler = config.handler(request.policy) if config is not None else None
    if request.record:
        from boruna.runtime.handlers import MockHandler
        from boruna.runtime.tape import RecordingHandler

        handler = RecordingHandler(handler if handler is not None else MockHandler())
        return handler, handler
    return handler, None


def _replay_mismatch(ran: RunResult, tape: dict, replayer) -> Failure | None:
    """`replay_mismatch` when the replay asked for other calls than the tape holds, left
    some unasked, or did not reproduce the recorded outcome; None when it matches."""
    from boruna.runtime.tape import first_outcome_difference

    outcome = ran.outcome
    steps = {"steps": outcome.steps}
    if replayer.mismatch is not None:
        return Failure(ErrorKind.REPLAY_MISMATCH, replayer.mismatch, steps)
    if outcome.error_kind == ErrorKind.CANCELLED:
        return None
    if replayer.unused():
        return Failure(ErrorKind.REPLAY_MISMATCH, f"replay mismatch: the program made "
                       f"{replayer.cursor} capability call(s), the tape holds "
                       f"{len(replayer.calls)}", steps)
    difference = first_outcome_difference(tape["outcome"], ran.tape_outcome())
    if difference is not None:
        return Failure(ErrorKind.REPLAY_MISMATCH, f"replay mismatch: {difference}", steps)
    return None


def begin_run_tool(source: str, policy=None, max_steps=None, trace=False, limits=None,
                   output_schema=None, libs_dir=None, on_progress=None, cancel_event=None,
                   handlers=None):
    """`run_tool` in two parts: its response dict when it is known before the run starts,
    else the `PendingRun` whose `result().to_json()` is the response. Raises InvalidParams
    as `run_tool` does, and any unexpected exception (`run_tool`'s boundary answers those
    `internal_error`)."""
    request = RunRequest.of(source, policy, max_steps, trace, limits, output_schema, libs_dir,
                            default_wall_ms=DEFAULT_MAX_WALL_MS, handlers=handlers)
    started = begin(request, on_progress, cancel_event)
    return started.to_json() if isinstance(started, Failure) else started


@tool_boundary
def run_tool(source: str, policy=None, max_steps=None, trace=False, limits=None,
             output_schema=None, libs_dir=None, on_progress=None, cancel_event=None,
             handlers=None) -> dict:
    """The `boruna_run` response for `source`; see `run`. Without `limits.max_wall_ms` the
    run has DEFAULT_MAX_WALL_MS of wall clock."""
    begun = begin_run_tool(source, policy, max_steps, trace, limits, output_schema, libs_dir,
                           on_progress, cancel_event, handlers)
    return begun if isinstance(begun, dict) else begun.result().to_json()
