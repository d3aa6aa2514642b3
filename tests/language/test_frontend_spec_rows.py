"""Rows T01-T68 of docs/spec/language.md §6 and the "further quick vectors" under the table.

Each row: source, then the expected frontend outcome. `None` = parse + check succeed (rows
whose failure is decided by codegen, E008, also only need the frontend to pass). Errors are
(code, message, line, col). Lines are the reference's; columns are ours (E001 columns are the
reference's too). T05 (CRLF) and T33 (escapes) assert OUR behaviour (README rule 3).
"""
import pytest

from boruna.language import ast
from boruna.language.errors import CompileError
from boruna.language.frontend import check, parse

ROWS = [
    ("T01", "fn main() -> Int {\n    let base: Int = 40\n    base + 2\n}\n", None),
    ("T02", "", None),
    ("T03", "fn helper() { 1 }\n", None),
    ("T04", "fn main() -> Int {\n    let a = 1;\n    a\n}\n",
     ("E002", "expected expression, found Semi", 2, 14)),
    ("T05", "fn main() -> Int {\r\n    0\r\n}\r\n", None),
    ("T06", "fn pick(n: Int) -> Int {\n    if n == 0 { 10 } else if n == 1 { 20 } else { 30 }\n}\n",
     ("E002", "expected LBrace, found 'if'", 2, 27)),
    ("T07", "fn pick(n: Int) -> Int {\n    if n == 0 { 10 } else { if n == 1 { 20 } else { 30 } }\n}\n",
     None),
    ("T08", "record Pair { a: Int, b: Int }\n", ("E002", "expected item, found 'record'", 1, 1)),
    ("T09", "fn clock() -> Int !{time, net, llm, ui, db} { 0 }\n"
            "fn main() -> Int !{made.up, fs.read} { clock() }\n", None),
    ("T10", "fn main() -> Int !{actor.spawn} { 0 }\n",
     ("E002", "expected identifier, found 'spawn'", 1, 26)),
    ("T11", "fn main() -> Int !{actor_spawn, step_input} { 0 }\n", None),
    ("T12", "fn main() -> Int !{fs.read.all} { 0 }\n", ("E002", "expected Comma, found Dot", 1, 27)),
    ("T13", "fn main() -> Int {\n    let s: Nonexistent = \"text\"\n    let n: Int = \"not an int\"\n"
            "    n\n}\n", None),
    ("T14", "enum Light { Red, Amber, Green }\nfn code(l: Light) -> Int {\n    match l {\n"
            "        Red => 1\n    }\n}\nfn main() -> Int { code(Light::Green) }\n", None),
    ("T15", "fn main() -> Int {\n    let total = 1\n    total = total + 1\n    total\n}\n", None),
    ("T16", "fn main() -> Int {\n    counter = 3\n    0\n}\n",
     ("E009", "undefined variable: counter", 2, 5)),
    ("T17", "fn helper() -> Int { 1 }\nfn main() -> Int {\n    helper = 2\n    0\n}\n", None),
    ("T18", "fn area(w: Int, h: Int) -> Int { w * h }\nfn main() -> Int { area(3) }\n",
     ("E009", "function 'area' expects 2 arguments, got 1", 2, 20)),
    ("T19", "fn main() -> String { __builtin_string_replace(\"aa\", \"a\") }\n",
     ("E009", "function '__builtin_string_replace' expects 3 arguments, got 2", 1, 23)),
    ("T20", "fn main() -> Int {\n    let g = __builtin_list_len\n    0\n}\n", None),
    ("T21", "fn check(n: Int) -> Int requires limit > n { n }\nfn main() -> Int { check(1) }\n",
     None),
    ("T22", "fn pos(n: Int) -> Int ensures result >= 0 { n }\nfn main() -> Int { pos(5) }\n", None),
    ("T23", "fn main() -> Int {\n    let first = 1\n    let second = first\n    (second)\n}\n",
     ("E009", "undefined variable: second", 4, 6)),
    ("T24", "fn main() -> Int {\n    return\n    7\n}\n", None),
    ("T25", "fn main() -> Int { 9223372036854775808 }\n",
     ("E001", 'unexpected character: "9223372036854775808"', 1, 20)),
    ("T26", "fn main() -> Int { -9223372036854775807 - 1 }\n", None),
    ("T27", "fn main() -> Int {\n    match 3 {\n        -1 => 0\n        _ => 1\n    }\n}\n",
     ("E002", "expected pattern, found Minus", 3, 9)),
    ("T28", "enum Dir { Up, Down }\nfn f(d: Dir) -> Int {\n    match d {\n        Dir::Up => 1\n"
            "        _ => 0\n    }\n}\n", ("E002", "expected FatArrow, found ColonColon", 4, 12)),
    ("T29", "fn main() -> Int {\n    let Limit = 5\n    if 3 < Limit { 1 } else { 0 }\n}\n",
     ("E002", "expected identifier, found <integer literal>", 3, 20)),
    ("T30", "import \"std-json\"\nfn main() -> Int { 0 }\n",
     ("E002", "expected identifier, found <string literal>", 1, 8)),
    ("T31", "import std_json\nfn main() -> Int { 0 }\n", None),
    ("T32", "fn main() -> String { \"open\n",
     ("E001", 'unexpected character: "\\"open\\n"', 1, 23)),
    ("T33", "fn main() -> String { \"tab:\\t quote:\\\" odd:\\q\" }\n", None),
    ("T34", "fn main() -> String { \"line one\\\nline two\" }\n",
     ("E001", 'unexpected character: "\\"line one"', 1, 23)),
    ("T35", "fn main() -> String { \"line one\nline two\" }\n", None),
    ("T36", "fn main() -> Int {\n    let _ = 5\n    0\n}\n",
     ("E002", "expected identifier, found Underscore", 2, 9)),
    ("T37", "type Token { type: String }\n", ("E002", "expected identifier, found 'type'", 1, 14)),
    ("T38", "enum Outcome { Ok, Failed }\n", ("E002", "expected identifier, found 'Ok'", 1, 16)),
    ("T39", "fn main() -> Int {\n    let xs: List<Int>= [1]\n    0\n}\n",
     ("E002", "expected Gt, found GtEq", 2, 21)),
    ("T40", "fn main() -> Int { Shade::Dark }\n", None),
    ("T41", "enum Shade { Light, Dark }\nfn main() -> Int { Shade::Dim }\n", None),
    ("T42", "fn main() -> Int { spawn 42 }\n", None),
    ("T43", "fnn main() -> Int { 0 }\n",
     ("E002", "expected item, found 'fnn'\n  did you mean: 'fn'?", 1, 1)),
    ("T44", "fn main() -> Int {\n    for v inn [1, 2] { v }\n    0\n}\n",
     ("E002", "expected 'in', found 'inn'\n  did you mean: 'in'?", 2, 11)),
    ("T45", "fn main() -> Int {\n    let width = 4\n    widht\n}\n",
     ("E009", "undefined variable: widht", 3, 5)),
    ("T46", "fn main() -> Int {\n    let ab = 1\n    let ac = 2\n    a\n}\n",
     ("E009", "undefined variable: a", 4, 5)),
    ("T47", "fn main() -> Int intent \"one\" intent \"two\" { 0 }\n",
     ("E002", "duplicate 'intent' clause: a function may declare at most one intent", 1, 38)),
    ("T48", "fn main() -> Int {\n    match \"k\" {\n        \"a\" => 1\n        Some(v) => v\n"
            "        _ => 0\n    }\n}\n", None),
    ("T49", "fn main() -> Int {\n    { let inner = 1 }\n    inner\n}\n",
     ("E009", "undefined variable: inner", 3, 5)),
    ("T50", "fn main() -> Int {\n    let m = { \"a\": 1 }\n    0\n}\n",
     ("E002", "expected expression, found Colon", 2, 18)),
    ("T51", "fn main() -> Int {\n    let u = ()\n    0\n}\n",
     ("E002", "expected expression, found RParen", 2, 14)),
    ("T52", "fn add(a: Int, b: Int,) -> Int { a + b }\n",
     ("E002", "expected identifier, found RParen", 1, 23)),
    ("T53", "fn main() -> Int { [1, 2, 3,]\n 0 }\ntype R { a: Int, }\nenum E { X, Y, }\n", None),
    ("T54", "fn main() -> Int {\n    let inc = |x| x + 1\n    0\n}\n",
     ("E001", 'unexpected character: "|"', 2, 15)),
    ("T55", "fn main() -> Int {\n    let caf\u00e9 = 1\n    0\n}\n",
     ("E001", 'unexpected character: "é"', 2, 12)),
    ("T56", "fn main() -> Int { 0 }\nmodule late\n", ("E002", "expected item, found 'module'", 2, 1)),
    ("T57", "fn main() -> Bool { 1 < 2 < 3 }\n", None),
    ("T58", "fn main() -> Int { 0 }\n\u0000\n", ("E001", 'unexpected character: "\\0"', 2, 1)),
    ("T59", "type P { x: Int }\nfn main() -> Int {\n    let p = P { x: 1, ..p0 }\n    0\n}\n",
     ("E002", "expected identifier, found DotDot", 3, 23)),
    ("T60", "fn main() -> Int {\n    let r = Nothing { a: 1, b: 2 }\n    r.whatever\n}\n", None),
    ("T61", "fn main() -> Int { let x = 1\n x += 1\n x }\n",
     ("E002", "expected expression, found Eq", 2, 5)),
    ("T62", "fn main() -> Int { let p = 1\n p.q = 2\n 0 }\n",
     ("E002", "invalid assignment target", 2, 8)),
    ("T63", "fn main() -> Int { match 1 { _ => return 2 } }\n",
     ("E002", "expected expression, found 'return'", 1, 35)),
    ("T64", "fn worker() -> Int { receive }\nfn main() -> Int {\n    let w = spawn worker\n"
            "    send w \"hi\"\n    emit w\n    0\n}\n", None),
    ("T65", "fn main() -> Int {\n    let x =\n\n\n    ;\n}\n",
     ("E002", "expected expression, found Semi", 3, 1)),
    ("T66", "type State { n: Int }\ntype Msg { tag: String }\nfn init() -> State { State { n: 0 } }\n"
            "fn update(s: State, m: Msg) -> State !{net} { s }\nfn view(s: State) -> String { \"v\" }\n",
     None),
    ("T67", "type State { count: Int }\nfn main() -> Int {\n    let s = State { cout: 1 }\n    0\n}\n",
     None),
    ("T68", "fn main() -> Int {\n    let xs = [" + ", ".join(["0"] * 256) + "]\n    0\n}\n", None),
]

QUICK_VECTORS = [
    ("fn main() -> Int { let value_one: Int = 1\n value_ono }",
     ("E009", "undefined variable: value_ono\n  did you mean: 'value_one'?", 2, 2)),
    ("fn foo() -> Int { 1 }\nfn main() -> Int { let foo = 2\n fo }",
     ("E009", "undefined variable: fo", 3, 2)),
    ("fn main() -> Int { list_lenn([1]) }",
     ("E009", "undefined variable: list_lenn\n  did you mean: 'list_len'?", 1, 20)),
]


def outcome(source):
    try:
        check(source)
    except CompileError as err:
        return (err.code, err.message, err.line, err.col)
    return None


@pytest.mark.parametrize("row_id,source,expected", ROWS, ids=[r[0] for r in ROWS])
def test_spec_row(row_id, source, expected):
    assert outcome(source) == expected


def test_all_68_rows_present():
    assert [r[0] for r in ROWS] == [f"T{n:02d}" for n in range(1, 69)]


@pytest.mark.parametrize("source,expected", QUICK_VECTORS)
def test_quick_vectors(source, expected):
    assert outcome(source) == expected


def test_t24_return_takes_the_value_on_the_next_line():
    program = parse(ROWS[23][1])
    (stmt,) = program.items[0].body.stmts
    assert stmt == ast.Return(ast.IntLit(7))


def test_t33_escapes_are_decoded():
    body = parse(ROWS[32][1]).items[0].body.stmts[0].expr
    assert body == ast.StringLit('tab:\t quote:" odd:\\q')


def test_t35_raw_newline_is_kept_in_the_string():
    body = parse(ROWS[34][1]).items[0].body.stmts[0].expr
    assert body.value == "line one\nline two"


def test_t05_crlf_program_has_the_same_ast_as_lf():
    assert parse(ROWS[4][1]) == parse(ROWS[4][1].replace("\r\n", "\n"))


def test_t09_capabilities_are_kept_verbatim_including_unknown_names():
    program = parse(ROWS[8][1])
    assert program.items[0].capabilities == ["time", "net", "llm", "ui", "db"]
    assert program.items[1].capabilities == ["made.up", "fs.read"]
    assert (program.items[1].caps_line, program.items[1].caps_col) == (2, 18)


def test_t64_actor_forms_parse_to_their_nodes():
    program = parse(ROWS[63][1])
    assert program.items[0].body.stmts[0].expr == ast.Receive()
    stmts = program.items[1].body.stmts
    assert stmts[0].value == ast.Spawn(ast.Ident("worker"))
    assert stmts[1].expr == ast.Send(ast.Ident("w"), ast.StringLit("hi"))
    assert stmts[2].expr == ast.Emit(ast.Ident("w"))


def test_t68_list_of_256_elements_parses():
    program = check(ROWS[67][1])
    assert len(program.items[0].body.stmts[0].value.items) == 256
