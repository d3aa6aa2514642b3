"""The one opcode table (docs/spec/vm.md §2.1): name, tag, typed operands, trace form, VM path.

An instruction is a plain tuple `(name, *operands)`, e.g. `("PushConst", 0)`, `("Call", 1, 2)`,
`("Add",)`. `Assert` carries `(msg, kind, index)` with `kind` "Requires" or "Ensures".
The names are the reference's `Op` variant names used in `.axbc` JSON and in traces; the
tag is the number the Cython VM switches on. Everything about an instruction is read from
here: codegen (`BUILTINS`), the `.axbc` reader (operand widths), `validate`, trace lines
(`debug_form`) and the VM, whose dispatch constants `setup.py` generates from `pxi_text()`
into `vm/opcodes.pxi` at every build. So renumbering an opcode here is the whole change.

This module imports nothing of the package at import time (only the standard library):
`setup.py` executes it as a file, without importing `boruna`. `BUILTINS` (builtin name ->
arity and instruction, for codegen) is derived from `boruna.core.builtins` on first use.
"""
from __future__ import annotations

from dataclasses import dataclass

# operand types: the reference's serde integer widths, plus the two non-integer operands
U8 = "u8"
U32 = "u32"
FIELD_NAME = "str"            # GetFieldNamed's field name
ASSERT_KIND = "assert_kind"   # "Requires" | "Ensures"

WIDTHS = {U8: 1, U32: 4}      # bytes of an integer operand
ASSERT_KINDS = ("Requires", "Ensures")

# how the VM runs an op: inline in the loop's switch, as a builtin on Python values
# (`vm/builtins.py`, via the pseudo-op Cold), or out of line in `Machine._slow_op`
FAST = "fast"
COLD = "cold"
SLOW = "slow"


@dataclass(frozen=True)
class Operand:
    name: str
    type: str = U32

    @property
    def width(self):
        """Bytes of an integer operand (None for a name or an assert kind)."""
        return WIDTHS.get(self.type)


@dataclass(frozen=True)
class OpInfo:
    name: str
    tag: int
    operands: tuple[Operand, ...] = ()
    path: str = FAST
    struct: bool = False       # serde struct variant: `Name { a: x, .. }` / {"Name": {...}}

    @property
    def arity(self) -> int:
        return len(self.operands)

    @property
    def form(self) -> str:
        """Trace/serde shape: "unit" (`Ret`), "tuple" (`Call(1, 2)`) or "struct"."""
        if self.struct:
            return "struct"
        return "tuple" if self.operands else "unit"

    @property
    def c_name(self) -> str:
        """The VM's dispatch constant for this op."""
        return "OP_" + self.name.upper()


def _op(name, tag, *operands, path=FAST, struct=False) -> OpInfo:
    ops = tuple(o if isinstance(o, Operand) else Operand(o) for o in operands)
    return OpInfo(name, tag, ops, path, struct)


def _u8(name) -> Operand:
    return Operand(name, U8)


_TABLE = (
    _op("PushConst", 0x01, "const"),
    _op("LoadLocal", 0x02, "slot"),
    _op("StoreLocal", 0x03, "slot"),
    _op("LoadGlobal", 0x04, "index", path=SLOW),
    _op("StoreGlobal", 0x05, "index", path=SLOW),
    _op("Call", 0x06, "func", _u8("argc")),
    _op("Ret", 0x07),
    _op("Jmp", 0x08, "target"),
    _op("JmpIf", 0x09, "target"),
    _op("JmpIfNot", 0x0A, "target"),
    _op("Match", 0x0B, "table"),
    _op("MakeRecord", 0x0C, "type_id", _u8("count")),
    _op("MakeEnum", 0x0D, "type_id", _u8("variant")),
    _op("GetField", 0x0E, _u8("index")),
    _op("SpawnActor", 0x0F, "func", path=SLOW),
    _op("SendMsg", 0x10, path=SLOW),
    _op("ReceiveMsg", 0x11, path=SLOW),
    _op("Assert", 0x12, "msg", Operand("kind", ASSERT_KIND), "index", path=SLOW, struct=True),
    _op("CapCall", 0x13, "cap", _u8("argc"), path=SLOW),
    _op("CallIndirect", 0x14, _u8("argc")),
    _op("GuardSeal", 0x15, path=SLOW),
    _op("Add", 0x20),
    _op("Sub", 0x21),
    _op("Mul", 0x22),
    _op("Div", 0x23),
    _op("Mod", 0x24),
    _op("Neg", 0x25),
    _op("Eq", 0x30),
    _op("Neq", 0x31),
    _op("Lt", 0x32),
    _op("Lte", 0x33),
    _op("Gt", 0x34),
    _op("Gte", 0x35),
    _op("Not", 0x40),
    _op("And", 0x41),
    _op("Or", 0x42),
    _op("Concat", 0x50),
    _op("Pop", 0x60),
    _op("Dup", 0x61),
    _op("EmitUi", 0x70, path=SLOW),
    _op("MakeList", 0x80, _u8("count")),
    # a fast path for Lists, the builtin (vm/builtins.py) for anything else
    _op("ListLen", 0x81),
    _op("ListGet", 0x82),
    _op("ListPush", 0x83, path=COLD),
    _op("ParseInt", 0x84, path=COLD),
    _op("StrContains", 0x85, path=COLD),
    _op("StrStartsWith", 0x86, path=COLD),
    _op("TryParseInt", 0x87, path=COLD),
    _op("IntToString", 0x88),
    _op("FloatToString", 0x89, path=COLD),
    _op("StringLen", 0x8A),
    _op("StringChars", 0x8B, path=COLD),
    _op("StringContains", 0x8C, path=COLD),
    _op("StringStartsWith", 0x8D, path=COLD),
    _op("StringEndsWith", 0x8E, path=COLD),
    _op("StringToUpper", 0x8F, path=COLD),
    _op("StringToLower", 0x90, path=COLD),
    _op("StringTrim", 0x91, path=COLD),
    _op("StringJoin", 0x92, path=COLD),
    _op("ListLenBuiltin", 0x93, path=COLD),
    _op("ListIsEmpty", 0x94, path=COLD),
    _op("ListHead", 0x95, path=COLD),
    _op("ListTail", 0x96, path=COLD),
    _op("ListAppend", 0x97, path=COLD),
    _op("ListConcat", 0x98, path=COLD),
    _op("ListReverse", 0x99, path=COLD),
    _op("StringSplit", 0x9A, path=COLD),
    _op("StringReplace", 0x9B, path=COLD),
    _op("StringSlice", 0x9C, path=COLD),
    _op("IntParse", 0x9D, path=COLD),
    _op("FloatParse", 0x9E, path=COLD),
    _op("BoolToString", 0x9F, path=COLD),
    _op("MapGet", 0xA0, path=COLD),
    _op("MapSet", 0xA1, path=COLD),
    _op("MapRemove", 0xA2, path=COLD),
    _op("MapContainsKey", 0xA3, path=COLD),
    _op("MapKeys", 0xA4, path=COLD),
    _op("MapValues", 0xA5, path=COLD),
    _op("MapLen", 0xA6, path=COLD),
    _op("Debug", 0xA7, path=COLD),
    _op("DebugMsg", 0xA8, path=COLD),
    # Addition (not in the reference): the empty-Map builtin.
    _op("MapNew", 0xA9, path=COLD),
    # Additions (issue 23): the checked accessors of a database row.
    _op("RowInt", 0xC0, path=COLD),
    _op("RowFloat", 0xC1, path=COLD),
    _op("RowString", 0xC2, path=COLD),
    _op("RowBool", 0xC3, path=COLD),
    _op("RowIsNull", 0xC4, path=COLD),
    # Addition (not in the reference): field access resolved by name against the record's
    # own type at run time; emitted only for field names declared at different positions.
    _op("GetFieldNamed", 0xB0, Operand("name", FIELD_NAME), path=SLOW),
    _op("Nop", 0xFE),
    _op("Halt", 0xFF),
)

OPCODES: dict[str, OpInfo] = {op.name: op for op in _TABLE}
BY_TAG: dict[int, OpInfo] = {op.tag: op for op in _TABLE}

# VM-internal instructions the loader writes in place of real ones; they never appear in a
# Module. Numbered from PSEUDO_BASE on, above every real tag. The first two have no trace
# line (the implicit return at a function's end, the finishing iteration); the others
# stand for the real op they replace, which is traced.
PSEUDO_BASE = 0x100
PSEUDO_OPS: tuple[tuple[str, str], ...] = (
    ("OP_IMPLICIT_RET", "a function's end without Ret"),
    ("OP_FINISH", "the entry frame returned"),
    ("OP_FAIL", "a = index into the machine's static error list (b = 1: pop first)"),
    ("OP_COLD", "a = original tag (a builtin of vm/builtins.py)"),
    ("OP_PUSH_STORE", "ListPush/ListAppend/MapSet/MapRemove (a = tag) followed by StoreLocal(b)"),
    ("OP_SUPER_CMPJ", "LoadLocal(a) PushConst(b) Lt/Lte/Gt/Gte/Eq/Neq (c = tag) JmpIfNot: 4 steps"),
    ("OP_SUPER_ARITH", "LoadLocal(a) PushConst(b) Add/Sub (c = tag) StoreLocal: 4 steps"),
    ("OP_SUPER_CMPJ_L", "LoadLocal(a) LoadLocal(b) Lt/Lte/Gt/Gte/Eq/Neq (c = tag) JmpIfNot: 4 steps"),
    ("OP_SUPER_ARITH_L", "LoadLocal(a) LoadLocal(b) Add/Sub (c = tag) StoreLocal: 4 steps"),
    ("OP_SUPER_BINOP", "LoadLocal(a) PushConst(b) Add/Sub/Mul/Mod or a compare not before "
                       "JmpIfNot (c = tag): 3 steps"),
    ("OP_SUPER_LISTGET", "LoadLocal(a) LoadLocal(b) ListGet: 3 steps"),
    ("OP_SUPER_FIELD", "LoadLocal(a) GetField(b): 2 steps"),
    ("OP_SUPER_CALLV", "LoadLocal(a) CallIndirect(b = argc): 2 steps"),
    ("OP_SUPER_TESTJ", "LoadLocal(a) JmpIfNot/JmpIf (c = tag) to b: 2 steps"),
    ("OP_SUPER_PUSHGET", "LoadLocal(a) LoadLocal(b) LoadLocal(c) ListGet ListPush StoreLocal(a): "
                         "6 steps"),
    ("OP_SUPER_CMP_L", "LoadLocal(a) LoadLocal(b) Lt/Lte/Gt/Gte (c = tag), not before JmpIfNot: "
                       "3 steps"),
    ("OP_SUPER_STLDJ", "StoreLocal(a) LoadLocal(a) JmpIfNot(b): 3 steps"),
    ("OP_SUPER_CMP2J", "OP_SUPER_CMP_L(a, b, c) OP_SUPER_CMP_L And/Or JmpIfNot: 8 steps"),
    ("OP_SUPER_LISTCMP", "OP_SUPER_LISTGET(a, b) OP_SUPER_LISTGET Lt/Lte/Gt/Gte (c = tag): 7 steps"),
    ("OP_SUPER_JMP2", "Jmp(a) to a Jmp(b): 2 steps"),
    ("OP_SUPER_PUSHL", "LoadLocal(a) LoadLocal(b) OP_PUSH_STORE(ListPush, a) StoreLocal(a): "
                       "4 steps"),
    ("OP_SUPER_STLD", "StoreLocal(a) and the plain LoadLocal after it: 2 steps"),
    ("OP_SUPER_JMPRET", "Jmp(a) to a Ret: 2 steps"),
)

# Match-table tags (docs/spec/vm.md §2.2): Bool arms are 0/1 and enum arms their variant index; the
# other built-in tags are negative. Additions: an exact (type, variant) tag
# -(EXACT_TAG_BASE + type_id * VARIANTS_PER_TYPE + variant), and for an Int literal n with
# 0 <= n < INT_TAG_LIMIT the tag -(INT_TAG_BASE + n), which only an Int equal to n hits.
MATCH_ANY = -1
MATCH_NONE = -2
MATCH_SOME = -3
MATCH_OK = -4
MATCH_ERR = -5
EXACT_TAG_BASE = 1000
VARIANTS_PER_TYPE = 256
INT_TAG_BASE = 2**30
INT_TAG_LIMIT = 2**20
MATCH_TAGS = tuple((name, globals()[name]) for name in (
    "MATCH_ANY", "MATCH_NONE", "MATCH_SOME", "MATCH_OK", "MATCH_ERR", "EXACT_TAG_BASE",
    "VARIANTS_PER_TYPE", "INT_TAG_BASE", "INT_TAG_LIMIT"))


def _builtins():
    """Builtin call name -> (arity, instruction emitted), from `boruna.core.builtins`."""
    from boruna.core.builtins import BUILTINS as table
    return {b.name: (b.arity, b.opcode) for b in table}


def __getattr__(name):
    # `BUILTINS` is derived from the builtin table on first use, so executing this file
    # (setup.py) needs nothing of the package
    if name == "BUILTINS":
        value = _builtins()
        globals()[name] = value
        return value
    raise AttributeError(name)


def debug_form(instr: tuple) -> str:
    """The reference's Rust `Debug` rendering of an instruction, as used in traces (also
    for malformed tuples; a struct-form op with the wrong operand count raises)."""
    name = instr[0]
    info = OPCODES.get(name) if type(name) is str else None
    if info is not None and info.form == "struct":
        if len(instr) - 1 != info.arity:
            raise ValueError(f"{name} takes {info.arity} operands")
        fields = ", ".join(f"{o.name}: {v}" for o, v in zip(info.operands, instr[1:]))
        return f"{name} {{ {fields} }}"
    if len(instr) == 1:
        return name
    if info is not None and info.operands and info.operands[0].type == FIELD_NAME:
        return f'{name}("{instr[1]}")'
    return f"{name}({', '.join(str(x) for x in instr[1:])})"


def validate(instr) -> None:
    """Raise ValueError unless `instr` is a well-formed instruction tuple."""
    if not isinstance(instr, tuple) or not instr or instr[0] not in OPCODES:
        raise ValueError(f"unknown instruction: {instr!r}")
    info = OPCODES[instr[0]]
    if len(instr) - 1 != info.arity:
        raise ValueError(f"{info.name} takes {info.arity} operands, got {len(instr) - 1}")
    for operand, value in zip(info.operands, instr[1:]):
        if operand.type == FIELD_NAME:
            if type(value) is not str:
                raise ValueError(f"{info.name} operand must be a field name")
        elif operand.type == ASSERT_KIND:
            if value not in ASSERT_KINDS:
                raise ValueError(f"Assert kind must be Requires or Ensures, got {value!r}")
        elif type(value) is not int or value < 0:
            raise ValueError(f"{info.name} operand must be a non-negative integer")


# ---------------------------------------------------------------- the VM's constants

GENERATED_HEADER = ("# generated — do not edit: written by setup.py from "
                    "src/boruna/bytecode/opcodes.py (pxi_text)\n")


def pxi_text() -> str:
    """The Cython include `setup.py` writes to `src/boruna/vm/opcodes.pxi`: the dispatch
    constants of every op and pseudo-op (as Cython constants `OP_<NAME>` and as C macros
    `BOR_OP_<NAME>` for the C core, vm/core/dispatch.h), the match tags (likewise), and `COMPILED_TAGS` (the tags the
    extension was built with, so a test can see the build and the table agree)."""
    lines = [GENERATED_HEADER, "\ncdef enum:\n"]
    lines += [f"    {op.c_name} = {op.tag}\n" for op in _TABLE]
    lines += [f"    {name} = {PSEUDO_BASE + k}    # {doc}\n"
              for k, (name, doc) in enumerate(PSEUDO_OPS)]
    # the same constants for the C core (vm/core/dispatch.h): BOR_OP_<name>, and the size of
    # its dispatch table
    lines.append('\ncdef extern from *:\n    """\n')
    lines += [f"    #define BOR_{op.c_name} {op.tag}\n" for op in _TABLE]
    lines += [f"    #define BOR_{name} {PSEUDO_BASE + k}\n" for k, (name, _) in enumerate(PSEUDO_OPS)]
    lines.append(f"    #define BOR_NUM_OPS {PSEUDO_BASE + len(PSEUDO_OPS)}\n")
    # the match tags too (the C core's Match): BOR_<name>
    lines += [f"    #define BOR_{name} ({value}LL)\n" for name, value in MATCH_TAGS]
    lines.append('    """\n    int BOR_NUM_OPS\n')
    lines.append("\ncdef enum:\n")
    lines += [f"    {name} = {value}\n" for name, value in MATCH_TAGS]
    lines.append("\nCOMPILED_TAGS = {\n")
    lines += [f"    {op.name!r}: {op.c_name},\n" for op in _TABLE]
    lines += [f"    {name!r}: {name},\n" for name, _ in PSEUDO_OPS]
    lines.append("}\n")
    return "".join(lines)
