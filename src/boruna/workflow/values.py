"""Step values as plain JSON: what a step's outputs are stored and passed on as.

A step's `main` returns VM values; they become JSON (`to_json_value`): Int, Float, String,
Bool and Unit as themselves, a List an array, a Map or a Record an object (a Record's fields
by name), `Some(x)` as `x`, `None` as null, `Ok(x)`/`Err(e)` as `{"ok": x}`/`{"err": e}`, an
enum variant as `{"variant": NAME}` (plus `"payload"`). A `step.input` call hands a String
input over as its text and every other input as its compact JSON text.
"""
from __future__ import annotations

import json
import math

from boruna.core.values import Enum, Err, MapValue, Ok, OptNone, Record, Some


class ValueError_(ValueError):
    """A value a step output cannot hold (a function, an actor, a non-finite Float)."""


def to_json_value(value, module=None):
    t = type(value)
    if value is None or t in (bool, int, str):
        return value
    if t is float:
        if not math.isfinite(value):
            raise ValueError_(f"the Float {value!r} has no JSON form")
        return value
    if t in (tuple, list):
        return [to_json_value(v, module) for v in value]
    if t is MapValue or t is dict:
        return {str(k): to_json_value(v, module) for k, v in value.items()}
    if t is Record:
        names = _member_names(module, value.type_id)
        if names is None or len(names) != len(value.fields):
            names = [f"field{i}" for i in range(len(value.fields))]
        return {n: to_json_value(v, module) for n, v in zip(names, value.fields)}
    if t is Some:
        return to_json_value(value.value, module)
    if t is OptNone:
        return None
    if t is Ok:
        return {"ok": to_json_value(value.value, module)}
    if t is Err:
        return {"err": to_json_value(value.value, module)}
    if t is Enum:
        name = None
        if module is not None:
            name = module.enum_variant_name(value.type_id, value.variant)
        out = {"variant": name if name is not None else value.variant}
        if value.payload is not None:
            out["payload"] = to_json_value(value.payload, module)
        return out
    raise ValueError_(f"a value of type {t.__name__} cannot be a step output")


def _member_names(module, type_id):
    try:
        info = module.types[type_id]
    except (AttributeError, IndexError, TypeError):
        return None
    return [name for name, _ in info.members]


def input_text(value) -> str:
    """What a `step.input` call returns for an input value."""
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


_TYPE_CHECKS = {
    "Int": lambda v: type(v) is int,
    "Float": lambda v: type(v) is float,
    "Number": lambda v: type(v) in (int, float),
    "String": lambda v: type(v) is str,
    "Bool": lambda v: type(v) is bool,
    "Unit": lambda v: v is None,
    "List": lambda v: type(v) is list,
    "Map": lambda v: type(v) is dict,
    "Record": lambda v: type(v) is dict,
}


def type_mismatch(label: str, value):
    """None when `value` (plain JSON) fits the output type `label`, else what it is. Labels
    other than Int, Float, Number, String, Bool, Unit, List<..>, Map<..>, Record are not
    checked (Any, Json, or a free description)."""
    head = label.split("<", 1)[0].strip()
    check = _TYPE_CHECKS.get(head)
    if check is None or check(value):
        return None
    return json_kind(value)


def json_kind(value) -> str:
    if value is None:
        return "Unit"
    return {bool: "Bool", int: "Int", float: "Float", str: "String", list: "List",
            dict: "Map"}.get(type(value), type(value).__name__)
