"""The one opcode table (boruna.bytecode.opcodes): its rows, the forms derived from them
(trace text, validation, `.axbc` widths), the VM constants generated from it, and the rule
that no opcode number is written anywhere else."""
import os
import re
import runpy
import subprocess
import sys

import pytest

from boruna import _vm
from boruna.bytecode import opcodes as O
from boruna.bytecode.axbc import AxbcError, from_json

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
SRC = os.path.join(ROOT, "src", "boruna")
TABLE = os.path.join(SRC, "bytecode", "opcodes.py")
PXI = os.path.join(SRC, "vm", "opcodes.pxi")


def test_names_and_tags_are_unique_and_below_the_pseudo_ops():
    tags = [op.tag for op in O.OPCODES.values()]
    assert len(O.OPCODES) == 90          # the reference's, GetFieldNamed, MapNew (issue 13), Row* (23)
    assert len(set(tags)) == len(tags)
    assert all(0 < t < O.PSEUDO_BASE for t in tags)
    assert O.BY_TAG[0x13].name == "CapCall"
    assert {op.path for op in O.OPCODES.values()} == {O.FAST, O.COLD, O.SLOW}
    for op in O.OPCODES.values():
        assert all(o.type in (O.U8, O.U32, O.FIELD_NAME, O.ASSERT_KIND) for o in op.operands)


def test_operand_widths_are_the_references_serde_types():
    u8 = {(name, i) for name, op in O.OPCODES.items()
          for i, o in enumerate(op.operands) if o.type == O.U8}
    assert u8 == {("Call", 1), ("MakeRecord", 1), ("MakeEnum", 1), ("GetField", 0),
                  ("CapCall", 1), ("CallIndirect", 0), ("MakeList", 0)}
    assert O.OPCODES["Call"].operands[1].width == 1
    assert O.OPCODES["Call"].operands[0].width == 4
    assert O.OPCODES["GetFieldNamed"].operands[0].width is None


def test_axbc_reads_operand_widths_from_the_table():
    def op(ins):
        return from_json('{"name":"m","version":1,"constants":[],"globals":[],"types":[],'
                         '"functions":[{"name":"main","arity":0,"locals":0,"code":[' + ins +
                         '],"capabilities":[],"intent":null,"match_tables":[]}],"entry":0}')
    assert op('{"Call":[0,255]}').functions[0].code == [("Call", 0, 255)]
    with pytest.raises(AxbcError) as info:
        op('{"Call":[0,256]}')
    assert info.value.message == ("serialization error: invalid value: integer `256`, "
                                  "expected u8")
    assert op('{"Jmp":4294967295}').functions[0].code == [("Jmp", 4294967295)]


def test_forms():
    assert O.OPCODES["Ret"].form == "unit"
    assert O.OPCODES["Call"].form == "tuple"
    assert O.OPCODES["Assert"].form == "struct"


@pytest.mark.parametrize("instr,text", [
    (("Ret",), "Ret"),
    (("PushConst", 0), "PushConst(0)"),
    (("Call", 1, 2), "Call(1, 2)"),
    (("Assert", 3, "Requires", 0), "Assert { msg: 3, kind: Requires, index: 0 }"),
    (("GetFieldNamed", "x"), 'GetFieldNamed("x")'),
    # malformed tuples render as before (a trace shows what the module holds)
    (("Ret", 5), "Ret(5)"),
    (("Call", 1, 2, 3), "Call(1, 2, 3)"),
    (("GetFieldNamed",), "GetFieldNamed"),
    (("GetFieldNamed", "a", "b"), 'GetFieldNamed("a")'),
    (("Bogus", 1, 2), "Bogus(1, 2)"),
])
def test_debug_form(instr, text):
    assert O.debug_form(instr) == text


def test_debug_form_of_a_short_struct_op_raises():
    with pytest.raises(ValueError):
        O.debug_form(("Assert", 1))


@pytest.mark.parametrize("instr,message", [
    (("Call", 1), "Call takes 2 operands, got 1"),
    (("Call", -1, 2), "Call operand must be a non-negative integer"),
    (("Call", True, 2), "Call operand must be a non-negative integer"),
    (("Assert", 1, "X", 0), "Assert kind must be Requires or Ensures, got 'X'"),
    (("GetFieldNamed", 1), "GetFieldNamed operand must be a field name"),
    (("Nope",), "unknown instruction: ('Nope',)"),
])
def test_validate_rejects(instr, message):
    with pytest.raises(ValueError) as info:
        O.validate(instr)
    assert str(info.value) == message


def test_validate_accepts():
    for instr in [("Call", 1, 2), ("Assert", 1, "Ensures", 0), ("GetFieldNamed", "x"),
                  ("MakeList", 2 ** 40)]:
        O.validate(instr)


# ---------------------------------------------------------------- the generated constants

def test_the_generated_include_matches_the_table():
    """setup.py writes vm/opcodes.pxi at every build; a stale file means a stale build."""
    with open(PXI, encoding="utf-8") as f:
        text = f.read()
    assert text == O.pxi_text(), "vm/opcodes.pxi differs from the table: rebuild (pip install -e .)"
    assert text.startswith("# generated — do not edit")
    assert "    OP_CAPCALL = 19\n" in text
    assert "    OP_IMPLICIT_RET = 256    #" in text


def test_the_built_extension_uses_the_tables_tags():
    expected = {name: op.tag for name, op in O.OPCODES.items()}
    expected.update({name: O.PSEUDO_BASE + k for k, (name, _) in enumerate(O.PSEUDO_OPS)})
    assert _vm.COMPILED_TAGS == expected


def test_pseudo_ops_order():
    # the VM traces every op but the first two pseudo-ops (implicit return, finish)
    assert [name for name, _ in O.PSEUDO_OPS] == [
        "OP_IMPLICIT_RET", "OP_FINISH", "OP_FAIL", "OP_COLD", "OP_PUSH_STORE", "OP_SUPER_CMPJ",
        "OP_SUPER_ARITH", "OP_SUPER_CMPJ_L", "OP_SUPER_ARITH_L", "OP_SUPER_BINOP",
        "OP_SUPER_LISTGET", "OP_SUPER_FIELD", "OP_SUPER_CALLV", "OP_SUPER_TESTJ",
        "OP_SUPER_PUSHGET", "OP_SUPER_CMP_L", "OP_SUPER_STLDJ", "OP_SUPER_CMP2J",
        "OP_SUPER_LISTCMP", "OP_SUPER_JMP2", "OP_SUPER_PUSHL", "OP_SUPER_STLD",
        "OP_SUPER_JMPRET"]


def test_setup_reads_the_table_without_the_package(tmp_path):
    """`python -S` has no site-packages, so `import boruna` would fail: the table file must
    run on the standard library alone, as setup.py runs it."""
    code = ("import runpy, sys; t = runpy.run_path(sys.argv[1])['pxi_text'](); "
            "assert 'boruna' not in sys.modules; sys.stdout.write(t)")
    out = subprocess.run([sys.executable, "-S", "-c", code, TABLE], capture_output=True,
                         text=True, timeout=60, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout == O.pxi_text()


def test_renumbered_table_renumbers_the_generated_constants(tmp_path):
    with open(TABLE, encoding="utf-8") as f:
        source = f.read()
    row = '_op("ListPush", 0x83, path=COLD)'
    assert source.count(row) == 1
    renumbered = tmp_path / "opcodes.py"
    renumbered.write_text(source.replace(row, row.replace("0x83", "0xC3")), encoding="utf-8")
    table = runpy.run_path(str(renumbered))
    assert table["OPCODES"]["ListPush"].tag == 0xC3
    text = table["pxi_text"]()
    assert "    OP_LISTPUSH = 195\n" in text and "    'ListPush': OP_LISTPUSH,\n" in text


# ---------------------------------------------------------------- numbers written once

# hex literals that are not opcode numbers (UTF-8 continuation bytes, a message's example)
_ALLOWED = (re.compile(r"data\[i\] & 0xC0\) != 0x80"), re.compile(r"invalid byte 0xff"))
_HEX = re.compile(r"\b0[xX][0-9A-Fa-f]+\b")


def _sources():
    for d, _, files in os.walk(SRC):
        if "_bundled" in d or "__pycache__" in d:
            continue
        for f in files:
            path = os.path.join(d, f)
            if f.endswith((".py", ".pyx", ".pxd", ".pxi")) and path != TABLE:
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
                if not text.startswith("# generated — do not edit"):
                    yield os.path.relpath(path, SRC), text


def test_no_opcode_number_is_written_outside_the_table():
    """Renumbering an opcode in the table is the whole change: no other source writes a
    number in the opcode range (hex, as tags are written) or defines an OP_ constant."""
    found = []
    for rel, text in _sources():
        for lineno, line in enumerate(text.splitlines(), 1):
            if any(p.search(line) for p in _ALLOWED):
                continue
            for m in _HEX.finditer(line):
                if int(m.group(), 16) < 2 * O.PSEUDO_BASE:
                    found.append(f"{rel}:{lineno}: {m.group()}")
            if re.match(r"\s*(cdef\s+(int|int64_t)\s+)?OP_[A-Z_]+\s*=", line):
                found.append(f"{rel}:{lineno}: defines {line.strip()}")
    assert found == []


def test_reserved_match_tags_and_type_ids_are_not_retyped():
    """The match tags and reserved type ids live in the table (and core.values); the VM and
    codegen name them."""
    literals = re.compile(r"\b(65533|65534)\b|\b1000\b(?!\.)|tag = -[1-5]\b|return \[-[1-5]\]"
                          r"|MatchArm\(-[1-5]\b|at == -1\b")
    found = []
    for rel, text in _sources():
        if rel not in ("_vm.pyx", os.path.join("bytecode", "codegen.py")) and \
                not rel.startswith("vm" + os.sep):
            continue
        for lineno, line in enumerate(text.splitlines(), 1):
            if literals.search(line.split("#")[0]):
                found.append(f"{rel}:{lineno}: {line.strip()}")
    assert found == []
