"""Programs the reference accepts but runs wrongly (docs/spec/README.md rule 3), run correctly here."""
import pytest

from boruna.compiler import compile_source
from boruna.service.encoding import format_value
from boruna.api import run


def value(src, **kw):
    out = run(src, **kw)
    assert out.ok, out.error
    return format_value(out.result, out.module)


def test_if_without_else_as_value_is_unit_when_false():
    src = """fn pick(c: Bool) -> Int {
    let y = if c { 1 }
    if c { y } else { 0 }
}
fn main() -> List<Int> {
    [pick(true), pick(false)]
}
"""
    assert value(src) == [1, 0]


def test_if_without_else_as_last_expression_of_a_called_function():
    src = "fn f(c: Bool) -> Int { if c { 7 } }\nfn main() -> List<Int> { [1, f(true), 2] }\n"
    out = run(src)
    assert out.ok and out.result == (1, 7, 2)
    out = run("fn f(c: Bool) -> Int { if c { 7 } }\nfn main() -> List<Int> { [1, f(false), 2] }\n")
    assert out.ok and out.result == (1, None, 2)


def test_if_statement_branches_ending_in_statements():
    src = """fn main() -> Int {
    let mut x = 0
    let mut y = 0
    if x == 0 { x = 1 } else { y = 2 }
    if x == 5 { 3 } else { y = 4 }
    x * 10 + y
}
"""
    assert value(src) == 14


def test_send_as_statement_and_as_value():
    src = """fn worker() -> Int { 1 }
fn nothing() { }
fn main() -> Int {
    let a = spawn worker
    send a 5
    let r = send a 6
    if r == nothing() { 7 } else { 0 }
}
"""
    out = run(src)
    assert out.ok and out.result == 7


def test_function_with_empty_body_used_as_a_value_returns_unit():
    src = "fn noop() {\n}\nfn main() -> List<Int> { [1, noop(), 2] }\n"
    assert run(src).result == (1, None, 2)


def test_record_literal_out_of_order_and_missing_fields():
    src = """type Point { x: Int, y: Int, z: Int }
fn main() -> Point {
    let p = Point { z: 3, x: 1 }
    p
}
"""
    assert value(src) == {"type": "record", "type_id": 0, "fields": [1, None, 3],
                          "type_name": "Point", "field_names": ["x", "y", "z"]}


def test_record_literal_evaluates_fields_in_written_order():
    src = """type P { a: Int, b: Int }
fn main() -> P {
    P { b: emit 2, a: emit 1 }
}
"""
    out = run(src)
    assert out.ui_output == [2, 1]
    assert format_value(out.result, out.module)["fields"] == [1, 2]


def test_field_access_resolves_against_the_records_own_type():
    src = """type A { x: Int, y: Int }
type B { y: Int, z: Int }
fn main() -> List<Int> {
    let a = A { x: 1, y: 2 }
    let b = B { y: 3, z: 4 }
    [a.x, a.y, b.y, b.z]
}
"""
    assert value(src) == [1, 2, 3, 4]


def test_named_field_missing_from_the_records_type_is_a_clear_error():
    base = """type A { x: Int, y: Int }
type B { y: Int, z: Int }
type C { w: Int }
fn main() -> Int {
    BODY
}
"""
    out = run(base.replace("BODY", "let c = C { w: 1 }\n    c.y"))
    assert out.error == "type error: expected valid field index, got out of bounds"
    out = run(base.replace("BODY", "let n = 5\n    n.y"))
    assert out.error == "type error: expected Record, got Int"


def test_variant_patterns_resolve_against_the_values_enum():
    src = """enum A { Foo, Bar }
enum B { Bar, Foo }
fn ta(v: A) -> Int { match v { Foo => 1, Bar => 2 } }
fn tb(v: B) -> Int { match v { Foo => 1, Bar => 2 } }
fn main() -> List<Int> {
    [ta(A::Foo), ta(A::Bar), tb(B::Foo), tb(B::Bar)]
}
"""
    assert value(src) == [1, 2, 1, 2]


def test_integer_literal_patterns_match_equal_ints():
    src = """fn name(n: Int) -> String {
    match n {
        0 => "zero",
        1 => "one",
        42 => "answer",
        _ => "other",
    }
}
fn main() -> List<String> { [name(0), name(1), name(42), name(7), name(-1)] }
"""
    assert value(src) == ["zero", "one", "answer", "other", "other"]


def test_huge_integer_literal_pattern_uses_equality():
    src = """fn main() -> List<Int> {
    let big = 4294967297
    [match big { 4294967297 => 1, _ => 0 }, match 1 { 4294967297 => 1, _ => 0 }]
}
"""
    assert value(src) == [1, 0]


def test_some_ok_err_built_in_source_match_their_patterns():
    src = """fn un(o: Option<Int>) -> Int { match o { Some(v) => v, None => 0 } }
fn rs(r: Result<Int, String>) -> Int { match r { Ok(v) => v, Err(e) => -1 } }
fn main() -> List<Int> {
    [un(Some(4)), un(None), rs(Ok(5)), rs(Err("x")), rs(try_parse_int("6"))]
}
"""
    assert value(src) == [4, 0, 5, -1, 6]
    assert value("fn main() -> Result<Int, String> { Err(\"bad\") }\n") == {
        "result": "Err", "value": "bad"}


def test_string_match_without_a_matching_arm_fails_clearly():
    src = 'fn main() -> Int {\n    match "zz" {\n        "a" => 1\n        "b" => 2\n    }\n}\n'
    out = run(src)
    assert out.error == "no match found for value"


def test_string_match_catch_all_before_other_arms_ends_the_match():
    src = 'fn main() -> Int {\n    match "a" {\n        _ => 1\n        "a" => 2\n    }\n}\n'
    assert value(src) == 1
    assert compile_source(src).summary()["constants"] == 4


def test_block_scoped_shadowing():
    src = "fn main() -> Int {\n    let x = 1\n    { let x = 2 }\n    if true { let x = 3 \n x } else { 0 }\n    x\n}\n"
    assert value(src) == 1


def test_branch_that_jumps_past_a_trailing_return_still_returns_its_value():
    src = "fn f(x: Int) -> Int {\n    if x > 0 { 1 } else { return 2 }\n}\n" \
          "fn main() -> List<Int> { [f(3), f(-3)] }\n"
    assert value(src) == [1, 2]


def test_ensures_on_a_body_without_a_value():
    src = "fn u() { }\nfn f(n: Int) -> Int\n    ensures result == u()\n{\n    let y = n\n}\n" \
          "fn main() -> Int { f(1)\n 5 }\n"
    assert value(src) == 5


def test_string_escapes_are_decoded_by_the_frontend():
    assert value('fn main() -> Int { __builtin_string_len("a\\nb") }\n') == 3


def test_nested_patterns_check_every_level():
    src = """enum Shape { Circle(Int), Square(Int), Empty }
fn size(o: Option<Shape>) -> Int {
    match o {
        Some(Circle(r)) => r * 100,
        Some(Square(w)) => w,
        Some(Empty) => -1,
        None => 0,
    }
}
fn main() -> List<Int> {
    [size(Some(Shape::Circle(2))), size(Some(Shape::Square(3))), size(Some(Shape::Empty)),
     size(None)]
}
"""
    assert value(src) == [200, 3, -1, 0]


def test_nested_literal_patterns_fall_through_to_later_arms():
    src = """fn f(r: Result<Int, String>) -> String {
    match r {
        Ok(0) => "zero",
        Ok(n) => "num",
        Err("boom") => "boom",
        Err(e) => e,
    }
}
fn g(o: Option<Option<Bool>>) -> Int {
    match o {
        Some(Some(true)) => 1,
        Some(Some(false)) => 2,
        Some(None) => 3,
        _ => 4,
    }
}
fn main() -> List<String> {
    [f(Ok(0)), f(Ok(5)), f(Err("boom")), f(Err("other")),
     __builtin_int_to_string(g(Some(Some(true))) * 1000 + g(Some(Some(false))) * 100
                             + g(Some(None)) * 10 + g(None))]
}
"""
    assert value(src) == ["zero", "num", "boom", "other", "1234"]


def test_nested_pattern_without_a_matching_arm_fails_clearly():
    src = "fn main() -> Int {\n    match Some(3) {\n        Some(4) => 1,\n    }\n}\n"
    assert run(src).error == "no match found for value"


def test_single_level_patterns_compile_exactly_as_the_reference():
    src = "fn f(o: Option<Int>) -> Int { match o { Some(v) => v, None => 0 } }\n"
    code = compile_source(src).functions[0].code
    assert code == [("LoadLocal", 0), ("Match", 0), ("StoreLocal", 1), ("LoadLocal", 1),
                    ("Jmp", 7), ("Pop",), ("PushConst", 0), ("Ret",)]


def test_bool_and_none_arms_in_a_string_match_compare_for_equality():
    src = """fn kind(v: String) -> Int {
    match v {
        "a" => 1,
        true => 2,
        None => 3,
        _ => 4,
    }
}
fn main() -> List<Int> { [kind("a"), kind("b")] }
"""
    assert value(src) == [1, 4]
