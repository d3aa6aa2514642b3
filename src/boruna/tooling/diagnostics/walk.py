"""Generic AST traversal for the analyzers: every expression of a function, in source order."""
from __future__ import annotations

from typing import Iterator

from boruna.language import ast as A


def stmt_exprs(stmt: A.Node) -> list:
    """The direct sub-expressions and blocks of a statement, in source order."""
    if isinstance(stmt, A.Let):
        return [stmt.value]
    if isinstance(stmt, A.Assign):
        return [stmt.value]
    if isinstance(stmt, A.ExprStmt):
        return [stmt.expr]
    if isinstance(stmt, A.Return):
        return [] if stmt.value is None else [stmt.value]
    if isinstance(stmt, A.While):
        return [stmt.condition, stmt.body]
    if isinstance(stmt, A.For):
        return [stmt.iter, stmt.body]
    return []


def expr_children(expr: A.Node) -> list:
    """Direct children (expressions or blocks) of an expression, left to right."""
    if isinstance(expr, A.Binary):
        return [expr.left, expr.right]
    if isinstance(expr, (A.Unary,)):
        return [expr.expr]
    if isinstance(expr, A.Call):
        return [expr.func, *expr.args]
    if isinstance(expr, A.FieldAccess):
        return [expr.object]
    if isinstance(expr, A.If):
        out = [expr.condition, expr.then_block]
        if expr.else_block is not None:
            out.append(expr.else_block)
        return out
    if isinstance(expr, A.Match):
        return [expr.value, *(arm.body for arm in expr.arms)]
    if isinstance(expr, A.RecordLit):
        out = [] if expr.spread is None else [expr.spread]
        return out + [value for _, value in expr.fields]
    if isinstance(expr, A.EnumVariant):
        return [] if expr.payload is None else [expr.payload]
    if isinstance(expr, A.ListLit):
        return list(expr.items)
    if isinstance(expr, (A.SomeExpr, A.OkExpr, A.ErrExpr, A.Spawn, A.Emit)):
        return [expr.expr]
    if isinstance(expr, A.Send):
        return [expr.target, expr.message]
    if isinstance(expr, A.BlockExpr):
        return [expr.block]
    return []


def iter_exprs(node: A.Node) -> Iterator[A.Node]:
    """Pre-order walk over every expression under `node` (a block, statement or expression).

    Iterative, so deeply nested input cannot exhaust the Python stack.
    """
    stack: list = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, A.Block):
            stack.extend(reversed(current.stmts))
            continue
        if isinstance(current, (A.Let, A.Assign, A.ExprStmt, A.Return, A.While, A.For)):
            stack.extend(reversed(stmt_exprs(current)))
            continue
        yield current
        stack.extend(reversed(expr_children(current)))


def function_exprs(fn: A.FnDef) -> Iterator[A.Node]:
    """Every expression of a function: `requires`, `ensures`, then the body."""
    for clause in (*fn.requires, *fn.ensures):
        yield from iter_exprs(clause)
    yield from iter_exprs(fn.body)


def type_text(ty) -> str:
    """Render a type expression back to `.ax` source text."""
    if isinstance(ty, A.Named):
        return ty.name
    if isinstance(ty, A.OptionType):
        return f"Option<{type_text(ty.inner)}>"
    if isinstance(ty, A.ResultType):
        return f"Result<{type_text(ty.ok)}, {type_text(ty.err)}>"
    if isinstance(ty, A.ListType):
        return f"List<{type_text(ty.inner)}>"
    if isinstance(ty, A.MapType):
        return f"Map<{type_text(ty.key)}, {type_text(ty.value)}>"
    if isinstance(ty, A.FnType):
        params = ", ".join(type_text(p) for p in ty.params)
        return f"Fn({params}) -> {type_text(ty.ret)}"
    return "Unit"
