"""E007 capability findings (docs/spec/tooling.md §1.5, README rule 3):

* purity — in an App (`init`, `update` and `view` all defined) `update` and `view` must not
  declare capabilities; the patch removes the `!{...}` annotation;
* unknown names — a `!{...}` name that is not a capability (the compiler silently drops it);
  patches rename it to the closest capability or remove it; also in the set of a function
  type (`Fn(Int) -> Int !{tim.now}`, issue 21), where it would make the type claim less
  than meant.
"""
from __future__ import annotations

from typing import Optional

from boruna.language import ast as A
from boruna.core.capabilities import CAPABILITIES, from_source_name

import boruna.diagnostics.registry as R
from .context import CheckContext
from .fix import Applicability, Edit, Fix
from .model import Diagnostic
from .capability_edits import (annotation_span as _annotation_span, name_pattern as _name_pattern,
                               remove_annotation_edit as _remove_annotation_edit,
                               remove_name_edit as _remove_name_edit)
from .naming import levenshtein
from .source_text import first_line_with

# Every spelling `.ax` source can write (`actor.spawn`/`actor.send` cannot: keyword segment).
SOURCE_SPELLINGS: tuple[str, ...] = tuple(
    spelling
    for cap in CAPABILITIES
    for spelling in (cap.wire_name, *cap.aliases)
    if not spelling.startswith("actor.")
)
WRITABLE_NAMES: tuple[str, ...] = tuple(
    cap.aliases[0] if cap.wire_name.startswith("actor.") else cap.wire_name
    for cap in CAPABILITIES)


def check_capabilities(ctx: CheckContext) -> list[Diagnostic]:
    return _purity(ctx) + _unknown_names(ctx) + _unknown_type_names(ctx)


# ---------------------------------------------------------------- purity (App update/view)

def _purity(ctx: CheckContext) -> list[Diagnostic]:
    functions = ctx.program.functions()
    names = {fn.name for fn in functions}
    if not {"init", "update", "view"} <= names:
        return []
    out = []
    for target in ("update", "view"):
        for fn in functions:
            if fn.name != target or not fn.capabilities:
                continue
            caps = ", ".join(fn.capabilities)
            message = (f"capability violation: function '{fn.name}' must be pure but is "
                       f"annotated with !{{{caps}}}")
            span = _annotation_span(ctx, fn)
            if span is not None:
                line, start, end = span
                location = ctx.location(line, ctx.byte_col(line, start), line,
                                        ctx.byte_col(line, end + 1))
            else:
                line = fn.line or first_line_with(ctx.lines, f"fn {fn.name}") or 0
                location = ctx.location(line, fn.col if fn.line else None)
            diag = Diagnostic(R.E007_CAPABILITY_VIOLATION, "error", message, location,
                              help="remove the capability annotation")
            if span is not None:
                diag.fixes.append(Fix(
                    id="E007-remove-caps",
                    description=f"remove capability annotation !{{{caps}}}",
                    applicability=Applicability.SAFE,
                    rationale="update() and view() must be pure functions with no capabilities",
                    edits=[_remove_annotation_edit(ctx, span)]))
            out.append(diag)
    return out


# ---------------------------------------------------------------- unknown capability names

def suggest_capability(name: str) -> Optional[str]:
    """The closest source spelling within max(1, len/3) edits of `name`; None when there is
    none or when the nearest spellings denote different capabilities."""
    threshold = max(1, len(name) // 3)
    scored = [(levenshtein(name, spelling), spelling) for spelling in SOURCE_SPELLINGS
              if abs(len(spelling) - len(name)) <= threshold]
    scored = [(d, s) for d, s in scored if d <= threshold]
    if not scored:
        return None
    low = min(d for d, _ in scored)
    winners = [s for d, s in scored if d == low]
    if len({from_source_name(s).id for s in winners}) != 1:
        return None
    return winners[0]


def _unknown_names(ctx: CheckContext) -> list[Diagnostic]:
    out = []
    for fn in ctx.program.functions():
        for name in fn.capabilities:
            if from_source_name(name) is not None:
                continue
            out.append(_unknown_name_diagnostic(ctx, fn, name))
    return out


def _unknown_name_diagnostic(ctx: CheckContext, fn: A.FnDef, name: str) -> Diagnostic:
    suggestion = suggest_capability(name)
    family = [w for w in WRITABLE_NAMES if w.split(".")[0] == name.split(".")[0]]
    if suggestion is not None:
        advice = f"did you mean '{suggestion}'?"
    elif family:
        advice = "did you mean " + " or ".join(f"'{w}'" for w in family) + "?"
    else:
        advice = "known capabilities are " + ", ".join(WRITABLE_NAMES)
    message = (f"unknown capability '{name}' in the !{{...}} annotation of function "
               f"'{fn.name}' (the compiler ignores unknown names, so it grants nothing); "
               f"{advice}")
    span = _annotation_span(ctx, fn)
    location = ctx.location(fn.caps_line or fn.line, fn.caps_col or fn.col)
    match = None
    if span is not None:
        line, start, end = span
        masked = ctx.masked_text(line)
        match = _name_pattern(name).search(masked, start, end)
        if match is not None:
            location = ctx.location(line, ctx.byte_col(line, match.start()), line,
                                    ctx.byte_col(line, match.end()))
    diag = Diagnostic(R.E007_CAPABILITY_VIOLATION, "error", message, location)
    if match is None:
        return diag
    line = span[0]
    text = ctx.line_text(line) or ""
    if suggestion is not None:
        diag.fixes.append(Fix(
            id=f"E007-rename-capability-{name}",
            description=f"rename capability '{name}' to '{suggestion}'",
            applicability=Applicability.UNSAFE,
            rationale=(f"'{name}' is not a known capability; did you mean '{suggestion}'? "
                       f"(edit distance: {levenshtein(name, suggestion)})"),
            edits=[Edit(line, text, text[:match.start()] + suggestion + text[match.end():],
                        ctx.file)]))
    diag.fixes.append(Fix(
        id=f"E007-remove-capability-{name}",
        description=f"remove unknown capability '{name}' from !{{...}}",
        applicability=Applicability.DISPLAY_ONLY,
        rationale=(f"'{name}' grants nothing (the compiler drops unknown names), so removing "
                   "it keeps the program's behaviour"),
        edits=[_remove_name_edit(ctx, span, match, text)]))
    return diag


# ---------------------------------------------------------------- unknown names in Fn types

def _fn_types(te, out: list) -> None:
    """The `FnType` nodes with a capability set inside type expression `te`."""
    stack = [te]
    while stack:
        node = stack.pop()
        if isinstance(node, A.FnType):
            if node.capabilities:
                out.append(node)
            stack.extend(node.params)
            stack.append(node.ret)
        elif isinstance(node, (A.ListType, A.OptionType)):
            stack.append(node.inner)
        elif isinstance(node, A.ResultType):
            stack.extend((node.ok, node.err))
        elif isinstance(node, A.MapType):
            stack.extend((node.key, node.value))


def _annotated_fn_types(ctx: CheckContext) -> list:
    found: list = []
    for td in ctx.program.type_defs():
        entries = td.kind.fields if isinstance(td.kind, A.RecordKind) else td.kind.variants
        for _, te in entries:
            _fn_types(te, found)
    for fn in ctx.program.functions():
        for param in fn.params:
            _fn_types(param.ty, found)
        _fn_types(fn.return_type, found)
        for let in ctx.nodes_of(fn, (A.Let,)):
            _fn_types(let.ty, found)
    return found


def _unknown_type_names(ctx: CheckContext) -> list[Diagnostic]:
    if "Fn" not in ctx.source or "!{" not in ctx.source:
        return []
    out = []
    spans = None
    for node in _annotated_fn_types(ctx):
        for name in node.capabilities:
            if from_source_name(name) is not None:
                continue
            if spans is None:
                from .types.spans import Spans
                spans = Spans(ctx.source)
            out.append(_unknown_type_name(ctx, spans, node, name))
    return out


def _unknown_type_name(ctx: CheckContext, spans, node: A.FnType, name: str) -> Diagnostic:
    suggestion = suggest_capability(name)
    advice = (f"did you mean '{suggestion}'?" if suggestion is not None
              else "known capabilities are " + ", ".join(WRITABLE_NAMES))
    message = (f"unknown capability '{name}' in the !{{...}} set of a function type (it "
               f"counts for nothing, so the type lists fewer capabilities than meant); {advice}")
    end = spans.end(node.ret)
    match = None
    if end is not None:
        masked = ctx.masked_text(end[0])
        start = ctx.index_of(end[0], end[1]) or 0
        close = masked.find("}", start)
        if close != -1:
            match = _name_pattern(name).search(masked, start, close)
    if match is None:
        return Diagnostic(R.E007_CAPABILITY_VIOLATION, "error", message,
                          ctx.location(node.line, node.col))
    line = end[0]
    diag = Diagnostic(R.E007_CAPABILITY_VIOLATION, "error", message,
                      ctx.location(line, ctx.byte_col(line, match.start()), line,
                                   ctx.byte_col(line, match.end())))
    if suggestion is not None:
        text = ctx.line_text(line) or ""
        diag.fixes.append(Fix(
            id=f"E007-rename-capability-{name}",
            description=f"rename capability '{name}' to '{suggestion}'",
            applicability=Applicability.UNSAFE,
            rationale=(f"'{name}' is not a known capability; did you mean '{suggestion}'? "
                       f"(edit distance: {levenshtein(name, suggestion)})"),
            edits=[Edit(line, text, text[:match.start()] + suggestion + text[match.end():],
                        ctx.file)]))
    return diag
