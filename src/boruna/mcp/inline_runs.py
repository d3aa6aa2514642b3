"""A small `boruna_run` begins on the event loop, and goes to a run worker only if it does not
end within a bounded slice.

Handing a call to a lane worker and its answer back costs two thread wake-ups and two
hand-overs of the interpreter lock, several times what a tiny run itself takes. So when the
run lane has a worker free (its call would start at once anyway), a `boruna_run` the loop can
begin cheaply (`may_begin_inline`) is compiled and its machine built on the loop, which then
takes its steps one at a time (`PendingRun.advance`) until the machine stops, or it has taken
INLINE_STEPS steps, spent more than INLINE_WORK work units or INLINE_SECONDS of time. A run
that stopped within the work bound, its values encoding within INLINE_BYTES, is settled and
answered on the loop; any other continues
on a run worker from the step it reached (the machine keeps its state: stepping is slicing,
which changes no step count, result or trace), exactly as if it had started there.

What the loop may hold, so no input blocks it for long:
- the compile of a source of at most INLINE_SOURCE_CHARS characters without `import`: no
  library file is read, and its recursion (~2 frames per character at worst) stays well
  inside the loop thread's recursion limit, so the compile never falls back to the
  deep-stack pool (which another call may keep busy);
- a policy given as a name (SHORTHAND_POLICIES) or none: a policy object, or any other
  string (refused with a message quoting it), is dealt with on the worker;
- no progress token, no `output_schema` (its check runs on the deep-stack pool), no
  delegated `handlers`, and a server without `--live`: capability calls are answered by the
  deterministic mock, never by blocking I/O;
- INLINE_SECONDS plus one VM step. A step costs what its builtin reads and builds, and only
  builtins that spend work (a unit per character or element read or built) make values
  larger than the source's constants, so before the last step taken here every value is
  within INLINE_WORK units plus the source; the step that crosses INLINE_WORK is the last
  one, and a run that crossed it is settled (its result encoded) on the worker, as is one
  whose result and UI output do not encode within INLINE_BYTES (values sharing parts, such
  as `t = Node([t, t])` in a loop, spend no work however large their encoding grows; the
  check stops at the bound). The dearest
  such step builds one value from operands of a few thousand characters: a
  `string_replace` of each `a` of a 2,048-character string by that string (2 M
  characters) took 0.9 ms here, and every value stays within the VM's caps (a string of
  16 MB, a list or map of 1,000,000 elements). Every other step takes microseconds.

The lanes' rules are unchanged: the run counts as accepted in the run lane while it waits
for or holds a worker. One begun on the loop had a free worker, and nothing else runs on the
loop while it takes its slice, so its continuation takes that worker at once (only a
worker still stopping a cancelled run could delay it). Having started, the continuation is
never refused `server_busy` nor timed out in the queue; its wall clock, running since its
first step, bounds it as any run's. A cancel notification is read only between slices, so
a run answered on the loop answers as one that ended before the cancel arrived; a continued
run stops at its cancel event as any other.
"""
from __future__ import annotations

import functools

from boruna.core.json_text import is_small_json
from boruna.mcp.results import call_result, tool_result
from boruna.service.boundary import internal_error
from boruna.service.errors import InvalidParams

INLINE_SOURCE_CHARS = 256
INLINE_STEPS = 10_000
INLINE_WORK = 4_096
INLINE_SECONDS = 0.0002
INLINE_BYTES = 4096
SHORTHAND_POLICIES = ("allow-all", "deny-all")


def may_begin_inline(args, env) -> bool:
    """Whether this `boruna_run` call (RunParams, ToolEnv) may begin on the event loop."""
    source = args.source
    return (env.handlers is None and env.on_progress is None and not args.handlers
            and args.output_schema is None
            and (args.policy is None or args.policy in SHORTHAND_POLICIES)
            and type(source) is str and len(source) <= INLINE_SOURCE_CHARS
            and "import" not in source)


def begin_inline(tool, args, env):
    """On the event loop: begin the call (`tool.begin`) and take its slice. The call's
    CallToolResult (or InvalidParams) when it was answered here; else the worker's part, a
    function returning the CallToolResult (what `BorunaServer._invoke` returns); None when
    this call may not begin here (it then goes to the lane as any other)."""
    try:
        begun = tool.begin(args, env)
        if begun is None:
            return None
        if type(begun) is dict:
            response = begun
        elif begun.advance(INLINE_STEPS, INLINE_WORK, INLINE_SECONDS, INLINE_BYTES):
            response = begun.result().to_json()
        else:
            return functools.partial(_continue, begun)
        if is_small_json(response):      # rendered without a deep stack or a long walk
            return tool_result(response, small=True)
        return functools.partial(_settled, response)
    except InvalidParams as exc:
        return exc
    except Exception as exc:  # noqa: BLE001 - as the worker's boundary answers it
        return tool_result(internal_error(exc))


def _continue(pending):
    """Worker: the rest of a run begun on the loop, answered as `BorunaServer._invoke`."""
    return call_result(lambda: pending.result().to_json())


def _settled(response):
    """Worker: the CallToolResult of a response settled on the loop."""
    return call_result(lambda: response)
