"""`boruna_run`: compile and execute under a capability policy, with limits and schema checks.

Checks run in the reference's order: `limits.max_memory_mb` → compile → policy → execute →
output budget → output schema. A run driven in progress slices reports exactly the same
`steps` and result as one run in a single go.
"""
from __future__ import annotations

from boruna.service.boundary import tool_boundary
from boruna.service.compile_errors import compile_failure
from boruna.service.envelope import fail, ok
from boruna.service.errors import InvalidParams, guard_source
from boruna.service.output_budget import exceeds_budget
from boruna.service.output_schema import check_output
from boruna.service.policy_argument import PolicyRejected, resolve_policy

DEFAULT_MAX_STEPS = 10_000_000
PROGRESS_SLICE = 100_000
TRACE_LIMIT = 500
U64_MAX = 2**64 - 1

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


class CallRecorder:
    """A capability handler wrapper remembering which capabilities answered, for progress."""

    def __init__(self, handler=None):
        from boruna.runtime.handlers import MockHandler

        self.handler = handler if handler is not None else MockHandler()
        self.names: list[str] = []

    def handle(self, cap, args):
        result = self.handler.handle(cap, args)
        self.names.append(cap.wire_name)
        return result

    def drain(self) -> list[str]:
        names, self.names = self.names, []
        return names


def progress_relay(on_progress, recorder: CallRecorder):
    """`on_progress(steps)` for the VM, forwarding `(steps, message)` to the caller."""
    from boruna.runtime.gateway import progress_message

    def relay(steps):
        on_progress(steps, progress_message(recorder.drain()))

    return relay


def runtime_failure(outcome, max_wall_ms) -> dict:
    """`runtime_error` (or `limit_exceeded` for the wall clock) from a failed run."""
    if outcome.error_kind == "wall_time":
        return fail("limit_exceeded", f"wall-clock execution limit of {max_wall_ms} ms exceeded",
                    limit_kind="wall_ms", limit=max_wall_ms, phase="execution",
                    steps=outcome.steps)
    if outcome.error_kind == "cancelled":
        return fail("cancelled", "execution cancelled", steps=outcome.steps)
    return fail("runtime_error", outcome.error, steps=outcome.steps)


@tool_boundary
def run_tool(source: str, policy=None, max_steps=None, trace=False, limits=None,
             output_schema=None, libs_dir=None, on_progress=None, cancel_event=None) -> dict:
    """Run `source`'s entry function (`main`, else function 0) under the mock capability handler.

    `policy`: None/"allow-all"/"deny-all"/Policy object or dict. `limits`: dict with
    `max_wall_ms`, `max_output_bytes` (`max_memory_mb` is refused). `on_progress(steps,
    message)` is called after every unfinished 100,000-step slice (`message` is None,
    "cap: <name>" or "caps: <a>, <b>" for the slice's capability calls); `cancel_event`
    (threading.Event) stops the run between slices (`error_kind: "cancelled"`).
    """
    from boruna.compiler import compile_source
    from boruna.language.errors import CompileError
    from boruna.service.encoding import format_value
    from boruna.runtime.execute import run

    guard_source(source)
    steps_cap = check_max_steps(max_steps)
    if limits is not None and (limits.get("max_memory_mb") if isinstance(limits, dict)
                               else getattr(limits, "max_memory_mb", None)) is not None:
        return fail("unsupported_limit", MEMORY_LIMIT_MESSAGE, limit_kind="memory_mb")
    max_wall_ms = _limit(limits, "max_wall_ms")
    max_output_bytes = _limit(limits, "max_output_bytes")

    try:
        module = compile_source(source, name="module", libs_dir=libs_dir)
    except CompileError as err:
        return compile_failure(err)
    try:
        resolved = resolve_policy(policy)
    except PolicyRejected as rejected:
        return rejected.response

    recorder = CallRecorder()
    outcome = run(module, policy=resolved, max_steps=steps_cap, trace=bool(trace),
                  max_wall_ms=max_wall_ms, handler=recorder,
                  on_progress=None if on_progress is None else progress_relay(on_progress, recorder),
                  slice_steps=PROGRESS_SLICE, cancel_event=cancel_event)
    if not outcome.ok:
        return runtime_failure(outcome, max_wall_ms)

    result = format_value(outcome.result, module)
    ui_output = [format_value(tree, module) for tree in outcome.ui_output]
    if max_output_bytes is not None and exceeds_budget(max_output_bytes, result, ui_output):
        return fail("limit_exceeded", f"serialized output exceeded {max_output_bytes} bytes",
                    limit_kind="output_bytes", limit=max_output_bytes, phase="serialization",
                    steps=outcome.steps)
    if output_schema is not None:
        from boruna.core.deep_stack import call_deep

        try:
            rejected = call_deep(check_output, output_schema, result, outcome.steps)
        except RecursionError:
            rejected = fail("invalid_output_schema",
                            "output_schema is not a valid JSON Schema: nested too deeply")
        if rejected is not None:
            return rejected

    response = ok(result=result, steps=outcome.steps, ui_output=ui_output)
    if trace:
        response["trace"] = list(outcome.trace)[:TRACE_LIMIT]
        response["trace_truncated"] = bool(outcome.trace_truncated)
    return response
