"""Codegen of deeply nested `if`/`match` stays linear in the nesting depth.

Each `if`/`match` asks whether its subtree leaves a value; without memoisation every level
re-walked everything below it (a 9,000-deep `if` nest, ~200 KB of source, took tens of
seconds to compile). The count of subtree questions must grow linearly.
"""
from boruna.bytecode import codegen
from boruna.compiler import compile_source
from boruna.service import run_tool


def _nested_if(depth: int) -> str:
    return "fn main() -> Int { " + "if true { " * depth + "7" + " } else { 0 }" * depth + " }"


def _nested_match(depth: int) -> str:
    return "fn main() -> Int { " + "match 1 { 1 => " * depth + "7" + ", _ => 0 }" * depth + " }"


def _count_leaves_questions(monkeypatch, source: str) -> int:
    calls = 0
    original = codegen.expr_leaves_value

    def counting(e, memo=None):
        nonlocal calls
        calls += 1
        return original(e, memo)

    monkeypatch.setattr(codegen, "expr_leaves_value", counting)
    compile_source(source)
    return calls


def test_nested_if_questions_grow_linearly(monkeypatch):
    depth = 400
    calls = _count_leaves_questions(monkeypatch, _nested_if(depth))
    # one question per node per level, not per (level, descendant) pair (~depth**2 = 160,000)
    assert calls <= 6 * depth


def test_nested_match_questions_grow_linearly(monkeypatch):
    depth = 400
    calls = _count_leaves_questions(monkeypatch, _nested_match(depth))
    assert calls <= 6 * depth


def test_deep_nests_still_compile_and_run_to_the_inner_value():
    for source in (_nested_if(3000), _nested_match(3000)):
        response = run_tool(source)
        assert response["success"] is True
        assert response["result"] == 7
    assert run_tool(_nested_if(3000))["steps"] == 3 * 3000 + 3
    assert run_tool(_nested_match(3000))["steps"] == 4 * 3000 + 3
