"""Document symbols (the outline of one file) and workspace symbols (a query over the open
documents and the libraries they import)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional

from boruna.language import ast as A

from . import describe as D
from .analysis import Analysis
from .navigation import Location


@dataclass
class Symbol:
    """`kind` is function, struct, enum, field or variant; `location` is the whole
    declaration, `selection` its name."""

    name: str
    kind: str
    detail: str
    location: Location
    selection: Location
    children: list["Symbol"] = field(default_factory=list)


def _declaration_end(spans, node) -> Optional[tuple[int, int]]:
    return spans.closing_after((node.line, node.col))


def document_symbols(analysis: Analysis) -> list[Symbol]:
    """The document's functions, records (with their fields) and enums (with their
    variants), in source order."""
    index = analysis.index
    if index is None:
        return []
    return _symbols(analysis.program, index, analysis.spans, analysis.file)


def _symbols(program, index, spans, file: str) -> list[Symbol]:
    names = {}
    for occ in index.occurrences:
        if occ.definition and occ.key[0] in ("fn", "type", "field", "variant"):
            names.setdefault(occ.key, occ)
    out = []
    for item in program.items:
        if isinstance(item, A.FnDef):
            key, kind, detail = ("fn", item.name), "function", D.function_signature(item)
        elif isinstance(item, A.TypeDef):
            record = isinstance(item.kind, A.RecordKind)
            key, kind, detail = ("type", item.name), "struct" if record else "enum", \
                D.type_signature(item)
        else:
            continue
        occ = names.get(key)
        if occ is None:
            continue
        end = _declaration_end(spans, item) or (occ.line, occ.end_col)
        symbol = Symbol(item.name, kind, detail, Location(file, item.line, item.col, *end),
                        Location.of(occ))
        if isinstance(item, A.TypeDef):
            entries = item.kind.fields if record else item.kind.variants
            for entry, ty in entries:
                child = names.get(("field" if record else "variant", item.name, entry))
                if child is None:
                    continue
                text = (f"{entry}: {D.annotation(ty)}" if record
                        else D.variant_text(item, entry) or entry)
                symbol.children.append(Symbol(entry, "field" if record else "variant", text,
                                              Location.of(child), Location.of(child)))
        out.append(symbol)
    return out


def _matches(query: str, name: str) -> bool:
    """Case-insensitive subsequence match (`pt` finds `Point`)."""
    it = iter(name.lower())
    return all(c in it for c in query.lower())


def workspace_symbols(analyses: Iterable[Analysis], query: str) -> list[Symbol]:
    """Top-level symbols (and fields and variants) matching `query` in every analysed
    document and each library file they import, each file once."""
    from boruna.diagnostics.types.spans import Spans

    seen, out = set(), []
    for analysis in analyses:
        if analysis.ctx is None:
            continue
        files = [(analysis.file, analysis.program, analysis.index, analysis.spans)]
        for lib, index in zip(analysis.libraries, analysis.library_indexes):
            files.append((lib.path, lib.program, index, None if lib.path in seen
                          else Spans(lib.source)))
        for file, program, index, spans in files:
            if file in seen or spans is None:
                continue
            seen.add(file)
            for symbol in _symbols(program, index, spans, file):
                if _matches(query, symbol.name):
                    out.append(symbol)
                out.extend(child for child in symbol.children if _matches(query, child.name))
    return out
