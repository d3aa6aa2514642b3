"""A type annotation written back as text: `Option<T>`, `Result<T, E>`, `List<T>`,
`Map<K, V>`, `Fn(A, B) -> R` (`Fn(A) -> R !{db.query}` when it has a capability set); no
annotation (`None`) is `Unit`.

Codegen's informational type strings (docs/spec/vm.md §1.3) and the diagnostics use the source
spelling `Fn(...) -> R`; `boruna_symbols` keeps the reference's `(A, B) -> R`
(docs/spec/mcp.md §7.2), hence `fn_prefix`.
"""
from __future__ import annotations

from . import ast as A


def type_text(ty, fn_prefix: str = "Fn") -> str:
    """The text of type expression `ty` (recursive: call under `deep_stack.call_deep` for
    pathologically nested annotations)."""
    if ty is None:
        return "Unit"
    if isinstance(ty, A.Named):
        return ty.name
    if isinstance(ty, A.OptionType):
        return f"Option<{type_text(ty.inner, fn_prefix)}>"
    if isinstance(ty, A.ResultType):
        return f"Result<{type_text(ty.ok, fn_prefix)}, {type_text(ty.err, fn_prefix)}>"
    if isinstance(ty, A.ListType):
        return f"List<{type_text(ty.inner, fn_prefix)}>"
    if isinstance(ty, A.MapType):
        return f"Map<{type_text(ty.key, fn_prefix)}, {type_text(ty.value, fn_prefix)}>"
    if isinstance(ty, A.FnType):
        params = ", ".join(type_text(p, fn_prefix) for p in ty.params)
        caps = getattr(ty, "capabilities", None)
        effects = f" !{{{', '.join(caps)}}}" if caps else ""
        return f"{fn_prefix}({params}) -> {type_text(ty.ret, fn_prefix)}{effects}"
    raise TypeError(f"not a type expression: {type(ty).__name__}")
