"""Function types with capability sets (issue 21): `Fn(String) -> Int !{db.query}` wherever
a type is written; `FnType.capabilities` holds the names as written, the AST JSON shows them
only when there are some, and programs without them parse, serialize and compile exactly as
before."""
from __future__ import annotations

import pytest

from boruna.bytecode.axbc import to_bytes
from boruna.compiler import compile_source
from boruna.language import ast
from boruna.language.ast_json import to_json_obj
from boruna.language.errors import CompileError
from boruna.language.frontend import parse
from boruna.language.type_text import type_text
from boruna.service import ast_tool, symbols_tool


def _code_bytes(source: str) -> bytes:
    """The .axbc bytes without the line table (the added set moves columns, not code)."""
    module = compile_source(source)
    for function in module.functions:
        function.lines = []
    return to_bytes(module)

INT, STRING = ast.Named("Int"), ast.Named("String")


def first_param_type(source):
    return parse(source).items[0].params[0].ty


def test_the_field_defaults_to_empty_and_is_the_last_before_the_positions():
    fields = [f for f in ast.FnType.__dataclass_fields__]
    assert fields == ["params", "ret", "capabilities", "line", "col"]
    assert ast.FnType([INT], INT).capabilities == []
    assert ast.FnType([INT], INT) == ast.FnType([INT], INT, [])
    assert ast.FnType([INT], INT, ["db.query"]) != ast.FnType([INT], INT)


@pytest.mark.parametrize("written, names", [
    ("Fn(String) -> Int !{db.query}", ["db.query"]),
    ("Fn(String) -> Int !{db, fs.read}", ["db", "fs.read"]),
    ("Fn(String) -> Int !{}", []),
    ("Fn(String) -> Int", []),
])
def test_a_parameter_type_takes_a_set(written, names):
    ty = first_param_type(f"fn f(g: {written}) -> Int {{ 0 }}")
    assert ty == ast.FnType([STRING], INT, names)
    assert (ty.line, ty.col) == (1, 9)


def test_every_type_position_takes_a_set():
    program = parse("""type R { run: Fn(Int) -> Int !{time.now}, n: Int }
enum E { A(Fn() -> Int !{random}), B }
fn f(g: List<Fn(Int) -> Int !{fs.read}>) -> Int {
    let h: Option<Fn(Int) -> Int !{net}> = None
    0
}
""")
    record, enum, fn = program.items
    assert record.kind.fields[0][1] == ast.FnType([INT], INT, ["time.now"])
    assert enum.kind.variants[0][1] == ast.FnType([], INT, ["random"])
    assert fn.params[0].ty == ast.ListType(ast.FnType([INT], INT, ["fs.read"]))
    assert fn.body.stmts[0].ty == ast.OptionType(ast.FnType([INT], INT, ["net"]))


def test_in_a_return_type_the_last_set_is_the_functions_own():
    kept = parse("fn make() -> Fn(Int) -> Int !{fs.read} { pure }").items[0]
    assert (kept.return_type, kept.capabilities) == (ast.FnType([INT], INT), ["fs.read"])
    both = parse("fn make() -> Fn(Int) -> Int !{random} !{fs.read} { pure }").items[0]
    assert (both.return_type, both.capabilities) == (ast.FnType([INT], INT, ["random"]),
                                                     ["fs.read"])
    assert (both.caps_line, both.caps_col) == (1, 39)
    empty = parse("fn make() -> Fn(Int) -> Int !{random}\n    !{} { pure }").items[0]
    assert (empty.return_type, empty.capabilities, empty.caps_line) == (
        ast.FnType([INT], INT, ["random"]), [], 2)
    nested = parse("fn make() -> Fn(Int) -> Fn(Int) -> Int !{a} !{b} !{c} { f }").items[0]
    assert (nested.return_type, nested.capabilities) == (
        ast.FnType([INT], ast.FnType([INT], INT, ["a"]), ["b"]), ["c"])


@pytest.mark.parametrize("source, message", [
    ("fn f(g: Fn(Int) -> Int !{db.}) -> Int { 0 }", "expected identifier, found RBrace"),
    ("fn f(g: Fn(Int) -> Int !db) -> Int { 0 }", "expected LBrace, found 'db'"),
])
def test_a_malformed_set_is_a_parse_error(source, message):
    with pytest.raises(CompileError) as info:
        parse(source)
    assert info.value.message == message


def test_ast_json_shows_a_set_as_a_third_element_only_when_there_is_one():
    assert to_json_obj(ast.FnType([INT], INT)) == {"Fn": [[{"Named": "Int"}], {"Named": "Int"}]}
    assert to_json_obj(ast.FnType([INT], INT, ["db.query"])) == {
        "Fn": [[{"Named": "Int"}], {"Named": "Int"}, ["db.query"]]}
    tree = ast_tool("fn apply(f: Fn(Int) -> Int !{db.query}) -> Int !{db.query} { f(1) }\n")
    assert tree["ast"]["items"][0]["Function"]["params"][0]["ty"] == {
        "Fn": [[{"Named": "Int"}], {"Named": "Int"}, ["db.query"]]}


def test_type_text_and_symbols_write_the_set():
    assert type_text(ast.FnType([STRING], INT, ["db", "fs.read"])) == \
        "Fn(String) -> Int !{db, fs.read}"
    assert type_text(ast.FnType([STRING], INT)) == "Fn(String) -> Int"
    symbol = symbols_tool("fn apply(f: Fn(Int) -> Int !{db.query}) -> Int !{db.query} "
                          "{ f(1) }\n")["symbols"][0]
    assert symbol["signature"] == "fn apply(f: (Int) -> Int !{db.query}) -> Int !{db.query}"


PLAIN = """type R { run: Fn(Int) -> Int, n: Int }
fn inc(n: Int) -> Int { n + 1 }
fn apply(f: Fn(Int) -> Int, x: Int) -> Int { f(x) }
fn make() -> Fn(Int) -> Int !{time.now} { inc }
fn main() -> Int !{time.now} { apply(make(), R { run: inc, n: 2 }.n) }
"""


def test_programs_without_a_set_keep_their_tree_and_bytecode():
    program = parse(PLAIN)
    assert program.items[0].kind.fields[0][1] == ast.FnType([INT], INT)
    assert program.items[3].capabilities == ["time.now"]
    assert to_json_obj(program)["items"][3]["Function"]["return_type"] == {
        "Fn": [[{"Named": "Int"}], {"Named": "Int"}]}
    # the sets are static facts only: the same program with them compiles to the same
    # code (only the informational type text of a record field shows its set)
    with_sets = PLAIN.replace("fn apply(f: Fn(Int) -> Int,", "fn apply(f: Fn(Int) -> Int !{},")
    assert _code_bytes(with_sets) == _code_bytes(PLAIN)
