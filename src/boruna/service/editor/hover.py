"""Hover: what the name or expression under the cursor is, from the checker and the tables.

A function shows its declared signature (capabilities included) and doc, a builtin its
signature and doc from `core.builtins`, a type its declaration, a field or variant its type,
a local its type (annotated or inferred); any other expression the type the checker
inferred for the innermost expression under the cursor.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from boruna.language import ast as A

from . import describe as D
from .analysis import Analysis
from .navigation import Location, imported_library, symbol_at

_NOT_EXPRESSIONS = (A.FnDef, A.Block, A.Let, A.Assign, A.ExprStmt, A.Return, A.While, A.For,
                    A.MatchArm)


@dataclass(frozen=True)
class HoverInfo:
    """Markdown to show, and the range it describes."""

    markdown: str
    location: Location


def _code(text: str) -> str:
    return f"```boruna\n{text}\n```"


def _with_doc(code: str, doc: str) -> str:
    return _code(code) + (f"\n\n{doc}" if doc else "")


def describe_symbol(analysis: Analysis, occ) -> Optional[str]:
    """The markdown for a resolved name (`index.Occurrence`)."""
    kind = occ.key[0]
    g = analysis.globals
    if kind == "fn":
        fn = g.functions.get(occ.name)
        if fn is None:
            return None
        _, source = analysis.declaring_file(fn)
        return _with_doc(D.function_signature(fn), D.function_doc(fn, source))
    if kind == "builtin":
        b = D.builtin(occ.name)
        return None if b is None else _with_doc(D.builtin_signature(b), D.builtin_doc(b))
    if kind in ("type", "field", "variant"):
        owner = occ.key[1]
        td = g.type_defs.get(owner)
        if td is None:
            return None
        _, source = analysis.declaring_file(td)
        if kind == "type":
            return _with_doc(D.type_signature(td), D.doc_comment(source, td.line))
        if kind == "field":
            ty = D.field_type(td, occ.key[2])
            return None if ty is None else _code(f"{owner}.{occ.key[2]}: {ty}")
        text = D.variant_text(td, occ.key[2])
        return None if text is None else _code(text)
    if kind == "local":
        ty = D.local_type(analysis.types, occ.node)
        if ty is None and isinstance(occ.node, (A.Ident, A.Assign)):
            decl = _declaration(analysis, occ.key)
            ty = D.local_type(analysis.types, decl) if decl is not None else None
        word = "parameter" if isinstance(_declaration(analysis, occ.key), A.Param) else "let"
        prefix = "(parameter) " if word == "parameter" else ""
        return _code(f"{prefix}{occ.name}: {ty if ty is not None else '_'}")
    return None


def _declaration(analysis: Analysis, key):
    index = analysis.index
    for occ in index.of(key) if index is not None else []:
        if occ.definition:
            return occ.node
    return None


def enclosing_function(analysis: Analysis, line: int, col: int) -> Optional[A.FnDef]:
    """The document's function whose text contains (line, col)."""
    program = analysis.program
    if program is None:
        return None
    found = None
    for fn in program.functions():
        if (fn.line, fn.col) <= (line, col):
            found = fn
        else:
            break
    if found is None:
        return None
    end = analysis.spans.closing_after((found.body.line, found.body.col))
    if end is not None and (line, col) > end:
        return None
    return found


def expression_at(analysis: Analysis, line: int, col: int):
    """The innermost expression of the document under (line, col) that the checker typed,
    with its end: (node, (end line, end col)) or None."""
    fn = enclosing_function(analysis, line, col)
    types = analysis.types
    if fn is None or types is None:
        return None
    spans, best = analysis.spans, None
    pos = (line, col)
    for node in analysis.ctx.nodes(fn):
        if isinstance(node, _NOT_EXPRESSIONS) or (node.line, node.col) > pos:
            continue
        if types.text(node) is None:
            continue
        end = spans.end(node)
        if end is not None and pos < end:
            best = (node, end)      # pre-order: a later match lies inside the earlier ones
    return best


def hover(analysis: Analysis, line: int, col: int) -> Optional[HoverInfo]:
    """What to show for (line, col) of the document, or None."""
    if analysis.ctx is None:
        return None
    occ = symbol_at(analysis, line, col)
    if occ is not None:
        text = describe_symbol(analysis, occ)
        if text is not None:
            return HoverInfo(text, Location.of(occ))
    lib = imported_library(analysis, line, col)
    if lib is not None:
        names = ", ".join(f"`{fn.name}`" for fn in lib.program.functions())
        return HoverInfo(f"library `{lib.name}` ({lib.path})\n\nFunctions: {names or 'none'}",
                         Location(analysis.file, line, col, line, col))
    found = expression_at(analysis, line, col)
    if found is None:
        return None
    node, (end_line, end_col) = found
    return HoverInfo(_code(analysis.types.text(node)),
                     Location(analysis.file, node.line, node.col, end_line, end_col))
