"""The `.axbc` JSON and binary forms (docs/spec/vm.md §1.6): round trips and every reader error."""
import json
import struct

import pytest

from boruna.bytecode import axbc
from boruna.bytecode.module import Function, MatchArm, Module
from boruna.compiler import compile_source
from boruna.api import run
from boruna.core.values import NONE, ActorId, Enum, Err, FnRef, MapValue, Ok, Record, Some

PROGRAM = """type Point { x: Int, y: Int }
type Other { y: Int, x: Int }
enum Shape { Circle(Int), Square(Int), Empty }
fn area(s: Shape) -> Int
    requires true
    ensures result >= 0
{
    match s {
        Circle(r) => 3 * r * r,
        Square(w) => w * w,
        Empty => 0,
    }
}
fn name(s: String) -> Int {
    match s { "a" => 1, _ => 2 }
}
fn main() -> Int !{net, step_input} intent "demo" {
    let p = Point { x: 1, y: 2 }
    let f = area
    emit p
    f(Shape::Circle(2)) + area(Shape::Empty) + p.y + name("a") + __builtin_string_len(step_input("k"))
}
"""


def test_json_round_trip_is_identical_and_runs_the_same():
    module = compile_source(PROGRAM)
    text = axbc.to_json(module)
    back = axbc.from_json(text)
    assert back == module
    assert axbc.to_json(back) == text
    a, b = run(module), run(back)
    assert (a.ok, a.result, a.steps) == (b.ok, b.result, b.steps) == (True, 15, a.steps)


def test_binary_round_trip_and_layout():
    module = compile_source(PROGRAM)
    data = axbc.to_bytes(module)
    assert data[:4] == b"LLMB"
    assert data[4:6] == b"\x01\x00"
    (length,) = struct.unpack("<I", data[6:10])
    assert length == len(data) - 10
    assert axbc.from_bytes(data) == module
    assert axbc.from_bytes(data + b"trailing bytes are ignored") == module


def test_json_shapes_follow_serde_encoding():
    module = compile_source(PROGRAM)
    obj = json.loads(axbc.to_json(module))
    assert list(obj) == ["name", "version", "constants", "globals", "types", "functions",
                         "entry"]
    main = obj["functions"][obj["entry"]]
    assert list(main) == ["name", "arity", "locals", "code", "capabilities", "intent",
                          "match_tables", "lines"]
    assert main["capabilities"] == ["NetFetch", "StepInput"]
    assert main["intent"] == "demo"
    assert {"Int": 1} in obj["constants"]
    assert {"FnRef": 0} in obj["constants"]
    area = obj["functions"][0]
    assert area["code"][1] == {"Assert": {"msg": 1, "kind": "Requires", "index": 0}}
    assert area["match_tables"][0][0] == {"tag": 0, "target": 4}
    assert obj["types"][2] == {"name": "Shape", "kind": {"Enum": {"variants": [
        ["Circle", "Int"], ["Square", "Int"], ["Empty", None]]}}}
    assert obj["types"][0]["kind"] == {"Record": {"fields": [["x", "Int"], ["y", "Int"]]}}
    assert "Ret" in main["code"]
    assert {"GetFieldNamed": "y"} in main["code"]


def test_every_value_kind_round_trips():
    values = [None, NONE, True, -5, 2.5, "s", Some(1), Ok("x"), Err(None),
              Record(3, (1, "a")), Enum(1, 2, NONE), (1, (2,)), MapValue({"b": 1, "a": 2}),
              ActorId(3), FnRef(0)]
    module = Module("m", constants=values,
                    functions=[Function("main", 0, 0, [("PushConst", 0), ("Ret",)])])
    back = axbc.from_bytes(axbc.to_bytes(module))
    assert back.constants == values
    assert [type(v) for v in back.constants] == [type(v) for v in values]


@pytest.mark.parametrize("data, message", [
    (b"", "invalid bytecode: too short"),
    (b"LLMB\x01\x00\x00\x00\x00", "invalid bytecode: too short"),
    (b"XXXX\x01\x00\x00\x00\x00\x00", "invalid magic bytes"),
    (b"LLMB\x02\x00\x00\x00\x00\x00", "unsupported version: 2"),
    (b"LLMB\x01\x00\x05\x00\x00\x00{}", "invalid bytecode: truncated payload"),
    (b"LLMB\x01\x00\x02\x00\x00\x00{}", "serialization error: missing field `name`"),
    (b"LLMB\x01\x00\x01\x00\x00\x00{", "serialization error: EOF while parsing an object at "
                                       "line 1 column 1"),
])
def test_reader_errors(data, message):
    with pytest.raises(axbc.AxbcError) as info:
        axbc.from_bytes(data)
    assert info.value.message == message


def _module_json(**overrides):
    module = compile_source("fn main() -> Int { 1 + 2 }\n")
    obj = json.loads(axbc.to_json(module))
    obj["functions"][0].update(overrides)
    return json.dumps(obj)


def test_unknown_opcode_name_fails_decoding():
    with pytest.raises(axbc.AxbcError) as info:
        axbc.from_json(_module_json(code=[{"Frobnicate": 1}]))
    assert info.value.message.startswith("serialization error: unknown variant `Frobnicate`")


def test_operand_width_is_checked():
    with pytest.raises(axbc.AxbcError) as info:
        axbc.from_json(_module_json(code=[{"MakeList": 300}, "Ret"]))
    assert info.value.message == ("serialization error: invalid value: integer `300`, "
                                  "expected u8")


def test_bad_indices_decode_but_fail_cleanly_at_run_time():
    cases = [
        ([{"PushConst": 99}, "Ret"], "invalid constant index: 99"),
        ([{"LoadLocal": 7}, "Ret"], "invalid local index: 7"),
        ([{"PushConst": 0}, {"StoreLocal": 7}], "invalid local index: 7"),
        ([{"Call": [42, 0]}], "invalid function index: 42"),
        ([{"LoadGlobal": 0}], "invalid global index: 0"),
        ([{"Match": 3}], "stack underflow"),
        (["Pop"], "stack underflow"),
        ([{"Jmp": 4000000000}], None),
    ]
    for code, error in cases:
        module = axbc.from_json(_module_json(code=code))
        out = run(module)
        assert out.error == error, code
        if error is None:
            assert out.ok and out.result is None   # jump past the end = implicit return


def test_non_finite_float_constant_is_written_as_null_like_serde():
    module = Module("m", constants=[float("inf")])
    assert json.loads(axbc.to_json(module))["constants"] == [{"Float": None}]
    with pytest.raises(axbc.AxbcError) as info:
        axbc.from_json(axbc.to_json(module))
    assert info.value.message == "serialization error: invalid type: null, expected f64"


def test_match_arms_round_trip():
    module = Module("m", functions=[Function("main", 0, 1, [("Ret",)],
                                             match_tables=[[MatchArm(-3, 1), MatchArm(-1, 0)]])])
    assert axbc.from_json(axbc.to_json(module)).functions[0].match_tables == [
        [MatchArm(-3, 1), MatchArm(-1, 0)]]
