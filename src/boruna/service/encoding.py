"""JSON encoding of runtime values (docs/spec/mcp.md §2.5): `format_value` and the brief form.

The result is plain JSON-ready Python data (dict/list/str/int/float/bool/None)
with object keys already in the emitted (sorted) order. Enum `variant` is the
variant's declared NAME, looked up in `module.types[type_id]` (seed contract);
without a module or a matching enum type it falls back to the integer index.
Non-finite floats become None (JSON null). Both encoders are iterative, so deep
values never hit Python's recursion limit.

Given a `budget` (an object with `charge(n)`, such as `service.output_budget.OutputBudget`),
the encoder charges every JSON node it builds a lower bound of that node's JSON size before
building it; `charge` raises to stop the encoding. A value that shares one part in many
places (a list of 256 references to one large list) is thus never built past the budget.
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


def record_names(module, type_id: int, count: int):
    """(type name, field names) of record type `type_id` when the module declares it with
    `count` fields, else None."""
    types = getattr(module, "types", None) or ()
    if not 0 <= type_id < len(types):
        return None
    info = types[type_id]
    if str(getattr(info, "kind", "")) != "Record":
        return None
    members = getattr(info, "members", None) or ()
    if len(members) != count:
        return None
    return info.name, [m[0] for m in members]


def _node_size(v, t) -> int:
    """A lower bound of the JSON size of `v`'s own node (its children are charged apart)."""
    if t is str:
        return len(v) + 2
    if t is MapValue or isinstance(v, dict):
        return len(v) + 1
    if t is Record:
        return len(v.fields) + 1
    if t is Some or t is Ok or t is Err or t is Enum:
        return 7
    return 1


def _encode(value: Any, module, brief: bool, budget=None):
    root: list = [None]
    work: list = [(value, root, 0)]
    pop, push = work.pop, work.append
    charge = None if budget is None else budget.charge
    while work:
        v, target, key = pop()
        t = type(v)
        if t is tuple or t is list:
            # scalar items are copied here; containers (and floats, which may become
            # null) get a second, indexed pass. The charge: brackets, commas and one byte
            # per scalar item (plus a string's length); a container is charged when popped.
            out = list(v)
            target[key] = out
            size = 2 * len(v) + 1
            indexed = False
            for item in v:
                ti = type(item)
                if ti is str:
                    size += len(item) + 1
                elif not (ti is int or ti is bool or item is None):
                    indexed = True
            if indexed:
                for i, item in enumerate(v):
                    ti = type(item)
                    if ti is float:
                        if not math.isfinite(item):
                            out[i] = None
                    elif not (ti is int or ti is str or ti is bool or item is None):
                        size -= 1
                        push((item, out, i))
            if charge is not None:
                charge(size)
            continue
        if charge is not None:
            charge(_node_size(v, t))
        if t is int or t is str or t is bool or v is None:
            target[key] = v
        elif t is float:
            target[key] = v if math.isfinite(v) else None
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
            if brief:
                target[key] = out
            else:
                node = {"fields": out, "type": "record", "type_id": v.type_id}
                names = record_names(module, v.type_id, len(v.fields))
                if names is not None:
                    # additive (issue 23): what the fields are called
                    node["type_name"], node["field_names"] = names
                target[key] = node
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


def format_value(value: Any, module: Optional[Any] = None, budget=None):
    """The `boruna_run` / `boruna_run_sealed` encoding of a value (docs/spec/mcp.md §2.5)."""
    return _encode(value, module, False, budget)


def format_value_brief(value: Any, module: Optional[Any] = None, budget=None):
    """The `boruna_framework_test` encoding: `"None"`, `{"Some": v}`, records as
    plain arrays, enums as `{"payload": p, "variant": "Tag"}`."""
    return _encode(value, module, True, budget)
