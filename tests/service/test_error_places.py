"""Runtime errors carry their place: `location` and `stack` on failed runs."""
import json

from boruna.bytecode import axbc
from boruna.compiler import compile_source
from boruna.service.error_places import MAX_STACK_ENTRIES, error_stack, failing_op
from boruna.service.running import RunRequest, run, run_tool
from boruna.service.sealed import run_sealed_tool

NESTED = """fn pick(xs: List<Int>, i: Int) -> Int {
    list_get(xs, i)
}

fn last(xs: List<Int>) -> Int {
    pick(xs, list_len(xs))
}

fn main() -> Int {
    last([1, 2, 3, 4])
}
"""


def test_the_innermost_frame_is_the_location_and_the_stack_is_innermost_first():
    response = run_tool(NESTED)
    assert response["message"] == "list index out of bounds: index 4, length 4"
    assert response["location"] == {"line": 2, "col": 5, "function": "pick"}
    assert response["stack"] == [{"function": "pick", "line": 2, "col": 5},
                                 {"function": "last", "line": 6, "col": 5},
                                 {"function": "main", "line": 10, "col": 5}]


def test_a_field_read_on_a_non_record_points_at_the_read():
    source = 'fn main() -> Int {\n    let s = "abc"\n    let n = 1\n    s.len\n}\n'
    assert run_tool(source)["location"] == {"line": 4, "col": 5, "function": "main"}


def test_sealed_runs_report_the_same_place():
    sealed = run_sealed_tool(NESTED)
    assert sealed["location"] == {"line": 2, "col": 5, "function": "pick"}
    assert [e["function"] for e in sealed["stack"]] == ["pick", "last", "main"]


def test_a_module_without_line_tables_names_functions_only():
    obj = json.loads(axbc.to_json(compile_source(NESTED)))
    for f in obj["functions"]:
        del f["lines"]
    data = axbc.to_bytes(axbc.from_json(json.dumps(obj)))
    response = run(RunRequest.of(bytecode=data)).to_json()
    assert "location" not in response
    assert response["stack"] == [{"function": "pick", "line": None, "col": None},
                                 {"function": "last", "line": None, "col": None},
                                 {"function": "main", "line": None, "col": None}]


def test_deep_recursion_keeps_both_ends_of_the_stack():
    source = "fn down(n: Int) -> Int {\n    1 + down(n + 1)\n}\n\nfn main() -> Int {\n    down(0)\n}\n"
    response = run_tool(source)
    assert response["message"] == "stack overflow (max 256)"
    stack = response["stack"]
    assert len(stack) == MAX_STACK_ENTRIES
    assert stack[0] == {"function": "down", "line": 2, "col": 9}
    assert stack[MAX_STACK_ENTRIES - 8] == {"function": "...", "omitted": 256 - 31}
    assert stack[-1] == {"function": "main", "line": 6, "col": 5}


def test_a_run_that_fails_before_the_vm_starts_has_no_place():
    response = run_tool("")
    assert response["message"] == "invalid function index: 0"
    assert "location" not in response and "stack" not in response


def test_failing_op_names_the_instruction():
    from boruna import run as run_source

    outcome = run_source('fn main() -> String { "a" * 2 }')
    assert failing_op(outcome.vm_error, outcome.module) == "Mul"
    assert error_stack(None, outcome.module) == []
