"""A small `boruna_run` begins on the event loop (`mcp/inline_runs.py`): which calls may, that
their answers are the worker path's byte for byte wherever the run ends, and that the lane's
rules hold (a full lane queues the call as before; a run that outlasts its slice continues
on a worker)."""
from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import mcp_types as types
import pytest

import boruna.mcp.inline_runs as inline_runs
from boruna.core import deep_stack
from boruna.mcp.inline_runs import INLINE_SOURCE_CHARS, begin_inline, may_begin_inline
from boruna.mcp.lanes import Lanes
from boruna.mcp.params import RunParams
from boruna.mcp.server import BorunaServer
from boruna.mcp.tools import TOOLS_BY_NAME, ToolEnv
from boruna.service.errors import InvalidParams

TINY = "fn main() -> Int { 1 + 2 }"
LONG = "fn main() -> Int { let mut i = 0\n while i < 100000 { i = i + 1 }\n i }"
LIST = ('fn main() -> List<Int> { let mut xs = []\n let mut i = 0\n'
        ' while i < 200 { xs = list_push(xs, i)\n i = i + 1 }\n xs }')
HEAVY = ('fn main() -> Int { let mut s = "ab"\n let mut i = 0\n while i < 10 { s = s ++ s\n'
         ' i = i + 1 }\n __builtin_string_len(__builtin_string_replace(s, "a", s)) }')
SHARED = ("enum T { Leaf, Node(List<T>) }\nfn main() -> T { let mut t = T::Leaf\n let mut i = 0\n"
          " while i < 12 { t = T::Node([t, t])\n i = i + 1 }\n t }")
STRING_3000 = ('fn main() -> String { let mut s = "abc"\n let mut i = 0\n'
               ' while i < 999 { s = s ++ "abc"\n i = i + 1 }\n s }')
STRING_512 = ('fn main() -> String { let mut s = "abcd"\n let mut i = 0\n'
              ' while i < 7 { s = s ++ s\n i = i + 1 }\n s }')
EMITS = ('type View { title: String, count: Int }\nfn main() -> Int {\n'
         '    emit View { title: "hi", count: 1 }\n    emit "done"\n    2\n}\n')
RUN = TOOLS_BY_NAME["boruna_run"]


class _Ctx:
    meta = None


def _env(**kwargs):
    return ToolEnv(templates_dir=Path("."), libs_dir=None, **kwargs)


def test_which_calls_may_begin_on_the_loop():
    def may(arguments, **env):
        return may_begin_inline(RunParams.model_validate(arguments), _env(**env))

    assert may({"source": TINY})
    assert may({"source": TINY, "policy": "deny-all", "trace": True, "max_steps": 3,
                "limits": {"max_wall_ms": 5, "max_output_bytes": 10}})
    assert may({"source": "x" * INLINE_SOURCE_CHARS})
    assert not may({"source": "x" * (INLINE_SOURCE_CHARS + 1)})
    assert not may({"source": "import std.json\n" + TINY})
    assert not may({"source": TINY, "policy": {}})
    assert not may({"source": TINY, "output_schema": {"type": "integer"}})
    assert not may({"source": TINY, "handlers": {"llm.call": "client"}})
    assert not may({"source": TINY}, on_progress=lambda *a: None)
    assert not may({"source": TINY}, handlers=object())
    assert RUN.begin is not None
    assert [name for name, tool in TOOLS_BY_NAME.items() if tool.begin is not None] == \
        ["boruna_run"]


CASES = [
    {"source": TINY},
    {"source": TINY, "trace": True},
    {"source": LONG},
    {"source": LONG, "max_steps": 5000},
    {"source": "fn main() -> Int { 1 / 0 }"},
    {"source": "fn main() -> Int { 1 + }"},
    {"source": TINY, "limits": {"max_memory_mb": 1}},
    {"source": TINY, "limits": {"max_output_bytes": 20}},
    {"source": 'fn main() -> String !{net.fetch} { net_fetch("https://example.com") }',
     "policy": "deny-all"},
    {"source": 'fn main() -> String { let mut s = "ab"\n let mut i = 0\n'
               ' while i < 23 { s = s ++ s\n i = i + 1 }\n s }'},
    {"source": LIST},
    {"source": HEAVY},
    {"source": SHARED},
    # the values the slice's bound check encoded are reused by settle only under an output
    # budget at least INLINE_BYTES: budgets on either side of the answer's size
    # (STRING_512 and EMITS end on the loop, their answers 514 and 105 bytes of values;
    # STRING_3000 goes on to a worker)
    *({"source": STRING_512, "limits": {"max_output_bytes": n}}
      for n in (513, 514, 515, 4095, 4096, 4097, 10_000)),
    *({"source": STRING_3000, "limits": {"max_output_bytes": n}}
      for n in (3001, 3002, 4096)),
    {"source": EMITS},
    *({"source": EMITS, "limits": {"max_output_bytes": n}} for n in (1, 104, 105, 4096)),
    {"source": EMITS, "trace": True, "max_steps": 7},
    {"source": "fn main() -> Float { 1.5 / 3.0 }"},
    {"source": 'fn main() -> String { "caf\u00e9 \U0001F600" }'},
    {"source": TINY, "max_steps": 2},
    {"source": TINY, "policy": "allow-all"},
    {"source": "fn main( -> Int { 1 }"},
    {"source": "fn main() -> Int { nope }"},
]


def _worker_answer(arguments):
    args = RunParams.model_validate(arguments)
    return BorunaServer._invoke(RUN, args, _env())


@pytest.mark.parametrize("arguments", CASES)
def test_begun_on_the_loop_answers_as_the_worker(arguments):
    args = RunParams.model_validate(arguments)
    begun = begin_inline(RUN, args, _env())
    if not isinstance(begun, types.CallToolResult):     # the worker's part
        begun = begun()
    assert begun.model_dump_json(by_alias=True, exclude_unset=True) == \
        _worker_answer(arguments).model_dump_json(by_alias=True, exclude_unset=True)


def test_invalid_params_and_internal_errors_are_the_workers():
    args = RunParams.model_validate({"source": TINY, "max_steps": 3})
    args.max_steps = -1                 # past pydantic: the service refuses it
    refused = begin_inline(RUN, args, _env())
    assert isinstance(refused, InvalidParams)
    assert refused.message == "max_steps must be a non-negative integer"

    def broken(args, env):
        raise RuntimeError("boom")

    tool = type(RUN)(**{**RUN.__dict__, "begin": broken, "call": broken})
    args = RunParams.model_validate({"source": TINY})
    answer = begin_inline(tool, args, _env())
    assert answer == BorunaServer._invoke(tool, args, _env())
    assert answer.structured_content["error_kind"] == "internal_error"


@pytest.mark.parametrize("body", ["(" * 117 + "1" + ")" * 117, "{" * 117 + "1" + "}" * 117,
                                  "-" * 234 + "1"])
def test_a_small_nested_source_compiles_on_the_loop_without_the_deep_pool(monkeypatch, body):
    hops = []

    class NoPool:                   # a hop would wait for this pool: record it instead
        def ensure_started(self):
            hops.append(1)
            return 0                # (`call_deep` then runs on the caller's stack)

    monkeypatch.setattr(deep_stack, "_pool", NoPool())
    source = "fn main() -> Int { " + body + " }"
    assert len(source) == INLINE_SOURCE_CHARS

    def nested(depth):             # the loop's own stack is shallow (~20 frames); be deeper
        if depth:
            return nested(depth - 1)
        return begin_inline(RUN, RunParams.model_validate({"source": source}), _env())

    answer = nested(150)
    assert hops == []
    assert isinstance(answer, types.CallToolResult)
    assert answer.structured_content["result"] == 1


def _server(**lanes):
    from boruna.assets.directories import LIBS, TEMPLATES, resolve_dir

    server = BorunaServer(resolve_dir(None, TEMPLATES), resolve_dir(None, LIBS))
    server.lanes = Lanes(**lanes)
    return server


def _call(server, arguments):
    return server.call_tool(_Ctx(), types.CallToolRequestParams(name="boruna_run",
                                                                arguments=arguments))


def test_paths_a_run_takes(monkeypatch):
    monkeypatch.setattr(inline_runs, "INLINE_SECONDS", 60.0)   # no timing in the test
    server = _server()
    handed = []
    original = server.lanes.run.run

    async def counting_run(fn, max_wait=None):
        handed.append(max_wait)
        return await original(fn, max_wait=max_wait)

    server.lanes.run.run = counting_run

    async def main():
        tiny = await _call(server, {"source": TINY})
        long = await _call(server, {"source": LONG})
        listed = await _call(server, {"source": LIST})
        policy = await _call(server, {"source": TINY, "policy": {}})
        heavy = await _call(server, {"source": HEAVY})
        shared = await _call(server, {"source": SHARED})
        return tiny, long, listed, policy, heavy, shared

    tiny, long, listed, policy, heavy, shared = asyncio.run(main())
    assert tiny.structured_content["result"] == 3
    assert long.structured_content["result"] == 100000
    assert listed.structured_content["result"] == list(range(200))
    assert policy.structured_content["result"] == 3
    # tiny: answered on the loop; long: its slice, then a worker (free: no queue wait);
    # listed: ended on the loop, but its answer is over the small-JSON bound, so a worker
    # renders it; a policy object: the worker path as before (with its queue wait)
    assert heavy.structured_content["result"] == 1024 * 2048 + 1024
    assert shared.model_dump_json(by_alias=True, exclude_unset=True) == _worker_answer(
        {"source": SHARED}).model_dump_json(by_alias=True, exclude_unset=True)
    # heavy: its doubling crossed INLINE_WORK before the replace, which a worker takes;
    # shared: no work, but its result encodes past INLINE_BYTES: a worker settles it
    assert handed == [None, None, 30.0, None, None]
    assert server.lanes.run.accepted == 0


def test_a_full_lane_queues_the_call_as_before():
    server = _server(run_workers=1, run_queue=1)
    release = threading.Event()

    async def main():
        lane = server.lanes.run
        holder = asyncio.ensure_future(lane.run(lambda: release.wait(10)))
        await asyncio.sleep(0.05)
        assert not lane.has_idle_worker()
        queued = asyncio.ensure_future(_call(server, {"source": TINY}))
        await asyncio.sleep(0.05)
        assert not queued.done() and lane.accepted == 2      # waiting for the worker
        refused = await _call(server, {"source": TINY})       # beyond workers + queue
        release.set()
        await holder
        return await queued, refused

    queued, refused = asyncio.run(main())
    assert queued.structured_content["result"] == 3
    assert refused.structured_content["error_kind"] == "server_busy"


def test_policies_and_cancel_events_shared_between_calls_change_no_answer(monkeypatch):
    # the shorthand policies are built once and shared by every run; a call answered on the
    # loop hands its (never set) cancel event to the next call; one taken by a worker keeps
    # its own, and the next call gets a new one
    monkeypatch.setattr(inline_runs, "INLINE_SECONDS", 60.0)   # no timing in the test
    server = _server()
    events = []
    original = inline_runs.begin_inline

    def recording(tool, args, env):
        events.append(env.cancel_event)
        return original(tool, args, env)

    monkeypatch.setattr("boruna.mcp.server.begin_inline", recording)
    deny = {"source": 'fn main() -> String !{net.fetch} { net_fetch("https://example.com") }',
            "policy": "deny-all"}
    allow = {**deny, "policy": "allow-all"}
    calls = [deny, allow, deny, {"source": TINY}, {"source": LONG}, {"source": TINY}, allow]

    async def main():
        return [await _call(server, arguments) for arguments in calls]

    answers = asyncio.run(main())
    for arguments, answer in zip(calls, answers):
        assert answer.model_dump_json(by_alias=True, exclude_unset=True) == \
            _worker_answer(arguments).model_dump_json(by_alias=True, exclude_unset=True)
    assert answers[0].structured_content["error_kind"] == "runtime_error"
    assert answers[1].structured_content["success"] is True
    # calls 1-4 share one event; LONG (call 5) went on to a worker with it; 6-7 a new one
    assert [e is events[0] for e in events] == [True, True, True, True, True, False, False]
    assert events[5] is events[6]
    assert not any(e.is_set() for e in events)
