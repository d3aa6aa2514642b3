"""Whatever the input, the frontend either returns a Program or raises CompileError with a
code, a message and a position; it never leaks another exception."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boruna.language import ast
from boruna.language.ast_json import dumps, to_json_obj
from boruna.language.errors import CompileError
from boruna.language.frontend import check, parse

VALID = """module demo
type Point { x: Int, y: Int }
enum Shape { Dot, Circle(Float), Box(Point) }
fn area(s: Shape) -> Float {
    match s {
        Dot => 0.0
        Circle(r) => 3.14 * r * r,
        Box(p) => 1.0
    }
}
export fn main() -> Int !{net, fs.read} intent "demo" requires 1 > 0 {
    let mut total = 0
    let xs: List<Int> = [1, 2, 3,]
    for v in xs { total = total + v }
    while total > 100 { total = total - 1 }
    let p = Point { x: 1, y: -2 }
    let q = Point { ..p, y: 3 }
    let msg = "sum: " ++ __builtin_int_to_string(total) // comment
    if total >= 6 && !false || p.x != q.y { emit msg } else { 0 }
    let w = spawn area
    send w Shape::Circle(2.0)
    receive
    Some(Ok(Err(None)))
    return total % 7
}
"""

ALPHABET = st.sampled_from(list("fnletmuifs{}()[]<>=!&|+-*/%.,:;_\"\\\n\r\t 0123456789aZé@#\x00"))
PIECES = st.sampled_from(["fn", "let", "match", "if", "else", "{", "}", "(", ")", "=>", "->",
                          "!{", "::", "..", '"', "\\", "\n", "import ", "Some(", "x", "Foo",
                          "1", "2.5", " ", "\r\n", ",", "=", "|", "\ud800", "9" * 25])


def assert_clean(source):
    try:
        program = check(source)
    except CompileError as err:
        assert err.code in ("E001", "E002", "E009")
        assert isinstance(err.message, str) and err.message
        assert not err.message.startswith("internal")
        assert err.line >= 1 and err.col >= 1
        return None
    assert isinstance(program, ast.Program)
    dumps(to_json_obj(program))
    return program


def test_the_valid_program_checks():
    program = assert_clean(VALID)
    assert program is not None and len(program.items) == 4


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_arbitrary_text(source):
    assert_clean(source)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(ALPHABET, PIECES), max_size=80).map("".join))
def test_token_soup(source):
    assert_clean(source)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_mutated_valid_program(data):
    source = VALID
    for _ in range(data.draw(st.integers(1, 4))):
        pos = data.draw(st.integers(0, len(source)))
        action = data.draw(st.sampled_from(["delete", "insert", "replace", "swap"]))
        if action == "delete":
            end = data.draw(st.integers(pos, min(len(source), pos + 8)))
            source = source[:pos] + source[end:]
        elif action == "insert":
            source = source[:pos] + data.draw(st.one_of(ALPHABET, PIECES)) + source[pos:]
        elif action == "replace":
            source = source[:pos] + data.draw(ALPHABET) + source[pos + 1:]
        else:
            other = data.draw(st.integers(0, len(source)))
            a, b = sorted((pos, other))
            source = source[:a] + source[b:] + source[a:b]
    assert_clean(source)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_arbitrary_bytes(data):
    assert_clean(data)


@pytest.mark.parametrize("source", [
    "\x00", "\ud800", "\udfff" * 3, "fn main() { \"\ud800\" }", "9" * 5000, "1." * 1000,
    "\"" * 1001, "\\", "fn" * 10000, "{" * 50_000, "fn f() {" + "}" * 50_000,
    "fn main() {\n" + "x = 1\n" * 1000 + "}", " " * 1_000_000, "\n" * 1_000_000,
    "// " + "é" * 300_000, "fn main() -> Int { " + "1 + " * 100_000 + "1 }",
], ids=lambda source: f"len{len(source)}-{source[:12].encode('unicode_escape').decode()}")
def test_hostile_inputs(source):
    assert_clean(source)


def test_one_megabyte_program_checks():
    chunk = "fn f{i}(a: Int) -> Int {{ let b = a * 2 + {i}\n    if b > 10 {{ b }} else {{ f{i}(b) }} }}\n"
    source = "".join(chunk.format(i=i) for i in range(12_000))
    assert len(source) > 1_000_000
    assert len(check(source).items) == 12_000


def test_non_text_input_is_a_compile_error():
    with pytest.raises(CompileError) as info:
        parse(12345)
    assert info.value.code == "E001"
