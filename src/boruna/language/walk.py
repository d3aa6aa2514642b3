"""Generic AST traversal: the children of a node, every node under it, a pattern's binding.

`child_nodes` is the one table of which fields of a node hold sub-nodes. Walkers that need
no scope (analyzers looking for every `match`, every record literal, ...) use `iter_nodes`
or `iter_exprs`; scope-aware walkers (the name checker, codegen) keep their own recursion
and may use `child_nodes` for the node kinds that introduce no scope.

`iter_nodes`/`iter_exprs` are iterative, so arbitrarily deep input cannot exhaust the Python
stack.
"""
from __future__ import annotations

from typing import Callable, Iterator, Optional

from . import ast as A


def _if_children(e: A.If) -> list:
    out = [e.condition, e.then_block]
    if e.else_block is not None:
        out.append(e.else_block)
    return out


def _record_children(e: A.RecordLit) -> list:
    out = [] if e.spread is None else [e.spread]
    out.extend(value for _, value in e.fields)
    return out


def _single(field: str) -> Callable[[A.Node], list]:
    return lambda node: [getattr(node, field)]


def _optional(field: str) -> Callable[[A.Node], list]:
    def children(node: A.Node) -> list:
        value = getattr(node, field)
        return [] if value is None else [value]
    return children


# node type -> its direct children (expressions, blocks, statements), in source order.
# Match arms contribute their bodies only; patterns and type annotations are not children.
_CHILDREN: dict[type, Callable[[A.Node], list]] = {
    # containers
    A.FnDef: lambda fn: [*fn.requires, *fn.ensures, fn.body],
    A.Block: lambda b: list(b.stmts),
    # statements
    A.Let: _single("value"),
    A.Assign: _single("value"),
    A.ExprStmt: _single("expr"),
    A.Return: _optional("value"),
    A.While: lambda s: [s.condition, s.body],
    A.For: lambda s: [s.iter, s.body],
    # expressions
    A.Binary: lambda e: [e.left, e.right],
    A.Unary: _single("expr"),
    A.Call: lambda e: [e.func, *e.args],
    A.FieldAccess: _single("object"),
    A.If: _if_children,
    A.Match: lambda e: [e.value, *(arm.body for arm in e.arms)],
    A.RecordLit: _record_children,
    A.EnumVariant: _optional("payload"),
    A.ListLit: lambda e: list(e.items),
    A.SomeExpr: _single("expr"),
    A.OkExpr: _single("expr"),
    A.ErrExpr: _single("expr"),
    A.Spawn: _single("expr"),
    A.Emit: _single("expr"),
    A.Send: lambda e: [e.target, e.message],
    A.BlockExpr: lambda e: [e.block],
}

# nodes that are not expressions: `iter_exprs` walks through them without yielding them
_NOT_EXPRESSIONS = (A.FnDef, A.Block, A.Let, A.Assign, A.ExprStmt, A.Return, A.While, A.For)


def child_nodes(node: A.Node) -> list:
    """The direct sub-nodes of a function, block, statement or expression, left to right.

    Literals, identifiers and `receive` have none; a function's are its `requires` clauses,
    its `ensures` clauses, then its body.
    """
    children = _CHILDREN.get(type(node))
    return [] if children is None else children(node)


def iter_nodes(node: A.Node) -> Iterator[A.Node]:
    """Pre-order walk: `node`, then each child's subtree in source order."""
    stack: list = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(child_nodes(current)))


def preorder(node: A.Node) -> list:
    """The nodes of `iter_nodes(node)` as a list, built in one pass (for callers that walk
    the same tree several times: build it once, filter it many times)."""
    return preorder_by_kind(node)[0]


def preorder_by_kind(node: A.Node) -> tuple[list, dict[type, list[int]]]:
    """`preorder(node)` and, in the same pass, each node class's positions in that list
    (ascending): the analyzers ask a function for its nodes of one or two classes, and
    reading these positions spares each of them a pass over every node."""
    out: list = []
    append = out.append
    positions: dict[type, list[int]] = {}
    stack: list = [node]
    pop, extend, children_of = stack.pop, stack.extend, _CHILDREN.get
    index = 0
    while stack:
        current = pop()
        append(current)
        kind = type(current)
        found = positions.get(kind)
        if found is None:
            positions[kind] = [index]
        else:
            found.append(index)
        index += 1
        children = children_of(kind)
        if children is not None:
            kids = children(current)
            if kids:
                kids.reverse()
                extend(kids)
    return out, positions


def iter_exprs(node: A.Node) -> Iterator[A.Node]:
    """Every expression under `node` (itself included when it is one), in pre-order."""
    for current in iter_nodes(node):
        if not isinstance(current, _NOT_EXPRESSIONS):
            yield current


def pattern_binding(pattern: A.Node) -> Optional[str]:
    """The name a pattern binds, if any: an identifier pattern, possibly inside
    `Some`/`Ok`/`Err`/`Variant(...)` (a pattern binds at most one name)."""
    while True:
        kind = type(pattern)
        if kind is A.IdentPat:
            return pattern.name
        if kind not in _PAYLOAD_PATTERNS:
            return None
        pattern = pattern.inner


_PAYLOAD_PATTERNS = frozenset((A.SomePat, A.OkPat, A.ErrPat, A.VariantPat))
