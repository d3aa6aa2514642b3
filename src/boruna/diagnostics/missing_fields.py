"""E006 for record literals that leave declared fields out (an addition; the reference does
not check). Without a spread (`{ ..base, ... }`) a missing field is Unit at run time, so a
later read of it, or arithmetic on it, fails far from the mistake.

A field that an unknown label of the same literal would be renamed to (`Point { xx: 0 }`)
is not reported again: that rename is the fix. The patch appends the missing fields with
the zero value of their declared type (`0`, `0.0`, `""`, `false`, `[]`, `None`, a record of
zero values) when every
one of them has such a value; Medium, since the value is a placeholder.
"""
from __future__ import annotations

from typing import Optional

from boruna.language import ast as A

import boruna.diagnostics.registry as R
from .context import CheckContext
from .fix import Applicability, Edit, Fix
from .model import Diagnostic, Label
from .naming import closest_name
from .source_text import leading_whitespace, matching_close_brace

ZERO_VALUES = {"Int": "0", "Float": "0.0", "String": '""', "Bool": "false"}


def check_missing_fields(ctx: CheckContext) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for fn in ctx.program.functions():
        for expr in ctx.nodes_of(fn, A.RecordLit):
            if expr.spread is None and expr.type_name in ctx.records:
                diag = _check(ctx, expr)
                if diag is not None:
                    out.append(diag)
    return out


def _check(ctx: CheckContext, lit: A.RecordLit) -> Optional[Diagnostic]:
    declared = ctx.records[lit.type_name]
    names = [name for name, _ in declared]
    given = {name for name, _ in lit.fields}
    unused = [name for name in names if name not in given]
    renamed = set()
    for label, _ in lit.fields:
        if label not in names:
            best = closest_name(label, [n for n in unused if n not in renamed])
            if best is not None:
                renamed.add(best[0])
    missing = [(name, ty) for name, ty in declared if name not in given and name not in renamed]
    if not missing:
        return None
    listed = ", ".join(name for name, _ in missing)
    plural = "s" if len(missing) > 1 else ""
    width = len(lit.type_name.encode("utf-8", "surrogatepass"))
    type_def = ctx.type_defs[lit.type_name]
    diag = Diagnostic(
        R.E006_UNKNOWN_FIELD, "error",
        f"record literal of type '{lit.type_name}' is missing field{plural} {listed}",
        ctx.span_location(lit.line, lit.col, width),
        labels=[Label(f"type '{lit.type_name}' has fields: {', '.join(names)}",
                      ctx.location(type_def.line, type_def.col))],
        help=(f"give every declared field (they would be Unit at run time), or start from a "
              f"value with `{lit.type_name} {{ ..base, ... }}`"))
    patch = _add_fields_patch(ctx, lit, missing)
    if patch is not None:
        diag.fixes.append(patch)
    return diag


def zero_value(ty, ctx: Optional[CheckContext] = None, depth: int = 0) -> Optional[str]:
    """Source text of the zero value of `ty`, or None (enums, maps, functions, deep nests)."""
    if isinstance(ty, A.Named):
        if ty.name in ZERO_VALUES:
            return ZERO_VALUES[ty.name]
        if ctx is None or depth >= 3 or ty.name not in ctx.records:
            return None
        inner = [(name, zero_value(t, ctx, depth + 1)) for name, t in ctx.records[ty.name]]
        if any(value is None for _, value in inner):
            return None
        return f"{ty.name} {{ {', '.join(f'{n}: {v}' for n, v in inner)} }}"
    if isinstance(ty, A.ListType):
        return "[]"
    if isinstance(ty, A.OptionType):
        return "None"
    return None


def _add_fields_patch(ctx: CheckContext, lit: A.RecordLit, missing
                      ) -> Optional[Fix]:
    values = [(name, zero_value(ty, ctx)) for name, ty in missing]
    if any(value is None for _, value in values):
        return None
    start = ctx.index_of(lit.line, lit.col)
    if start is None:
        return None
    close = matching_close_brace(ctx.masked, lit.line - 1, start)
    if close is None:
        return None
    line, index = close[0] + 1, close[1]
    text = ctx.line_text(line) or ""
    masked = ctx.masked_text(line)
    fields = [f"{name}: {value}" for name, value in values]
    if masked[:index].strip() == "":
        # the `}` starts its line: one field per line above it, indented like the others
        previous = ctx.line_text(line - 1) or ""
        indent = leading_whitespace(previous) if line - 1 > lit.line else \
            leading_whitespace(text) + "    "
        before = ctx.masked_text(line - 1).rstrip()
        if line - 1 > lit.line and not before.endswith((",", "{")):
            # the previous field line needs a separating comma: replace both lines
            prev_text = ctx.line_text(line - 1) or ""
            new_text = (prev_text.rstrip() + ",\n"
                        + ",\n".join(indent + f for f in fields) + "\n" + text)
            edit = Edit(start_line=line - 1, old_text=prev_text + "\n" + text,
                        new_text=new_text, file=ctx.file)
        else:
            new_text = ",\n".join(indent + f for f in fields) + "\n" + text
            edit = Edit(start_line=line, old_text=text, new_text=new_text, file=ctx.file)
    else:
        head = text[:index].rstrip()
        separator = "" if masked[:index].rstrip().endswith(("{", ",")) else ","
        new_text = f"{head}{separator} {', '.join(fields)} {text[index:]}"
        edit = Edit(start_line=line, old_text=text, new_text=new_text, file=ctx.file)
    listed = ", ".join(name for name, _ in missing)
    return Fix(
        id=f"E006-add-fields-{lit.type_name}",
        description=f"add the missing field{'s' if len(missing) > 1 else ''} "
                    f"{', '.join(fields)}",
        applicability=Applicability.UNSAFE,
        rationale=f"'{lit.type_name}' declares {listed}; zero values are placeholders to "
                  f"replace with the intended ones",
        edits=[edit])
