"""E005 non-exhaustive match (tooling.md §1.5): a `match` on an enum-typed parameter that
misses variants. The patch inserts one arm per missing variant that compiles and, when
reached, stops the program with a clear `TODO` guard failure instead of guessing a value.
"""
from __future__ import annotations

from typing import Optional

from boruna.language import ast as A

from . import registry as R
from .context import CheckContext
from .model import Confidence, Diagnostic, SuggestedPatch, TextEdit
from .source_text import leading_whitespace, matching_close_brace
from .walk import function_exprs


def check_exhaustiveness(ctx: CheckContext) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for fn in ctx.program.functions():
        param_enums = {}
        for param in fn.params:
            if isinstance(param.ty, A.Named) and param.ty.name in ctx.enums:
                param_enums[param.name] = param.ty.name
        if not param_enums:
            continue
        for expr in function_exprs(fn):
            if not (isinstance(expr, A.Match) and isinstance(expr.value, A.Ident)):
                continue
            enum_name = param_enums.get(expr.value.name)
            if enum_name is None:
                continue
            diag = _check_match(ctx, expr, expr.value.name, enum_name)
            if diag is not None:
                out.append(diag)
    return out


def _check_match(ctx: CheckContext, match: A.Match, scrutinee: str, enum_name: str
                 ) -> Optional[Diagnostic]:
    if any(isinstance(arm.pattern, (A.WildcardPat, A.IdentPat)) for arm in match.arms):
        return None
    variants = ctx.enums[enum_name]
    covered = {arm.pattern.name for arm in match.arms if isinstance(arm.pattern, A.VariantPat)}
    missing = sorted({name for name, _ in variants} - covered)
    if not missing:
        return None
    names = ", ".join(missing)
    message = (f"non-exhaustive match on '{scrutinee}' of type '{enum_name}': "
               f"missing variants: {names}")
    close = _closing_brace(ctx, match)
    location = ctx.location(match.line, match.col)
    if location is not None and close is not None:
        location.end_line = close[0]
        location.end_col = ctx.byte_col(close[0], close[1]) + 1
    diag = Diagnostic(R.E005_NON_EXHAUSTIVE_MATCH, "error", message, location)
    if close is not None:
        with_payload = {name for name, payload in variants if payload is not None}
        diag.patches.append(_add_arms_patch(ctx, match, close, enum_name, missing,
                                            with_payload))
    return diag


def _closing_brace(ctx: CheckContext, match: A.Match) -> Optional[tuple[int, int]]:
    """(1-based line, 0-based index) of the `}` closing the match's arm list."""
    index = ctx.index_of(match.line, match.col)
    if index is None:
        return None
    found = matching_close_brace(ctx.masked, match.line - 1, index)
    if found is None:
        return None
    return found[0] + 1, found[1]


def stub_arm(enum_name: str, variant: str, has_payload: bool) -> str:
    """One compiling stub arm: traps with a labelled guard failure if ever reached."""
    pattern = f"{variant}(_)" if has_payload else variant
    return f'{pattern} => __builtin_guard(0, false, "TODO: handle {enum_name}::{variant}")'


def _arm_indent(ctx: CheckContext, match: A.Match, close_line: int) -> str:
    for line in range(match.line + 1, close_line):
        text = ctx.line_text(line) or ""
        if "=>" in ctx.masked_text(line):
            return leading_whitespace(text)
    close_text = ctx.line_text(close_line) or ""
    return leading_whitespace(close_text) + "    "


def _add_arms_patch(ctx: CheckContext, match: A.Match, close: tuple[int, int], enum_name: str,
                    missing: list[str], with_payload: set[str]) -> SuggestedPatch:
    close_line, close_index = close
    text = ctx.line_text(close_line) or ""
    masked = ctx.masked_text(close_line)
    arms = [stub_arm(enum_name, v, v in with_payload) for v in missing]
    if masked[:close_index].strip() == "":
        # The `}` starts its line: insert one arm per line above it.
        indent = _arm_indent(ctx, match, close_line)
        new_text = "".join(f"{indent}{arm}\n" for arm in arms) + text
    else:
        # The `}` follows code on the same line: insert the arms inline before it.
        before = text[:close_index].rstrip()
        separator = "" if masked[:close_index].rstrip().endswith(("{", ",")) else ","
        new_text = f"{before}{separator} {', '.join(arms)} {text[close_index:]}"
    names = ", ".join(missing)
    return SuggestedPatch(
        id="E005-add-arms",
        description=f"add missing match arms: {names}",
        confidence=Confidence.HIGH,
        rationale=(f"match expression does not cover variants: {names}; "
                   "adding stub arms with TODO markers"),
        edits=[TextEdit(start_line=close_line, old_text=text, new_text=new_text,
                        file=ctx.file)])
