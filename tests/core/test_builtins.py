"""The one builtin table (boruna.core.builtins): its rows, the signature syntax and parser,
the views the rest of the package reads, and the rule that a builtin's name is spelled in
at most two source files."""
import os
import re

import pytest

from boruna.bytecode.opcodes import BUILTINS as CODEGEN_BUILTINS
from boruna.bytecode.opcodes import COLD, OPCODES
from boruna.core import builtins as B
from boruna.core.capabilities import by_wire_name
from boruna.diagnostics.builtin_aliases import ALIASES, builtin_for
from boruna.diagnostics.types.signatures import conversions, signature_of
from boruna.diagnostics.types.types import INT, STRING, VarSupply, list_of
from boruna.diagnostics.undefined_names import SHORT_BUILTINS
from boruna.language.names import BUILTIN_ARITIES

SRC = os.path.join(os.path.dirname(__file__), "..", "..", "src", "boruna")


# ---------------------------------------------------------------- signatures

def test_signature_parses_type_variables_and_type_arguments():
    sig = B.parse_signature("(List<T>, T) -> List<T>")
    assert sig.params == (B.TypeCon("List", (B.TypeVar("T"),)), B.TypeVar("T"))
    assert sig.result == B.TypeCon("List", (B.TypeVar("T"),))
    assert sig.arity == 2
    assert sig.type_vars == ("T",)
    assert str(sig) == "(List<T>, T) -> List<T>"


def test_signature_nested_arguments_and_several_variables():
    sig = B.parse_signature("(Map<String, V>, Result<Option<K>, String>) -> Map<String,V>")
    assert str(sig) == "(Map<String, V>, Result<Option<K>, String>) -> Map<String, V>"
    assert sig.type_vars == ("V", "K")


def test_signature_without_parameters_and_plain_names():
    sig = B.parse_signature("() -> Unit")
    assert sig.params == () and sig.result == B.TypeCon("Unit")
    assert sig.type_vars == ()
    # only a single capital letter is a variable
    assert B.parse_type("Tx") == B.TypeCon("Tx")
    assert B.parse_type("t") == B.TypeCon("t")


def test_instantiate_replaces_every_occurrence_of_a_variable():
    sig = B.parse_signature("(Map<String, V>, String, V) -> Map<String, V>")
    inst = sig.instantiate({"V": B.parse_type("List<Int>")})
    assert str(inst) == "(Map<String, List<Int>>, String, List<Int>) -> Map<String, List<Int>>"
    assert inst.type_vars == ()
    # variables not in the mapping stay
    assert str(B.parse_signature("(T, U) -> T").instantiate({"U": B.TypeCon("Int")})) == \
        "(T, Int) -> T"


@pytest.mark.parametrize("text", [
    "", "()", "(Int) ->", "(Int -> Int", "(Int,) -> Int", "(List<>) -> Int",
    "(List<Int) -> Int", "(Int) -> Int Int", "(Int) => Int", "(1) -> Int", "(Int) -> Int>",
])
def test_malformed_signatures_are_rejected(text):
    with pytest.raises(B.SignatureError):
        B.parse_signature(text)


# ---------------------------------------------------------------- the table

def test_the_table_has_the_42_builtins_in_the_reference_order():
    names = [b.name for b in B.BUILTINS]
    assert len(names) == 55 == len(set(names))
    assert names[:8] == ["list_len", "list_get", "list_push", "parse_int", "try_parse_int",
                         "str_contains", "str_starts_with", "step_input"]
    assert names[B.REFERENCE_COUNT - 1] == "__builtin_guard"
    assert sum(b.arity for b in B.BUILTINS[:B.REFERENCE_COUNT]) == 65
    assert all(b.doc and "\n" not in b.doc for b in B.BUILTINS)


def test_issue_13_adds_the_capability_builtins_and_map_new_after_them():
    added = B.BUILTINS[B.REFERENCE_COUNT:]
    assert [(b.name, str(b.signature), b.capability) for b in added] == [
        ("net_fetch", "(String) -> String", "net.fetch"),
        ("fs_read", "(String) -> String", "fs.read"),
        ("fs_write", "(String, String) -> Bool", "fs.write"),
        ("db_query", "(String) -> List<Map<String, Dynamic>>", "db.query"),
        ("time_now", "() -> Int", "time.now"),
        ("random", "() -> Float", "random"),
        ("llm_call", "(String) -> String", "llm.call"),
        ("map_new", "() -> Map<String, V>", None),
        ("row_int", "(Map<String, Dynamic>, String) -> Int", None),
        ("row_float", "(Map<String, Dynamic>, String) -> Float", None),
        ("row_string", "(Map<String, Dynamic>, String) -> String", None),
        ("row_bool", "(Map<String, Dynamic>, String) -> Bool", None),
        ("row_is_null", "(Map<String, Dynamic>, String) -> Bool", None),
    ]
    assert B.ADDED == {b.name for b in added}


def test_signatures_from_the_language_spec():
    sig = {b.name: str(b.signature) for b in B.BUILTINS}
    assert sig["list_get"] == "(List<T>, Int) -> T"
    assert sig["try_parse_int"] == "(String) -> Result<Int, String>"
    assert sig["__builtin_list_append"] == "(List<T>, T) -> List<T>"
    assert sig["__builtin_map_set"] == "(Map<String, V>, String, V) -> Map<String, V>"
    assert sig["__builtin_guard"] == "(T, Bool, String) -> T"
    assert sig["step_input"] == "(String) -> String"


def test_every_row_names_a_real_opcode_and_capability():
    for b in B.BUILTINS:
        assert b.opcode in OPCODES, b.name
        if b.capability is not None:
            assert by_wire_name(b.capability) is not None
            assert b.opcode == "CapCall"
    assert [b.name for b in B.BUILTINS if b.capability] == [
        "step_input", "net_fetch", "fs_read", "fs_write", "db_query", "time_now", "random",
        "llm_call"]
    assert B.by_opcode("GuardSeal").name == "__builtin_guard"
    with pytest.raises(KeyError):
        B.by_opcode("Add")


def test_every_cold_opcode_is_a_builtin_with_an_implementation():
    from boruna.vm import builtins as impl
    builtin_ops = {b.opcode for b in B.BUILTINS}
    cold = {name for name, op in OPCODES.items() if op.path == COLD}
    assert cold <= builtin_ops
    assert cold <= set(impl.IMPLEMENTATIONS)
    assert set(impl.IMPLEMENTATIONS) <= builtin_ops
    # COLD_OPS pops the builtin's arity
    for b in B.BUILTINS:
        if b.opcode in impl.IMPLEMENTATIONS:
            assert impl.COLD_OPS[OPCODES[b.opcode].tag] == (b.arity, impl.IMPLEMENTATIONS[b.opcode])
    assert len(impl.COLD_OPS) == 44


def test_aliases_are_unique_and_never_a_builtin_name():
    seen = {}
    for b in B.BUILTINS:
        for alias in b.aliases:
            assert alias not in seen, (alias, seen.get(alias), b.name)
            assert alias not in B.BY_NAME
            seen[alias] = b.name
    assert B.ALIASES == seen


# ---------------------------------------------------------------- the views others read

def test_name_resolution_and_codegen_read_the_table():
    assert BUILTIN_ARITIES == {b.name: b.arity for b in B.BUILTINS}
    assert list(BUILTIN_ARITIES) == [b.name for b in B.BUILTINS]
    assert CODEGEN_BUILTINS == {b.name: (b.arity, b.opcode) for b in B.BUILTINS}


def test_diagnostics_read_the_table():
    assert ALIASES is B.ALIASES
    assert ALIASES["trim"] == "__builtin_string_trim"
    assert ALIASES["push"] == "list_push"
    assert builtin_for("print", 1, BUILTIN_ARITIES) == "__builtin_debug"
    assert builtin_for("print", 2, BUILTIN_ARITIES) is None
    assert SHORT_BUILTINS == ("list_len", "list_get", "list_push", "parse_int",
                              "try_parse_int", "str_contains", "str_starts_with")
    # the type checker (issue 12) reads the signatures, fresh type variables per call
    params, result = signature_of("list_get", VarSupply())
    assert params[0] == list_of(result) and params[1] == INT
    assert signature_of("list_get", VarSupply())[1] is not result
    assert conversions(STRING, INT) == ["parse_int", "try_parse_int", "__builtin_int_parse"]
    assert conversions(INT, STRING) == ["__builtin_int_to_string"]


def test_to_string_builtin_by_signature():
    assert B.to_string_builtin("Int") == "__builtin_int_to_string"
    assert B.to_string_builtin("Float") == "__builtin_float_to_string"
    assert B.to_string_builtin("Bool") == "__builtin_bool_to_string"
    assert B.to_string_builtin("String") is None
    assert B.to_string_builtin("Point") is None


# ---------------------------------------------------------------- defined once

def _source_files():
    for d, _, files in os.walk(SRC):
        if "_bundled" in d or "__pycache__" in d:
            continue
        for f in files:
            if f.endswith((".py", ".pyx", ".pxd", ".pxi")):
                yield os.path.join(d, f)


# Spellings that are not the builtin: Python's `json.loads(..., parse_int=hook)` keyword
# (and a hook named after it) in the two JSON readers.
NOT_THE_BUILTIN = {"parse_int": {os.path.join("core", "jsonread.py"),
                                 os.path.join("mcp", "stdin_lines.py")}}
# `random` is also the capability's wire name (and Python's module): the capability table,
# the App effect kinds, policy texts and the live handler spell that, not the builtin.
RANDOM_ELSEWHERE = {os.path.join(*p) for p in (
    ("core", "capabilities.py"), ("framework", "effects.py"), ("mcp", "params.py"),
    ("mcp", "launch.py"), ("cli", "parser.py"), ("runtime", "live.py"))}
NOT_THE_BUILTIN["random"] = RANDOM_ELSEWHERE


def test_each_builtin_name_is_spelled_in_at_most_two_source_files():
    """The arch rule for every builtin, not a sample: its table row, plus at most one other
    file (generated files, marked so in their first lines, do not count)."""
    texts = {}
    for path in _source_files():
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if not re.search(r"generated|do not edit", text[:400], re.I):
            texts[os.path.relpath(path, SRC)] = text
    table = os.path.join("core", "builtins.py")
    for b in B.BUILTINS:
        pattern = re.compile(r"\b" + re.escape(b.name) + r"\b")
        files = sorted(p for p, text in texts.items() if pattern.search(text)
                       and p not in NOT_THE_BUILTIN.get(b.name, ()))
        assert table in files
        assert len(files) <= 2, (b.name, files)
