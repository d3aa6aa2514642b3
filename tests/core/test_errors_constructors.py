"""VmError messages are the reference's exact Display strings (docs/spec/vm.md §4.6)."""
import pytest

from boruna.core import errors
from boruna.core.errors import VmError


@pytest.mark.parametrize("err, text", [
    (errors.stack_underflow(), "stack underflow"),
    (errors.stack_overflow(), "stack overflow (max 4096)"),
    (errors.stack_overflow(256), "stack overflow (max 256)"),
    (errors.invalid_function(0), "invalid function index: 0"),
    (errors.invalid_constant(7), "invalid constant index: 7"),
    (errors.invalid_local(3), "invalid local index: 3"),
    (errors.invalid_global(1), "invalid global index: 1"),
    (errors.type_error("numeric", "String"), "type error: expected numeric, got String"),
    (errors.division_by_zero(), "division by zero"),
    (errors.overflow("addition"), "integer overflow in addition"),
    (errors.overflow("negation"), "integer overflow in negation"),
    (errors.capability_denied("step.input"), "capability denied: step.input"),
    (errors.capability_budget_exceeded("llm.call"), "capability budget exceeded: llm.call"),
    (errors.unknown_capability(99), "unknown capability id: 99"),
    (errors.assertion_failed("boom"), "assertion failed: boom"),
    (errors.capability_error("replay log exhausted"),
     "assertion failed: capability error: replay log exhausted"),
    (errors.contract_violation('"precondition 1 failed in `half`"', ["3"]),
     '"precondition 1 failed in `half`" [counterexample: (3)]'),
    (errors.contract_violation("output guard `x` failed"),
     "output guard `x` failed [counterexample: ()]"),
    (errors.contract_violation("m", ['"a"', "1", "true"]), 'm [counterexample: ("a", 1, true)]'),
    (errors.index_out_of_bounds(5, 3), "list index out of bounds: index 5, length 3"),
    (errors.match_exhausted(), "no match found for value"),
    (errors.step_limit(1000), "max execution steps exceeded (1000)"),
    (errors.wall_time_exceeded(50), "wall-clock execution limit exceeded (50 ms)"),
])
def test_exact_texts(err, text):
    assert isinstance(err, VmError)
    assert err.message == text
    assert str(err) == text


def test_kinds_let_callers_branch_without_parsing():
    assert errors.wall_time_exceeded(5).kind == "wall_time"
    assert errors.wall_time_exceeded(5).limit == 5
    denied = errors.capability_denied("net.fetch")
    assert (denied.kind, denied.capability) == ("capability_denied", "net.fetch")
    over = errors.capability_budget_exceeded("random")
    assert (over.kind, over.capability) == ("capability_budget_exceeded", "random")
    assert errors.step_limit(10).kind == "step_limit"
