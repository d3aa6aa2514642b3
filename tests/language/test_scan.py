"""The C scanner (`boruna.language._scan`, behind `lexer.lex`) against its oracle, the Python
lexer it replaced (tests/language/reference_lexer.py): the same token streams (kinds, values
with their types, lines, byte columns, EOF position) and the same first error (code, message,
line, column) on every input. Inputs: every `.ax` program and template in the repository, the
docs, the 1 MB compile shapes, seeded mutations of all of these, byte soups, and hypothesis
texts over the characters that matter (non-ASCII, lone surrogates, NUL, CRLF, escapes, long
integers). Also: the C scanner's own guarantees (shared kind and identifier objects, no
crash on hostile input) and its refusal of tables it cannot read."""
from __future__ import annotations

import importlib.util
import pathlib
import random
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boruna.language import _scan
from boruna.language.errors import CompileError
from boruna.language.lexer import lex
from boruna.language.tokens import (COMMENT, EOF, FLOAT, IDENT, INT, KEYWORDS, NEWLINE,
                                    PUNCTUATION, STRING)

_HERE = pathlib.Path(__file__).resolve().parent
ROOT = _HERE.parents[1]
_spec = importlib.util.spec_from_file_location("reference_lexer", _HERE / "reference_lexer.py")
reference = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reference)


def _compile_shapes():
    path = ROOT / "benchmarks" / "compile_shapes.py"
    if not path.is_file():
        return {}
    spec = importlib.util.spec_from_file_location("lexer_compile_shapes", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {shape: module.megabyte(shape) for shape in module.SHAPES}


def outcome(lex_fn, src, comments=False):
    """Everything observable of one lex: the stream (values with their exact types) or the
    error."""
    try:
        ts = lex_fn(src, comments)
    except CompileError as err:
        return ("error", err.code, err.message, err.line, err.col)
    return (ts.kinds, [(type(v), v) for v in ts.values], ts.lines, ts.cols,
            ts.eof_line, ts.eof_col)


def assert_same(src, comments=False):
    got = outcome(lex, src, comments)
    want = outcome(reference.lex, src, comments)
    assert got == want, src[:200]
    if got[0] != "error":
        ts = lex(src, comments)
        # the kinds are tokens.py's own str objects (keywords: their spelling's)
        known = {id(k) for k in (*KEYWORDS, *PUNCTUATION.values(), IDENT, INT, FLOAT, STRING,
                                 NEWLINE, EOF, COMMENT)}
        assert all(id(k) in known for k in ts.kinds)
        # one str object per distinct identifier
        names = {}
        for kind, value in zip(ts.kinds, ts.values):
            if kind == IDENT:
                assert names.setdefault(value, value) is value
    return got


def _corpus_files():
    patterns = ("**/*.ax", "**/*.ax.template", "docs/**/*.md")
    found = set()
    for pattern in patterns:
        for path in ROOT.glob(pattern):
            if ".venv" not in path.parts and "build" not in path.parts and path.is_file():
                found.add(path)
    return sorted(found)


CORPUS = _corpus_files()


def test_the_corpus_holds_the_repository_programs():
    names = {p.name for p in CORPUS}
    assert any(p.suffix == ".ax" and "libs" in p.parts for p in CORPUS)
    assert any(n.endswith(".ax.template") for n in names)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_repository_text_lexes_as_the_oracle_does(path):
    text = path.read_text(encoding="utf-8")
    assert_same(text)
    assert_same(text, comments=True)
    assert_same(text.replace("\n", "\r\n"))


def test_the_compile_shapes_lex_as_the_oracle_does():
    shapes = _compile_shapes()
    for shape, text in shapes.items():
        got = assert_same(text)
        assert got[0] != "error", shape


@pytest.mark.parametrize("source", [
    "fn main() -> Int {\n    let x = 1  +\t2 // two\n\n  x }",
    "  \t x\r\n y\n\n\n// c\n// d\nz", "a/b / c /\td //e\n", "\"\" \"a b\"\t\"c\"",
    "1.5 2 3.x 123456789012345678 0.0", "x.1.2 _ __ x_1 if_ fnx fn\tlet\r", "",
    "\n", "  ", "// only", "a//b\nc",
])
@pytest.mark.parametrize("lex_fn", [lex, reference.lex], ids=["scan", "reference"])
def test_without_comments_the_stream_is_the_one_with_comments_less_them(source, lex_fn):
    # and the oracle's ASCII fast path gives its master pattern's tokens
    fast = reference._lex_ascii(source) if lex_fn is reference.lex else lex(source)
    slow = lex_fn(source, comments=True)
    keep = [i for i, kind in enumerate(slow.kinds) if kind != "Comment"]
    assert fast is not None
    assert fast.kinds == [slow.kinds[i] for i in keep]
    assert fast.values == [slow.values[i] for i in keep]
    assert fast.lines == [slow.lines[i] for i in keep]
    assert fast.cols == [slow.cols[i] for i in keep]
    assert (fast.eof_line, fast.eof_col) == (slow.eof_line, slow.eof_col)


@pytest.mark.parametrize("source", [
    "x @ y", "a & b", "a | b", '"a\\nb"', '"a\nb"', '"open', "1234567890123456789", "\f",
])
def test_the_oracles_ascii_fast_path_hands_the_unusual_back(source):
    assert reference._lex_ascii(source) is None
    assert_same(source)


_PIECES = ("fn", "let", "_", "_x", "x1", "None", "Some", " ", "\t", "\r", "\n", "\r\n", "\n\n",
           "0", "007", "1.5", "1.", ".5", "9223372036854775807", "9223372036854775808",
           "00000000000000000009223372036854775807", "12345678901234567890", '"', '""',
           '"a b"', '"\\n\\t\\r\\\\\\""', '"\\q"', '"\\', '"x\\\n"', '"é"', '"a\nb"', "//", "// c",
           "/", "&", "|", "&&", "||", "=", "==", "=>", "-", "->", ".", "..", ":", "::", "+",
           "++", "!", "!=", "<", "<=", ">", ">=", "@", "#", "$", "`", "~", "?", "\\", "'",
           "\x00", "\x0b", "\x0c", "\x7f", "é", "ß", "\u00a0", "\u2028", "\u0301", "\ufeff",
           "€", "\U0001f600", "\ud800", "\udfff", "\udcff", "{", "}", "(", ")", "[", "]",
           ",", ";", "*", "%")


def _mutate(rng, text):
    """`text` with a few random edits: deletions, duplications, insertions of pieces."""
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        at = rng.randint(0, len(chars))
        edit = rng.randrange(3)
        if edit == 0 and chars:
            del chars[at:at + rng.randint(1, 3)]
        elif edit == 1 and chars:
            chars[at:at] = chars[at:at + rng.randint(1, 8)]
        else:
            chars[at:at] = rng.choice(_PIECES)
    return "".join(chars)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_mutations_of_the_corpus_lex_as_the_oracle_does(path):
    text = path.read_text(encoding="utf-8")
    rng = random.Random(path.name)
    for _ in range(40):
        mutated = _mutate(rng, text)
        assert_same(mutated)
        assert_same(mutated, comments=True)


def test_byte_soups_lex_as_the_oracle_does():
    rng = random.Random(25)
    for size in (0, 1, 2, 3, 5, 8, 16, 64, 256, 1024):
        for _ in range(60):
            soup = bytes(rng.randrange(256) for _ in range(size))
            assert outcome(lex, soup) == outcome(reference.lex, soup)
            ascii_soup = bytes(rng.randrange(128) for _ in range(size))
            assert outcome(lex, ascii_soup) == outcome(reference.lex, ascii_soup)
            assert_same(ascii_soup.decode("ascii"), comments=True)


def test_piece_soups_lex_as_the_oracle_does():
    rng = random.Random(2025)
    for _ in range(3000):
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 12)))
        assert_same(text)
        assert_same(text, comments=True)


_CHARS = st.one_of(
    st.sampled_from(list("azAZ_09.\"\\/ \t\r\n=<>!&|-+:*%(){}[],;@")),
    st.characters(min_codepoint=0, max_codepoint=0x10FFFF),   # surrogates included
    st.sampled_from(["\ud800", "\udc80", "é", "€", "\U0001f600", "\x00"]),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_CHARS, max_size=40).map("".join), st.booleans())
def test_any_text_lexes_as_the_oracle_does(text, comments):
    assert_same(text, comments)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_PIECES), max_size=30).map("".join), st.booleans())
def test_any_token_soup_lexes_as_the_oracle_does(text, comments):
    assert_same(text, comments)


@pytest.mark.parametrize("src,error", [
    ("x \ud800", ("error", "E001", 'unexpected character: "\\u{d800}"', 1, 3)),
    ('"ab\\\ud800"', ("error", "E001", 'unexpected character: "\\u{d800}"', 1, 5)),
    ('"é\n€\ud800"', ("error", "E001", 'unexpected character: "\\u{d800}"', 2, 4)),
    ('é "ab', ("error", "E001", 'unexpected character: "é"', 1, 1)),
    ('x "ab\\', ("error", "E001", 'unexpected character: "\\"ab"', 1, 3)),
    ('"é" "ab\\\n"', ("error", "E001", 'unexpected character: "\\"ab"', 1, 6)),
    ("x\x00", ("error", "E001", 'unexpected character: "\\0"', 1, 2)),
    ("// é\ud800", ("error", "E001", 'unexpected character: "\\u{d800}"', 1, 6)),
    ("1 99999999999999999999", ("error", "E001",
                                'unexpected character: "99999999999999999999"', 1, 3)),
])
def test_errors_positions_and_spans(src, error):
    assert assert_same(src) == error


def test_integer_bounds():
    top = "9223372036854775807"
    assert lex(top).values[0] == 2**63 - 1
    assert lex("0" * 50 + top).values[0] == 2**63 - 1
    assert lex("0" * 50).values[0] == 0
    assert assert_same(top[:-1] + "8")[0] == "error"
    assert assert_same("1" + "0" * 19)[0] == "error"


def test_floats_read_as_python_reads_them():
    for text in ("0.1", "1.7976931348623157", "9" * 400 + ".5", "0." + "0" * 400 + "1",
                 "123456789012345678901234567890.123456789"):
        assert lex(text).values[0] == float(text)
        assert_same(text)


def test_the_escapes_decode_and_others_stay():
    assert lex('"\\\\ \\" \\n \\t \\r \\q \\é"').values[0] == '\\ " \n \t \r \\q \\é'


def test_non_str_sources():
    assert outcome(lex, b'fn "\xff"') == outcome(reference.lex, b'fn "\xff"')
    assert outcome(lex, bytearray(b"let x")) == outcome(reference.lex, bytearray(b"let x"))
    assert outcome(lex, 42) == ("error", "E001", "source must be text", 1, 1)

    class Text(str):
        pass
    assert_same(Text('let x = "é" // c'))
    assert type(lex(Text("x")).values[0]) is str


def test_huge_and_degenerate_inputs_do_not_crash():
    for text in ("x" * 1_000_000, "1" * 100_000, '"' + "é" * 200_000 + '"',
                 "\n" * 300_000, "\x00" * 10, "\ud800" * 10, "/" * 10_001,
                 "_" * 70_000 + " " + "_" * 70_000, '"' + "\\n" * 100_000 + '"',
                 "1." + "5" * 100_000):
        assert_same(text)
        assert_same(text, comments=True)


def test_many_distinct_identifiers_share_nothing_wrongly():
    text = " ".join(f"v{i}" for i in range(50_000)) + " " + " ".join(
        f"v{i}" for i in range(0, 50_000, 7))
    assert_same(text)
    ts = lex(text)
    assert ts.values[50_000 + 1] is ts.values[7]


_KINDS = (IDENT, INT, FLOAT, STRING, NEWLINE, EOF, COMMENT)


def test_scan_without_tables_and_bad_tables_are_refused():
    with pytest.raises(TypeError):
        _scan.scan(b"x")
    try:
        with pytest.raises(ValueError, match="given twice"):
            _scan.configure(("fn", "fn"), PUNCTUATION, _KINDS)
        with pytest.raises(RuntimeError, match="configure"):
            _scan.scan("x")
        for bad in ({"+++": "Triple"}, {"//": "Slashes"}, {"1": "One"}, {" ": "Blank"},
                    {'"': "Quote"}, {"é": "E"}, {"": "Empty"}):
            with pytest.raises(ValueError, match="cannot read"):
                _scan.configure(KEYWORDS, bad, _KINDS)
        with pytest.raises(ValueError, match="cannot read"):
            _scan.configure(("f-n",), PUNCTUATION, _KINDS)
    finally:
        _scan.configure(KEYWORDS, PUNCTUATION, _KINDS)
    assert_same("fn main() {}")


def test_the_lexer_module_holds_no_python_scanner():
    import boruna.language.lexer as lexer
    assert not hasattr(lexer, "re") and "boruna.language._scan" in sys.modules


def test_a_failed_allocation_anywhere_is_a_memory_error_and_nothing_else():
    testcapi = pytest.importorskip("_testcapi")
    src = 'fn main() { let x = "a\\n" + 1.5 // c\n y 12 }\n' * 20 + 'é "ü" v0 @'
    want = _scan.scan(src, True)
    failures = 0
    for start in range(600):
        testcapi.set_nomemory(start, start + 1)
        try:
            got = _scan.scan(src, True)
        except MemoryError:
            got = None
        finally:
            testcapi.remove_mem_hooks()
        if got is None:
            failures += 1
        else:
            assert got == want
    assert failures > 50


@pytest.mark.parametrize("src", ['fn main() { x = "é" + 1 }\n' * 200 + "@",
                                 "v1 v2 v3 1.5 \"s\\n\" // c\n" * 200])
def test_scanning_again_and_again_keeps_no_memory(src):
    def run():
        for _ in range(200):
            try:
                lex(src, comments=True)
            except CompileError:
                pass
    run()
    before = sys.getallocatedblocks()
    run()
    assert sys.getallocatedblocks() - before < 100
