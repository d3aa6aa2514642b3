"""Realistic programs an agent would write, and edge cases the spec tables do not list,
run through `boruna_run` (service.run_tool) with exact results, steps and errors."""
import pytest

from boruna.compiler import compile_source
from boruna.runtime.execute import run
from boruna.service.running import run_tool


def ok(src, **kw):
    r = run_tool(src, **kw)
    assert r["success"] is True, r
    return r["result"], r["steps"]


def fails(src, **kw):
    r = run_tool(src, **kw)
    assert r["success"] is False and r["error_kind"] == "runtime_error", r
    return r["message"], r["steps"]


# ------------------------------------------------------------------ contracts on every return

def test_ensures_is_checked_on_early_returns():
    src = ("fn f(x: Int) -> Int ensures result > 0 { if x < 0 { return x } x }\n"
           "fn main() -> List<Int> { [f(1), f(-3)] }\n")
    assert fails(src) == ("\"postcondition 1 failed in `f`\" [counterexample: (-3)]", 28)


def test_ensures_after_a_branch_that_jumps_past_a_trailing_return():
    # the then-branch jumps past `return 2`; it must still store `result` (the reference
    # removes the trailing Ret and lands one op late, reading an unset `result`)
    src = ("fn f(x: Int) -> Int ensures result > 0 { if x > 0 { 1 } else { return 2 } }\n"
           "fn main() -> List<Int> { [f(1), f(-1)] }\n")
    assert ok(src) == ([1, 2], 33)
    code = compile_source(src).functions[0].code
    assert code[5] == ("Jmp", 7) and code[7] == ("StoreLocal", 1)


def test_ensures_with_return_inside_loops_and_match_arms():
    src = ("fn f(x: Int) -> Int ensures result == 0 { for i in [1, 2] { if i == 2 { return } } 0 }\n"
           "fn main() -> Int { f(1) }\n")
    msg, _ = fails(src)
    assert msg == "\"postcondition 1 failed in `f`\" [counterexample: (1)]"
    src = ("fn f(x: Int) -> Int ensures result > 0 { match x { 0 => { return 5 }, _ => 7 } }\n"
           "fn main() -> List<Int> { [f(1), f(0)] }\n")
    assert ok(src) == ([7, 5], 30)


def test_ensures_with_return_inside_an_expression():
    src = ("fn f(x: Int) -> Int ensures result > 0 { 1 + { return x } }\n"
           "fn main() -> List<Int> { [f(4)] }\n")
    assert ok(src)[0] == [4]
    src = src.replace("[f(4)]", "[f(4), f(0)]")
    assert fails(src)[0] == "\"postcondition 1 failed in `f`\" [counterexample: (0)]"


def test_trailing_return_with_ensures_costs_what_the_reference_charges():
    # T30-like: `return n + 1` at the end falls into the postconditions without a jump
    src = "fn inc(n: Int) -> Int ensures result > n { return n + 1 }\nfn main() -> Int { inc(4) }\n"
    assert ok(src) == (5, 14)


def test_clamp_with_two_postconditions():
    src = """
fn clamp(x: Int, lo: Int, hi: Int) -> Int
    requires lo <= hi
    ensures result >= lo
    ensures result <= hi
{
    if x < lo { return lo }
    if x > hi { hi } else { x }
}
fn main() -> List<Int> { [clamp(5, 0, 3), clamp(-1, 0, 3), clamp(2, 0, 3)] }
"""
    assert ok(src) == ([3, 0, 2], 86)


def test_ensures_when_every_branch_returns():
    src = ("fn f(c: Bool) -> Int ensures result > 1 { if c { return 1 } else { return 2 } }\n"
           "fn main() -> List<Int> { [f(false), f(true)] }\n")
    assert fails(src) == ("\"postcondition 1 failed in `f`\" [counterexample: (true)]", 23)
    src = ("fn f(n: Int) -> Int ensures result >= 0 {\n"
           "    let mut i = 0\n    while true { if i == n { return i } i = i + 1 }\n}\n"
           "fn main() -> List<Int> { [f(3), f(0)] }\n")
    assert ok(src) == ([3, 0], 74)
