"""E005 non-exhaustive match (docs/spec/tooling.md §1.5): a `match` on a parameter of an enum type
declared in the file — or, an addition, of type Option, Result or Bool — that misses cases. The patch inserts one arm per missing variant that compiles and, when
reached, stops the program with a clear `TODO` guard failure instead of guessing a value.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from boruna.core.builtins import by_opcode
from boruna.language import ast as A
from boruna.language.type_text import type_text

import boruna.diagnostics.registry as R
from .context import CheckContext
from .fix import Applicability, Edit, Fix
from .model import Diagnostic
from .naming import closest_name
from .source_text import leading_whitespace, matching_close_brace


@dataclass(frozen=True)
class Cases:
    """The cases a scrutinee type has: `label` for messages, case names, which take a
    payload, the stub label prefix, and the word for a case in messages."""

    label: str
    names: tuple[str, ...]
    with_payload: frozenset
    prefix: str
    noun: str = "variants"


BUILTIN_CASES = {
    "Option": (("None", "Some"), frozenset({"Some"})),
    "Result": (("Ok", "Err"), frozenset({"Ok", "Err"})),
    "Bool": (("true", "false"), frozenset()),
}


def _cases(ctx: CheckContext, ty) -> Optional[Cases]:
    """What a parameter of type `ty` can be matched against, when that is known."""
    if isinstance(ty, A.Named) and ty.name in ctx.enums:
        variants = ctx.enums[ty.name]
        return Cases(ty.name, tuple(name for name, _ in variants),
                     frozenset(name for name, payload in variants if payload is not None),
                     f"{ty.name}::")
    kind = ("Option" if isinstance(ty, A.OptionType) else
            "Result" if isinstance(ty, A.ResultType) else
            "Bool" if isinstance(ty, A.Named) and ty.name == "Bool" else None)
    if kind is None:
        return None
    names, with_payload = BUILTIN_CASES[kind]
    return Cases(type_text(ty), names, with_payload, "", "patterns")


def _covered(pattern) -> Optional[str]:
    """The case name an arm pattern covers (payload sub-patterns are not inspected)."""
    if isinstance(pattern, A.VariantPat):
        return pattern.name
    if isinstance(pattern, A.NonePat):
        return "None"
    if isinstance(pattern, A.SomePat):
        return "Some"
    if isinstance(pattern, A.OkPat):
        return "Ok"
    if isinstance(pattern, A.ErrPat):
        return "Err"
    if isinstance(pattern, A.BoolPat):
        return "true" if pattern.value else "false"
    return None


def check_exhaustiveness(ctx: CheckContext) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for fn in ctx.program.functions():
        matches = ctx.nodes_of(fn, A.Match)
        if not matches:
            continue        # (what follows only reads the parameters' types)
        param_cases = {}
        for param in fn.params:
            cases = _cases(ctx, param.ty)
            if cases is not None:
                param_cases[param.name] = cases
        param_types = {param.name: param.ty for param in fn.params}
        for expr in matches:
            if isinstance(expr.value, A.Ident):
                scrutinee, cases = expr.value.name, param_cases.get(expr.value.name)
            else:
                scrutinee, cases = _field_scrutinee(ctx, expr.value, param_types)
            if cases is None:
                continue
            diag = _check_match(ctx, expr, scrutinee, cases)
            if diag is not None:
                out.append(diag)
    return out


def _field_scrutinee(ctx: CheckContext, value, param_types: dict
                     ) -> tuple[str, Optional[Cases]]:
    """`state.status` (a field chain on a parameter of a declared record type) and the
    cases of the field's declared type (an addition: an App's `match state.status { ... }`
    that misses a variant stops the program with `no match found for value`)."""
    path: list[str] = []
    while isinstance(value, A.FieldAccess):
        path.append(value.field)
        value = value.object
    if not path or not isinstance(value, A.Ident) or value.name not in param_types:
        return "", None
    ty = param_types[value.name]
    for field_name in reversed(path):
        if not isinstance(ty, A.Named) or ty.name not in ctx.records:
            return "", None
        ty = next((t for n, t in ctx.records[ty.name] if n == field_name), None)
    if ty is None:
        return "", None
    return ".".join([value.name, *reversed(path)]), _cases(ctx, ty)


def _check_match(ctx: CheckContext, match: A.Match, scrutinee: str, cases: Cases
                 ) -> Optional[Diagnostic]:
    if any(isinstance(arm.pattern, (A.WildcardPat, A.IdentPat)) for arm in match.arms):
        return None
    covered = {_covered(arm.pattern) for arm in match.arms}
    missing = sorted(set(cases.names) - covered)
    if not missing:
        return None
    names = ", ".join(missing)
    message = (f"non-exhaustive match on '{scrutinee}' of type '{cases.label}': "
               f"missing {cases.noun}: {names}")
    close = _closing_brace(ctx, match)
    location = ctx.location(match.line, match.col)
    if location is not None and close is not None:
        location.end_line = close[0]
        location.end_col = ctx.byte_col(close[0], close[1]) + 1
    diag = Diagnostic(R.E005_NON_EXHAUSTIVE_MATCH, "error", message, location)
    if close is not None and not _misspelt_case(ctx, match, missing):
        diag.fixes.append(_add_arms_patch(ctx, match, close, cases, missing))
    return diag


def _misspelt_case(ctx: CheckContext, match: A.Match, missing: list[str]) -> bool:
    """Whether an arm names a variant no enum declares that is a near miss of a missing
    case (`Gren` for `Green`): its rename patch (type_names.py) completes the match, and
    stub arms would only duplicate it."""
    declared = {v for variants in ctx.enums.values() for v, _ in variants}
    return any(isinstance(arm.pattern, A.VariantPat) and arm.pattern.name not in declared
               and closest_name(arm.pattern.name, missing) is not None
               for arm in match.arms)


def _closing_brace(ctx: CheckContext, match: A.Match) -> Optional[tuple[int, int]]:
    """(1-based line, 0-based index) of the `}` closing the match's arm list."""
    index = ctx.index_of(match.line, match.col)
    if index is None:
        return None
    found = matching_close_brace(ctx.masked, match.line - 1, index)
    if found is None:
        return None
    return found[0] + 1, found[1]


def stub_arm(prefix: str, case: str, has_payload: bool) -> str:
    """One compiling stub arm: traps with a labelled guard failure if ever reached."""
    pattern = f"{case}(_)" if has_payload else case
    guard = by_opcode("GuardSeal").name
    return f'{pattern} => {guard}(0, false, "TODO: handle {prefix}{case}")'


def _arm_indent(ctx: CheckContext, match: A.Match, close_line: int) -> str:
    for line in range(match.line + 1, close_line):
        text = ctx.line_text(line) or ""
        if "=>" in ctx.masked_text(line):
            return leading_whitespace(text)
    close_text = ctx.line_text(close_line) or ""
    return leading_whitespace(close_text) + "    "


def _add_arms_patch(ctx: CheckContext, match: A.Match, close: tuple[int, int], cases: Cases,
                    missing: list[str]) -> Fix:
    close_line, close_index = close
    text = ctx.line_text(close_line) or ""
    masked = ctx.masked_text(close_line)
    arms = [stub_arm(cases.prefix, v, v in cases.with_payload) for v in missing]
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
    return Fix(
        id="E005-add-arms",
        description=f"add missing match arms: {names}",
        applicability=Applicability.SAFE,
        rationale=(f"match expression does not cover variants: {names}; "
                   "adding stub arms with TODO markers"),
        edits=[Edit(start_line=close_line, old_text=text, new_text=new_text,
                    file=ctx.file)])
