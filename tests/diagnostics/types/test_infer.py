"""The static type checker (`diagnostics/types/infer.py`, issue 12): one ill-typed program per
mistake an agent makes, with the exact code, severity, line, columns and message; well-typed
programs that stay clean; no type error on any template, library, example or spec program;
never raising on arbitrary or mutated input."""
from __future__ import annotations

import importlib.util
import pathlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boruna.diagnostics import check_source, collector
from boruna.diagnostics.repair import repair_source

ROOT = pathlib.Path(__file__).resolve().parents[3]
LIBS = str(ROOT / "libs")


@pytest.fixture(autouse=True)
def strict_analyzers(monkeypatch):
    monkeypatch.setattr(collector, "STRICT", True)


def found(src, libs_dir=None):
    return [(d.id, d.severity, d.location.line, d.location.col, d.location.end_col, d.body)
            for d in check_source(src, libs_dir=libs_dir).diagnostics]


def type_errors(src, libs_dir=None):
    return [(d.id, d.location and d.location.line, d.message)
            for d in check_source(src, libs_dir=libs_dir).diagnostics
            if d.id in ("E007", "E009") and d.severity == "error"]


# (name, source, [(code, severity, line, col, end_col, body)]), by the categories
ILL_TYPED = [
    ('let_int_string',
     'fn main() -> Int {\n    let n: Int = "5"\n    n\n}\n',
     [('E009', 'error', 2, 18, 21, 'type mismatch: the value of `n` should be `Int`, but it is `String`')]),
    ('let_float_div',
     'fn main() -> Float {\n    let half: Float = 7 / 2\n    half\n}\n',
     [('E009', 'error', 2, 23, 28, 'type mismatch: the value of `half` should be `Float`, but it is `Int`')]),
    ('let_float_intlit',
     'fn main() -> Float {\n    let x: Float = 3\n    x\n}\n',
     [('E009', 'error', 2, 20, 21, 'type mismatch: the value of `x` should be `Float`, but it is `Int`')]),
    ('let_list_elem',
     'fn main() -> Int {\n    let xs: List<Int> = [1, "2"]\n    0\n}\n',
     [('E009', 'error', 2, 29, 32, 'type mismatch: an element of the value of `xs` should be `Int`, but it is `String`')]),
    ('let_option',
     'fn main() -> Int {\n    let o: Option<Int> = Some("a")\n    0\n}\n',
     [('E009', 'error', 2, 31, 34, 'type mismatch: the `Some` payload of the value of `o` should be `Int`, but it is `String`')]),
    ('let_result',
     'fn main() -> Int {\n    let r: Result<Int, String> = Err(5)\n    0\n}\n',
     [('E009', 'error', 2, 38, 39, 'type mismatch: the `Err` payload of the value of `r` should be `String`, but it is `Int`')]),
    ('assign_annot',
     'fn main() -> Int {\n    let mut n: Int = 0\n    n = "x"\n    n\n}\n',
     [('E009', 'error', 3, 9, 12, 'type mismatch: the value assigned to `n` should be `Int`, but it is `String`')]),
    ('assign_unannot',
     'fn main() -> Int {\n    let mut total = 0\n    total = "none"\n    0\n}\n',
     [('E009', 'error', 3, 13, 19, 'type mismatch: the value assigned to `total` should be `Int`, but it is `String`')]),
    ('assign_list',
     'fn main() -> Int {\n    let mut xs = []\n    xs = list_push(xs, 1)\n    xs = list_push(xs, "two")\n    0\n}\n',
     [('E009', 'error', 4, 24, 29, 'type mismatch: the 2nd argument of `list_push` should be `Int`, but it is `String`')]),
    ('call_arg',
     'fn area(w: Int, h: Int) -> Int { w * h }\nfn main() -> Int {\n    area(2, "3")\n}\n',
     [('E009', 'error', 3, 13, 16, 'type mismatch: the 2nd argument of `area` should be `Int`, but it is `String`')]),
    ('call_record_arg',
     'type P { x: Int }\ntype Q { y: Int }\nfn f(p: P) -> Int { p.x }\nfn main() -> Int {\n    f(Q { y: 1 })\n}\n',
     [('E009', 'error', 5, 7, 17, 'type mismatch: the 1st argument of `f` should be `P`, but it is `Q`')]),
    ('builtin_len_str',
     'fn main() -> Int {\n    list_len("abc")\n}\n',
     [('E009', 'error', 2, 14, 19, 'type mismatch: the 1st argument of `list_len` should be `List<_>`, but it is `String`')]),
    ('builtin_push_mixed',
     'fn main() -> Int {\n    let xs = list_push([1, 2], "three")\n    0\n}\n',
     [('E009', 'error', 2, 32, 39, 'type mismatch: the 2nd argument of `list_push` should be `Int`, but it is `String`')]),
    ('builtin_i2s_float',
     'fn main() -> String {\n    __builtin_int_to_string(2.5)\n}\n',
     [('E009', 'error', 2, 29, 32, 'type mismatch: the 1st argument of `__builtin_int_to_string` should be `Int`, but it is `Float`')]),
    ('builtin_parse_int',
     'fn main() -> Int {\n    let n = 5\n    parse_int(n)\n}\n',
     [('E009', 'error', 3, 15, 16, 'type mismatch: the 1st argument of `parse_int` should be `String`, but it is `Int`')]),
    ('builtin_get_index',
     'fn main() -> Int {\n    list_get([1, 2], "0")\n}\n',
     [('E009', 'error', 2, 22, 25, 'type mismatch: the 2nd argument of `list_get` should be `Int`, but it is `String`')]),
    ('builtin_join_ints',
     'fn main() -> String {\n    __builtin_string_join([1, 2], ",")\n}\n',
     [('E009', 'error', 2, 28, 29, 'type mismatch: an element of the 1st argument of `__builtin_string_join` should be `String`, but it is `Int`')]),
    ('builtin_result_use',
     'fn main() -> Int {\n    let n = try_parse_int("4")\n    n + 1\n}\n',
     [('E009', 'error', 3, 5, 6, 'type mismatch: the left operand of `+` should be `Int` or `Float`, but it is `Result<Int, String>`')]),
    ('ret_tail',
     'fn main() -> Int {\n    "seven"\n}\n',
     [('E009', 'error', 2, 5, 12, 'type mismatch: the result of `main` should be `Int`, but it is `String`')]),
    ('ret_stmt',
     'fn main() -> String {\n    if true { return 1 } else { 0 }\n    "x"\n}\n',
     [('E009', 'error', 2, 22, 23, 'type mismatch: the value `main` returns should be `String`, but it is `Int`')]),
    ('ret_unit',
     'fn log(x: Int) -> Unit {\n    x + 1\n}\nfn main() -> Int {\n    log(1)\n    0\n}\n',
     [('E009', 'error', 2, 5, 10, 'type mismatch: the result of `log` should be `Unit`, but it is `Int`')]),
    ('ret_option',
     'fn find(xs: List<Int>) -> Option<Int> {\n    list_get(xs, 0)\n}\nfn main() -> Int { 0 }\n',
     [('E009', 'error', 2, 5, 20, 'type mismatch: the result of `find` should be `Option<Int>`, but it is `Int`')]),
    ('ret_empty',
     'fn f() -> Int {\n    return\n}\nfn main() -> Int { f() }\n',
     [('E009', 'error', 2, 5, 11, 'type mismatch: `return` without a value gives `Unit`, but `f` returns `Int`')]),
    ('op_add_str',
     'fn main() -> String {\n    "a" + "b"\n}\n',
     [('E009', 'error', 2, 5, 8, 'type mismatch: the left operand of `+` should be `Int` or `Float`, but it is `String`')]),
    ('op_sub_bool',
     'fn main() -> Int {\n    1 - true\n}\n',
     [('E009', 'error', 2, 9, 13, 'type mismatch: the right operand of `-` should be `Int` or `Float`, but it is `Bool`')]),
    ('op_mod_float',
     'fn main() -> Float {\n    7.5 % 2\n}\n',
     [('E009', 'error', 2, 5, 8, 'type mismatch: the left operand of `%` should be `Int`, but it is `Float`')]),
    ('op_concat_int',
     'fn main() -> String {\n    "n=" ++ 5\n}\n',
     [('E009', 'error', 2, 13, 14, 'type mismatch: the right operand of `++` should be `String`, but it is `Int`')]),
    ('op_concat_list',
     'fn main() -> Int {\n    let xs = [1] ++ [2]\n    0\n}\n',
     [('E009', 'error', 2, 14, 17, 'type mismatch: the left operand of `++` should be `String`, but it is `List<Int>`')]),
    ('op_lt_mixed',
     'fn main() -> Bool {\n    1 < 2.0\n}\n',
     [('E009', 'error', 2, 9, 12, 'type mismatch: `<` compares `Int` with `Float`; both sides must have the same type')]),
    ('op_lt_bool',
     'fn main() -> Bool {\n    true < false\n}\n',
     [('E009', 'error', 2, 5, 9, 'type mismatch: the left operand of `<` should be `Int`, `Float` or `String`, but it is `Bool`')]),
    ('op_neg_str',
     'fn main() -> Int {\n    -"x"\n}\n',
     [('E009', 'error', 2, 6, 9, 'type mismatch: the operand of unary `-` should be `Int` or `Float`, but it is `String`')]),
    ('eq_int_float',
     'fn main() -> Bool {\n    let n = 1\n    n == 1.0\n}\n',
     [('E009', 'warning', 3, 10, 13, '`==` compares `Int` with `Float`: values of different types are never equal, so this is always false')]),
    ('eq_int_str',
     'fn main() -> Bool {\n    5 == "5"\n}\n',
     [('E009', 'warning', 2, 10, 13, '`==` compares `Int` with `String`: values of different types are never equal, so this is always false')]),
    ('neq_opt',
     'fn main() -> Bool {\n    Some(1) != 1\n}\n',
     [('E009', 'warning', 2, 16, 17, '`!=` compares `Option<Int>` with `Int`: values of different types are never equal, so this is always true')]),
    ('eq_enums',
     'enum A { X }\nenum B { Y }\nfn main() -> Bool {\n    A::X == B::Y\n}\n',
     [('E009', 'warning', 4, 13, 17, '`==` compares `A` with `B`: values of different types are never equal, so this is always false')]),
    ('if_branches',
     'fn main() -> Int {\n    let t = if true { 1 } else { "a" }\n    0\n}\n',
     [('E009', 'error', 2, 34, 37, 'type mismatch: the `else` branch should be `Int`, but it is `String`')]),
    ('if_annot_branch',
     'fn main() -> Int {\n    if true { 1 } else { "a" }\n}\n',
     [('E009', 'error', 2, 26, 29, 'type mismatch: the result of `main` should be `Int`, but it is `String`')]),
    ('cond_if_int',
     'fn main() -> Int {\n    let n = 5\n    if n { 1 } else { 2 }\n}\n',
     [('E009', 'warning', 3, 8, 9, 'the condition of this `if` is `Int`, not `Bool`')]),
    ('cond_while_str',
     'fn main() -> Int {\n    let s = "x"\n    while s { }\n    0\n}\n',
     [('E009', 'warning', 3, 11, 12, 'the condition of this `while` is `String`, not `Bool`')]),
    ('cond_requires',
     'fn f(x: Int) -> Int requires x { x }\nfn main() -> Int { f(1) }\n',
     [('E009', 'warning', 1, 30, 31, 'this `requires` clause is `Int`, not `Bool`')]),
    ('cond_not',
     'fn main() -> Bool {\n    !5\n}\n',
     [('E009', 'warning', 2, 6, 7, 'the operand of `!` is `Int`, not `Bool`')]),
    ('cond_and',
     'fn main() -> Bool {\n    true && 1\n}\n',
     [('E009', 'warning', 2, 13, 14, 'the right operand of `&&` is `Int`, not `Bool`')]),
    ('match_arms',
     'fn main() -> Int {\n    let x = match 1 { 1 => "a", _ => 2 }\n    0\n}\n',
     [('E009', 'error', 2, 38, 39, 'type mismatch: the 2nd arm of this `match` should be `String`, but it is `Int`')]),
    ('match_pat_type',
     'fn main() -> Int {\n    match "5" {\n        5 => 1,\n        _ => 0\n    }\n}\n',
     [('E009', 'error', 3, 9, 10, 'type mismatch: this pattern matches `Int` values, but the matched value is `String`, so it can never match')]),
    ('match_some_on_int',
     'fn f(n: Int) -> Int {\n    match n {\n        Some(x) => x,\n        _ => 0\n    }\n}\nfn main() -> Int { f(1) }\n',
     [('E009', 'error', 3, 9, 16, 'type mismatch: this pattern matches `Option<_>` values, but the matched value is `Int`, so it can never match')]),
    ('match_ok_on_option',
     'fn f(o: Option<Int>) -> Int {\n    match o {\n        Ok(x) => x,\n        _ => 0\n    }\n}\nfn main() -> Int { 0 }\n',
     [('E009', 'error', 3, 9, 14, 'type mismatch: this pattern matches `Result<_, _>` values, but the matched value is `Option<Int>`, so it can never match')]),
    ('rec_field_type',
     'type P { name: String, age: Int }\nfn main() -> Int {\n    let p = P { name: "a", age: "3" }\n    p.age\n}\n',
     [('E009', 'error', 3, 33, 36, 'type mismatch: the field `age` of `P` should be `Int`, but it is `String`')]),
    ('rec_spread',
     'type P { x: Int }\ntype Q { x: Int }\nfn main() -> Int {\n    let q = Q { x: 1 }\n    let p = P { ..q, x: 2 }\n    p.x\n}\n',
     [('E009', 'error', 5, 19, 20, 'type mismatch: the `..` spread of a `P` literal should be `P`, but it is `Q`')]),
    ('rec_field_read_use',
     'type P { name: String }\nfn main() -> Int {\n    let p = P { name: "a" }\n    p.name + 1\n}\n',
     [('E009', 'error', 4, 5, 11, 'type mismatch: the left operand of `+` should be `Int` or `Float`, but it is `String`')]),
    ('rec_field_of_int',
     'fn main() -> Int {\n    let n = 5\n    n.x\n}\n',
     [('E009', 'error', 3, 5, 6, 'type mismatch: `.x` reads a record field, but this is `Int`')]),
    ('enum_payload',
     'enum Shape { Circle(Float), Square(Float) }\nfn main() -> Int {\n    let s = Shape::Circle(2)\n    0\n}\n',
     [('E009', 'error', 3, 27, 28, 'type mismatch: the payload of `Shape::Circle` should be `Float`, but it is `Int`')]),
    ('enum_pattern_other',
     'enum A { X, Y }\nenum B { U, V }\nfn f(a: A) -> Int {\n    match a {\n        U => 1,\n        _ => 2\n    }\n}\nfn main() -> Int { f(A::X) }\n',
     [('E009', 'error', 5, 9, 10, 'type mismatch: `U` is a variant of `B`, but the matched value is `A`')]),
    ('enum_missing_payload',
     'enum E { V(Int), W }\nfn main() -> Int {\n    let e = E::V\n    0\n}\n',
     [('E009', 'error', 3, 13, 17, '`E::V` carries a payload of type `Int`, but none is given')]),
    ('enum_extra_payload',
     'enum E { V(Int), W }\nfn main() -> Int {\n    let e = E::W(1)\n    0\n}\n',
     [('E009', 'error', 3, 18, 19, '`E::W` carries no payload, but one is given')]),
    ('enum_payload_use',
     'enum Shape { Circle(Float) }\nfn r(s: Shape) -> String {\n    match s {\n        Circle(x) => x\n    }\n}\nfn main() -> Int { 0 }\n',
     [('E009', 'error', 4, 22, 23, 'type mismatch: the result of `r` should be `String`, but it is `Float`')]),
    ('enum_pat_payload_none',
     'enum E { V(Int), W }\nfn f(e: E) -> Int {\n    match e {\n        W(x) => x,\n        _ => 0\n    }\n}\nfn main() -> Int { 0 }\n',
     [('E009', 'error', 4, 11, 12, '`E::W` carries no payload, but this pattern expects one')]),
    ('opt_unwrap',
     'fn main() -> Int {\n    let o = Some(1)\n    o + 1\n}\n',
     [('E009', 'error', 3, 5, 6, 'type mismatch: the left operand of `+` should be `Int` or `Float`, but it is `Option<Int>`')]),
    ('opt_pattern_payload',
     'fn f(o: Option<String>) -> Int {\n    match o {\n        Some(s) => s,\n        None => 0\n    }\n}\nfn main() -> Int { 0 }\n',
     [('E009', 'error', 3, 20, 21, 'type mismatch: the result of `f` should be `Int`, but it is `String`')]),
    ('result_err_type',
     'fn f(s: String) -> Result<Int, String> {\n    if s == "" { Err(1) } else { Ok(2) }\n}\nfn main() -> Int { 0 }\n',
     [('E009', 'error', 2, 22, 23, 'type mismatch: the `Err` payload of the result of `f` should be `String`, but it is `Int`')]),
    ('opt_none_annot',
     'fn main() -> Int {\n    let n: Int = None\n    n\n}\n',
     [('E009', 'error', 2, 18, 22, 'type mismatch: the value of `n` should be `Int`, but it is `Option<_>`')]),
    ('head_use',
     'fn main() -> Int {\n    let h = __builtin_list_head([1, 2])\n    h * 2\n}\n',
     [('E009', 'error', 3, 5, 6, 'type mismatch: the left operand of `*` should be `Int` or `Float`, but it is `Option<Int>`')]),
    ('for_string',
     'fn main() -> Int {\n    for c in "abc" { }\n    0\n}\n',
     [('E009', 'error', 2, 14, 19, 'type mismatch: `for` walks a `List`, but this is `String`')]),
    ('for_int',
     'fn main() -> Int {\n    for i in 10 { }\n    0\n}\n',
     [('E009', 'error', 2, 14, 16, 'type mismatch: `for` walks a `List`, but this is `Int`')]),
    ('for_elem',
     'fn main() -> Int {\n    let mut total = 0\n    for s in ["a", "b"] { total = total + s }\n    total\n}\n',
     [('E009', 'error', 3, 43, 44, 'type mismatch: the right operand of `+` should be `Int` or `Float`, but it is `String`')]),
    ('list_mixed',
     'fn main() -> Int {\n    let xs = [1, "two", 3]\n    0\n}\n',
     [('E009', 'error', 2, 18, 23, 'type mismatch: an element of this list should be `Int`, but it is `String`')]),
    ('list_get_use',
     'fn main() -> String {\n    let xs = [1, 2]\n    list_get(xs, 0) ++ "!"\n}\n',
     [('E009', 'error', 3, 5, 20, 'type mismatch: the left operand of `++` should be `String`, but it is `Int`')]),
    ('map_get',
     'fn f(m: Map<String, Int>) -> Int {\n    __builtin_map_get(m, "a")\n}\nfn main() -> Int { 0 }\n',
     [('E009', 'error', 2, 5, 30, 'type mismatch: the result of `f` should be `Int`, but it is `Option<Int>`')]),
    ('map_set_val',
     'fn f(m: Map<String, Int>) -> Map<String, Int> {\n    __builtin_map_set(m, "a", "b")\n}\nfn main() -> Int { 0 }\n',
     [('E009', 'error', 2, 31, 34, 'type mismatch: the 3rd argument of `__builtin_map_set` should be `Int`, but it is `String`')]),
    ('map_key',
     'fn f(m: Map<String, Int>) -> Bool {\n    __builtin_map_contains_key(m, 1)\n}\nfn main() -> Int { 0 }\n',
     [('E009', 'error', 2, 35, 36, 'type mismatch: the 2nd argument of `__builtin_map_contains_key` should be `String`, but it is `Int`')]),
    ('fn_value_arg',
     'fn apply(f: Fn(Int) -> Int, x: Int) -> Int { f(x) }\nfn shout(s: String) -> String { s }\nfn main() -> Int {\n    apply(shout, 1)\n}\n',
     [('E009', 'error', 4, 11, 16, 'type mismatch: the 1st argument of `apply` should be `Fn(Int) -> Int`, but it is `Fn(String) -> String`')]),
    ('fn_value_call',
     'fn apply(f: Fn(Int) -> Int) -> Int {\n    f("x")\n}\nfn main() -> Int { 0 }\n',
     [('E009', 'error', 2, 7, 10, 'type mismatch: the 1st argument of `f` should be `Int`, but it is `String`')]),
    ('fn_value_arity',
     'fn apply(f: Fn(Int) -> Int) -> Int {\n    f(1, 2)\n}\nfn main() -> Int { 0 }\n',
     [('E009', 'error', 2, 5, 12, 'this function value takes 1 argument, but 2 were given')]),
    ('call_non_fn',
     'fn main() -> Int {\n    let n = 3\n    n(1)\n}\n',
     [('E009', 'error', 3, 5, 6, 'type mismatch: this is `Int`, not a function, so it cannot be called')]),
    ('unknown_type',
     'fn main() -> Int {\n    let n: Intt = 5\n    n + 1\n}\n',
     [('E009', 'error', 2, 12, 16, 'unknown type `Intt`')]),
    ('unknown_param_type',
     'type Point { x: Int }\nfn f(p: Pointt) -> Int { p.x }\nfn main() -> Int { 0 }\n',
     [('E009', 'error', 2, 9, 15, 'unknown type `Pointt`')]),
    ('match_wrong_patterns_reported_once',
     'fn main() -> Int {\n    let r: Result<Int, String> = Ok(1)\n    match r { Some(v) => v, None => 0 }\n}\n',
     [('E009', 'error', 3, 15, 22, 'type mismatch: this pattern matches `Option<_>` values, but the matched value is `Result<Int, String>`, so it can never match')]),
    # an `if` without `else` whose value is used: `()` when the condition is false
    ('if_no_else_result',
     'fn abs(n: Int) -> Int {\n    if n < 0 { 0 - n }\n}\nfn main() -> Int { abs(3) }\n',
     [('E009', 'error', 2, 5, 7, 'type mismatch: this `if` has no `else`, so the result of `abs` is `()` when the condition is false and `Int` when it is true')]),
    ('if_no_else_let_annotated',
     'fn main() -> Int {\n    let n: Int = if true { 5 }\n    n\n}\n',
     [('E009', 'error', 2, 18, 20, 'type mismatch: this `if` has no `else`, so the value of `n` is `()` when the condition is false and `Int` when it is true')]),
    ('if_no_else_argument',
     'fn f(s: String) -> Int { __builtin_string_len(s) }\nfn main() -> Int {\n    let c = 1\n    f(if c > 0 { "a" })\n}\n',
     [('E009', 'error', 4, 7, 9, 'type mismatch: this `if` has no `else`, so the 1st argument of `f` is `()` when the condition is false and `String` when it is true')]),
    ('if_no_else_let_unannotated',
     'fn main() -> Int {\n    let c = 2\n    let x = if c > 5 { 1 }\n    0\n}\n',
     [('E009', 'warning', 3, 13, 15, 'type mismatch: this `if` has no `else`, so its value is `()` when the condition is false and `Int` when it is true')]),
    ('if_no_else_unit_then_is_unit',
     'fn nothing() -> Unit { }\nfn main() -> Int {\n    let u = if true { nothing() }\n    let n: Int = u\n    n\n}\n',
     [('E009', 'error', 4, 18, 19, 'type mismatch: the value of `n` should be `Int`, but it is `Unit`')]),
]


@pytest.mark.parametrize("name, src, expected", ILL_TYPED, ids=[c[0] for c in ILL_TYPED])
def test_ill_typed_program(name, src, expected):
    assert found(src) == expected


WELL_TYPED = {
"generics_push": 'fn main() -> Int {\n    let mut xs = []\n    xs = list_push(xs, 1)\n    xs = __builtin_list_append(xs, 2)\n    list_get(xs, 0) + list_len(xs)\n}\n',
"empty_list_annot": 'fn main() -> Int {\n    let xs: List<String> = []\n    let ys = __builtin_list_concat(xs, ["a"])\n    list_len(ys)\n}\n',
"none_then_some": 'fn pick(b: Bool) -> Option<Int> {\n    if b { Some(1) } else { None }\n}\nfn main() -> Int {\n    match pick(true) {\n        Some(n) => n,\n        None => 0\n    }\n}\n',
"nested_records": 'type Inner { v: Int }\ntype Outer { inner: Inner, name: String }\nfn main() -> Int {\n    let o = Outer { inner: Inner { v: 3 }, name: "x" }\n    let o2 = Outer { ..o, name: "y" }\n    o2.inner.v\n}\n',
"nested_enums": 'enum Op { Add(Int), Neg }\nenum Step { Do(Op), Stop }\nfn run(s: Step) -> Int {\n    match s {\n        Do(op) => match op { Add(n) => n, Neg => -1 },\n        Stop => 0\n    }\n}\nfn main() -> Int { run(Step::Do(Op::Add(2))) }\n',
"fn_values": 'fn twice(f: Fn(Int) -> Int, x: Int) -> Int { f(f(x)) }\nfn inc(n: Int) -> Int { n + 1 }\nfn main() -> Int {\n    let g = inc\n    twice(g, 1) + twice(inc, 2)\n}\n',
"recursion": 'fn fact(n: Int) -> Int {\n    if n <= 1 { 1 } else { n * fact(n - 1) }\n}\nfn main() -> Int { fact(5) }\n',
"result_chain": 'fn parse(s: String) -> Result<Int, String> { try_parse_int(s) }\nfn double(s: String) -> Result<Int, String> {\n    match parse(s) {\n        Ok(n) => Ok(n * 2),\n        Err(e) => Err("bad: " ++ e)\n    }\n}\nfn main() -> Int {\n    match double("4") { Ok(n) => n, Err(_) => 0 }\n}\n',
"option_chain": 'fn first(xs: List<Int>) -> Option<Int> { __builtin_list_head(xs) }\nfn main() -> Int {\n    let o = first([3, 4])\n    match o { Some(v) => v, None => 0 }\n}\n',
"promotion": 'fn main() -> Float {\n    let n = 3\n    let x = n * 1.5 + 2\n    let mut acc = 0\n    acc = acc + x\n    x / 2\n}\n',
"for_loop": 'fn main() -> Int {\n    let mut total = 0\n    for s in __builtin_string_split("a,b", ",") { total = total + __builtin_string_len(s) }\n    total\n}\n',
"map_ops": 'fn f(m: Map<String, Int>) -> Int {\n    let m2 = __builtin_map_set(m, "a", 1)\n    match __builtin_map_get(m2, "a") { Some(v) => v + __builtin_map_len(m2), None => 0 }\n}\nfn main() -> Int { 0 }\n',
"statement_if_mixed": 'fn main() -> Int {\n    let mut n = 0\n    if n > 0 { n = 1 } else { "ignored" }\n    n\n}\n',
"early_returns": 'fn sign(n: Int) -> String {\n    if n < 0 { return "neg" }\n    if n == 0 { return "zero" } else { return "pos" }\n}\nfn main() -> String { sign(3) }\n',
"ensures_result": 'fn f(x: Int) -> Int requires x > 0 ensures result > x { x + 1 }\nfn main() -> Int { f(1) }\n',
"debug_guard": 'fn main() -> Int {\n    let v = __builtin_debug(5)\n    __builtin_guard(v, v > 0, "positive")\n}\n',
"string_builtins": 'fn main() -> String {\n    let s = __builtin_string_trim("  Hi ")\n    __builtin_string_to_upper(s) ++ __builtin_int_to_string(__builtin_string_len(s))\n}\n',
"actors": 'fn worker() -> Int { 1 }\nfn main() -> Int {\n    let a = spawn worker\n    send a 5\n    0\n}\n',
"emit_view": 'type State { n: Int }\nfn view(s: State) -> String {\n    emit "count"\n}\nfn main() -> String { view(State { n: 1 }) }\n',
"unannotated_fn": 'fn helper(x: Int) {\n    x + 1\n}\nfn main() -> Int {\n    let y = helper(1)\n    y\n}\n',
"eq_same": 'fn main() -> Bool {\n    let xs = [1]\n    xs == [] && Some(1) != None && "a" < "b"\n}\n',
"match_string_arms": 'fn main() -> Int {\n    match "b" { "a" => 1, "b" => 2, _ => 3 }\n}\n',
"unit_return": 'fn log(s: String) -> Unit {\n    let t = s\n}\nfn main() -> Int {\n    log("x")\n    0\n}\n',
}


# more well-typed programs an agent writes: shadowing, lists grown from [], nested
# Option/Result patterns, function values in records, promotion in accumulators
WELL_TYPED.update({
    'shadow_retype': 'fn main() -> String {\n    let x = 1\n    let x = "a"\n    x ++ "b"\n}\n',
    'list_from_empty_loop': 'fn main() -> Int {\n    let mut xs = []\n    let mut i = 0\n    while i < 3 { xs = list_push(xs, i * 2)\n i = i + 1 }\n    list_get(xs, 1)\n}\n',
    'option_from_arms': 'fn find(xs: List<Int>, v: Int) -> Option<Int> {\n    let mut found = None\n    for x in xs { if x == v { found = Some(x) } }\n    found\n}\nfn main() -> Int { match find([1], 1) { Some(x) => x, None => 0 } }\n',
    'nested_result_option': 'fn f(r: Result<Option<Int>, String>) -> Int {\n    match r {\n        Ok(Some(n)) => n,\n        Ok(None) => 0,\n        Err(_) => -1\n    }\n}\nfn main() -> Int { f(Ok(Some(2))) }\n',
    'empty_list_arg': 'fn count(xs: List<String>) -> Int { list_len(xs) }\nfn main() -> Int { count([]) }\n',
    'debug_record': 'type P { a: Int }\nfn main() -> Int {\n    let p = __builtin_debug(P { a: 1 })\n    p.a\n}\n',
    'recursive_sum': 'fn sum(xs: List<Int>, i: Int) -> Int {\n    if i >= list_len(xs) { 0 } else { list_get(xs, i) + sum(xs, i + 1) }\n}\nfn main() -> Int { sum([1, 2, 3], 0) }\n',
    'float_acc': 'fn main() -> Float {\n    let mut t = 0.0\n    for x in [1, 2] { t = t + x }\n    t\n}\n',
    'int_to_float_acc': 'fn main() -> Float {\n    let mut t = 0\n    for x in [1.5] { t = t + x }\n    t\n}\n',
    'enum_in_record': 'enum St { On, Off }\ntype S { st: St, n: Int }\nfn f(s: S) -> Int {\n    match s.st { On => s.n, Off => 0 }\n}\nfn main() -> Int { f(S { st: St::On, n: 2 }) }\n',
    'spread_fields': 'type S { a: Int, b: String }\nfn main() -> String {\n    let s = S { a: 1, b: "x" }\n    let t = S { ..s, a: 2 }\n    t.b\n}\n',
    'map_values_loop': 'fn f(m: Map<String, Int>) -> Int {\n    let mut t = 0\n    for v in __builtin_map_values(m) { t = t + v }\n    for k in __builtin_map_keys(m) { t = t + __builtin_string_len(k) }\n    t\n}\nfn main() -> Int { 0 }\n',
    'fn_in_record': 'type H { f: Fn(Int) -> Int }\nfn inc(n: Int) -> Int { n + 1 }\nfn main() -> Int {\n    let h = H { f: inc }\n    let g = h.f\n    g(1)\n}\n',
    'guard_placeholder': 'enum E { A, B }\nfn f(e: E) -> String {\n    match e {\n        A => "a",\n        B => __builtin_guard(0, false, "TODO")\n    }\n}\nfn main() -> String { f(E::A) }\n',
    'string_match_bind': 'fn f(s: String) -> Int {\n    match s { "a" => 1, other => __builtin_string_len(other) }\n}\nfn main() -> Int { f("xy") }\n',
    'if_no_else_statement': 'fn main() -> Int {\n    let n = 3\n    if n > 2 { __builtin_debug(n) }\n    if n > 5 { n + 1 }\n    n\n}\n',
    'if_no_else_unit_result': 'fn tell(n: Int) -> Unit {\n    if n > 0 { __builtin_debug(n) }\n}\nfn main() -> Int {\n    tell(2)\n    0\n}\n',
    'if_no_else_return_inside': 'fn f(n: Int) -> Int {\n    if n < 0 { return 0 }\n    n\n}\nfn main() -> Int { f(2) }\n',
    'unit_fn_stmt_if': 'fn log(n: Int) -> Unit {\n    if n > 0 { emit "pos" }\n}\nfn main() -> Int {\n    log(1)\n    0\n}\n',
    'parse_chain': 'fn main() -> Int {\n    match __builtin_int_parse(__builtin_string_trim(" 4 ")) { Some(n) => n, None => match try_parse_int("5") { Ok(m) => m, Err(_) => 0 } }\n}\n',
    'bool_ops': 'fn main() -> Bool {\n    let a = 1 < 2\n    let b = "x" == "y"\n    !a || b && a != b\n}\n',
    'block_expr': 'fn main() -> Int {\n    let v = { let a = 2\n a * 3 }\n    v\n}\n',
    'list_of_records': 'type P { n: Int }\nfn main() -> Int {\n    let ps = [P { n: 1 }, P { n: 2 }]\n    let mut t = 0\n    for p in ps { t = t + p.n }\n    t\n}\n',
    'some_none_list': 'fn main() -> Int {\n    let xs = [None, Some(1)]\n    list_len(xs)\n}\n',
    'ok_err_mixed': 'fn f(b: Bool) -> Result<Int, String> {\n    if b { return Err("no") }\n    Ok(1)\n}\nfn main() -> Int { match f(true) { Ok(n) => n, Err(e) => __builtin_string_len(e) } }\n',
})


@pytest.mark.parametrize("name", sorted(WELL_TYPED))
def test_well_typed_program_is_clean(name):
    assert found(WELL_TYPED[name]) == []


def test_mismatch_names_the_annotation_and_offers_the_conversion():
    src = 'fn label(n: Int) -> String {\n    n\n}\nfn main() -> String { label(1) }\n'
    [diag] = check_source(src).diagnostics
    assert [(r.message, r.location.line, r.location.col, r.location.end_col)
            for r in diag.related] == [("`label` is declared to return `String` here", 1, 21,
                                        27)]
    assert diag.help == "convert it with `__builtin_int_to_string(...)`"
    assert [(e.start_line, e.new_text) for e in diag.fixes[0].edits] == [
        (2, "    __builtin_int_to_string(n)")]


def test_string_to_int_hints_at_both_parsers():
    src = 'fn main() -> Int {\n    let s = "4"\n    let n: Int = s\n    n\n}\n'
    [diag] = check_source(src).diagnostics
    assert diag.help == ("convert it with `parse_int(...)` or `try_parse_int(...)` or "
                         "`__builtin_int_parse(...)`")


def test_int_literal_for_a_float_gets_a_safe_fix():
    src = 'fn main() -> Float {\n    let x: Float = 3\n    x\n}\n'
    result = repair_source(src)
    assert result.repaired_source == 'fn main() -> Float {\n    let x: Float = 3.0\n    x\n}\n'
    assert result.verify_passed is True


def test_string_plus_gets_the_concat_fix():
    result = repair_source('fn main() -> String {\n    "a" + "b"\n}\n')
    assert result.repaired_source == 'fn main() -> String {\n    "a" ++ "b"\n}\n'


def test_else_branch_labels_the_then_branch():
    src = 'fn main() -> Int {\n    let t = if true { 1 } else { "a" }\n    0\n}\n'
    [diag] = check_source(src).diagnostics
    assert [(r.message, r.location.line, r.location.col) for r in diag.related] == [
        ("the `then` branch is `Int`", 2, 23)]


def test_repair_verify_fails_on_type_errors():
    result = repair_source('fn main() -> Int {\n    let n: Int = "5"\n    n\n}\n')
    assert result.verify_passed is False


def test_unknown_type_suggests_and_renames():
    src = 'fn main() -> Int {\n    let n: Intt = 5\n    n + 1\n}\n'
    [diag] = check_source(src).diagnostics
    assert diag.help == "did you mean `Int`?"
    assert [(e.start_line, e.new_text) for e in diag.fixes[0].edits] == [
        (2, "    let n: Int = 5")]


def test_unannotated_number_may_become_a_float():
    src = 'fn main() -> Int {\n    let mut n = 0\n    n = 1.5\n    0\n}\n'
    assert found(src) == []


def test_a_shadowing_builtin_name_with_the_builtin_arity_is_not_checked():
    src = "fn list_len(x: Int) -> String { \"n\" }\nfn main() -> String { list_len(1) }\n"
    assert found(src) == []


def test_library_calls_are_checked_against_library_signatures():
    src = 'import std.validation\nfn main() -> Int { 0 }\n'
    assert type_errors(src, LIBS) == []


# ---------------------------------------------------------------- the corpus: no false positive

def _corpus():
    out = [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8"))
           for pattern in ("examples/*.ax", "libs/*/src/*.ax", "templates/*/*.ax.template",
                           "tests/**/*.ax")
           for p in sorted(ROOT.glob(pattern))]
    spec = importlib.util.spec_from_file_location("vm_spec_cases",
                                                  ROOT / "tests/vm/vm_spec_cases.py")
    cases = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cases)
    out.extend((c["id"], c["source"]) for c in cases.CASES if c.get("error") is None)
    return out


CORPUS = _corpus()


@pytest.mark.parametrize("name, src", CORPUS, ids=[c[0] for c in CORPUS])
def test_corpus_program_has_no_type_error(name, src):
    assert type_errors(src, LIBS) == []


# ---------------------------------------------------------------- robustness

@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from([src for _, src, _ in ILL_TYPED] + list(WELL_TYPED.values())),
       st.integers(min_value=0, max_value=400), st.integers(min_value=0, max_value=6),
       st.text(alphabet="(){}[]<>,:;=+-*/!&|\"'.0123456789abxyzABC _\n", max_size=8))
def test_checker_never_raises_on_mutated_programs(src, at, cut, insert):
    at = at % (len(src) + 1)
    check_source(src[:at] + insert + src[at + cut:])


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(max_size=200))
def test_checker_never_raises_on_arbitrary_text(text):
    check_source(text)


def test_an_app_message_payload_is_dynamic():
    # the framework delivers "age:17" with payload Int 17 although Msg declares a String
    src = ('type State { age: Int }\ntype Msg { tag: String, payload: String }\n'
           'fn init() -> State { State { age: 0 } }\n'
           'fn update(state: State, msg: Msg) -> State { State { age: msg.payload } }\n'
           'fn view(state: State) -> Int { state.age }\n')
    assert found(src) == []
    not_an_app = src.replace("fn view", "fn show")
    assert [d[:4] for d in found(not_an_app)] == [("E009", "error", 4, 59)]


# One realistic mistake per program (category, line of the mistake, source), written as an
# agent would; each must be reported at its line: an error, a warning for truthiness and
# cross-type equality (they run on the VM's dynamic rules).
MISTAKES = [
("let", 2, 'fn main() -> Int {\n    let count: Int = 3.5\n    count\n}\n'),
("let", 2, 'fn main() -> String {\n    let name: String = 42\n    name\n}\n'),
("let", 2, 'fn main() -> Int {\n    let ok: Bool = "yes"\n    0\n}\n'),
("let", 3, 'type User { name: String }\nfn main() -> Int {\n    let u: User = 5\n    0\n}\n'),
("assign", 3, 'fn main() -> Int {\n    let mut label = "a"\n    label = 5\n    0\n}\n'),
("assign", 3, 'fn main() -> Int {\n    let mut ok = true\n    ok = 1\n    0\n}\n'),
("user_call", 4, 'fn greet(name: String) -> String { "hi " ++ name }\nfn main() -> String {\n    let n = 5\n    greet(n)\n}\n'),
("user_call", 3, 'fn add(a: Int, b: Int) -> Int { a + b }\nfn main() -> Int {\n    add(1.5, 2)\n}\n'),
("user_call", 3, 'fn check(b: Bool) -> Int { if b { 1 } else { 0 } }\nfn main() -> Int {\n    check(1)\n}\n'),
("builtin", 2, 'fn main() -> Int {\n    __builtin_string_len(42)\n}\n'),
("builtin", 2, 'fn main() -> Bool {\n    str_contains(["a"], "a")\n}\n'),
("builtin", 3, 'fn main() -> String {\n    let xs = [1, 2]\n    __builtin_string_join(xs, ", ")\n}\n'),
("builtin", 2, 'fn main() -> String {\n    __builtin_string_to_upper(5)\n}\n'),
("builtin", 3, 'fn main() -> Int {\n    let n = "7"\n    __builtin_int_to_string(n)\n    0\n}\n'),
("builtin", 2, 'fn main() -> String {\n    __builtin_string_slice("hello", "0", 2)\n}\n'),
("return", 2, 'fn main() -> Bool {\n    1\n}\n'),
("return", 2, 'fn name() -> String {\n    return 5\n}\nfn main() -> String { name() }\n'),
("return", 3, 'fn f(n: Int) -> Int {\n    let s = __builtin_int_to_string(n)\n    s\n}\nfn main() -> Int { f(1) }\n'),
("operator", 2, 'fn main() -> Int {\n    "5" * 2\n}\n'),
("operator", 3, 'fn main() -> String {\n    let n = 3\n    "n = " + n\n}\n'),
("operator", 2, 'fn main() -> Bool {\n    "a" < 1\n}\n'),
("equality", 3, 'fn main() -> Bool {\n    let s = "1"\n    s == 1\n}\n'),
("equality", 2, 'fn main() -> Bool {\n    __builtin_list_head([1]) == 1\n}\n'),
("if", 2, 'fn main() -> String {\n    if true { "yes" } else { 0 }\n}\n'),
("if", 3, 'fn main() -> Int {\n    let x = 1\n    let r = if x > 0 { x } else { "none" }\n    0\n}\n'),
("cond", 3, 'fn main() -> Int {\n    let xs = [1]\n    if xs { 1 } else { 0 }\n}\n'),
("cond", 3, 'fn main() -> Int {\n    let mut n = 3\n    while n { n = n - 1 }\n    n\n}\n'),
("match", 4, 'fn main() -> Int {\n    match 3 {\n        1 => 10,\n        2 => "twenty",\n        _ => 0\n    }\n}\n'),
("match", 3, 'fn main() -> Int {\n    match true {\n        "yes" => 1,\n        _ => 0\n    }\n}\n'),
("record", 3, 'type P { x: Int, y: Int }\nfn main() -> Int {\n    let p = P { x: 1, y: "2" }\n    p.x\n}\n'),
("record", 3, 'type P { x: Float }\nfn main() -> Float {\n    let p = P { x: 1 }\n    p.x\n}\n'),
("record", 4, 'type P { name: String }\nfn main() -> Int {\n    let p = P { name: "a" }\n    p.name\n}\n'),
("enum", 3, 'enum Msg { Text(String), Quit }\nfn main() -> Int {\n    let m = Msg::Text(5)\n    0\n}\n'),
("enum", 5, 'enum Color { Red, Green }\nenum Size { Small, Large }\nfn f(c: Color) -> Int {\n    match c {\n        Small => 1,\n        _ => 0\n    }\n}\nfn main() -> Int { f(Color::Red) }\n'),
("enum", 4, 'enum Msg { Text(String), Quit }\nfn f(m: Msg) -> Int {\n    match m {\n        Text(s) => s + 1,\n        Quit => 0\n    }\n}\nfn main() -> Int { 0 }\n'),
("option", 3, 'fn main() -> Int {\n    let x = __builtin_int_parse("5")\n    x * 2\n}\n'),
("option", 2, 'fn find() -> Option<Int> {\n    5\n}\nfn main() -> Int { 0 }\n'),
("option", 2, 'fn f() -> Result<Int, String> {\n    Ok("a")\n}\nfn main() -> Int { 0 }\n'),
("option", 4, 'fn f(o: Option<Int>) -> Int {\n    match o {\n        Some(v) => v,\n        Err(e) => 0\n    }\n}\nfn main() -> Int { 0 }\n'),
("list", 2, 'fn main() -> Int {\n    let xs: List<Int> = ["a", "b"]\n    0\n}\n'),
("list", 3, 'fn main() -> Int {\n    let xs = [1, 2]\n    let s: String = list_get(xs, 0)\n    0\n}\n'),
("list", 2, 'fn main() -> Int {\n    for x in "hello" { }\n    0\n}\n'),
("list", 3, 'fn main() -> Int {\n    let mut total = 0\n    for w in ["a"] { total = total + w }\n    total\n}\n'),
("map", 2, 'fn f(m: Map<String, Int>) -> String {\n    __builtin_map_get(m, "k")\n}\nfn main() -> Int { 0 }\n'),
("map", 2, 'fn f(m: Map<String, Int>) -> Int {\n    __builtin_map_len(5)\n}\nfn main() -> Int { 0 }\n'),
("fnval", 3, 'fn apply(f: Fn(Int) -> Int, x: Int) -> Int { f(x) }\nfn main() -> Int {\n    apply(5, 1)\n}\n'),
("fnval", 2, 'fn apply(f: Fn(String) -> Int) -> Int {\n    f(1)\n}\nfn main() -> Int { 0 }\n'),
("fnval", 4, 'fn inc(n: Int) -> Int { n + 1 }\nfn main() -> String {\n    let f = inc\n    f(1) ++ "x"\n}\n'),
("caps", 2, 'fn read() -> String !{net} {\n    step_input("x")\n}\nfn main() -> String { read() }\n'),
("types", 2, 'fn main() -> Int {\n    let xs: List<Strin> = []\n    0\n}\n'),
("types", 1, 'fn f(n: Integer) -> Int { 0 }\nfn main() -> Int { f(1) }\n'),
]


@pytest.mark.parametrize("category, line, src", MISTAKES,
                         ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(MISTAKES)])
def test_agent_mistake_is_reported_at_its_line(category, line, src):
    at_line = [d.severity for d in check_source(src).diagnostics
               if d.id in ("E007", "E009") and d.location and d.location.line == line]
    assert at_line == (["warning"] if category in ("equality", "cond") else ["error"])


def test_a_truthy_condition_gets_the_explicit_test():
    result = repair_source('fn main() -> Int {\n    let n = 5\n    if n { 1 } else { 2 }\n}\n')
    assert result.repaired_source == ('fn main() -> Int {\n    let n = 5\n'
                                      '    if n != 0 { 1 } else { 2 }\n}\n')
    assert result.diagnostics_after == 0


@pytest.mark.parametrize("expr", ["1 + 2.5", "2.0 * 3", '"a" ++ "b"', "1 < 2", '"a" < "b"',
                                  "7 % 2", "-3", "!true && 1 == 1", "2.5 / 2"])
def test_valid_operators_are_quiet(expr):
    assert found(f"fn main() -> Int {{\n    let r = {expr}\n    0\n}}\n") == []


def test_a_body_ending_with_a_statement_returns_unit():
    src = 'fn f() -> Int {\n    let x = 1\n}\nfn main() -> Int { f() }\n'
    assert found(src) == [
        ("E009", "error", 2, 5, 8, "type mismatch: `f` ends with a statement, so it returns "
                                   "`Unit`, but it is declared to return `Int`")]
    assert found(src.replace("-> Int {\n", "-> Unit {\n").replace("-> Int { f() }",
                                                                  "-> Int { 0 }")) == []


def test_send_needs_an_actor():
    assert found('fn main() -> Int {\n    send 5 1\n    0\n}\n') == [
        ("E009", "error", 2, 10, 11, "type mismatch: `send` needs an `ActorId` (from `spawn`), "
                                     "but this is `Int`")]
