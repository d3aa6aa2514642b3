"""`service.running.begin` / `PendingRun`: a run begun, advanced a few steps where the caller
is, and finished later answers exactly what `run_tool` answers (result, steps, trace, errors,
limits), wherever it stopped; `begin_run_tool` answers before the run what `run_tool` does."""
import sys
from pathlib import Path

import pytest

from boruna.service import InvalidParams, begin_run_tool, run_tool
from boruna.service.running import PendingRun

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vm"))
from vm_random_programs import mixed_program, strings_program  # noqa: E402

FIXED = [
    "fn main() -> Int { 1 + 2 }",
    "fn main() -> Int { let mut i = 0\n while i < 300 { i = i + 1 }\n i }",
    "fn main() -> Int { let mut i = 0\n while true { i = i + 1 }\n i }",           # step limit
    "fn main() -> Int { 1 / 0 }",
    'fn main() -> String { let mut s = "ab"\n let mut i = 0\n'
    ' while i < 20 { s = s ++ s\n i = i + 1 }\n s }',                              # work, memory
    "fn main() -> Int { 1 + }",                                                       # compile
    'fn main() -> String !{net.fetch} { net_fetch("https://example.com") }',         # a capability
    "fn main() -> Int { 1 + 2 }",
]
KWARGS = [{}, {"trace": True}, {"max_steps": 57}, {"policy": "deny-all"},
          {"limits": {"max_output_bytes": 40}}, {"max_steps": 3000, "trace": True}]


def _pending_answer(source, slices, **kwargs):
    begun = begin_run_tool(source, **kwargs)
    if isinstance(begun, dict):
        return begun
    assert isinstance(begun, PendingRun)
    for steps in slices:
        begun.advance(steps, 2**62, 60.0, 2**62)
    return begun.result().to_json()


@pytest.mark.parametrize("source", FIXED + [mixed_program(s) for s in range(8)]
                         + [strings_program(s) for s in range(8)])
def test_advanced_then_finished_answers_as_run_tool(source):
    for kwargs in KWARGS:
        expected = run_tool(source, **kwargs)
        for slices in ([], [1], [1, 1, 1], [5], [37, 2], [10_000]):
            assert _pending_answer(source, slices, **kwargs) == expected, (kwargs, slices)


def test_advance_reports_a_stop_only_within_the_work_bound():
    begun = begin_run_tool("fn main() -> Int { 1 + 2 }")
    assert begun.advance(10_000, 0, 60.0, 2**62) is True           # stopped, no work spent
    assert begun.result().to_json() == run_tool("fn main() -> Int { 1 + 2 }")
    heavy = 'fn main() -> Int { let s = "abc" ++ "def"\n __builtin_string_len(s) }'
    begun = begin_run_tool(heavy)
    assert begun.advance(10_000, 0, 60.0, 2**62) is False          # the `++` spent work: not cheap
    assert begun.result().to_json() == run_tool(heavy)


SHARED = ("enum T { Leaf, Node(List<T>) }\nfn main() -> T { let mut t = T::Leaf\n let mut i = 0\n"
          " while i < 12 { t = T::Node([t, t])\n i = i + 1 }\n t }")


def test_advance_reports_a_stop_only_within_the_output_bound():
    # a value sharing its parts spends no work, but its encoding doubles with every level
    begun = begin_run_tool(SHARED)
    assert begun.advance(10_000, 0, 60.0, 4096) is False
    assert begun.started.machine.work == 0 and begun.started.machine.finished
    assert begun.result().to_json() == run_tool(SHARED)
    begun = begin_run_tool(SHARED)
    assert begun.advance(10_000, 0, 60.0, 2**62) is True
    assert begun.result().to_json() == run_tool(SHARED)
    failed = 'fn main() -> Int { 1 / 0 }'
    begun = begin_run_tool(failed)
    assert begun.advance(10_000, 0, 60.0, 4096) is True
    assert begun.result().to_json() == run_tool(failed)


def test_advance_stops_at_its_step_bound():
    source = "fn main() -> Int { let mut i = 0\n while i < 300 { i = i + 1 }\n i }"
    begun = begin_run_tool(source)
    assert begun.advance(10, 2**62, 60.0, 2**62) is False
    assert begun.started.machine.steps == 10
    assert begun.advance(0, 2**62, 60.0, 2**62) is False
    assert begun.started.machine.steps == 10
    assert begun.result().to_json() == run_tool(source)


def test_begin_run_tool_answers_before_the_run_or_raises_as_run_tool():
    assert begin_run_tool("fn main() -> Int { 1 + }") == run_tool("fn main() -> Int { 1 + }")
    assert begin_run_tool("fn main() -> Int { 1 }", limits={"max_memory_mb": 1}) == \
        run_tool("fn main() -> Int { 1 }", limits={"max_memory_mb": 1})
    with pytest.raises(InvalidParams) as raised:
        begin_run_tool("fn main() -> Int { 1 }", max_steps=-1)
    assert raised.value.message == "max_steps must be a non-negative integer"
