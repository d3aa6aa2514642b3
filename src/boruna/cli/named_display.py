"""A run's result as a person reads it: records and enums by their declared names.

`Record#1{1, Enum#0::0(2)}` (the reference's display) becomes
`P { x: 1, s: Shape::Circle(2) }`; a variant without payload is `Shape::Empty`. Everything
else prints as the language's display form. Values nested deeper than MAX_DEPTH, and types
the module does not describe, fall back to that form too.
"""
from __future__ import annotations

from boruna.core.display import display
from boruna.core.values import Enum, Err, MapValue, Ok, Record, Some

MAX_DEPTH = 64


def named_display(value, module) -> str:
    """`value` with record and enum names and field names taken from `module.types`."""
    types = list(getattr(module, "types", None) or [])
    return _show(value, types, 0)


def _type(types, type_id, kind: str):
    if isinstance(type_id, int) and 0 <= type_id < len(types):
        info = types[type_id]
        if getattr(info, "kind", None) == kind:
            return info
    return None


def _show(v, types, depth: int) -> str:
    if depth > MAX_DEPTH:
        return display(v)
    d = depth + 1
    t = type(v)
    if t is tuple:
        return "[" + ", ".join(_show(x, types, d) for x in v) + "]"
    if t is Record:
        info = _type(types, v.type_id, "Record")
        if info is None or len(info.members) != len(v.fields):
            return display(v)
        body = ", ".join(f"{name}: {_show(x, types, d)}"
                         for (name, _ty), x in zip(info.members, v.fields))
        return f"{info.name} {{ {body} }}" if body else f"{info.name} {{}}"
    if t is Some or t is Ok or t is Err:
        return f"{t.TAG}({_show(v.value, types, d)})"
    if t is Enum:
        info = _type(types, v.type_id, "Enum")
        if info is None or not isinstance(v.variant, int) or not 0 <= v.variant < len(info.members):
            return display(v)
        name, payload_type = info.members[v.variant]
        if payload_type is None:
            return f"{info.name}::{name}"
        return f"{info.name}::{name}({_show(v.payload, types, d)})"
    if t is MapValue or isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_show(x, types, d)}" for k, x in sorted(v.items())) + "}"
    return display(v)
