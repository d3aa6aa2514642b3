"""`boruna.language.walk` (children, pre-order walks, pattern bindings) and
`boruna.language.type_text`."""
import pytest

from boruna.language import ast
from boruna.language.frontend import parse
from boruna.language.type_text import type_text
from boruna.language.walk import child_nodes, iter_exprs, iter_nodes, pattern_binding, preorder

SOURCE = """
type P { x: Int, y: Int }
fn f(a: Int) -> Int requires a > 0 ensures true {
    let b = a + 1
    while b < 3 { b = b + 1 }
    match Some(b) { Some(v) => v, _ => P { x: 1, y: 2 }.x }
}
"""


def describe(node):
    """A short label: the class name, plus the name/value of leaves."""
    name = type(node).__name__
    for attr in ("name", "value"):
        leaf = getattr(node, attr, None)
        if isinstance(leaf, (int, str, bool)) and not isinstance(node, (ast.Let,)):
            return f"{name}:{leaf}"
    return name


def function():
    return parse(SOURCE).functions()[0]


def test_function_children_are_requires_ensures_then_body():
    fn = function()
    assert [describe(n) for n in child_nodes(fn)] == ["Binary", "BoolLit:True", "Block"]


def test_statement_and_expression_children_in_source_order():
    stmts = function().body.stmts
    assert [describe(n) for n in child_nodes(stmts[0])] == ["Binary"]
    assert [describe(n) for n in child_nodes(stmts[1])] == ["Binary", "Block"]
    match = stmts[2].expr
    assert [describe(n) for n in child_nodes(match)] == ["SomeExpr", "Ident:v", "FieldAccess"]
    record = child_nodes(match)[2].object
    assert [describe(n) for n in child_nodes(record)] == ["IntLit:1", "IntLit:2"]


def test_leaves_have_no_children():
    for leaf in (ast.IntLit(1), ast.Ident("x"), ast.Receive(), ast.NoneLit()):
        assert child_nodes(leaf) == []


def test_iter_exprs_pre_order_skips_blocks_and_statements():
    assert [describe(e) for e in iter_exprs(function())] == [
        "Binary", "Ident:a", "IntLit:0",          # requires a > 0
        "BoolLit:True",                            # ensures true
        "Binary", "Ident:a", "IntLit:1",          # let b = a + 1
        "Binary", "Ident:b", "IntLit:3",          # while b < 3
        "Binary", "Ident:b", "IntLit:1",          # b = b + 1
        "Match", "SomeExpr", "Ident:b", "Ident:v",
        "FieldAccess", "RecordLit", "IntLit:1", "IntLit:2",
    ]


def test_iter_nodes_includes_containers():
    kinds = [type(n).__name__ for n in iter_nodes(function())]
    assert kinds[:2] == ["FnDef", "Binary"]
    assert kinds.count("Block") == 2 and kinds.count("Let") == 1 and kinds.count("While") == 1
    assert kinds.count("Assign") == 1 and kinds.count("ExprStmt") == 1


def test_preorder_is_iter_nodes_as_a_list():
    fn = function()
    walked = preorder(fn)
    assert [describe(n) for n in walked] == [describe(n) for n in iter_nodes(fn)]
    assert all(a is b for a, b in zip(walked, iter_nodes(fn)))
    assert len(walked) == 28      # 21 expressions + FnDef, 2 Blocks, Let, While, Assign, ExprStmt
    assert [describe(n) for n in preorder(ast.IntLit(4))] == ["IntLit:4"]


def test_preorder_leaves_the_tree_unchanged():
    fn = function()
    before = [describe(n) for n in child_nodes(fn.body)]
    preorder(fn)
    preorder(fn)
    assert [describe(n) for n in child_nodes(fn.body)] == before == ["Let", "While", "ExprStmt"]


def test_deep_tree_walks_without_recursion():
    depth = 200_000
    node = ast.IntLit(7)
    for _ in range(depth):
        node = ast.Unary("Neg", node)
    walked = list(iter_exprs(node))
    assert len(walked) == depth + 1
    assert describe(walked[-1]) == "IntLit:7"
    assert len(preorder(node)) == depth + 1


@pytest.mark.parametrize("pattern, expected", [
    (ast.IdentPat("x"), "x"),
    (ast.SomePat(ast.IdentPat("v")), "v"),
    (ast.OkPat(ast.ErrPat(ast.IdentPat("e"))), "e"),
    (ast.VariantPat("Circle", ast.IdentPat("r")), "r"),
    (ast.VariantPat("Empty", None), None),
    (ast.SomePat(ast.WildcardPat()), None),
    (ast.IntPat(3), None),
])
def test_pattern_binding(pattern, expected):
    assert pattern_binding(pattern) == expected


def test_type_text_both_function_spellings():
    fn = parse("fn g(h: Fn(Int, List<String>) -> Option<Map<String, Result<Int, Bool>>>) "
               "{ 0 }").functions()[0]
    ty = fn.params[0].ty
    assert type_text(ty) == "Fn(Int, List<String>) -> Option<Map<String, Result<Int, Bool>>>"
    assert type_text(ty, fn_prefix="") == \
        "(Int, List<String>) -> Option<Map<String, Result<Int, Bool>>>"
    assert type_text(None) == "Unit"
