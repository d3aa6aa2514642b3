"""Capabilities as effects (issue 12): the capabilities each function uses, inferred through
the calls it makes, against the ones it declares in `!{...}`.

A function uses a capability when it calls a builtin that needs one (the builtin table's
`capability`) or a function that uses it. Using one without declaring it is reported at the
first call that brings it in (one per function and capability), with a fix that adds it to
the `!{...}` set: an E007 error, except for `step.input` in a function that writes no
`!{...}` set, a warning (the program runs: the compiler declares a directly called
`step.input` builtin's capability itself, and the VM checks only the calling function's own
set). Every other capability builtin's capability the function must declare itself, or the
VM denies the call (issue 13); a caller is held to its callees' capabilities too.
Declaring a capability only a builtin can reach (`step.input`) and never using it is a
warning (least privilege); the others can be used without a call (App effects, hosts), so
declaring them is not judged.
"""
from __future__ import annotations

from typing import Optional

from boruna.core.builtins import BUILTINS, DECLARED_BY_COMPILER, REFERENCE_COUNT
from boruna.core.capabilities import from_source_name
from boruna.language import ast as A

from ..context import CheckContext
from ..fix import Applicability, Edit, Fix
from ..model import Diagnostic, Label
from .signatures import capability_of, provided_capabilities
from .spans import Spans

CODE = "E007"

# The capabilities a function can only use by calling a builtin (the reference's: step.input),
# so declaring one unused is certain waste. Issue 13's capability builtins are not the only
# way to the others: an App's effects (`framework/effects.py`) and a host act on a function's
# `!{net.fetch}` without any call in it, so an unused declaration of those is not judged.
ONLY_THROUGH_BUILTINS = frozenset(b.capability for b in BUILTINS[:REFERENCE_COUNT]
                                  if b.capability) & provided_capabilities()


def _declared(fn: A.FnDef) -> set[str]:
    out = set()
    for name in fn.capabilities:
        cap = from_source_name(name)
        if cap is not None:
            out.add(cap.wire_name)
    return out


def _calls(ctx: CheckContext, fn: A.FnDef) -> list[A.Call]:
    """Direct calls by name in `fn` (a call through a parameter or local is not followed:
    its callee is not known statically)."""
    local = {p.name for p in fn.params}
    calls = []
    for node in ctx.nodes_of(fn, (A.Let, A.For, A.Call)):
        if isinstance(node, A.Let):
            local.add(node.name)
        elif isinstance(node, A.For):
            local.add(node.var)
        elif isinstance(node.func, A.Ident):
            calls.append(node)
    return [call for call in calls if call.func.name not in local]


def used_capabilities(ctx: CheckContext, functions: dict[str, A.FnDef]
                      ) -> dict[str, dict[str, tuple]]:
    """Function name -> {capability: (call, callee)} of the first call that brings it in,
    through any depth of calls (a fixpoint over the call graph)."""
    calls = {name: _calls(ctx, fn) for name, fn in functions.items()}
    used: dict[str, dict[str, tuple]] = {name: {} for name in functions}
    for name, sites in calls.items():
        for call in sites:
            callee = call.func.name
            cap = capability_of(callee) if callee not in functions else None
            if cap is not None:
                used[name].setdefault(cap, (call, callee))
    changed = True
    while changed:
        changed = False
        for name, sites in calls.items():
            for call in sites:
                callee = call.func.name
                for cap in used.get(callee, {}) if callee in functions else ():
                    if cap not in used[name]:
                        used[name][cap] = (call, callee)
                        changed = True
    return used


def check_effects(ctx: CheckContext) -> list[Diagnostic]:
    functions = ctx.function_defs()
    used = used_capabilities(ctx, functions)
    spans: list[Spans] = []          # made on the first report only
    out: list[Diagnostic] = []
    for fn in ctx.program.functions():
        if functions.get(fn.name) is not fn:
            continue
        declared = _declared(fn)
        for cap, (call, callee) in used[fn.name].items():
            if cap in declared:
                continue
            if not spans:
                spans.append(Spans(ctx.source))
            end = spans[0].end(call.func)
            location = ctx.location(call.func.line, call.func.col, *(end or (None, None)))
            via = ("" if callee not in functions
                   else f" through `{callee}`")
            labels = []
            if fn.caps_line:
                labels.append(Label(f"`{fn.name}` declares !{{{', '.join(fn.capabilities)}}} "
                                    f"here", ctx.location(fn.caps_line, fn.caps_col)))
            fix = _add_capability_fix(ctx, fn, cap)
            severity = ("error" if fn.caps_line or cap != DECLARED_BY_COMPILER
                        else "warning")
            out.append(Diagnostic(
                CODE, severity, f"capability violation: `{fn.name}` uses `{cap}`{via} but "
                f"does not declare it", location, [fix] if fix else [], labels,
                f"declare it: `!{{{cap}}}` after the return type"))
        for name in fn.capabilities:
            cap = from_source_name(name)
            if cap is None or cap.wire_name not in ONLY_THROUGH_BUILTINS:
                continue
            if cap.wire_name not in used[fn.name]:
                out.append(Diagnostic(
                    CODE, "warning", f"`{fn.name}` declares `{name}` but never uses it",
                    ctx.location(fn.caps_line, fn.caps_col) if fn.caps_line else
                    ctx.location(fn.line, fn.col), [], [],
                    "declare only the capabilities a function uses (least privilege)"))
    return out


def _add_capability_fix(ctx: CheckContext, fn: A.FnDef, cap: str) -> Optional[Fix]:
    """Add `cap` to `fn`'s `!{...}` set, or write one before the body's `{`."""
    if fn.caps_line:
        line = fn.caps_line
        text = ctx.line_text(line)
        start = ctx.index_of(line, fn.caps_col)
        if text is None or start is None:
            return None
        close = text.find("}", start)
        if close < 0:
            return None
        inner = text[start:close].rstrip()
        sep = "" if inner.endswith("{") else ", "
        new_text = text[:close].rstrip() + sep + cap + text[close:]
    else:
        line = fn.body.line
        text = ctx.line_text(line)
        brace = ctx.index_of(line, fn.body.col)
        if text is None or brace is None:
            return None
        new_text = text[:brace].rstrip() + f" !{{{cap}}} " + text[brace:]
    return Fix(f"E007-declare-{fn.name}-{cap}", f"declare `{cap}` on `{fn.name}`",
               Applicability.SAFE,
               f"`{fn.name}` uses `{cap}`; a capability set lists every capability a function "
               "uses, directly or through its callees", [Edit(line, text, new_text, ctx.file)])
