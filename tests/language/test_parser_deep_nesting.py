"""Deeply nested input parses, checks and serializes, or fails with a clean E002;
never a RecursionError or a crash."""
import sys

import pytest

from boruna.language import ast
from boruna.language.ast_json import dumps, pretty_json, pretty_json_limited, to_json_obj
from boruna.language.errors import CompileError
from boruna.language.frontend import check, parse
from boruna.language.parser import MAX_DEPTH, NESTING_MESSAGE


def nested(kind, n):
    if kind == "parens":
        return "fn main() -> Int { " + "(" * n + "1" + ")" * n + " }"
    if kind == "blocks":
        return "fn main() -> Int " + "{" * (n + 1) + "1" + "}" * (n + 1)
    if kind == "unary":
        return "fn main() -> Int { " + "-" * n + "1 }"
    if kind == "if_else":
        return ("fn main(c: Bool) -> Int { " + "if c { " * n + "1" + " } else { 2 }" * n + " }")
    if kind == "calls":
        return "fn f(x: Int) -> Int { x }\nfn main() -> Int { " + "f(" * n + "1" + ")" * n + " }"
    if kind == "lists":
        return "fn main() -> Int { " + "[" * n + "]" * n + " }"
    if kind == "patterns":
        return "fn main(x: Int) -> Int { match x { " + "Some(" * n + "y" + ")" * n + " => y } }"
    if kind == "types":
        return "fn main(x: " + "List<" * n + "Int" + ">" * n + ") -> Int { 0 }"
    if kind == "spawn":
        return "fn main() -> Int { " + "emit " * n + "1 }"
    if kind == "binary_chain":
        return "fn main() -> Int { 1" + " + 1" * n + " }"
    raise AssertionError(kind)


KINDS = ["parens", "blocks", "unary", "if_else", "calls", "lists", "patterns", "types",
         "spawn", "binary_chain"]


def depth_of(node):
    """Nesting depth of an expression tree along its deepest single-child spine."""
    depth = 0
    while True:
        depth += 1
        if isinstance(node, ast.Unary):
            node = node.expr
        elif isinstance(node, ast.Binary):
            node = node.left
        elif isinstance(node, ast.Call):
            node = node.args[0] if node.args else node.func
        elif isinstance(node, ast.ListLit) and node.items:
            node = node.items[0]
        elif isinstance(node, (ast.Emit, ast.Spawn)):
            node = node.expr
        else:
            return depth


@pytest.mark.parametrize("kind", KINDS)
def test_5000_levels_parse_check_and_serialize(kind):
    program = check(nested(kind, 5000))
    text = dumps(to_json_obj(program))
    assert text.startswith('{"module_name":null,"items":[')
    if kind != "parens":                            # parentheses leave no node
        assert text.count("{") > 5000
    prefix, size = pretty_json_limited(program, 102_400)
    assert size > len(text) and len(prefix.encode()) <= 102_400
    assert sys.getrecursionlimit() < 100_000      # the raised limit was put back


def test_5000_unary_minus_builds_5000_nodes():
    program = parse(nested("unary", 5000))
    assert depth_of(program.items[0].body.stmts[0].expr) == 5001


@pytest.mark.parametrize("kind", KINDS)
def test_100000_levels_give_a_clean_e002(kind):
    with pytest.raises(CompileError) as info:
        check(nested(kind, 100_000))
    assert info.value.code == "E002"
    assert info.value.message == NESTING_MESSAGE
    assert info.value.line == (2 if kind == "calls" else 1) and info.value.col > 1


def test_limit_is_generous():
    assert MAX_DEPTH >= 10_000
    parse(nested("parens", MAX_DEPTH - 10))
    with pytest.raises(CompileError):
        parse(nested("parens", MAX_DEPTH + 10))


def test_wide_programs_are_not_limited():
    source = "fn main() -> Int {\n" + "    let x = 1\n" * 30_000 + "    x\n}\n"
    assert len(check(source).items[0].body.stmts) == 30_001


def test_pretty_text_of_deep_nesting_is_measured_without_building_it():
    program = parse(nested("if_else", 5000))
    prefix, size = pretty_json_limited(program, 1000)
    assert size > 2_000_000_000 and len(prefix) == 1000


def test_pretty_json_limited_matches_the_full_text_and_never_splits_a_character():
    program = parse('fn main() { "ééé" }')
    full = pretty_json(program)
    assert pretty_json_limited(program, 10**6) == (full, len(full.encode()))
    cut = full.encode().index("é".encode()) + 1          # inside the first 'é'
    prefix, size = pretty_json_limited(program, cut)
    assert size == len(full.encode())
    assert full.startswith(prefix) and len(prefix.encode()) == cut - 1
