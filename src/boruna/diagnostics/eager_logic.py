"""EAGER_AND_OR (an addition, issue 23): `&&` and `||` evaluate both sides.

The language keeps the reference's semantics (both operands run, so step counts match), which
surprises programmers used to short-circuit evaluation: `i < n && <read element i>` fails
when `i == n`. This warning fires when the right side can fail at run time: it calls a
builtin of `core.builtins.MAY_FAIL` (indexing, parsing, slicing, a guard), divides (`/`,
`%`), makes a capability call, or calls a function of the program that can (directly or
through its own calls). The fix nests
an `if`, which runs the right side only when it is needed:
`(if A { B } else { false })` for `A && B`, `(if A { true } else { B })` for `A || B`.
"""
from __future__ import annotations

from typing import Optional

from boruna.core.builtins import BY_NAME, MAY_FAIL
from boruna.language import ast as A

import boruna.diagnostics.registry as R
from .context import CheckContext
from .fix import Applicability, Edit, Fix
from .model import Diagnostic

FAILING_BUILTINS = MAY_FAIL

_FAILING_OPS = frozenset(("Div", "Mod"))


def _builtin_reason(name: str) -> Optional[str]:
    row = BY_NAME.get(name)
    if row is None:
        return None
    if row.capability is not None:
        return f"`{name}` is a capability call"
    if row.name in FAILING_BUILTINS:
        return f"`{name}` can fail"
    return None


def _direct_reason(node, user_fns) -> Optional[str]:
    """Why this one node can fail (None when it cannot), not looking into callees."""
    if type(node) is A.Binary and node.op in _FAILING_OPS:
        return "`/` and `%` fail on a zero divisor"
    if type(node) is A.Call and type(node.func) is A.Ident:
        name = node.func.name
        if name not in user_fns:
            return _builtin_reason(name)
    return None


def _failing_functions(ctx: CheckContext) -> dict[str, str]:
    """Function name -> why it can fail, to a fixpoint over the call graph."""
    fns = ctx.function_defs()
    reasons: dict[str, str] = {}
    calls: dict[str, set[str]] = {}
    for name, fn in fns.items():
        callees = set()
        # only an operator or a call can fail (`_direct_reason`), and only a call calls
        for node in ctx.nodes_of(fn, (A.Binary, A.Call)):
            if name not in reasons:
                why = _direct_reason(node, fns)
                if why is not None:
                    reasons[name] = why
            if type(node) is A.Call and type(node.func) is A.Ident and node.func.name in fns:
                callees.add(node.func.name)
        calls[name] = callees
    changed = True
    while changed:
        changed = False
        for name, callees in calls.items():
            if name in reasons:
                continue
            for callee in callees:
                if callee in reasons:
                    reasons[name] = f"it calls `{callee}`, which can fail"
                    changed = True
                    break
    return reasons


def _right_reason(expr, fns, failing) -> Optional[str]:
    """Why the right side `expr` can fail; `failing()` gives `_failing_functions`' map (its
    names are among `fns`: it is made only when a call of one of them is met)."""
    from boruna.language.walk import preorder

    for node in preorder(expr):
        why = _direct_reason(node, fns)
        if why is not None:
            return why
        if type(node) is A.Call and type(node.func) is A.Ident and node.func.name in fns:
            reasons = failing()
            if node.func.name in reasons:
                return f"`{node.func.name}` can fail ({reasons[node.func.name]})"
    return None


def check_eager_logic(ctx: CheckContext) -> list[Diagnostic]:
    if ctx.program is None:
        return []
    fns = ctx.function_defs()
    found: list[dict[str, str]] = []         # `_failing_functions`, once it is needed

    def failing() -> dict[str, str]:
        if not found:
            found.append(_failing_functions(ctx))
        return found[0]

    out: list[Diagnostic] = []
    spans = None
    for fn in ctx.program.functions():
        for node in ctx.nodes_of(fn, A.Binary):
            if node.op not in ("And", "Or"):
                continue
            why = _right_reason(node.right, fns, failing)
            if why is None:
                continue
            if spans is None:
                from .types.spans import Spans
                spans = Spans(ctx.source)
            out.append(_diagnostic(ctx, spans, node, why))
    return out


def _diagnostic(ctx: CheckContext, spans, node: A.Binary, why: str) -> Diagnostic:
    op = "&&" if node.op == "And" else "||"
    guard = "true" if op == "&&" else "false"
    message = (f"both sides of `{op}` are evaluated: the right side runs even when the left "
               f"is {'false' if op == '&&' else 'true'}, and {why}")
    end = spans.end(node)
    location = ctx.location(node.line, node.col, *(end or (None, None)))
    help_text = (f"nest an `if` so the right side runs only when the left is {guard}: "
                 + ("`if A { B } else { false }`" if op == "&&" else "`if A { true } else { B }`"))
    diag = Diagnostic(R.EAGER_AND_OR, "warning", message, location, help=help_text)
    fix = _nest_fix(ctx, spans, node, op)
    if fix is not None:
        diag.fixes.append(fix)
    return diag


def _text(ctx: CheckContext, spans, node) -> Optional[tuple[int, int, int]]:
    """(line, start index, end index) of `node`'s text when it sits on one line."""
    end = spans.end(node)
    if end is None or end[0] != node.line:
        return None
    start = ctx.index_of(node.line, node.col)
    stop = ctx.index_of(node.line, end[1])
    if start is None or stop is None:
        return None
    return node.line, start, stop


def _nest_fix(ctx: CheckContext, spans, node: A.Binary, op: str) -> Optional[Fix]:
    whole = _text(ctx, spans, node)
    left = _text(ctx, spans, node.left)
    right = _text(ctx, spans, node.right)
    if whole is None or left is None or right is None:
        return None
    line = ctx.line_text(whole[0])
    a = line[left[1]:left[2]]
    b = line[right[1]:right[2]]
    if (left[1] != whole[1] or right[2] != whole[2]
            or line[left[2]:right[1]].strip() != op):
        return None             # parentheses or comments inside: no mechanical rewrite
    if op == "&&":
        nested = f"(if {a} {{ {b} }} else {{ false }})"
    else:
        nested = f"(if {a} {{ true }} else {{ {b} }})"
    new_line = line[:whole[1]] + nested + line[whole[2]:]
    return Fix(id="nest_if", description=f"nest an `if` instead of `{op}`",
               applicability=Applicability.SAFE,
               rationale=("the result is the same whenever the original runs; the right side "
                          "now runs only when it decides the result"),
               edits=[Edit(whole[0], line, new_line, ctx.file)])
