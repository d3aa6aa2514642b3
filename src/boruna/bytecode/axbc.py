"""The `.axbc` forms of a Module (docs/spec/vm.md §1.6): serde-style JSON and the binary container.

`to_json(module)` / `from_json(text)`: externally tagged JSON (pretty by default).
`to_bytes(module)` / `from_bytes(data)`: `b"LLMB"`, version u16 LE, payload length u32 LE,
then the compact JSON payload. Readers raise `AxbcError` with the reference's messages:
`invalid bytecode: too short`, `invalid magic bytes`, `unsupported version: {v}`,
`invalid bytecode: truncated payload`, `serialization error: {detail}`.
Beyond the reference, the reader checks operand widths (u8/u32) and instruction shapes, so a
decoded module is always safe to hand to the VM. Each function may carry `"lines"`, its line
table (`Function.lines`, flat `[pc, line, col, ...]`): an additive field within container
version 1, written by this compiler and optional to the reader (files without it load and
report runtime errors without places; serde readers ignore unknown fields).
"""
from __future__ import annotations

import json
import math
import struct
from typing import Any

from boruna.bytecode.module import MODULE_VERSION, Function, MatchArm, Module, TypeInfo
from boruna.bytecode.opcodes import ASSERT_KIND, ASSERT_KINDS, FIELD_NAME, OPCODES, U8
from boruna.core.capabilities import by_id, by_variant
from boruna.core.limits import U64_MAX
from boruna.core.values import (
    NONE, ActorId, Enum, Err, FnRef, MapValue, Ok, OptNone, Record, Some,
)

MAGIC = b"LLMB"



class AxbcError(Exception):
    """A `.axbc` decoding failure; `message` is the reference's Display text."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class _Bad(Exception):
    pass


# ---------------------------------------------------------------- encoding

def value_to_json(v: Any):
    """A runtime value in serde's externally tagged form."""
    t = type(v)
    if v is None:
        return "Unit"
    if t is OptNone:
        return "None"
    if t is bool:
        return {"Bool": v}
    if t is int:
        return {"Int": v}
    if t is float:
        return {"Float": v if math.isfinite(v) else None}
    if t is str:
        return {"String": v}
    if t is Some or t is Ok or t is Err:
        return {t.TAG: value_to_json(v.value)}
    if t is Record:
        return {"Record": {"type_id": v.type_id, "fields": [value_to_json(x) for x in v.fields]}}
    if t is Enum:
        return {"Enum": {"type_id": v.type_id, "variant": v.variant,
                         "payload": value_to_json(v.payload)}}
    if t is tuple:
        return {"List": [value_to_json(x) for x in v]}
    if t is MapValue:
        return {"Map": {k: value_to_json(x) for k, x in v.items()}}
    if t is ActorId:
        return {"ActorId": v.id}
    if t is FnRef:
        return {"FnRef": v.index}
    raise TypeError(f"not a runtime value: {v!r}")


def op_to_json(ins: tuple):
    name = ins[0]
    info = OPCODES.get(name)
    if info is not None and info.form == "struct":
        return {name: {o.name: v for o, v in zip(info.operands, ins[1:])}}
    if len(ins) == 1:
        return name
    if len(ins) == 2:
        return {name: ins[1]}
    return {name: list(ins[1:])}


def module_to_obj(module: Module) -> dict:
    return {
        "name": module.name,
        "version": module.version,
        "constants": [value_to_json(c) for c in module.constants],
        "globals": list(module.globals),
        "types": [_type_to_obj(t) for t in module.types],
        "functions": [_function_to_obj(f) for f in module.functions],
        "entry": module.entry,
    }


def _type_to_obj(t: TypeInfo) -> dict:
    if t.is_record:
        return {"name": t.name, "kind": {"Record": {"fields": [list(m) for m in t.members]}}}
    return {"name": t.name, "kind": {"Enum": {"variants": [list(m) for m in t.members]}}}


def _function_to_obj(f: Function) -> dict:
    caps = []
    for c in f.capabilities:
        cap = by_id(c)
        caps.append(cap.variant if cap is not None else str(c))
    return {
        "name": f.name,
        "arity": f.arity,
        "locals": f.locals,
        "code": [op_to_json(i) for i in f.code],
        "capabilities": caps,
        "intent": f.intent,
        "match_tables": [[{"tag": a.tag, "target": a.target} for a in table]
                         for table in f.match_tables],
        "lines": list(f.lines),
    }


def to_json(module: Module, pretty: bool = True) -> str:
    """The module as JSON text (serde key order; pretty with two-space indent)."""
    obj = module_to_obj(module)
    if pretty:
        return json.dumps(obj, indent=2, ensure_ascii=False)
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def to_bytes(module: Module) -> bytes:
    payload = to_json(module, pretty=False).encode("utf-8")
    return MAGIC + struct.pack("<HI", MODULE_VERSION, len(payload)) + payload


# ---------------------------------------------------------------- decoding

def _int(v, what: str, lo: int, hi: int) -> int:
    if type(v) is not int:
        raise _Bad(f"invalid type: {_describe(v)}, expected {what}")
    if not lo <= v <= hi:
        raise _Bad(f"invalid value: integer `{v}`, expected {what}")
    return v


def _u8(v):
    return _int(v, "u8", 0, 255)


def _u16(v):
    return _int(v, "u16", 0, 0xFFFF)


def _u32(v):
    return _int(v, "u32", 0, 0xFFFFFFFF)


def _describe(v) -> str:
    if v is None:
        return "null"
    if type(v) is bool:
        return f"boolean `{str(v).lower()}`"
    if type(v) is int:
        return f"integer `{v}`"
    if type(v) is float:
        return f"floating point `{v}`"
    if type(v) is str:
        return f"string {json.dumps(v, ensure_ascii=False)}"
    if type(v) is list:
        return "sequence"
    return "map"


def _str(v, what="a string") -> str:
    if type(v) is not str:
        raise _Bad(f"invalid type: {_describe(v)}, expected {what}")
    return v


def _list(v, what="a sequence") -> list:
    if type(v) is not list:
        raise _Bad(f"invalid type: {_describe(v)}, expected {what}")
    return v


def _obj(v, what) -> dict:
    if type(v) is not dict:
        raise _Bad(f"invalid type: {_describe(v)}, expected {what}")
    return v


def _field(d: dict, key: str):
    if key not in d:
        raise _Bad(f"missing field `{key}`")
    return d[key]


_VALUE_VARIANTS = ("Unit", "Bool", "Int", "Float", "String", "None", "Some", "Ok", "Err",
                   "Record", "Enum", "List", "Map", "ActorId", "FnRef")


def _tagged(v, expected: str):
    """Split an externally tagged enum into (tag, content)."""
    if type(v) is str:
        return v, None
    if type(v) is dict and len(v) == 1:
        (k, c), = v.items()
        return k, c
    raise _Bad(f"invalid type: {_describe(v)}, expected {expected}")


def _value(v):
    tag, c = _tagged(v, "enum Value")
    if tag == "Unit" and c is None and type(v) is str:
        return None
    if tag == "None" and type(v) is str:
        return NONE
    if tag not in _VALUE_VARIANTS:
        raise _Bad(f"unknown variant `{tag}`, expected one of "
                   + ", ".join(f"`{x}`" for x in _VALUE_VARIANTS))
    if type(v) is str:
        raise _Bad("invalid type: unit variant, expected newtype variant")
    if tag == "Bool":
        if type(c) is not bool:
            raise _Bad(f"invalid type: {_describe(c)}, expected a boolean")
        return c
    if tag == "Int":
        return _int(c, "i64", -(1 << 63), (1 << 63) - 1)
    if tag == "Float":
        if type(c) not in (int, float):
            raise _Bad(f"invalid type: {_describe(c)}, expected f64")
        return float(c)
    if tag == "String":
        return _str(c)
    if tag == "Some":
        return Some(_value(c))
    if tag == "Ok":
        return Ok(_value(c))
    if tag == "Err":
        return Err(_value(c))
    if tag == "Record":
        d = _obj(c, "struct variant Value::Record")
        return Record(_u32(_field(d, "type_id")), tuple(_value(x) for x in _list(_field(d, "fields"))))
    if tag == "Enum":
        d = _obj(c, "struct variant Value::Enum")
        return Enum(_u32(_field(d, "type_id")), _u8(_field(d, "variant")),
                    _value(_field(d, "payload")))
    if tag == "List":
        return tuple(_value(x) for x in _list(c))
    if tag == "Map":
        d = _obj(c, "a map")
        return MapValue({k: _value(x) for k, x in d.items()})
    if tag == "ActorId":
        return ActorId(_int(c, "u64", 0, U64_MAX))
    if tag == "FnRef":
        return FnRef(_u32(c))
    raise _Bad(f"unknown variant `{tag}`")


def _op(v) -> tuple:
    tag, c = _tagged(v, "enum Op")
    info = OPCODES.get(tag)
    if info is None:
        raise _Bad(f"unknown variant `{tag}`, expected one of "
                   + ", ".join(f"`{n}`" for n in OPCODES))
    n = info.arity
    if n == 0:
        if type(v) is not str:
            raise _Bad(f"invalid type: map, expected unit variant Op::{tag}")
        return (tag,)
    if type(v) is str:
        raise _Bad(f"invalid type: unit variant, expected {'newtype' if n == 1 else 'tuple'} "
                   f"variant")
    if info.form == "struct":
        d = _obj(c, f"struct variant Op::{tag}")
        # enum fields (Assert's kind) are read first, then the integers in order
        values = {o.name: _operand(o, _field(d, o.name))
                  for o in sorted(info.operands, key=lambda o: o.type != ASSERT_KIND)}
        return (tag,) + tuple(values[o.name] for o in info.operands)
    if info.operands[0].type == FIELD_NAME:
        return (tag, _str(c))
    if n == 1:
        return (tag, _int_operand(info.operands[0], c))
    items = _list(c, f"tuple variant Op::{tag}")
    if len(items) != n:
        raise _Bad(f"invalid length {len(items)}, expected tuple variant Op::{tag} with "
                   f"{n} elements")
    return (tag,) + tuple(_int_operand(o, x) for o, x in zip(info.operands, items))


def _int_operand(operand, v) -> int:
    """An integer operand checked against its width (u8 or u32)."""
    return _u8(v) if operand.type == U8 else _u32(v)


def _operand(operand, v):
    if operand.type == ASSERT_KIND:
        kind = _str(v)
        if kind not in ASSERT_KINDS:
            raise _Bad(f"unknown variant `{kind}`, expected `Requires` or `Ensures`")
        return kind
    return _int_operand(operand, v)


def _pair(v) -> list:
    """A serde 2-tuple (a JSON array of exactly two items)."""
    pair = _list(v, "a tuple of size 2")
    if len(pair) != 2:
        raise _Bad(f"invalid length {len(pair)}, expected a tuple of size 2")
    return pair


def _type(v) -> TypeInfo:
    d = _obj(v, "struct TypeDef")
    name = _str(_field(d, "name"))
    tag, c = _tagged(_field(d, "kind"), "enum TypeKind")
    if tag == "Record":
        body = _obj(c, "struct variant TypeKind::Record")
        fields = []
        for f in _list(_field(body, "fields")):
            pair = _pair(f)
            fields.append((_str(pair[0]), _str(pair[1])))
        return TypeInfo(name, "Record", fields)
    if tag == "Enum":
        body = _obj(c, "struct variant TypeKind::Enum")
        variants = []
        for f in _list(_field(body, "variants")):
            pair = _pair(f)
            variants.append((_str(pair[0]), None if pair[1] is None else _str(pair[1])))
        return TypeInfo(name, "Enum", variants)
    raise _Bad(f"unknown variant `{tag}`, expected `Record` or `Enum`")


def _function(v) -> Function:
    d = _obj(v, "struct Function")
    name = _str(_field(d, "name"))
    arity = _u8(_field(d, "arity"))
    nlocals = _u16(_field(d, "locals"))
    code = [_op(x) for x in _list(_field(d, "code"))]
    caps = []
    for c in _list(_field(d, "capabilities")):
        cap = by_variant(_str(c))
        if cap is None:
            raise _Bad(f"unknown variant `{c}`")
        caps.append(cap.id)
    intent = d.get("intent")
    if intent is not None:
        intent = _str(intent)
    tables = []
    for table in _list(_field(d, "match_tables")):
        arms = []
        for arm in _list(table):
            a = _obj(arm, "struct MatchArm")
            arms.append(MatchArm(_int(_field(a, "tag"), "i32", -(1 << 31), (1 << 31) - 1),
                                 _u32(_field(a, "target"))))
        tables.append(arms)
    return Function(name, arity, nlocals, code, caps, intent, tables, _lines(d.get("lines")))


def _lines(v) -> list[int]:
    """The optional line table (absent in files written before it: no positions)."""
    if v is None:
        return []
    items = _list(v)
    if len(items) % 3:
        raise _Bad(f"invalid length {len(items)}, expected (pc, line, col) triples")
    return [_u32(x) for x in items]


def module_from_obj(obj) -> Module:
    d = _obj(obj, "struct Module")
    name = _str(_field(d, "name"))
    version = _u16(_field(d, "version"))
    constants = [_value(c) for c in _list(_field(d, "constants"))]
    globals_ = [_str(g) for g in _list(_field(d, "globals"))]
    types = [_type(t) for t in _list(_field(d, "types"))]
    functions = [_function(f) for f in _list(_field(d, "functions"))]
    entry = _u32(_field(d, "entry"))
    return Module(name, version, constants, globals_, types, functions, entry)


def from_json(text) -> Module:
    """Decode module JSON; raises AxbcError(`serialization error: ...`)."""
    from boruna.core.jsonread import JsonSyntaxError, loads

    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise AxbcError(f"serialization error: invalid unicode: {exc.reason}") from None
    try:
        obj = loads(text)
    except JsonSyntaxError as exc:
        raise AxbcError(f"serialization error: {exc.message}") from None
    except RecursionError:
        raise AxbcError("serialization error: recursion limit exceeded") from None
    try:
        return module_from_obj(obj)
    except _Bad as exc:
        raise AxbcError(f"serialization error: {exc}") from None
    except RecursionError:
        raise AxbcError("serialization error: recursion limit exceeded") from None


def from_bytes(data: bytes) -> Module:
    """Decode the binary container (checks in the reference's order)."""
    data = bytes(data)
    if len(data) < 10:
        raise AxbcError("invalid bytecode: too short")
    if data[:4] != MAGIC:
        raise AxbcError("invalid magic bytes")
    version, length = struct.unpack("<HI", data[4:10])
    if version != MODULE_VERSION:
        raise AxbcError(f"unsupported version: {version}")
    if len(data) < 10 + length:
        raise AxbcError("invalid bytecode: truncated payload")
    return from_json(data[10:10 + length])
