"""`boruna_symbols`: the top-level API a source declares, with exact signatures.

Only lexing and parsing are needed: every type reported is a syntactic annotation.
"""
from __future__ import annotations

from dataclasses import dataclass

from boruna.core.errors import ErrorKind
from boruna.service.boundary import tool_boundary
from boruna.service.errors import MAX_SOURCE_BYTES, guard_source
from boruna.service.compile_errors import CompileFailure
from boruna.service.results import Success, use_case


@dataclass
class Symbols(Success):
    """The declared symbols (`fields["symbols"]`, JSON-ready dicts in source order)."""

    @property
    def symbols(self) -> list[dict]:
        return self.fields["symbols"]


def render_type(ty) -> str:
    """A type annotation as text, function types in the reference's `(A, B) -> R` spelling
    (docs/spec/mcp.md §7.2)."""
    from boruna.language.type_text import type_text

    return type_text(ty, fn_prefix="")


def _function_symbol(fn) -> dict:
    params = [{"name": p.name, "type": render_type(p.ty)} for p in fn.params]
    return_type = render_type(fn.return_type)
    signature = (f"fn {fn.name}(" + ", ".join(f"{p['name']}: {p['type']}" for p in params)
                 + f") -> {return_type}")
    if fn.capabilities:
        signature += " !{" + ", ".join(fn.capabilities) + "}"
    return {
        "kind": "fn",
        "name": fn.name,
        "signature": signature,
        "params": params,
        "return_type": return_type,
        "capabilities": list(fn.capabilities),
        "requires": len(fn.requires),
        "ensures": len(fn.ensures),
        "intent": fn.intent,
        "exported": fn.exported,
    }


def _type_symbol(td) -> dict:
    from boruna.language import ast

    if isinstance(td.kind, ast.RecordKind):
        fields = [{"name": n, "type": render_type(t)} for n, t in td.kind.fields]
        body = ", ".join(f"{f['name']}: {f['type']}" for f in fields)
        return {"kind": "record", "name": td.name, "signature": f"type {td.name} {{ {body} }}",
                "fields": fields, "capabilities": [], "exported": td.exported}
    variants = [{"name": n, "payload": None if t is None else render_type(t)}
                for n, t in td.kind.variants]
    body = ", ".join(v["name"] if v["payload"] is None else f"{v['name']}({v['payload']})"
                     for v in variants)
    return {"kind": "enum", "name": td.name, "signature": f"enum {td.name} {{ {body} }}",
            "variants": variants, "capabilities": [], "exported": td.exported}


@use_case
def list_symbols(source: str, libs_dir=None, source_limit: int | None = MAX_SOURCE_BYTES):
    """Functions, records and enums in source order, or a `parse_error` Failure (carrying the
    `CompileError`) when the source does not parse.

    With `libs_dir`, `import` lines are resolved first (a missing library is a `parse_error`)
    and only the source's own declarations are listed."""
    from boruna.core.deep_stack import call_deep
    from boruna.language.errors import CompileError
    from boruna.language.frontend import parse
    from boruna.language.imports import resolve_imports

    guard_source(source, source_limit)
    try:
        own_source, _libraries = resolve_imports(source, libs_dir)
        program = parse(own_source)
    except CompileError as err:
        return CompileFailure(err, source, ErrorKind.PARSE_ERROR, err.message,
                              {"error": err.message, "line": err.line or None,
                               "col": err.col or None})
    return Symbols({"symbols": call_deep(_collect, program)})


@tool_boundary
def symbols_tool(source: str, libs_dir=None) -> dict:
    """Functions, records and enums in source order; `parse_error` when the source does not parse."""
    return list_symbols(source, libs_dir).to_json()


def _collect(program) -> list[dict]:
    from boruna.language import ast

    symbols = []
    for item in program.items:
        if isinstance(item, ast.FnDef):
            symbols.append(_function_symbol(item))
        elif isinstance(item, ast.TypeDef):
            symbols.append(_type_symbol(item))
    return symbols
