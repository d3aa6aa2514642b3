"""Unknown type, enum and variant names (an addition; the reference's check is silent).

* `E::V` with an unknown enum `E`, a record `E`, or an unknown variant `V`: compiling fails
  with the same message, so these are E008 errors here, before anyone runs the program.
* a variant pattern `V` / `V(p)` that no enum declares, and a record literal `T { ... }` of an
  undeclared record type: the compiler accepts both and the program then silently misbehaves
  (the pattern tests some other tag, the record gets type id 0), so they are E009 errors.

Each diagnostic is placed at the offending name and, when one name is clearly meant, carries
a Medium patch that renames exactly that occurrence.
"""
from __future__ import annotations

import re
from typing import Iterable, Optional

from boruna.language import ast as A

import boruna.diagnostics.registry as R
from .context import CheckContext
from .fix import Applicability, Edit, Fix
from .model import Diagnostic
from .naming import closest_name

BUILTIN_VARIANTS = ("Some", "None", "Ok", "Err")


def check_type_names(ctx: CheckContext) -> list[Diagnostic]:
    """One diagnostic per (code, name, line): its patch renames every such use on the line."""
    out: list[Diagnostic] = []
    seen: set = set()
    for diag in _findings(ctx):
        key = (diag.id, diag.message, diag.location.line if diag.location else 0)
        if key not in seen:
            seen.add(key)
            out.append(diag)
    return out


def _findings(ctx: CheckContext) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for fn in ctx.program.functions():
        found = ctx.nodes_of(fn, (A.EnumVariant, A.RecordLit, A.Match))
        if not found:
            continue
        params = {p.name: p.ty.name for p in fn.params if isinstance(p.ty, A.Named)}
        for expr in found:
            if isinstance(expr, A.EnumVariant):
                out.extend(_enum_variant(ctx, expr))
            elif isinstance(expr, A.RecordLit) and expr.type_name not in ctx.records:
                out.append(_record_type(ctx, expr))
            elif isinstance(expr, A.Match):
                scrutinee = None
                if isinstance(expr.value, A.Ident):
                    scrutinee = ctx.enums.get(params.get(expr.value.name, ""))
                for arm in expr.arms:
                    for pattern in _variant_patterns(arm.pattern):
                        if not _is_declared_variant(ctx, pattern.name):
                            out.append(_unknown_pattern(ctx, pattern, scrutinee))
    return out


# ---------------------------------------------------------------- the three findings

def _enum_variant(ctx: CheckContext, expr: A.EnumVariant) -> list[Diagnostic]:
    enum, variant = expr.enum_name, expr.variant
    if enum not in ctx.enums:
        if enum in ctx.records:
            message = (f"'{enum}' is not an enum (it is a record type); "
                       f"build it with `{enum} {{ ... }}`")
            return [_diag(ctx, R.E008_CODEGEN, message, expr.line, expr.col, enum, None)]
        candidates = list(ctx.enums)
        message = f"unknown enum: {enum}"
        return [_diag(ctx, R.E008_CODEGEN, message, expr.line, expr.col, enum, candidates,
                      kind="enum", role=_ENUM_ROLE)]
    variants = [name for name, _ in ctx.enums[enum]]
    if variant in variants:
        return []
    message = f"enum '{enum}' has no variant '{variant}' (it has: {', '.join(variants)})"
    line, col = _after_colons(ctx, expr.line, expr.col, enum, variant)
    return [_diag(ctx, R.E008_CODEGEN, message, line, col, variant, variants,
                  kind="variant", role=re.escape(enum) + r"\s*::\s*({name})(?![A-Za-z0-9_])")]


def _record_type(ctx: CheckContext, lit: A.RecordLit) -> Diagnostic:
    name = lit.type_name
    if name in ctx.enums:
        message = (f"'{name}' is an enum, not a record type; build a value with "
                   f"`{name}::Variant`")
        return _diag(ctx, R.E009_TYPE_ERROR, message, lit.line, lit.col, name, None)
    message = (f"unknown record type '{name}': no `type {name} {{ ... }}` is declared "
               f"(the literal would build an untyped record)")
    return _diag(ctx, R.E009_TYPE_ERROR, message, lit.line, lit.col, name,
                 list(ctx.records), kind="record type", role=_RECORD_ROLE)


def _unknown_pattern(ctx: CheckContext, pattern: A.VariantPat,
                     scrutinee: Optional[list]) -> Diagnostic:
    if scrutinee is not None:
        candidates = [name for name, _ in scrutinee]
    else:
        candidates = [name for variants in ctx.enums.values() for name, _ in variants]
    candidates += [v for v in BUILTIN_VARIANTS if v not in candidates]
    message = (f"unknown variant '{pattern.name}' in pattern: no enum declares it, so the "
               f"arm would test an unrelated case")
    return _diag(ctx, R.E009_TYPE_ERROR, message, pattern.line, pattern.col, pattern.name,
                 candidates, kind="variant", role=_PATTERN_ROLE)


# ---------------------------------------------------------------- helpers

# Where else on the line the same name plays the same role ({name} is the escaped name,
# group 1 its span); a rename patch rewrites all of them.
_WORD_START = r"(?<![A-Za-z0-9_:.])"
_ENUM_ROLE = _WORD_START + r"({name})(?=\s*::)"
_RECORD_ROLE = _WORD_START + r"({name})(?=\s*\{{)"
_PATTERN_ROLE = _WORD_START + r"({name})(?![A-Za-z0-9_]|\s*::)"

def _is_declared_variant(ctx: CheckContext, name: str) -> bool:
    return any(name == v for variants in ctx.enums.values() for v, _ in variants)


def _variant_patterns(pattern) -> Iterable[A.VariantPat]:
    while pattern is not None:
        if isinstance(pattern, A.VariantPat):
            yield pattern
            pattern = pattern.inner
        elif isinstance(pattern, (A.SomePat, A.OkPat, A.ErrPat)):
            pattern = pattern.inner
        else:
            return


def _after_colons(ctx: CheckContext, line: int, col: int, enum: str, variant: str
                  ) -> tuple[int, int]:
    """(line, byte col) of `variant` in `enum::variant` written at (line, col)."""
    start = ctx.index_of(line, col)
    masked = ctx.masked_text(line)
    if start is not None:
        found = re.compile(re.escape(enum) + r"\s*::\s*(" + re.escape(variant) + r")\b"
                           ).match(masked, start)
        if found:
            return line, ctx.byte_col(line, found.start(1))
    return line, col


def _diag(ctx: CheckContext, code: str, message: str, line: int, col: int, name: str,
          candidates: Optional[list[str]], kind: str = "", role: str = "") -> Diagnostic:
    width = len(name.encode("utf-8", "surrogatepass"))
    diag = Diagnostic(code, "error", message, ctx.span_location(line, col, width))
    if candidates:
        best = closest_name(name, candidates)
        if best is not None:
            patch = _rename(ctx, code, kind, name, best, line, col, role)
            if patch is not None:
                diag.fixes.append(patch)
    return diag


def _rename(ctx: CheckContext, code: str, kind: str, name: str, best: tuple[str, int],
            line: int, col: int, role: str) -> Optional[Fix]:
    target, distance = best
    text = ctx.line_text(line)
    index = ctx.index_of(line, col)
    if text is None or index is None or text[index:index + len(name)] != name:
        return None
    starts = {index}
    if role:
        pattern = re.compile(role.format(name=re.escape(name)))
        starts.update(m.start(1) for m in pattern.finditer(ctx.masked_text(line)))
    new_text = text
    for start in sorted(starts, reverse=True):
        new_text = new_text[:start] + target + new_text[start + len(name):]
    return Fix(
        id=f"{code}-rename-{name}",
        description=f"rename {kind} '{name}' to '{target}'",
        applicability=Applicability.UNSAFE,
        rationale=f"{kind} '{name}' is not declared; did you mean '{target}'? "
                  f"(edit distance: {distance})",
        edits=[Edit(start_line=line, old_text=text, new_text=new_text, file=ctx.file)])
