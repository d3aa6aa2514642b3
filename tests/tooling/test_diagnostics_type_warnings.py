"""E009 type-consistency warnings beyond the reference's two checks (README rule 4): each
predicts a value of the wrong type or an operation that fails at run time."""
from __future__ import annotations

import pytest

from boruna.diagnostics import check_source, collector


@pytest.fixture(autouse=True)
def strict_analyzers(monkeypatch):
    monkeypatch.setattr(collector, "STRICT", True)


def warnings(src):
    found = check_source(src).diagnostics
    assert all(d.id == "E009" and d.severity == "warning" and not d.patches for d in found), found
    return [(d.message, d.location.line, d.location.col) for d in found]


def test_tail_value_differs_from_return_type():
    assert warnings('fn main() -> Int {\n    "seven"\n}\n') == [
        ("type mismatch: function 'main' is declared to return 'Int' but its body "
         "evaluates to 'String'", 2, 5)]


def test_return_statement_differs_from_return_type():
    src = "fn main() -> String {\n    if true { return 1 } else { 0 }\n    \"x\"\n}\n"
    assert warnings(src) == [
        ("type mismatch: function 'main' is declared to return 'String' but it returns "
         "'Int'", 2, 22)]


def test_assignment_to_annotated_variable():
    src = "fn main() -> Int {\n    let mut n: Int = 0\n    n = \"x\"\n    n\n}\n"
    assert warnings(src) == [
        ("type mismatch: 'n' has type 'Int' but is assigned a value of type 'String'", 3, 9)]


def test_unannotated_reassignment_is_not_flagged():
    assert warnings("fn main() -> Int {\n    let mut n = 0\n    n = 1.5\n    0\n}\n") == []


@pytest.mark.parametrize("expr, message, operand", [
    ('"a" + "b"', "operator '+' expects Int or Float operands but the left operand has type "
                  "'String'; join strings with ++", '"a"'),
    ("1 - true", "operator '-' expects Int or Float operands but the right operand has type "
                 "'Bool'", "true"),
    ("7.5 % 2", "operator '%' expects Int operands but the left operand has type 'Float'",
     "7.5"),
    ('"n=" ++ 5', "operator '++' expects String operands but the right operand has type "
                  "'Int'; convert it with __builtin_int_to_string(...)", "5"),
    ("1 < 2.0", "operator '<' cannot order 'Int' against 'Float'", "2.0"),
])
def test_operators_that_fail_at_run_time(expr, message, operand):
    line = f"    let r = {expr}"
    src = f"fn main() -> Unit {{\n{line}\n    r\n}}\n"
    col = line.rindex(operand) + 1 if operand != '"a"' else line.index(operand) + 1
    assert warnings(src) == [(f"type mismatch: {message}", 2, col)]


@pytest.mark.parametrize("expr", ["1 + 2.5", "2.0 * 3", '"a" ++ "b"', "1 < 2", '"a" < "b"',
                                  "7 % 2", "-3", "!true && 1 == 1", "[1] ++ [2]"])
def test_valid_operators_are_quiet(expr):
    assert warnings(f"fn main() -> Unit {{\n    let r = {expr}\n    r\n}}\n") == []


def test_inference_flows_through_fields_builtins_and_branches():
    src = """type P { name: String, age: Int }
fn label(p: P) -> String {
    let n = list_len([1])
    let a = if n > 0 { p.age } else { 0 }
    let s: Int = p.name
    a
}
fn main() -> String { label(P { name: "x", age: 1 }) }
"""
    assert warnings(src) == [
        ("type mismatch: 's' is annotated 'Int' but its initializer has type 'String'", 5, 5),
        ("type mismatch: function 'label' is declared to return 'String' but its body "
         "evaluates to 'Int'", 6, 5)]


def test_builtin_shadowed_by_user_function_uses_the_user_signature():
    src = "fn list_len(x: Int) -> String { \"n\" }\nfn main() -> String { list_len(1) }\n"
    assert warnings(src) == []


def test_match_arms_that_agree_give_the_match_its_type():
    src = ("enum E { A, B }\nfn f(e: E) -> Bool {\n    match e { A => 1, B => 2 }\n}\n"
           "fn main() -> Bool { f(E::A) }\n")
    assert warnings(src) == [
        ("type mismatch: function 'f' is declared to return 'Bool' but its body evaluates "
         "to 'Int'", 3, 5)]
