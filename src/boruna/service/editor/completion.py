"""Completion at a cursor, from the program's tables and the checker, never a fixed list.

Where the cursor is decides what is offered:
- inside a function's `!{...}`: the capability names (`core.capabilities`);
- after `Enum::`: that enum's variants;
- after `expr.`: the fields of the record type the checker inferred for `expr`;
- at the start of a `match` arm: the matched enum's variants first, then the rest;
- elsewhere: the locals in scope there (with their types), the functions (the program's
  and its libraries', with their signatures), the builtins (signature and doc from
  `core.builtins`), the record and enum types, the keywords (`language.tokens`).

The document may not parse while it is being typed: the scopes and types then come from
`fallback`, the last analysis of it that did.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from boruna.core.builtins import BUILTINS
from boruna.core.capabilities import CAPABILITIES
from boruna.language import ast as A
from boruna.language.tokens import KEYWORDS

from . import describe as D
from .analysis import Analysis

_CAPS = re.compile(r"!\s*\{[^}]*$")
_ENUM_PATH = re.compile(r"\b([A-Z][A-Za-z0-9_]*)\s*::\s*([A-Za-z0-9_]*)$")
_MEMBER = re.compile(r"(?<![.])([A-Za-z_][A-Za-z0-9_]*|[)\]])\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)?$")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
_ARM_START = re.compile(r"^\s*[A-Za-z_]*$")
_NESTED_PATTERN = re.compile(r"^\s*(?:[A-Z][A-Za-z0-9_]*\s*\(\s*)+[A-Za-z_]*$")


@dataclass(frozen=True)
class CompletionItem:
    """One suggestion. `kind` is one of variable, function, builtin, type, enum, field,
    variant, capability, keyword; `insert_text` is what to insert when it differs from
    the label."""

    label: str
    kind: str
    detail: str = ""
    documentation: str = ""
    insert_text: Optional[str] = None
    sort_group: int = 5


def _line_prefix(source: str, line: int, col: int) -> str:
    lines = source.split("\n")
    if not 1 <= line <= len(lines):
        return ""
    raw = lines[line - 1].encode("utf-8", "surrogatepass")[:max(col - 1, 0)]
    return raw.decode("utf-8", "replace")


def _program_analysis(analysis: Analysis, fallback: Optional[Analysis]) -> Optional[Analysis]:
    if analysis.ctx is not None:
        return analysis
    if fallback is not None and fallback.ctx is not None:
        return fallback
    return None


def capability_items() -> list[CompletionItem]:
    out = []
    for cap in CAPABILITIES:
        users = ", ".join(b.name for b in BUILTINS if b.capability == cap.wire_name)
        detail = f"capability {cap.wire_name}"
        doc = f"Builtins needing it: {users}" if users else ""
        out.append(CompletionItem(cap.wire_name, "capability", detail, doc, sort_group=1))
        for alias in cap.aliases:
            out.append(CompletionItem(alias, "capability", f"alias of {cap.wire_name}", doc,
                                      sort_group=2))
    return out


def variant_items(td: A.TypeDef) -> list[CompletionItem]:
    out = []
    for name, payload in td.kind.variants:
        insert = name if payload is None else f"{name}("
        out.append(CompletionItem(name, "variant", D.variant_text(td, name) or name,
                                  insert_text=insert, sort_group=0))
    return out


def field_items(td: A.TypeDef) -> list[CompletionItem]:
    return [CompletionItem(name, "field", f"{td.name}.{name}: {D.annotation(ty)}", sort_group=0)
            for name, ty in td.kind.fields]


def locals_at(analysis: Analysis, line: int, col: int) -> list[tuple[str, object]]:
    """(name, declaring node) of each local visible at (line, col), the innermost
    declaration of a name winning."""
    index = analysis.index
    if index is None:
        return []
    pos = (line, col)
    chosen: dict[str, object] = {}
    for fn, visible in index.scopes:
        if (fn.line, fn.col) > pos:
            continue
        end = analysis.spans.closing_after((fn.body.line, fn.body.col))
        if end is not None and pos > end:
            continue
        for _key, name, node, start, until in visible:
            if start < pos and (until is None or pos <= until):
                chosen[name] = node
    return list(chosen.items())


def _local_items(analysis: Analysis, line: int, col: int) -> list[CompletionItem]:
    out = []
    for name, node in locals_at(analysis, line, col):
        ty = D.local_type(analysis.types, node)
        out.append(CompletionItem(name, "variable", f"{name}: {ty or '_'}", sort_group=0))
    return out


def _global_items(analysis: Analysis) -> list[CompletionItem]:
    out = []
    g = analysis.globals
    for name, fn in g.functions.items():
        _, source = analysis.declaring_file(fn)
        out.append(CompletionItem(name, "function", D.function_signature(fn),
                                  D.function_doc(fn, source), insert_text=f"{name}(",
                                  sort_group=1))
    own = set(g.functions)
    for b in BUILTINS:
        if b.name not in own:
            out.append(CompletionItem(b.name, "builtin", D.builtin_signature(b),
                                      D.builtin_doc(b), insert_text=f"{b.name}(", sort_group=3))
    for name, td in g.type_defs.items():
        kind = "type" if isinstance(td.kind, A.RecordKind) else "enum"
        out.append(CompletionItem(name, kind, D.type_signature(td), sort_group=2))
    return out


def _keyword_items() -> list[CompletionItem]:
    return [CompletionItem(k, "keyword", sort_group=4) for k in KEYWORDS]


def _member_owner(known: Analysis, analysis: Analysis, line: int, col: int, word: str,
                  dot_col: int) -> Optional[str]:
    """The record type of the expression before the `.` at `dot_col`: a local's type, else
    what the checker inferred for the expression ending there in a copy of the source
    without the `.member` being typed."""
    for name, node in reversed(locals_at(known, line, dot_col)):
        if name == word:
            ty = D.local_type(known.types, node)
            if ty in known.globals.type_defs:
                return ty
    patched = _without_member(analysis.source, line, dot_col, col)
    if patched is None:
        return None
    from .analysis import analyse

    other = analyse(patched, analysis.file, analysis.libs_dir)
    if other.ctx is None or other.types is None:
        return None
    from .hover import enclosing_function

    fn = enclosing_function(other, line, dot_col)
    if fn is None:
        return None
    for node in other.ctx.nodes(fn):
        end = other.spans.end(node) if hasattr(node, "line") else None
        if end == (line, dot_col) and other.types.named(node) is not None:
            return other.types.named(node)
    return None


def _without_member(source: str, line: int, dot_col: int, col: int) -> Optional[str]:
    lines = source.split("\n")
    if not 1 <= line <= len(lines):
        return None
    raw = lines[line - 1].encode("utf-8", "surrogatepass")
    end = col - 1               # the member being typed ends where its word does
    while end < len(raw) and (chr(raw[end]).isalnum() or raw[end] == ord("_")):
        end += 1
    lines[line - 1] = (raw[:dot_col - 1] + raw[end:]).decode("utf-8", "surrogatepass")
    return "\n".join(lines)


def _record_literal(known: Analysis, source: str, line: int, col: int):
    """(record type, fields already written) when the cursor is where a field name of a
    record literal `T { ... }` goes; else None."""
    from .signature_help import offset_of, open_bracket

    found = open_bracket(source, line, col)
    if found is None or found[0] != "{" or not found[1][:1].isupper():
        return None
    td = known.globals.type_defs.get(found[1])
    if td is None or not isinstance(td.kind, A.RecordKind):
        return None
    here = offset_of(source, line, col)
    if not re.fullmatch(r"\s*[A-Za-z_0-9]*", source[found[3]:here]):
        return None         # after `name:`, in a value: not a field name's place
    opening = source.rfind("{", 0, found[3])
    written = set(re.findall(r"([A-Za-z_][A-Za-z0-9_]*)\s*:", source[opening:found[3]]))
    return td, written


def _innermost_match(known: Analysis, line: int, col: int) -> Optional[A.Match]:
    """The innermost `match` whose braces contain (line, col)."""
    from .hover import enclosing_function

    fn = enclosing_function(known, line, col)
    if fn is None:
        return None
    best = None
    for node in known.ctx.nodes_of(fn, A.Match):
        if (node.line, node.col) < (line, col):
            end = known.spans.closing_after((node.line, node.col))
            if end is not None and (line, col) < end:
                best = node
    return best


def _in_match(known: Analysis, line: int, col: int) -> bool:
    return _innermost_match(known, line, col) is not None


def _match_enum(known: Analysis, line: int, col: int) -> Optional[A.TypeDef]:
    """The enum matched by the innermost `match` whose arms contain (line, col)."""
    best = _innermost_match(known, line, col)
    if best is None or known.types is None:
        return None
    owner = known.types.named(best.value)
    td = known.globals.type_defs.get(owner) if owner else None
    return td if td is not None and isinstance(td.kind, A.EnumKind) else None


def complete(analysis: Analysis, line: int, col: int,
             fallback: Optional[Analysis] = None) -> list[CompletionItem]:
    """The suggestions at (line, col) of `analysis`'s source (see the module doc)."""
    prefix = _line_prefix(analysis.source, line, col)
    if _CAPS.search(prefix) and "fn" in prefix:
        return capability_items()
    known = _program_analysis(analysis, fallback)
    path = _ENUM_PATH.search(prefix)
    if path is not None:
        if known is None:
            return []
        td = known.globals.type_defs.get(path.group(1))
        return variant_items(td) if td is not None and isinstance(td.kind, A.EnumKind) else []
    member = _MEMBER.search(prefix)
    if member is not None:
        if known is None:
            return []
        dot_col = prefix.encode("utf-8", "surrogatepass").rfind(b".") + 1
        owner = _member_owner(known, analysis, line, col, member.group(1), dot_col)
        td = known.globals.type_defs.get(owner) if owner else None
        if td is None or not isinstance(td.kind, A.RecordKind):
            return []
        return field_items(td)
    if known is None:
        return _keyword_items() + [CompletionItem(b.name, "builtin", D.builtin_signature(b),
                                                  D.builtin_doc(b), insert_text=f"{b.name}(",
                                                  sort_group=3) for b in BUILTINS]
    items: list[CompletionItem] = []
    literal = _record_literal(known, analysis.source, line, col)
    if literal is not None:
        td, written = literal
        items.extend(i for i in field_items(td) if i.label not in written)
    if _ARM_START.match(prefix):
        enum = _match_enum(known, line, col)
        if enum is not None:
            items.extend(variant_items(enum))
    elif _NESTED_PATTERN.match(prefix) and _in_match(known, line, col):
        for td in known.globals.type_defs.values():     # inside `Some(`, `V(`: any enum's
            if isinstance(td.kind, A.EnumKind):
                items.extend(variant_items(td))
    items.extend(_local_items(known, line, col))
    items.extend(_global_items(known))
    items.extend(_keyword_items())
    seen, out = set(), []
    for item in items:
        if (item.label, item.kind) not in seen:
            seen.add((item.label, item.kind))
            out.append(item)
    return out
