"""How editor features write a symbol: a function's, type's or builtin's signature as `.ax`
spells it, its doc (the `//` comment lines right above a declaration, and a function's
`intent`), and the type of a local from what the checker inferred."""
from __future__ import annotations

from typing import Optional

from boruna.core.builtins import BY_NAME, Builtin
from boruna.language import ast as A
from boruna.language.type_text import type_text


def annotation(ty) -> str:
    return type_text(ty)


def function_signature(fn: A.FnDef) -> str:
    """`fn name(a: Int, b: String) -> Bool !{net.fetch}` (no `-> T` when none is declared)."""
    params = ", ".join(f"{p.name}: {annotation(p.ty)}" for p in fn.params)
    text = f"fn {fn.name}({params})"
    if fn.return_type is not None:
        text += f" -> {annotation(fn.return_type)}"
    if fn.capabilities:
        text += " !{" + ", ".join(fn.capabilities) + "}"
    return text


def parameter_labels(fn: A.FnDef) -> list[str]:
    return [f"{p.name}: {annotation(p.ty)}" for p in fn.params]


def builtin_signature(builtin: Builtin) -> str:
    """`fn list_push(List<T>, T) -> List<T>` (with ` !{cap}` for a capability builtin)."""
    params = ", ".join(str(p) for p in builtin.signature.params)
    text = f"fn {builtin.name}({params}) -> {builtin.signature.result}"
    if builtin.capability:
        text += " !{" + builtin.capability + "}"
    return text


def builtin_doc(builtin: Builtin) -> str:
    doc = builtin.doc[:1].upper() + builtin.doc[1:]
    if builtin.capability:
        doc += f".\n\nNeeds the `{builtin.capability}` capability."
    return doc


def type_signature(td: A.TypeDef) -> str:
    """`type Point { x: Int, y: Int }` or `enum Shape { Circle(Float), Empty }`."""
    if isinstance(td.kind, A.RecordKind):
        body = ", ".join(f"{name}: {annotation(ty)}" for name, ty in td.kind.fields)
        return f"type {td.name} {{ {body} }}"
    body = ", ".join(name if payload is None else f"{name}({annotation(payload)})"
                     for name, payload in td.kind.variants)
    return f"enum {td.name} {{ {body} }}"


def field_type(td: A.TypeDef, name: str) -> Optional[str]:
    if not isinstance(td.kind, A.RecordKind):
        return None
    for fname, ty in td.kind.fields:
        if fname == name:
            return annotation(ty)
    return None


def variant_text(td: A.TypeDef, name: str) -> Optional[str]:
    if not isinstance(td.kind, A.EnumKind):
        return None
    for vname, payload in td.kind.variants:
        if vname == name:
            return f"{td.name}::{vname}" + ("" if payload is None else f"({annotation(payload)})")
    return None


def doc_comment(source: str, line: int) -> str:
    """The `//` comment lines right above 1-based `line` (an `export` line counts as the
    declaration's), their text without the slashes, in order."""
    lines = source.split("\n")
    out: list[str] = []
    n = line - 2
    while 0 <= n < len(lines):
        text = lines[n].strip()
        if not text.startswith("//"):
            break
        out.append(text[2:].lstrip("/").strip())
        n -= 1
    return "\n".join(reversed(out)).strip()


def function_doc(fn: A.FnDef, source: str) -> str:
    parts = []
    comment = doc_comment(source, fn.line)
    if comment:
        parts.append(comment)
    if fn.intent:
        parts.append(f"Intent: {fn.intent}")
    return "\n\n".join(parts)


def local_type(types, node) -> Optional[str]:
    """The type of the local declared by `node` (a parameter, `let`, `for` or pattern
    binding), or of the local an identifier reads: the annotation when written, else what
    the checker inferred."""
    if isinstance(node, A.Param):
        return annotation(node.ty)
    if isinstance(node, A.Let) and node.ty is not None:
        return annotation(node.ty)
    if types is None:
        return None
    if isinstance(node, A.For):
        return types.element(node.iter)
    return types.text(node)


def builtin(name: str) -> Optional[Builtin]:
    return BY_NAME.get(name)
