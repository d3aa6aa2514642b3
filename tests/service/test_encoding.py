"""format_value / format_value_brief: exact JSON for every value kind (docs/spec/mcp.md §2.5)."""
import json
import math

import pytest

from boruna.bytecode.module import Module, TypeInfo
from boruna.service.encoding import format_value, format_value_brief
from boruna.core.values import (
    NONE, ActorId, Enum, Err, FnRef, MapValue, Ok, Record, Some,
)

MODULE = Module("m", types=[
    TypeInfo("Point", "Record", [("x", "Int"), ("y", "Int")]),
    TypeInfo("Shape", "Enum", [("Dot", None), ("Circle", "Int"), ("Tag", "String")]),
])


def _json(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("value, full, brief", [
    (42, "42", "42"),
    (-9223372036854775808, "-9223372036854775808", "-9223372036854775808"),
    (1.5, "1.5", "1.5"),
    (math.inf, "null", "null"),
    (-math.inf, "null", "null"),
    (math.nan, "null", "null"),
    ("héllo \"q\"", '"héllo \\"q\\""', '"héllo \\"q\\""'),
    (True, "true", "true"),
    (None, "null", "null"),
    (NONE, '{"option":"None"}', '"None"'),
    (Some(5), '{"option":"Some","value":5}', '{"Some":5}'),
    (Ok(1), '{"result":"Ok","value":1}', '{"Ok":1}'),
    (Err("bad"), '{"result":"Err","value":"bad"}', '{"Err":"bad"}'),
    ((), "[]", "[]"),
    ((1, "a", None), '[1,"a",null]', '[1,"a",null]'),
    (MapValue({"b": 2, "a": NONE}), '{"a":{"option":"None"},"b":2}', '{"a":"None","b":2}'),
    (Record(0, (1, 2)), '{"fields":[1,2],"type":"record","type_id":0,"type_name":"Point",'
                        '"field_names":["x","y"]}', "[1,2]"),
    (Enum(1, 1, 3), '{"payload":3,"type":"enum","type_id":1,"variant":"Circle"}',
     '{"payload":3,"variant":"Circle"}'),
    (Enum(1, 0, None), '{"payload":null,"type":"enum","type_id":1,"variant":"Dot"}',
     '{"payload":null,"variant":"Dot"}'),
    (ActorId(2), '{"actor_id":2}', '{"actor_id":2}'),
    (FnRef(0), '{"fn_ref":0}', '{"fn_ref":0}'),
])
def test_every_value_kind(value, full, brief):
    assert _json(format_value(value, MODULE)) == full
    assert _json(format_value_brief(value, MODULE)) == brief


def test_enum_variant_falls_back_to_the_index_when_unknown():
    assert _json(format_value(Enum(1, 2, "x"))) == (
        '{"payload":"x","type":"enum","type_id":1,"variant":2}')
    assert _json(format_value(Enum(7, 0, None), MODULE)) == (
        '{"payload":null,"type":"enum","type_id":7,"variant":0}')
    assert _json(format_value(Enum(0, 0, None), MODULE)) == (     # type 0 is a record
        '{"payload":null,"type":"enum","type_id":0,"variant":0}')
    assert _json(format_value(Enum(1, 9, None), MODULE)) == (
        '{"payload":null,"type":"enum","type_id":1,"variant":9}')


class _LooseType:
    def __init__(self, kind, variants):
        self.kind = kind
        self.variants = variants


class _LooseModule:
    """A module-like object without `enum_variant_name` (architecture.md's TypeInfo shape)."""
    types = [_LooseType("enum", [("A", None), ("B", "Int")])]


def test_modules_without_the_lookup_helper_are_read_directly():
    assert format_value(Enum(0, 1, 2), _LooseModule())["variant"] == "B"


def test_nested_values_keep_inner_encodings():
    value = Some((Record(0, (Ok(Enum(1, 2, "t")), 0.25)), MapValue({"k": (FnRef(1),)})))
    assert _json(format_value(value, MODULE)) == (
        '{"option":"Some","value":[{"fields":[{"result":"Ok","value":{"payload":"t","type":'
        '"enum","type_id":1,"variant":"Tag"}},0.25],"type":"record","type_id":0,'
        '"type_name":"Point","field_names":["x","y"]},'
        '{"k":[{"fn_ref":1}]}]}')
    assert _json(format_value_brief(value, MODULE)) == (
        '{"Some":[[{"Ok":{"payload":"t","variant":"Tag"}},0.25],{"k":[{"fn_ref":1}]}]}')


def test_deeply_nested_values_encode_without_recursion():
    value = 0
    for _ in range(20_000):
        value = Some(value)
    out = format_value(value)
    depth = 0
    while isinstance(out, dict):
        out = out["value"]
        depth += 1
    assert depth == 20_000 and out == 0
