"""docs/spec/vm.md §9 programs T01-T52: result, steps, compile counts, ui_output, slicing invariance."""
import importlib.util
import pathlib

import pytest

from boruna.compiler import compile_source
from boruna.service.encoding import format_value
from boruna.api import run

_spec = importlib.util.spec_from_file_location(
    "vm_spec_cases", pathlib.Path(__file__).with_name("vm_spec_cases.py"))
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)
CASES = _mod.CASES
IDS = [c["id"] for c in CASES]


ADDITIVE = ("type_name", "field_names")     # ours beyond the spec's encoding (issue 23)


def _seed(v):
    """An encoded value with the spec's keys only."""
    if isinstance(v, dict):
        return {k: _seed(x) for k, x in v.items() if k not in ADDITIVE}
    if isinstance(v, list):
        return [_seed(x) for x in v]
    return v


def _outcome(case, **kw):
    module = compile_source(case["source"])
    out = run(module, policy=case["policy"], max_steps=case["max_steps"], **kw)
    value = _seed(format_value(out.result, module)) if out.ok else out.error
    return module, out, value


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_spec_program(case):
    module, out, value = _outcome(case)
    s = module.summary()
    assert (s["functions"], s["types"], s["constants"], s["entry"]) == tuple(case["counts"])
    if "result" in case:
        assert out.ok, out.error
        assert value == case["result"]
        assert out.error_kind is None
    else:
        assert not out.ok
        assert out.error == case["error"]
        assert out.error_kind == "runtime_error"
    assert out.steps == case["steps"]
    if "ui" in case:
        assert [_seed(format_value(u, module)) for u in out.ui_output] == case["ui"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.parametrize("slice_steps", [1, 7, 100_000])
def test_spec_program_sliced_identical(case, slice_steps):
    _, whole, whole_value = _outcome(case)
    seen = []
    _, sliced, sliced_value = _outcome(case, slice_steps=slice_steps, on_progress=seen.append)
    assert sliced_value == whole_value
    assert sliced.steps == whole.steps
    assert sliced.ok == whole.ok
    expected_reports = (whole.steps - 1) // slice_steps
    assert seen == [slice_steps * (i + 1) for i in range(expected_reports)]


def test_trace_format_matches_reference_example():
    out = run("fn main() -> Int { 1 + 2 }\n", trace=True)
    assert out.trace == [
        "[main:0] PushConst(0)  stack_depth=0",
        "[main:1] PushConst(1)  stack_depth=1",
        "[main:2] Add  stack_depth=2",
        "[main:3] Ret  stack_depth=1",
    ]
    assert out.trace_truncated is False


def test_trace_keeps_first_500_of_fib():
    case = next(c for c in CASES if c["id"] == "T04")
    _, out, _ = _outcome(case, trace=True)
    assert len(out.trace) == 500
    assert out.trace_truncated is True
    assert out.trace[0] == "[main:0] PushConst(3)  stack_depth=0"
    assert out.trace[1] == "[main:1] Call(0, 1)  stack_depth=1"
    assert out.trace[2] == "[fib:0] LoadLocal(0)  stack_depth=0"


def test_trace_entries_count_dispatched_ops_only():
    from boruna import _vm
    case = next(c for c in CASES if c["id"] == "T47")
    module = compile_source(case["source"])
    m = _vm.Machine(module, trace=True)
    assert m.run() == _vm.FINISHED
    # steps = dispatched ops + 1 (finishing iteration); no implicit return any more
    assert m.trace_total == m.steps - 1
    assert "Assert { msg" not in "".join(m.trace)


def test_trace_limit_and_total():
    case = next(c for c in CASES if c["id"] == "T04")
    _, out, _ = _outcome(case, trace=True, trace_limit=2000)
    assert len(out.trace) == out.trace_total == case["steps"] - 1
    assert out.trace_truncated is False
    _, out, _ = _outcome(case, trace=True)
    assert (len(out.trace), out.trace_total, out.trace_truncated) == (500, 1858, True)


def test_counting_loop_same_steps_with_and_without_progress():
    src = ("fn main() -> Int {\n    let mut i = 0\n    while i < 80000 {\n        i = i + 1\n"
           "    }\n    i\n}\n")
    plain = run(src)
    seen = []
    streamed = run(src, on_progress=seen.append, slice_steps=100_000)
    assert plain.steps == streamed.steps == 720_009
    assert seen == [100_000 * k for k in range(1, 8)]
    assert streamed.result == plain.result == 80000
