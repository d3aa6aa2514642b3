"""Capabilities as effects (issues 12 and 21): the capabilities each function needs, inferred
through the calls it makes, against the ones it declares in `!{...}`.

A function needs a capability when it calls a builtin that needs one (the builtin table's
`capability`), when it calls a function that *declares* it (a declaration is a contract:
its callers rely on the signature, not on what the body happens to do today), when it calls
a function that needs it, or when it calls a function value whose type lists it
(`f: Fn(String) -> Int !{db.query}`; the type checker collects those calls). Needing one
without declaring it is reported at the first call that brings it in (one per function and
capability), with a fix that adds it to the `!{...}` set: an E007 error, except for
`step.input` in a function that writes no `!{...}` set, a warning (the program runs: the
compiler declares a directly called `step.input` builtin's capability itself, and the VM
checks only the calling function's own set).

A declared capability the function never needs is a warning at its declaration, with a fix
that drops it, when only a builtin can reach it (`step.input`: certain waste) or when a
caller is reported for it (the declaration, not the body, is what the caller is missing).
Others can be used without a call (App effects, hosts), so declaring them is not judged.

In an App (`init`, `update`, `view` all defined) those three must not need any capability
by any route: the error names the route (`update` → `now_ms` → `time.now`).
"""
from __future__ import annotations

from typing import Optional

from boruna.core.builtins import BUILTINS, DECLARED_BY_COMPILER, REFERENCE_COUNT
from boruna.core.capabilities import from_source_name
from boruna.language import ast as A

from ..capability_edits import drop_name_edit
from ..context import CheckContext
from ..fix import Applicability, Edit, Fix
from ..model import Diagnostic, Label
from .effect_types import wire_names
from .infer import checked
from .signatures import capability_names, capability_of, provided_capabilities
from .spans import Spans

CODE = "E007"

# The capabilities a function can only use by calling a builtin (the reference's: step.input),
# so declaring one unused is certain waste. Issue 13's capability builtins are not the only
# way to the others: an App's effects (`framework/effects.py`) and a host act on a function's
# `!{net.fetch}` without any call in it, so an unused declaration of those is not judged.
ONLY_THROUGH_BUILTINS = frozenset(b.capability for b in BUILTINS[:REFERENCE_COUNT]
                                  if b.capability) & provided_capabilities()


APP_FUNCTIONS = ("init", "update", "view")


def _declared(fn: A.FnDef) -> set[str]:
    return set(wire_names(fn.capabilities)) if fn.capabilities else set()


def _calls(ctx: CheckContext, fn: A.FnDef) -> list[A.Call]:
    """Direct calls by name in `fn` (a call through a parameter or local is a call of a
    function value: the type checker follows those)."""
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


class Use:
    """How a function first comes to need a capability: the call, and what it calls (a
    builtin or function by name, or a function value: `callee` None, `origin` a label
    builder at where the value's type comes from)."""

    __slots__ = ("call", "callee", "origin")

    def __init__(self, call: A.Call, callee: Optional[str], origin=None):
        self.call, self.callee, self.origin = call, callee, origin


def used_capabilities(ctx: CheckContext, functions: dict[str, A.FnDef],
                      value_calls=(), unbinding=()) -> dict[str, dict[str, Use]]:
    """Function name -> {capability: the first use that brings it in}, through any depth of
    calls (a fixpoint over the call graph). The declarations of the functions named in
    `unbinding` bind no caller (an App's `update`: a declaration there is itself wrong)."""
    calls = {name: _calls(ctx, fn) for name, fn in functions.items()}
    declared = {name: _declared(fn) if name not in unbinding else set()
                for name, fn in functions.items()}
    used: dict[str, dict[str, Use]] = {name: {} for name in functions}
    for name, sites in calls.items():
        mine = used[name]
        for call in sites:
            callee = call.func.name
            if callee in functions:
                for cap in sorted(declared[callee]):
                    if cap not in mine:
                        mine[cap] = Use(call, callee)
            else:
                cap = capability_of(callee)
                if cap is not None and cap not in mine:
                    mine[cap] = Use(call, callee)
    for value_call in value_calls:
        fn = value_call.fn
        mine = used.get(fn.name)
        if mine is None or functions.get(fn.name) is not fn:
            continue
        for cap in sorted(value_call.effects):
            if cap not in mine:
                mine[cap] = Use(value_call.call, None, value_call.label)
    changed = True
    while changed:
        changed = False
        for name, sites in calls.items():
            mine = used[name]
            for call in sites:
                callee = call.func.name
                for cap in used.get(callee, {}) if callee in functions else ():
                    if cap not in mine:
                        mine[cap] = Use(call, callee)
                        changed = True
    return used


def _no_capability_anywhere(ctx: CheckContext, functions: dict[str, A.FnDef],
                            value_calls) -> bool:
    """Whether no function can need a capability: none declares one, no function value is
    called, and no call names a capability builtin (then every function's uses are empty
    and there is nothing to report)."""
    if value_calls or any(fn.capabilities for fn in functions.values()):
        return False
    names = capability_names()
    return not any(call.func.__class__ is A.Ident and call.func.name in names
                   for fn in functions.values() for call in ctx.nodes_of(fn, A.Call))


def check_effects(ctx: CheckContext) -> list[Diagnostic]:
    functions = ctx.function_defs()
    value_calls = checked(ctx).value_calls
    if _no_capability_anywhere(ctx, functions, value_calls):
        return []
    app = set(APP_FUNCTIONS) <= set(functions)
    used = used_capabilities(ctx, functions, value_calls,
                             APP_FUNCTIONS if app else ())
    spans: list[Spans] = []          # made on the first report only
    out: list[Diagnostic] = []
    blamed: dict[str, set[str]] = {}     # callee -> capabilities a caller is reported for
    own = [fn for fn in ctx.program.functions() if functions.get(fn.name) is fn]
    for fn in own:
        declared = _declared(fn)
        for cap, use in used[fn.name].items():
            if app and fn.name in APP_FUNCTIONS:
                out.append(_impure(ctx, spans, fn, cap, use, functions, used))
                continue
            if cap in declared:
                continue
            callee = functions.get(use.callee) if use.callee else None
            if callee is not None and cap not in used[callee.name]:
                blamed.setdefault(callee.name, set()).add(cap)
            out.append(_undeclared(ctx, spans, fn, cap, use, callee,
                                   used[callee.name] if callee is not None else ()))
    for fn in own:
        for name in fn.capabilities:
            cap = from_source_name(name)
            if cap is None or cap.wire_name in used[fn.name]:
                continue
            certain = cap.wire_name in ONLY_THROUGH_BUILTINS
            if certain or cap.wire_name in blamed.get(fn.name, ()):
                out.append(_unused(ctx, fn, name, certain))
    out.sort(key=lambda d: (d.location.line or 0, d.location.col or 0))
    return out


def _location(ctx: CheckContext, spans: list, call: A.Call):
    if not spans:
        spans.append(Spans(ctx.source))
    end = spans[0].end(call.func)
    return ctx.location(call.func.line, call.func.col, *(end or (None, None)))


def _declaration_label(ctx: CheckContext, fn: A.FnDef) -> Label:
    return Label(f"`{fn.name}` declares !{{{', '.join(fn.capabilities)}}} here",
                 ctx.location(fn.caps_line, fn.caps_col))


def value_name(func) -> Optional[str]:
    """How a called function value is written: `f`, `deps.clock`; None for another
    expression."""
    if isinstance(func, A.Ident):
        return func.name
    if isinstance(func, A.FieldAccess):
        inner = value_name(func.object)
        return None if inner is None else f"{inner}.{func.field}"
    return None


def _via(use: Use, functions) -> str:
    if use.callee is None:
        name = value_name(use.call.func)
        return (f" through the function value `{name}`" if name is not None
                else " through a function value")
    return f" through `{use.callee}`" if use.callee in functions else ""


def _undeclared(ctx: CheckContext, spans: list, fn: A.FnDef, cap: str, use: Use,
                callee: Optional[A.FnDef], used_by_callee=()) -> Diagnostic:
    labels = []
    if fn.caps_line:
        labels.append(_declaration_label(ctx, fn))
    if callee is not None and callee.caps_line and cap in _declared(callee):
        labels.append(_declaration_label(ctx, callee))
    if use.origin is not None:
        labels.append(use.origin())
    fix = _add_capability_fix(ctx, fn, cap)
    severity = "error" if fn.caps_line or cap != DECLARED_BY_COMPILER else "warning"
    functions = {callee.name: callee} if callee is not None else {}
    if callee is not None and cap not in used_by_callee:     # the callee's contract
        written = next((name for name in callee.capabilities
                        if wire_names((name,)) == {cap}), cap)
        body = (f"capability violation: `{fn.name}` calls `{callee.name}`, which declares "
                f"`{written}`, but `{fn.name}` does not declare it")
    else:
        body = (f"capability violation: `{fn.name}` uses `{cap}`{_via(use, functions)} but "
                f"does not declare it")
    return Diagnostic(
        CODE, severity, body, _location(ctx, spans, use.call),
        [fix] if fix else [], labels, f"declare it: `!{{{cap}}}` after the return type")


def route(fn: A.FnDef, cap: str, functions: dict, used: dict) -> list[str]:
    """The steps by which `fn` comes to need `cap`: function names, a function value's
    name, ending with the capability (`update` → `now_ms` → `time.now`)."""
    steps, name, seen = [fn.name], fn.name, {fn.name}
    while True:
        use = used.get(name, {}).get(cap)
        if use is None:
            break
        if use.callee is None:
            steps.append(value_name(use.call.func) or "a function value")
            break
        if use.callee not in functions or use.callee in seen:
            break
        steps.append(use.callee)
        seen.add(use.callee)
        name = use.callee
    return steps


def _impure(ctx: CheckContext, spans: list, fn: A.FnDef, cap: str, use: Use, functions: dict,
            used: dict) -> Diagnostic:
    steps = route(fn, cap, functions, used)
    shown = " \u2192 ".join(f"`{step}`" for step in [*steps, cap])
    labels = []
    last = functions.get(steps[-1]) if len(steps) > 1 else None
    if last is not None and last.caps_line and cap in _declared(last):
        labels.append(_declaration_label(ctx, last))
    if use.origin is not None:
        labels.append(use.origin())
    return Diagnostic(
        CODE, "error", f"capability violation: `{fn.name}` must be pure, but it reaches "
        f"`{cap}`: {shown}", _location(ctx, spans, use.call), [], labels,
        f"an App's `init`, `update` and `view` may not use capabilities by any route; "
        f"return an effect from `update` for the framework to run (e.g. `timer`, "
        f"`http_request`), or keep the call out of these functions")


def _unused(ctx: CheckContext, fn: A.FnDef, name: str, certain: bool) -> Diagnostic:
    edit = drop_name_edit(ctx, fn, name)
    fixes = []
    if edit is not None:
        fixes.append(Fix(
            f"E007-drop-{fn.name}-{name}", f"drop `{name}` from `{fn.name}`'s capabilities",
            Applicability.SAFE if certain else Applicability.UNSAFE,
            f"`{fn.name}` never uses `{name}`, and every caller must declare what it "
            "declares", [edit]))
    help_text = ("declare only the capabilities a function uses (least privilege)" if certain
                 else "declare only the capabilities a function uses (least privilege): "
                      "its callers must declare every capability it declares")
    return Diagnostic(
        CODE, "warning", f"`{fn.name}` declares `{name}` but never uses it",
        ctx.location(fn.caps_line, fn.caps_col) if fn.caps_line else
        ctx.location(fn.line, fn.col), fixes, [], help_text)


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
