"""E006 unknown field (docs/spec/tooling.md §1.5): a record literal names a field its declared type
does not have. Located at the field label itself; the patch renames that one label to the
closest declared field not already given in the literal."""
from __future__ import annotations

from typing import Optional

from boruna.language import ast as A

import boruna.diagnostics.registry as R
from .context import CheckContext
from .fix import Applicability, Edit, Fix
from .model import Diagnostic, Label
from .naming import closest_name
from .source_text import is_word_char


def check_record_fields(ctx: CheckContext) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for fn in ctx.program.functions():
        for expr in ctx.nodes_of(fn, A.RecordLit):
            if expr.type_name in ctx.records:
                out.extend(_check_literal(ctx, expr))
    return out


def _check_literal(ctx: CheckContext, lit: A.RecordLit) -> list[Diagnostic]:
    declared = [name for name, _ in ctx.records[lit.type_name]]
    given = {name for name, _ in lit.fields}
    type_def = ctx.type_defs[lit.type_name]
    related = Label(f"type '{lit.type_name}' has fields: {', '.join(declared)}",
                    ctx.location(type_def.line, type_def.col))
    out = []
    for name, value in lit.fields:
        if name in declared:
            continue
        position = _label_position(ctx, name, value)
        if position is not None:
            line, index = position
            col = ctx.byte_col(line, index)
            location = ctx.span_location(line, col, len(name.encode("utf-8", "surrogatepass")))
        else:
            line, index = _fallback_line(ctx, name), None
            location = ctx.location(line)
        diag = Diagnostic(R.E006_UNKNOWN_FIELD, "error",
                          f"unknown field '{name}' in record type '{lit.type_name}'",
                          location, labels=[related])
        unused = [f for f in declared if f not in given]
        best = closest_name(name, unused)
        if best is not None and line:
            patch = _rename_patch(ctx, name, best[0], line, index)
            if patch is not None:
                diag.fixes.append(patch)
        out.append(diag)
    return out


def _label_position(ctx: CheckContext, name: str, value) -> Optional[tuple[int, int]]:
    """(1-based line, 0-based index) of the label `name` that precedes `: value`."""
    line = value.line
    index = ctx.index_of(line, value.col)
    if index is None:
        return None
    # Step back over whitespace (possibly across lines) to the colon, then to the label.
    state = "colon"
    while line >= 1:
        text = ctx.masked_text(line)
        i = min(index, len(text)) - 1
        while i >= 0:
            ch = text[i]
            if ch in " \t":
                i -= 1
                continue
            if state == "colon":
                if ch != ":" or (i > 0 and text[i - 1] == ":"):
                    return None
                state = "label"
                i -= 1
                continue
            end = i + 1
            while i >= 0 and is_word_char(text[i]):
                i -= 1
            start = i + 1
            return (line, start) if text[start:end] == name else None
        line -= 1
        index = len(ctx.masked_text(line)) if line >= 1 else 0
    return None


def _fallback_line(ctx: CheckContext, name: str) -> int:
    """The reference's `find_field_line`: first line with `name:` at a label-like spot."""
    for number, text in enumerate(ctx.lines, start=1):
        if text.strip().startswith(f"{name}:") or f" {name}:" in text or f",{name}:" in text:
            return number
    return 0


def _rename_patch(ctx: CheckContext, name: str, target: str, line: int,
                  index: Optional[int]) -> Optional[Fix]:
    text = ctx.line_text(line)
    if text is None:
        return None
    if index is not None and text[index:index + len(name)] == name:
        new_text = text[:index] + target + text[index + len(name):]
    else:
        new_text = text.replace(f"{name}:", f"{target}:")
    return Fix(
        id=f"E006-rename-{name}",
        description=f"rename field '{name}' to '{target}'",
        applicability=Applicability.SAFE,
        rationale=f"field '{name}' does not exist; closest match is '{target}'",
        edits=[Edit(start_line=line, old_text=text, new_text=new_text, file=ctx.file)])
