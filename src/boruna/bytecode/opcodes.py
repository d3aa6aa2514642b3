"""The one opcode table (vm.md §2.1): name, byte tag, operand names.

An instruction is a plain tuple `(name, *operands)`, e.g. `("PushConst", 0)`, `("Call", 1, 2)`,
`("Add",)`. `Assert` carries `(msg, kind, index)` with `kind` "Requires" or "Ensures".
The byte tag is the opcode number the Cython VM switches on; the names are the reference's
`Op` variant names used in `.axbc` JSON and in traces.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OpInfo:
    name: str
    tag: int
    operands: tuple[str, ...] = ()

    @property
    def arity(self) -> int:
        return len(self.operands)


_TABLE = (
    OpInfo("PushConst", 0x01, ("const",)),
    OpInfo("LoadLocal", 0x02, ("slot",)),
    OpInfo("StoreLocal", 0x03, ("slot",)),
    OpInfo("LoadGlobal", 0x04, ("index",)),
    OpInfo("StoreGlobal", 0x05, ("index",)),
    OpInfo("Call", 0x06, ("func", "argc")),
    OpInfo("Ret", 0x07),
    OpInfo("Jmp", 0x08, ("target",)),
    OpInfo("JmpIf", 0x09, ("target",)),
    OpInfo("JmpIfNot", 0x0A, ("target",)),
    OpInfo("Match", 0x0B, ("table",)),
    OpInfo("MakeRecord", 0x0C, ("type_id", "count")),
    OpInfo("MakeEnum", 0x0D, ("type_id", "variant")),
    OpInfo("GetField", 0x0E, ("index",)),
    OpInfo("SpawnActor", 0x0F, ("func",)),
    OpInfo("SendMsg", 0x10),
    OpInfo("ReceiveMsg", 0x11),
    OpInfo("Assert", 0x12, ("msg", "kind", "index")),
    OpInfo("CapCall", 0x13, ("cap", "argc")),
    OpInfo("CallIndirect", 0x14, ("argc",)),
    OpInfo("GuardSeal", 0x15),
    OpInfo("Add", 0x20),
    OpInfo("Sub", 0x21),
    OpInfo("Mul", 0x22),
    OpInfo("Div", 0x23),
    OpInfo("Mod", 0x24),
    OpInfo("Neg", 0x25),
    OpInfo("Eq", 0x30),
    OpInfo("Neq", 0x31),
    OpInfo("Lt", 0x32),
    OpInfo("Lte", 0x33),
    OpInfo("Gt", 0x34),
    OpInfo("Gte", 0x35),
    OpInfo("Not", 0x40),
    OpInfo("And", 0x41),
    OpInfo("Or", 0x42),
    OpInfo("Concat", 0x50),
    OpInfo("Pop", 0x60),
    OpInfo("Dup", 0x61),
    OpInfo("EmitUi", 0x70),
    OpInfo("MakeList", 0x80, ("count",)),
    OpInfo("ListLen", 0x81),
    OpInfo("ListGet", 0x82),
    OpInfo("ListPush", 0x83),
    OpInfo("ParseInt", 0x84),
    OpInfo("StrContains", 0x85),
    OpInfo("StrStartsWith", 0x86),
    OpInfo("TryParseInt", 0x87),
    OpInfo("IntToString", 0x88),
    OpInfo("FloatToString", 0x89),
    OpInfo("StringLen", 0x8A),
    OpInfo("StringChars", 0x8B),
    OpInfo("StringContains", 0x8C),
    OpInfo("StringStartsWith", 0x8D),
    OpInfo("StringEndsWith", 0x8E),
    OpInfo("StringToUpper", 0x8F),
    OpInfo("StringToLower", 0x90),
    OpInfo("StringTrim", 0x91),
    OpInfo("StringJoin", 0x92),
    OpInfo("ListLenBuiltin", 0x93),
    OpInfo("ListIsEmpty", 0x94),
    OpInfo("ListHead", 0x95),
    OpInfo("ListTail", 0x96),
    OpInfo("ListAppend", 0x97),
    OpInfo("ListConcat", 0x98),
    OpInfo("ListReverse", 0x99),
    OpInfo("StringSplit", 0x9A),
    OpInfo("StringReplace", 0x9B),
    OpInfo("StringSlice", 0x9C),
    OpInfo("IntParse", 0x9D),
    OpInfo("FloatParse", 0x9E),
    OpInfo("BoolToString", 0x9F),
    OpInfo("MapGet", 0xA0),
    OpInfo("MapSet", 0xA1),
    OpInfo("MapRemove", 0xA2),
    OpInfo("MapContainsKey", 0xA3),
    OpInfo("MapKeys", 0xA4),
    OpInfo("MapValues", 0xA5),
    OpInfo("MapLen", 0xA6),
    OpInfo("Debug", 0xA7),
    OpInfo("DebugMsg", 0xA8),
    # Addition (not in the reference): field access resolved by name against the record's
    # own type at run time; emitted only for field names declared at different positions.
    OpInfo("GetFieldNamed", 0xB0, ("name",)),
    OpInfo("Nop", 0xFE),
    OpInfo("Halt", 0xFF),
)

OPCODES: dict[str, OpInfo] = {op.name: op for op in _TABLE}
BY_TAG: dict[int, OpInfo] = {op.tag: op for op in _TABLE}

ASSERT_KINDS = ("Requires", "Ensures")

# Builtin call name -> (arity, instruction emitted), language.md §3.8 / vm.md §2.4.7.
# step_input is special-cased by codegen (CapCall + capability).
BUILTINS: dict[str, tuple[int, str]] = {
    "list_len": (1, "ListLen"),
    "list_get": (2, "ListGet"),
    "list_push": (2, "ListPush"),
    "parse_int": (1, "ParseInt"),
    "try_parse_int": (1, "TryParseInt"),
    "str_contains": (2, "StrContains"),
    "str_starts_with": (2, "StrStartsWith"),
    "step_input": (1, "CapCall"),
    "__builtin_int_to_string": (1, "IntToString"),
    "__builtin_float_to_string": (1, "FloatToString"),
    "__builtin_string_len": (1, "StringLen"),
    "__builtin_string_chars": (1, "StringChars"),
    "__builtin_string_contains": (2, "StringContains"),
    "__builtin_string_starts_with": (2, "StringStartsWith"),
    "__builtin_string_ends_with": (2, "StringEndsWith"),
    "__builtin_string_to_upper": (1, "StringToUpper"),
    "__builtin_string_to_lower": (1, "StringToLower"),
    "__builtin_string_trim": (1, "StringTrim"),
    "__builtin_string_join": (2, "StringJoin"),
    "__builtin_list_len": (1, "ListLenBuiltin"),
    "__builtin_list_is_empty": (1, "ListIsEmpty"),
    "__builtin_list_head": (1, "ListHead"),
    "__builtin_list_tail": (1, "ListTail"),
    "__builtin_list_append": (2, "ListAppend"),
    "__builtin_list_concat": (2, "ListConcat"),
    "__builtin_list_reverse": (1, "ListReverse"),
    "__builtin_string_split": (2, "StringSplit"),
    "__builtin_string_replace": (3, "StringReplace"),
    "__builtin_string_slice": (3, "StringSlice"),
    "__builtin_int_parse": (1, "IntParse"),
    "__builtin_float_parse": (1, "FloatParse"),
    "__builtin_bool_to_string": (1, "BoolToString"),
    "__builtin_map_get": (2, "MapGet"),
    "__builtin_map_set": (3, "MapSet"),
    "__builtin_map_remove": (2, "MapRemove"),
    "__builtin_map_contains_key": (2, "MapContainsKey"),
    "__builtin_map_keys": (1, "MapKeys"),
    "__builtin_map_values": (1, "MapValues"),
    "__builtin_map_len": (1, "MapLen"),
    "__builtin_debug": (1, "Debug"),
    "__builtin_debug_msg": (2, "DebugMsg"),
    "__builtin_guard": (3, "GuardSeal"),
}

STEP_INPUT_CAP_ID = 10


def debug_form(instr: tuple) -> str:
    """The reference's Rust `Debug` rendering of an instruction, as used in traces."""
    name = instr[0]
    if name == "Assert":
        _, msg, kind, index = instr
        return f"Assert {{ msg: {msg}, kind: {kind}, index: {index} }}"
    if len(instr) == 1:
        return name
    if name == "GetFieldNamed":
        return f'GetFieldNamed("{instr[1]}")'
    return f"{name}({', '.join(str(x) for x in instr[1:])})"


def validate(instr) -> None:
    """Raise ValueError unless `instr` is a well-formed instruction tuple."""
    if not isinstance(instr, tuple) or not instr or instr[0] not in OPCODES:
        raise ValueError(f"unknown instruction: {instr!r}")
    info = OPCODES[instr[0]]
    if len(instr) - 1 != info.arity:
        raise ValueError(f"{info.name} takes {info.arity} operands, got {len(instr) - 1}")
    for i, operand in enumerate(instr[1:]):
        if info.name == "GetFieldNamed":
            if type(operand) is not str:
                raise ValueError("GetFieldNamed operand must be a field name")
        elif info.name == "Assert" and i == 1:
            if operand not in ASSERT_KINDS:
                raise ValueError(f"Assert kind must be Requires or Ensures, got {operand!r}")
        elif type(operand) is not int or operand < 0:
            raise ValueError(f"{info.name} operand must be a non-negative integer")
