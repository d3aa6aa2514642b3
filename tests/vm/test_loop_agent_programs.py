"""Realistic programs an agent would write, and edge cases the spec tables do not list,
run through `boruna_run` (service.run_tool) with exact results, steps and errors."""
import pytest

from boruna.compiler import compile_source
from boruna.api import run
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


# ------------------------------------------------------------------ programs agents write

def test_shadowing_in_blocks_and_lets():
    src = """fn main() -> Int {
    let x = 1
    let x = x + 1
    let y = {
        let x = x * 10
        x + 1
    }
    x + y
}"""
    assert ok(src) == (23, 19)


def test_empty_function_as_a_value_and_called_directly():
    src = """fn nothing() {}
fn main() -> Int {
    let f = nothing
    let v = f()
    let w = nothing()
    if v == w { 1 } else { 0 }
}"""
    assert ok(src) == (1, 17)


def test_records_inside_enum_payloads_in_a_for_loop():
    src = """type Point { x: Int, y: Int }
enum Shape { Circle(Point), Rect(Point), Empty }
fn area(s: Shape) -> Int {
    match s {
        Circle(p) => p.x * p.y,
        Rect(p) => p.x + p.y,
        Empty => 0,
    }
}
fn main() -> Int {
    let shapes = [Shape::Circle(Point { x: 2, y: 3 }), Shape::Rect(Point { y: 4, x: 5 }), Shape::Empty]
    let mut total = 0
    for s in shapes { total = total + area(s) }
    total
}"""
    assert ok(src)[0] == 15


def test_nested_option_of_enum_and_result_literal_patterns():
    src = """enum Color { Red, Green, Blue(Int) }
fn f(o: Option<Color>) -> Int {
    match o {
        Some(Blue(n)) => n,
        Some(Red) => 1,
        Some(c) => 2,
        None => 0,
    }
}
fn classify(r: Result<Int, String>) -> String {
    match r {
        Ok(0) => "zero",
        Ok(n) => "num",
        Err("boom") => "boom",
        Err(e) => e,
    }
}
fn main() -> List<String> {
    let xs = [f(Some(Color::Blue(7))), f(Some(Color::Red)), f(Some(Color::Green)), f(None)]
    let mut out = [classify(Ok(0)), classify(Ok(5)), classify(Err("boom")), classify(Err("other"))]
    for x in xs { out = list_push(out, __builtin_int_to_string(x)) }
    out
}"""
    assert ok(src)[0] == ["zero", "num", "boom", "other", "7", "1", "2", "0"]


def test_early_return_from_nested_loops():
    src = """fn find(grid: List<List<Int>>, t: Int) -> Int {
    let mut r = 0
    for row in grid {
        let mut c = 0
        while c < list_len(row) {
            if list_get(row, c) == t { return r * 10 + c }
            c = c + 1
        }
        r = r + 1
    }
    -1
}
fn main() -> List<Int> { [find([[1, 2], [3, 4]], 4), find([[1]], 9), find([], 1)] }"""
    assert ok(src)[0] == [11, -1, -1]


def test_mutual_recursion_and_function_values():
    src = """fn is_even(n: Int) -> Bool { if n == 0 { true } else { is_odd(n - 1) } }
fn is_odd(n: Int) -> Bool { if n == 0 { false } else { is_even(n - 1) } }
fn inc(x: Int) -> Int { x + 1 }
fn dbl(x: Int) -> Int { x * 2 }
fn compose(f: Fn(Int) -> Int, g: Fn(Int) -> Int, x: Int) -> Int { g(f(x)) }
fn pick(b: Bool) -> Fn(Int) -> Int { if b { inc } else { dbl } }
fn main() -> List<Int> {
    let fs = [inc, dbl]
    let h = list_get(fs, 1)
    let parity = if is_even(10) && is_odd(7) && !is_even(3) { 1 } else { 0 }
    [compose(inc, dbl, 3), h(10), pick(true)(5), pick(false)(5), parity]
}"""
    assert ok(src)[0] == [8, 20, 6, 10, 1]


def test_bank_account_with_spread_and_result():
    src = """type Account { id: Int, owner: String, balance: Int }
enum Tx { Deposit(Int), Withdraw(Int), Close }
fn apply(a: Account, t: Tx) -> Result<Account, String> {
    match t {
        Deposit(n) => Ok(Account { ..a, balance: a.balance + n }),
        Withdraw(n) => if n > a.balance { Err("insufficient funds") } else { Ok(Account { ..a, balance: a.balance - n }) },
        Close => Err("closed"),
    }
}
fn main() -> String {
    let mut acct = Account { id: 1, owner: "ann", balance: 0 }
    let mut log = ""
    for t in [Tx::Deposit(100), Tx::Withdraw(30), Tx::Withdraw(500), Tx::Deposit(5), Tx::Close] {
        match apply(acct, t) {
            Ok(a) => { acct = a  log = log ++ "ok;" },
            Err(e) => { log = log ++ e ++ ";" },
        }
    }
    log ++ __builtin_int_to_string(acct.balance)
}"""
    assert ok(src)[0] == "ok;ok;insufficient funds;ok;closed;75"


def test_if_without_else_in_every_value_position():
    src = """type P { a: Int, b: Int }
fn id(x: Int) -> Int { x }
fn g(c: Bool) -> Int { return if c { 1 } }
fn main() -> List<Int> {
    let c = false
    let t = true
    let p = P { a: if c { 1 }, b: if t { 2 } }
    let m = match if t { 3 } { 3 => 30, _ => 0 }
    emit if c { 9 }
    emit if t { 8 }
    [id(if c { 1 }), if t { 5 }, p.a, p.b, m, g(true), g(false), if if t { true } { 6 } else { 7 }]
}"""
    r = run_tool(src)
    assert r["success"] is True
    assert r["result"] == [None, 5, None, 2, 30, 1, None, 6]
    assert r["ui_output"] == [None, 8]


def test_statement_forms_in_loops_and_matches():
    src = """fn main() -> Int {
    let mut n = 0
    while n < 5 { if n == 2 { n = n + 10 } else { n = n + 1 } }
    if n > 100 { n = 0 }
    match n { 12 => { n = n + 1 }, _ => { n = 0 } }
    { n = n * 2 }
    let a = spawn helper
    send a if true { 1 }
    if true { send a 4 }
    match 1 { _ => send a 5 }
    n
}
fn helper() -> Int { 0 }"""
    assert ok(src)[0] == 26


def test_insertion_sort_and_string_building():
    src = """fn insert(sorted: List<Int>, x: Int) -> List<Int> {
    let mut out = []
    let mut placed = false
    for y in sorted {
        if !placed && x < y {
            out = list_push(out, x)
            placed = true
        }
        out = list_push(out, y)
    }
    if !placed { out = list_push(out, x) }
    out
}
fn main() -> String {
    let mut acc = []
    for x in [5, 3, 9, 1, 3, -2] { acc = insert(acc, x) }
    let mut parts = []
    for x in acc { parts = list_push(parts, __builtin_int_to_string(x)) }
    "[" ++ __builtin_string_join(parts, ", ") ++ "]"
}"""
    assert ok(src)[0] == "[-2, 1, 3, 3, 5, 9]"


def test_factorial_overflow_edge():
    fact = "fn fact(n: Int) -> Int { if n <= 1 { 1 } else { n * fact(n - 1) } }\n"
    assert ok(fact + "fn main() -> Int { fact(20) }")[0] == 2432902008176640000
    assert fails(fact + "fn main() -> Int { fact(21) }")[0] == "integer overflow in multiplication"


def test_recursion_depth_boundary():
    down = "fn down(n: Int) -> Int { if n == 0 { 0 } else { down(n - 1) + 1 } }\n"
    # main + 255 frames of down = 256 frames: the deepest allowed
    assert ok(down + "fn main() -> Int { down(254) }")[0] == 254
    assert fails(down + "fn main() -> Int { down(255) }") == ("stack overflow (max 256)", 2042)


def test_sliced_runs_of_agent_programs_are_identical():
    src = """fn fizz(n: Int) -> String {
    if n % 15 == 0 { "FizzBuzz" } else { if n % 3 == 0 { "Fizz" } else { if n % 5 == 0 { "Buzz" } else { __builtin_int_to_string(n) } } }
}
fn main() -> String {
    let mut out: List<String> = []
    let mut i = 1
    while i <= 15 { emit i  out = list_push(out, fizz(i))  i = i + 1 }
    __builtin_string_join(out, ",")
}"""
    module = compile_source(src)
    whole = run(module)
    assert whole.result == "1,2,Fizz,4,Buzz,Fizz,7,8,Fizz,Buzz,11,Fizz,13,14,FizzBuzz"
    for k in (1, 2, 3, 7, 64):
        part = run(module, slice_steps=k, on_progress=lambda steps: None)
        assert (part.result, part.steps, part.ui_output) == \
            (whole.result, whole.steps, whole.ui_output)


# ------------------------------------------------------------------ integer literal arms

def test_an_int_scrutinee_never_hits_bool_or_variant_arms():
    # tags 1/0 (true/false) and variant indexes are not integer literal arms
    assert ok('fn main() -> String { match 1 { true => "t", _ => "o" } }') == ("o", 6)
    assert ok('fn main() -> String { match 0 { false => "f", n => "n" } }')[0] == "n"
    src = 'enum C { Red, Green }\nfn main() -> String { match 1 { Green => "g", x => "x" } }'
    assert ok(src)[0] == "x"
    src = 'enum C { Red, Green }\nfn main() -> String { match 0 { Red => "r" } }'
    assert fails(src)[0] == "no match found for value"


def test_integer_literal_arms_keep_the_reference_tag_for_bools_and_variants():
    # docs/spec/vm.md §2.2: an arm `1` has tag 1, which a Bool true or a variant with index 1 hits
    assert ok('fn main() -> String { match true { 1 => "one", _ => "o" } }')[0] == "one"
    src = 'enum C { Red, Green }\nfn main() -> String { match C::Green { 1 => "one", _ => "o" } }'
    assert ok(src)[0] == "one"


def test_integer_literal_arms_up_to_the_table_limit_and_beyond():
    src = """fn name(n: Int) -> String {
    match n { 0 => "zero", 1 => "one", 1048575 => "max", 1048576 => "big", _ => "other" }
}
fn main() -> List<String> { [name(0), name(1), name(7), name(-1), name(1048575), name(1048576)] }"""
    assert ok(src)[0] == ["zero", "one", "other", "other", "max", "big"]
    module = compile_source("fn main() -> Int { match 5 { 5 => 1, _ => 0 } }")
    assert module.functions[0].match_tables[0] == [(5, 2), (-(2**30 + 5), 2), (-1, 5)]
    assert run(module).result == 1
    nested = 'fn main() -> String { match Some(2) { Some(1) => "a", Some(2) => "b", _ => "c" } }'
    assert ok(nested)[0] == "b"


def test_returns_from_loops_and_arms_with_values_on_the_other_paths():
    src = ("fn f(x: Int) -> Int { for i in [1] { if x > 0 { return 1 } } "
           "if x < 0 { 2 } else { return 3 } }\n"
           "fn main() -> List<Int> { [f(-1), f(0), f(1)] }")
    assert ok(src)[0] == [2, 3, 1]
    src = ("fn f(x: Int) -> Int { match x { 0 => { return 10 }, n => if n > 0 { n } "
           "else { return 0 - n } } }\nfn main() -> List<Int> { [f(0), f(5), f(-5)] }")
    assert ok(src)[0] == [10, 5, 5]
    src = ("fn f(o: Option<Option<Int>>) -> Int { match o { Some(Some(n)) => n, "
           "Some(None) => { return -1 }, None => 0 } }\n"
           "fn main() -> List<Int> { [f(Some(Some(4))), f(Some(None)), f(None)] }")
    assert ok(src)[0] == [4, -1, 0]
    src = ('fn f(s: String) -> Int { match s { "a" => 1, "b" => { return 2 } } }\n'
           'fn main() -> List<Int> { [f("a"), f("b"), f("c")] }')
    assert fails(src)[0] == "no match found for value"
