"""Regressions: a statement-position match whose arms differ keeps the stack balanced, and
every dispatched op — builtins included — has its trace line (docs/spec/vm.md §4.7: len(trace) = D)."""
from boruna.api import run

MIXED_ARMS_IN_LOOP = """fn main() -> Int {
    let mut i = 0
    while i < 10000 {
        match i % 3 { 0 => i, 1 => { let z = 1 }, _ => 7 }
        i = i + 1
    }
    i
}
"""


def test_statement_match_with_mixed_arms_does_not_grow_the_stack_in_a_loop():
    # 10,000 iterations: without the per-arm Pop the operand stack overflows (max 4096)
    out = run(MIXED_ARMS_IN_LOOP)
    assert (out.ok, out.result, out.error) == (True, 10000, None)
    assert out.steps == 166676


def test_statement_match_with_mixed_arms_leaves_the_following_value_alone():
    src = ("type P { a: Int, b: Int }\nfn main() -> Int {\n    let mut acc = 1\n"
           "    match 0 { 0 => 0, 1 => { let z = P { b: 0, a: 1 }.a }, _ => 7 }\n    acc\n}\n")
    out = run(src, trace=True)
    assert (out.result, out.steps) == (1, 11)
    assert out.trace[4] == "[main:4] Pop  stack_depth=1"


def test_builtin_ops_have_trace_lines():
    src = ('fn main() -> Int { let xs = list_push([1], 2)\n let ys = __builtin_list_append(xs, 3)\n'
           ' list_len(ys) + __builtin_string_len(__builtin_string_trim(" a ")) }')
    out = run(src, trace=True)
    assert (out.result, out.steps) == (4, 17)
    assert len(out.trace) == out.steps - 1
    assert out.trace[3] == "[main:3] ListPush  stack_depth=2"
    assert out.trace[7] == "[main:7] ListAppend  stack_depth=2"
    assert out.trace[12] == "[main:12] StringTrim  stack_depth=2"
