"""AST nodes: `__slots__` (no per-node dict), `line`/`col` as the last fields, positional or
keyword, and never part of equality."""
import dataclasses

import pytest

from boruna.language import ast
from boruna.language.frontend import parse


def test_positions_are_the_last_fields_positional_or_keyword():
    a = ast.Binary("Add", ast.Ident("x", 1, 2), ast.IntLit(1, 1, 6), 1, 2)
    b = ast.Binary("Add", ast.Ident("x", line=3, col=4), ast.IntLit(1), line=3, col=4)
    assert (a.line, a.col, a.left.line, a.left.col, a.right.line) == (1, 2, 1, 2, 1)
    assert (b.line, b.col, b.right.line, b.right.col) == (3, 4, 0, 0)
    assert a == b
    fn = ast.FnDef("f", [], None, [], None, [], [], ast.Block([], 1, 10), False, 1, 1, 1, 9)
    assert (fn.line, fn.col, fn.caps_line, fn.caps_col) == (1, 1, 1, 9)
    assert [f.name for f in dataclasses.fields(ast.ImportDef)] == ["module", "items", "line",
                                                                    "col"]


def test_nodes_have_slots_and_no_dict():
    program = parse("fn main() -> Int { let x = 1\n x + 2 }")
    nodes = [program, program.items[0], program.items[0].body,
             program.items[0].body.stmts[0], program.items[0].body.stmts[1].expr]
    for node in nodes:
        assert not hasattr(node, "__dict__"), type(node).__name__
    with pytest.raises(AttributeError):
        program.items[0].checked_type = "Int"
    fn = program.items[0]
    fn.exported = True
    assert fn.exported is True
