"""JSON encoding of runtime values (mcp.md §2.5): `format_value` and the brief form.

The result is plain JSON-ready Python data (dict/list/str/int/float/bool/None)
with object keys already in the emitted (sorted) order. Enum `variant` is the
variant's declared NAME, looked up in `module.types[type_id]` (seed contract);
without a module or a matching enum type it falls back to the integer index.
Non-finite floats become None (JSON null). Both encoders are iterative, so deep
values never hit Python's recursion limit.
"""
from __future__ import annotations

import math
from typing import Any, Optional

from boruna.core.values import (
    ActorId, Enum, Err, FnRef, MapValue, Ok, OptNone, Record, Some,
)


def variant_label(module, type_id: int, variant: int):
    """The variant's name from `module`, or the integer index when unknown."""
    if module is not None:
        lookup = getattr(module, "enum_variant_name", None)
        if lookup is not None:
            name = lookup(type_id, variant)
            if name is not None:
                return name
        else:
            types = getattr(module, "types", None) or ()
            if 0 <= type_id < len(types):
                info = types[type_id]
                members = getattr(info, "members", None) or getattr(info, "variants", None)
                kind = str(getattr(info, "kind", "")).lower()
                if kind == "enum" and members and 0 <= variant < len(members):
                    member = members[variant]
                    return member[0] if isinstance(member, (tuple, list)) else member
    return variant


def _encode(value: Any, module, brief: bool):
    root: list = [None]
    work: list = [(value, root, 0)]
    pop, push = work.pop, work.append
    while work:
        v, target, key = pop()
        t = type(v)
        if t is int or t is str or t is bool or v is None:
            target[key] = v
        elif t is float:
            target[key] = v if math.isfinite(v) else None
        elif t is tuple or t is list:
            out = [None] * len(v)
            target[key] = out
            for i, item in enumerate(v):
                push((item, out, i))
        elif t is OptNone:
            target[key] = "None" if brief else {"option": "None"}
        elif t is Some or t is Ok or t is Err:
            if brief:
                node = {t.TAG: None}
                push((v.value, node, t.TAG))
            elif t is Some:
                node = {"option": "Some", "value": None}
                push((v.value, node, "value"))
            else:
                node = {"result": t.TAG, "value": None}
                push((v.value, node, "value"))
            target[key] = node
        elif t is Record:
            out = [None] * len(v.fields)
            for i, item in enumerate(v.fields):
                push((item, out, i))
            target[key] = out if brief else {"fields": out, "type": "record",
                                             "type_id": v.type_id}
        elif t is Enum:
            label = variant_label(module, v.type_id, v.variant)
            if brief:
                node = {"payload": None, "variant": label}
            else:
                node = {"payload": None, "type": "enum", "type_id": v.type_id,
                        "variant": label}
            push((v.payload, node, "payload"))
            target[key] = node
        elif t is MapValue or isinstance(v, dict):
            node = {}
            for k in sorted(v):
                node[k] = None
                push((v[k], node, k))
            target[key] = node
        elif t is ActorId:
            target[key] = {"actor_id": v.id}
        elif t is FnRef:
            target[key] = {"fn_ref": v.index}
        else:
            target[key] = str(v)
    return root[0]


def format_value(value: Any, module: Optional[Any] = None):
    """The `boruna_run` / `boruna_run_sealed` encoding of a value (mcp.md §2.5)."""
    return _encode(value, module, False)


def format_value_brief(value: Any, module: Optional[Any] = None):
    """The `boruna_framework_test` encoding: `"None"`, `{"Some": v}`, records as
    plain arrays, enums as `{"payload": p, "variant": "Tag"}`."""
    return _encode(value, module, True)
