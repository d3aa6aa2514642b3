"""E006 on field reads (an addition): `p.z` where `p` is known to be a record of a declared
type that has no field `z`. The compiler accepts it and reads some other field (the
reference resolves unknown names to index 0), so the program silently computes the wrong
value. The type of `p` comes from the type checker (`types/infer.py`); reads whose owner
type is unknown are never reported. The patch renames that one `.z`.
"""
from __future__ import annotations

import re
from typing import Optional

from boruna.language import ast as A

import boruna.diagnostics.registry as R
from .context import CheckContext
from .fix import Applicability, Edit, Fix
from .model import Diagnostic, Label
from .naming import closest_name, levenshtein
from .types.infer import checked


def check_field_reads(ctx: CheckContext) -> list[Diagnostic]:
    """One diagnostic per (type, field, line); its patch renames all those reads."""
    groups: dict = {}
    for expr, owner in checked(ctx).unknown_reads:
        fields = ctx.records[owner]
        where = _field_position(ctx, expr)
        key = (owner, expr.field, where[0] if where else expr.line)
        groups.setdefault(key, []).append((expr, where, fields))
    out = []
    for (owner, _field, _line), reads in groups.items():
        expr, where, fields = reads[0]
        others = [w[1] for _, w, _ in reads[1:] if w is not None and where is not None
                  and w[0] == where[0]]
        out.append(_unknown_read(ctx, expr, owner, fields, where, others))
    return out


def _unknown_read(ctx: CheckContext, expr: A.FieldAccess, owner: str, fields, where,
                  others: list[int]) -> Diagnostic:
    declared = [name for name, _ in fields]
    if where is not None:
        line, index = where
        col = ctx.byte_col(line, index)
        location = ctx.span_location(line, col, len(expr.field.encode("utf-8", "surrogatepass")))
    else:
        location = ctx.location(expr.line, expr.col)
    type_def = ctx.type_defs.get(owner)
    related = Label(f"type '{owner}' has fields: {', '.join(declared)}",
                    ctx.location(type_def.line, type_def.col) if type_def else None)
    diag = Diagnostic(R.E006_UNKNOWN_FIELD, "error",
                      f"unknown field '{expr.field}' in record type '{owner}' (it has: "
                      f"{', '.join(declared)})", location, labels=[related])
    # a field that shares nothing with the name (`x` for `z`) would be a guess, not a fix
    plausible = [f for f in declared
                 if levenshtein(expr.field, f) < max(len(expr.field), len(f))]
    best = closest_name(expr.field, plausible)
    if best is not None and where is not None:
        tied = sum(1 for f in plausible if levenshtein(expr.field, f) == best[1]) > 1
        line, index = where
        text = ctx.line_text(line)
        new_text = text
        for start in sorted({index, *others}, reverse=True):
            new_text = new_text[:start] + best[0] + new_text[start + len(expr.field):]
        diag.fixes.append(Fix(
            id=f"E006-rename-{expr.field}",
            description=f"rename field '{expr.field}' to '{best[0]}'",
            applicability=Applicability.UNSAFE if tied else Applicability.SAFE,
            rationale=f"field '{expr.field}' does not exist; closest match is '{best[0]}'"
                      + (" (another field is as close)" if tied else ""),
            edits=[Edit(start_line=line, old_text=text, new_text=new_text,
                        file=ctx.file)]))
    return diag


def _field_position(ctx: CheckContext, expr: A.FieldAccess) -> Optional[tuple[int, int]]:
    """(line, 0-based index) of the field name in the first `.field` after the object."""
    pattern = re.compile(r"\.\s*(" + re.escape(expr.field) + r")(?![A-Za-z0-9_])")
    line = expr.line
    start = ctx.index_of(line, expr.col) if expr.col else 0
    while line and line <= len(ctx.masked):
        found = pattern.search(ctx.masked_text(line), start or 0)
        if found:
            return line, found.start(1)
        line, start = line + 1, 0
    return None
