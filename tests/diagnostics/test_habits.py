"""Habits from other languages get a diagnostic that says what to write instead, with a fix
where the rewrite is mechanical (`diagnostics/habits.py`)."""
import pytest

from boruna.service.diagnostics import check_tool, repair_tool
from boruna.service.running import run_tool

QUALIFIED = """enum C { Red, Green, Blue(Int) }
fn f(c: C) -> Int {
    match c {
        C::Red => 1,
        C::Blue(n) => n,
        _ => 0,
    }
}
fn main() -> Int { f(C::Blue(4)) + f(C::Red) }
"""
RETURN_ARM = "fn f(n: Int) -> Int {\n    match n {\n        1 => 5,\n        _ => return 0,\n    }\n}\nfn main() -> Int { f(1) + f(2) }\n"
INDEX = "fn main() -> Int {\n    let xs = [4, 5]\n    let y = xs[1]\n    y\n}\n"
RANGE = "fn main() -> Int {\n    let mut t = 0\n    for i in 1..=4 {\n        t = t + i\n    }\n    t\n}\n"
LAMBDA = "fn main() -> Int {\n    let f = |x| x + 1\n    f(2)\n}\n"


def _first(source):
    return check_tool(source)["diagnostics"][0]


@pytest.mark.parametrize("source, help_text, result", [
    (QUALIFIED, "patterns name a variant without its enum: write `Red =>`, not `C::Red =>` "
                "(`C::Red` is how a value is built)", 5),
    (RETURN_ARM, "`return` is a statement: in a match arm write `_ => { return 0 }`", 5),
    (INDEX, "write `list_get(xs, 1)`", 5),
    (RANGE, "there are no ranges: count with a `while` loop: `let mut i = 0` then "
            "`while i < 10 { … i = i + 1 }`", 10),
])
def test_the_habit_is_explained_and_repaired(source, help_text, result):
    diags = [d for d in check_tool(source)["diagnostics"] if d["id"] == "E002"]
    assert diags[0]["message"].split(" \u2014 ")[1].startswith(help_text)
    assert "mismatched braces" not in diags[0]["message"]
    assert len(diags[0]["patches"]) == 1
    repaired = repair_tool(source)
    assert repaired["verify_passed"] is True
    assert run_tool(repaired["repaired_source"])["result"] == result


def test_every_qualified_arm_of_the_match_is_fixed_at_once():
    repaired = repair_tool(QUALIFIED)["repaired_source"]
    assert "        Red => 1,\n        Blue(n) => n,\n" in repaired
    assert "f(C::Blue(4)) + f(C::Red)" in repaired


def test_indexing_names_both_halves():
    diag = [d for d in check_tool(INDEX)["diagnostics"] if d["id"] == "E002"][0]
    assert diag["message"].startswith("there is no indexing syntax: `xs[1]` is `xs` followed "
                                      "by the list `[1]`, and nothing is indexed")
    assert (diag["location"]["line"], diag["location"]["col"]) == (3, 13)


def test_a_list_on_its_own_line_is_not_indexing():
    source = "fn main() -> List<Int> {\n    let xs = [1]\n    [2]\n}\n"
    assert check_tool(source)["diagnostics"] == []


def test_a_range_inside_an_expression_gets_the_help_without_a_fix():
    source = "fn main() -> Int {\n    let r = 0..3\n    1\n}\n"
    diag = _first(source)
    assert "there are no ranges" in diag["message"]
    assert diag.get("patches", []) == []


def test_lambdas_are_explained():
    diag = _first(LAMBDA)
    assert diag["id"] == "E001"
    assert "there are no lambdas or closures: define a named function" in diag["message"]
