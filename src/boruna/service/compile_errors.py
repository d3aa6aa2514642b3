"""The shared compile-failure shape: `{"success": false, "protocol_version": 1, "errors": [E]}`.

The compiler stops at its first error, so `errors` holds exactly one entry:
`{"severity": "error", "code": "E00x", "message": ..., "line": L, "col": C}` (our compiler
knows a position for every stage; 0 means unknown).

A `CompileFailure` also keeps the `CompileError` and the source, so a text renderer can draw
the excerpt and the `advice` for habits from other languages.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from boruna.core.errors import ErrorKind
from boruna.service.results import Failure


def compile_error_entry(err) -> dict:
    """One `errors[]` entry for a `CompileError`, in the seed's key order."""
    return err.to_dict()


@dataclass(frozen=True)
class Advice:
    """One help line for a compile error; `repairable` when `boruna repair` applies the fix."""

    text: str
    repairable: bool = False


class CompileFailure(Failure):
    """The failure of a source that does not compile (or parse). Its JSON is the `errors`
    shape unless another (`error_kind`, `message`, `fields`) is given."""

    def __init__(self, err, source: str = "", error_kind: str | None = None,
                 message: str | None = None, fields: dict | None = None):
        super().__init__(error_kind, message,
                         {"errors": [compile_error_entry(err)]} if fields is None else fields,
                         compile_error=err)
        self.source = source

    @cached_property
    def advice(self) -> list[Advice]:
        return compile_advice(self.compile_error, self.source)


def compile_failure(err, source: str = "") -> CompileFailure:
    """The failure result for a `CompileError` raised before anything ran."""
    return CompileFailure(err, source)


def compile_advice(err, source: str) -> list[Advice]:
    """Advice for mistakes newcomers make: a `;` after a statement, `else if`, `x += 1`, and
    an enum variant used as a value without its enum (`Circle` for `Shape::Circle`)."""
    found = getattr(err, "found", None)
    lines = source.split("\n")
    line, col = getattr(err, "line", 0) or 0, getattr(err, "col", 0) or 0
    text = lines[line - 1].encode("utf-8") if 1 <= line <= len(lines) else b""
    before = text[:max(col - 1, 0)].decode("utf-8", "replace").rstrip()
    if found == "'if'" and before.endswith("else"):
        return [Advice("there is no 'else if': write 'else { if ... }'", True)]
    compound = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*([-+*/%])$", before)
    if found == "Eq" and compound:
        name, op = compound.groups()
        return [Advice(f"there is no '{op}=': write '{name} = {name} {op} ...'", True)]
    if found == "Semi":
        from boruna.diagnostics.parse_fixes import unfinished_before_semicolon

        if unfinished_before_semicolon(before):
            return []
        after = text[col:].decode("utf-8", "replace").strip() if text else "x"
        if after and not after.startswith("//"):
            return [Advice("statements end at the end of their line; put each on its own line "
                           "instead of separating them with ';'")]
        return [Advice("statements end at the end of their line; remove the ';'", True)]
    if (getattr(err, "reason", None) != ErrorKind.UNDEFINED_VARIABLE
            or getattr(err, "library", None) is not None):
        return []
    return _variant_advice(err.name, source)


def _variant_advice(name: str, source: str) -> list[Advice]:
    from boruna.language import ast as A
    from boruna.language.errors import CompileError
    from boruna.language.frontend import parse

    try:
        program = parse(source)
    except CompileError:
        return []
    enums = [item.name for item in program.items
             if isinstance(item, A.TypeDef) and not isinstance(item.kind, A.RecordKind)
             and any(variant == name for variant, _payload in item.kind.variants)]
    if len(enums) != 1:
        return []
    return [Advice(f"'{name}' is a variant of enum '{enums[0]}': write {enums[0]}::{name}", True)]
