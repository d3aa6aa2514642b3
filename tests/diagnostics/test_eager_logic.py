"""EAGER_AND_OR: `&&`/`||` whose right side can fail, with the nest-an-`if` fix."""
from boruna.diagnostics.apply import apply_fix
from boruna.diagnostics.collector import check_source
from boruna.service.running import run_tool

LOOP = """fn first_positive(xs: List<Int>) -> Int {
    let mut i = 0
    while i < list_len(xs) && list_get(xs, i) <= 0 {
        i = i + 1
    }
    i
}

fn main() -> Int {
    first_positive([0, -1])
}
"""


def _eager(source):
    return [d for d in check_source(source).diagnostics if d.code == "EAGER_AND_OR"]


def test_indexing_on_the_right_of_and_is_reported_with_a_fix_that_runs():
    assert run_tool(LOOP)["message"] == "list index out of bounds: index 2, length 2"
    (diag,) = _eager(LOOP)
    assert diag.severity == "warning"
    assert diag.body == ("both sides of `&&` are evaluated: the right side runs even when the "
                         "left is false, and `list_get` can fail")
    assert (diag.span.line, diag.span.col, diag.span.end_col) == (3, 11, 51)
    (fix,) = diag.fixes
    fixed = apply_fix(LOOP, fix)
    assert fixed.splitlines()[2] == (
        "    while (if i < list_len(xs) { list_get(xs, i) <= 0 } else { false }) {")
    assert _eager(fixed) == []
    assert run_tool(fixed)["result"] == 2


def test_division_on_the_right_of_or_nests_the_other_way():
    source = "fn ok(a: Int, b: Int) -> Bool {\n    b == 0 || a / b > 1\n}\n\nfn main() -> Bool {\n    ok(1, 0)\n}\n"
    (diag,) = _eager(source)
    fixed = apply_fix(source, diag.fixes[0])
    assert fixed.splitlines()[1] == "    (if b == 0 { true } else { a / b > 1 })"
    assert run_tool(fixed)["result"] is True


def test_a_call_to_a_function_that_can_fail_counts_through_the_call_graph():
    source = """fn at(xs: List<Int>, i: Int) -> Int {
    list_get(xs, i)
}

fn positive_at(xs: List<Int>, i: Int) -> Bool {
    at(xs, i) > 0
}

fn main() -> Bool {
    let xs = [1]
    list_len(xs) > 1 && positive_at(xs, 1)
}
"""
    (diag,) = _eager(source)
    assert diag.body.endswith("`positive_at` can fail (it calls `at`, which can fail)")


def test_capability_calls_and_parsing_count():
    source = ('fn main() -> Bool !{fs.read} {\n    let s = "12"\n'
              '    s != "" && parse_int(s) > 3 || fs_read("x") == ""\n}\n')
    bodies = [d.body for d in _eager(source)]
    assert bodies == [
        "both sides of `||` are evaluated: the right side runs even when the left is true, "
        "and `fs_read` is a capability call",
        "both sides of `&&` are evaluated: the right side runs even when the left is false, "
        "and `parse_int` can fail"]


def test_right_sides_that_cannot_fail_are_quiet():
    source = ("fn main() -> Bool {\n    let xs = [1, 2]\n"
              "    list_len(xs) > 0 && list_len(xs) < 5 || xs == []\n}\n")
    assert _eager(source) == []


def test_a_parenthesised_left_side_gets_no_mechanical_fix():
    source = "fn main() -> Bool {\n    let b = 0\n    (b == 0) || 10 / b > 1\n}\n"
    (diag,) = _eager(source)
    assert diag.fixes == []
