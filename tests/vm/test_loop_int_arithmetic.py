"""Checked i64 arithmetic against exact big-integer arithmetic (docs/spec/vm.md §3.4)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from boruna.bytecode.module import Function, Module
from boruna.api import run

I64_MIN, I64_MAX = -(2**63), 2**63 - 1
edge = st.sampled_from([0, 1, -1, 2, -2, 7, -7, I64_MAX, I64_MIN, I64_MAX - 1, I64_MIN + 1,
                        3037000499, 3037000500, -3037000500, 2**32])
i64 = st.one_of(edge, st.integers(I64_MIN, I64_MAX))
NAMES = {"Add": "addition", "Sub": "subtraction", "Mul": "multiplication",
         "Div": "division", "Mod": "remainder"}


def expected(op, a, b):
    if op in ("Div", "Mod") and b == 0:
        return "division by zero"
    if op == "Mod" and (a, b) == (I64_MIN, -1):   # docs/spec/vm.md: the remainder overflows
        return "integer overflow in remainder"
    if op == "Add":
        r = a + b
    elif op == "Sub":
        r = a - b
    elif op == "Mul":
        r = a * b
    else:
        q = abs(a) // abs(b)
        q = q if (a >= 0) == (b >= 0) else -q
        r = q if op == "Div" else a - q * b
    if not I64_MIN <= r <= I64_MAX:
        return f"integer overflow in {NAMES[op]}"
    return r


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(list(NAMES)), i64, i64)
def test_binary_int_ops(op, a, b):
    module = Module("m", constants=[a, b], functions=[
        Function("main", 0, 0, [("PushConst", 0), ("PushConst", 1), (op,), ("Ret",)])])
    out = run(module)
    want = expected(op, a, b)
    if isinstance(want, str):
        assert out.error == want
        assert out.steps == 3
    else:
        assert out.ok and out.result == want and type(out.result) is int
        assert out.steps == 5


@settings(max_examples=100, deadline=None)
@given(i64)
def test_negation(a):
    module = Module("m", constants=[a], functions=[
        Function("main", 0, 0, [("PushConst", 0), ("Neg",), ("Ret",)])])
    out = run(module)
    if a == I64_MIN:
        assert out.error == "integer overflow in negation"
    else:
        assert out.result == -a
