"""Go to definition, find references and rename, on the name index (`index.py`).

A function, type, field or variant is one symbol across the document and the library files
it imports (the merged program has one namespace); another open document shares it when it
resolves the symbol to the same declaration (it imports the same library). A local is one
symbol within its function.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Optional

from boruna.language.tokens import KEYWORD_SET

from .analysis import Analysis
from .index import Occurrence

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class Location:
    """A range in a file: 1-based line and byte columns, the end exclusive."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    @classmethod
    def of(cls, occ: Occurrence) -> "Location":
        return cls(occ.file, occ.line, occ.col, occ.line, occ.end_col)


@dataclass(frozen=True)
class TextEdit:
    """Replace a range of `file` with `new_text`."""

    location: Location
    new_text: str


class RenameRefused(ValueError):
    """A rename that cannot be made (the message says why)."""


def symbol_at(analysis: Analysis, line: int, col: int) -> Optional[Occurrence]:
    """The name under (line, col) of the document, resolved; None on anything else."""
    index = analysis.index
    return None if index is None else index.at(line, col)


def _definitions(analysis: Analysis, key) -> list[Occurrence]:
    return [occ for index in analysis.indexes() for occ in index.of(key) if occ.definition]


_IMPORT = re.compile(r'[ \t]*import[ \t]+"?([^"\s]+)')


def imported_library(analysis: Analysis, line: int, col: int):
    """The library (`analysis.LibraryFile`) whose name is under (line, col) of an `import`
    line, or None."""
    lines = analysis.source.split("\n")
    if not 1 <= line <= len(lines):
        return None
    text = lines[line - 1]
    m = _IMPORT.match(text)
    if m is None:
        return None
    start = len(text[:m.start(1)].encode("utf-8", "surrogatepass")) + 1
    end = len(text[:m.end(1)].encode("utf-8", "surrogatepass")) + 1
    if not start <= col <= end:
        return None
    for lib in analysis.libraries:
        if lib.name in (m.group(1), m.group(1).replace("_", "-")):
            return lib
    return None


def definition(analysis: Analysis, line: int, col: int) -> list[Location]:
    """Where the name under (line, col) is declared (a library's file for its names; the
    library's file for the name on an `import` line)."""
    occ = symbol_at(analysis, line, col)
    if occ is None:
        lib = imported_library(analysis, line, col)
        return [] if lib is None else [Location(lib.path, 1, 1, 1, 1)]
    return [Location.of(d) for d in _definitions(analysis, occ.key)]


def _sharing(analysis: Analysis, key, others: Iterable[Analysis]) -> list[Analysis]:
    """The analyses that mean the same symbol by `key`: this one, and each other whose
    declaration of it is the same place."""
    out = [analysis]
    if key[0] == "local":
        return out
    mine = {(d.file, d.line, d.col) for d in _definitions(analysis, key)}
    for other in others:
        if other is analysis or other.ctx is None:
            continue
        theirs = {(d.file, d.line, d.col) for d in _definitions(other, key)}
        if mine & theirs:
            out.append(other)
    return out


def occurrences(analysis: Analysis, key, others: Iterable[Analysis] = ()) -> list[Occurrence]:
    """Every occurrence of symbol `key`, in the document, its libraries and the other
    documents sharing it; each place once, in file then source order."""
    seen, out = set(), []
    for each in _sharing(analysis, key, list(others)):
        for index in each.indexes():
            for occ in index.of(key):
                place = (occ.file, occ.line, occ.col)
                if place not in seen:
                    seen.add(place)
                    out.append(occ)
    return out


def references(analysis: Analysis, line: int, col: int, include_declaration: bool = True,
               others: Iterable[Analysis] = ()) -> list[Location]:
    """Every use of the name under (line, col) (and its declaration, when asked)."""
    occ = symbol_at(analysis, line, col)
    if occ is None:
        return []
    return [Location.of(o) for o in occurrences(analysis, occ.key, others)
            if include_declaration or not o.definition]


def highlights(analysis: Analysis, line: int, col: int) -> list[tuple[Location, bool]]:
    """The occurrences in the document of the name under (line, col), each with whether
    it writes the name (its declaration, an assignment)."""
    occ = symbol_at(analysis, line, col)
    if occ is None:
        return []
    from boruna.language import ast as A

    return [(Location.of(o), o.definition or isinstance(o.node, A.Assign))
            for o in analysis.index.of(occ.key)]


def prepare_rename(analysis: Analysis, line: int, col: int) -> Occurrence:
    """The name a rename at (line, col) would change; `RenameRefused` when there is none
    that can be renamed."""
    occ = symbol_at(analysis, line, col)
    if occ is None:
        raise RenameRefused("there is no renamable name here")
    if occ.key[0] == "builtin":
        raise RenameRefused(f"`{occ.name}` is a builtin; builtins cannot be renamed")
    if not _definitions(analysis, occ.key):
        raise RenameRefused(f"`{occ.name}` is not declared in this program")
    return occ


def check_new_name(kind: str, old: str, new: str) -> None:
    """Refuse a name the parser would read as something else: not an identifier, a
    keyword, a type or variant not starting with a capital letter (the parser tells
    record literals and variant patterns by that), a function or local starting with one."""
    if not _IDENTIFIER.match(new) or new == "_":
        raise RenameRefused(f"`{new}` is not an identifier")
    if new in KEYWORD_SET:
        raise RenameRefused(f"`{new}` is a keyword")
    capital = "A" <= new[0] <= "Z"
    if kind in ("type", "variant") and not capital:
        raise RenameRefused(f"a {'type' if kind == 'type' else 'variant'} name must start "
                            f"with a capital letter, as `{old}` does")
    if kind in ("fn", "local") and capital:
        raise RenameRefused(f"a {'function' if kind == 'fn' else 'variable'} name must not "
                            f"start with a capital letter (`{new}` would read as a type or "
                            f"variant)")


def _clash(analysis: Analysis, occ: Occurrence, new: str) -> Optional[str]:
    kind = occ.key[0]
    g = analysis.globals
    if kind == "fn" and (new in g.functions):
        return f"a function `{new}` already exists"
    if kind == "type" and new in g.type_defs:
        return f"a type `{new}` already exists"
    if kind == "field":
        td = g.type_defs.get(occ.key[1])
        if td is not None and new in dict(td.kind.fields):
            return f"`{occ.key[1]}` already has a field `{new}`"
    if kind == "variant":
        td = g.type_defs.get(occ.key[1])
        if td is not None and new in dict(td.kind.variants):
            return f"`{occ.key[1]}` already has a variant `{new}`"
    return None


def rename(analysis: Analysis, line: int, col: int, new_name: str,
           others: Iterable[Analysis] = ()) -> dict[str, list[TextEdit]]:
    """The edits, per file, that rename the name under (line, col) to `new_name` everywhere
    it is used (the document, the library files declaring or using it, the other open
    documents sharing it); `RenameRefused` when it cannot be done."""
    occ = prepare_rename(analysis, line, col)
    check_new_name(occ.key[0], occ.name, new_name)
    clash = _clash(analysis, occ, new_name)
    if clash is not None:
        raise RenameRefused(clash)
    edits: dict[str, list[TextEdit]] = {}
    for o in occurrences(analysis, occ.key, others):
        edits.setdefault(o.file, []).append(TextEdit(Location.of(o), new_name))
    return edits
