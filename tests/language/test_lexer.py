"""The lexer (docs/spec/language.md §1): token kinds, longest match, literals, Newline tokens,
positions, and E001 messages with Rust-Debug quoting."""
import pytest

from boruna.core.unicode import debug_str
from boruna.language.errors import CompileError
from boruna.language.lexer import lex, tokenize
from boruna.language.tokens import KEYWORDS, Token, display_token


def kinds(source):
    return [t.kind for t in tokenize(source)]


def lex_error(source):
    with pytest.raises(CompileError) as info:
        tokenize(source)
    err = info.value
    return (err.code, err.message, err.line, err.col)


@pytest.mark.parametrize("source,expected", [
    ("===", ["EqEq", "Eq"]),
    ("=>=", ["FatArrow", "Eq"]),
    ("->>", ["Arrow", "Gt"]),
    ("<=>", ["LtEq", "Gt"]),
    ("!==", ["BangEq", "Eq"]),
    ("...", ["DotDot", "Dot"]),
    ("+++", ["PlusPlus", "Plus"]),
    (":::", ["ColonColon", "Colon"]),
    (">>", ["Gt", "Gt"]),
    ("&& || !", ["AndAnd", "OrOr", "Bang"]),
    ("+ - * / %", ["Plus", "Minus", "Star", "Slash", "Percent"]),
    ("( ) { } [ ] , ;", ["LParen", "RParen", "LBrace", "RBrace", "LBracket", "RBracket",
                         "Comma", "Semi"]),
    ("_ _x __builtin_len", ["Underscore", "Ident", "Ident"]),
    ("/* x */", ["Slash", "Star", "Ident", "Star", "Slash"]),
])
def test_longest_match_and_punctuation(source, expected):
    assert kinds(source) == expected


def test_exactly_28_keywords_and_their_display():
    assert len(KEYWORDS) == 28
    for word in KEYWORDS:
        assert kinds(word) == [word]
        assert display_token(word) == f"'{word}'"


@pytest.mark.parametrize("word", ["fnx", "format", "Something", "None_", "int", "types",
                                  "none", "NONE", "Type", "If", "record", "loop", "self"])
def test_words_that_are_not_keywords_are_identifiers(word):
    assert tokenize(word) == [Token("Ident", word, 1, 1)]


@pytest.mark.parametrize("source,expected", [
    ("007", [("IntLit", 7)]),
    ("0x10", [("IntLit", 0), ("Ident", "x10")]),
    ("1_000", [("IntLit", 1), ("Ident", "_000")]),
    ("1.", [("IntLit", 1), ("Dot", None)]),
    (".5", [("Dot", None), ("IntLit", 5)]),
    ("1.5e3", [("FloatLit", 1.5), ("Ident", "e3")]),
    ("1..2", [("IntLit", 1), ("DotDot", None), ("IntLit", 2)]),
    ("1.x", [("IntLit", 1), ("Dot", None), ("Ident", "x")]),
    ("9223372036854775807", [("IntLit", 9223372036854775807)]),
    ("0009223372036854775807", [("IntLit", 9223372036854775807)]),
    ("2.50", [("FloatLit", 2.5)]),
])
def test_number_literals(source, expected):
    assert [(t.kind, t.value) for t in tokenize(source)] == expected


def test_overlong_float_becomes_infinity():
    (token,) = tokenize("9" * 400 + ".0")
    assert token.kind == "FloatLit" and token.value == float("inf")


def test_huge_integer_is_e001_without_converting_it():
    digits = "1" * 100_000
    assert lex_error(digits) == ("E001", f'unexpected character: "{digits}"', 1, 1)


@pytest.mark.parametrize("source,value", [
    (r'"a\nb"', "a\nb"),
    (r'"t\tr\r"', "t\tr\r"),
    (r'"q\"q"', 'q"q'),
    (r'"back\\slash"', "back\\slash"),
    (r'"\q\0\u"', "\\q\\0\\u"),
    (r'"\\n"', "\\n"),
    ('"raw\ttab\rcr\u0000nul"', "raw\ttab\rcr\u0000nul"),
    ('"é😀"', "é😀"),
    ('""', ""),
])
def test_string_escapes_are_decoded(source, value):
    assert tokenize(source) == [Token("StringLit", value, 1, 1)]


def test_newline_runs_collapse_and_carry_the_next_line():
    source = "a\n\n  // comment\n\t\nb // trailing\nc"
    assert tokenize(source) == [
        Token("Ident", "a", 1, 1), Token("Newline", None, 2, 1),
        Token("Ident", "b", 5, 1), Token("Newline", None, 6, 1),
        Token("Ident", "c", 6, 1),
    ]


def test_leading_newline_is_a_token():
    assert kinds("\n\nx") == ["Newline", "Ident"]


def test_carriage_return_is_whitespace():
    assert tokenize("a\r\n\rb") == [Token("Ident", "a", 1, 1), Token("Newline", None, 2, 1),
                                    Token("Ident", "b", 2, 2)]


def test_columns_are_bytes_and_true_after_multiline_strings():
    assert [(t.line, t.col) for t in tokenize('"é" x')] == [(1, 1), (1, 6)]
    toks = tokenize('"a\nbcd" x y')
    assert [(t.kind, t.line, t.col) for t in toks] == [
        ("StringLit", 1, 1), ("Ident", 2, 6), ("Ident", 2, 8)]
    toks = tokenize('"ü\nöö" z')
    assert (toks[1].line, toks[1].col) == (2, 7)


def test_tab_counts_as_one_column():
    assert tokenize("\t\tx")[0].col == 3


def test_eof_position():
    stream = lex("ab\ncd")
    assert (stream.eof_line, stream.eof_col) == (2, 3)
    assert lex('"é"').eof_col == 5
    assert (lex("x\n").eof_line, lex("x\n").eof_col) == (2, 1)


@pytest.mark.parametrize("source,expected", [
    ("@", ("E001", 'unexpected character: "@"', 1, 1)),
    ("fn main() -> Int { 0 @ }", ("E001", 'unexpected character: "@"', 1, 22)),
    ("'", ("E001", "unexpected character: \"'\"", 1, 1)),
    ("\\", ("E001", 'unexpected character: "\\\\"', 1, 1)),
    ("\ufeffx", ("E001", 'unexpected character: "\\u{feff}"', 1, 1)),
    ("a & b", ("E001", 'unexpected character: "&"', 1, 3)),
    ("a\n  | b", ("E001", 'unexpected character: "|"', 2, 3)),
    ("x\x0cy", ("E001", 'unexpected character: "\\u{c}"', 1, 2)),
    ("\u00a0", ("E001", 'unexpected character: "\\u{a0}"', 1, 1)),
    ("😀", ("E001", 'unexpected character: "😀"', 1, 1)),
    ('"é" @', ("E001", 'unexpected character: "@"', 1, 6)),
    ('"a\nbcd" x y @', ("E001", 'unexpected character: "@"', 2, 10)),
    ('x "unterminated', ("E001", 'unexpected character: "\\"unterminated"', 1, 3)),
    ('"abc\\', ("E001", 'unexpected character: "\\"abc"', 1, 1)),
    ('"two\nlines\n', ("E001", 'unexpected character: "\\"two\\nlines\\n"', 1, 1)),
    ("// ok \r \0 comment\n#", ("E001", 'unexpected character: "#"', 2, 1)),
])
def test_lexer_errors(source, expected):
    assert lex_error(source) == expected


def test_lone_surrogates_are_rejected_everywhere():
    assert lex_error("a \ud800") == ("E001", 'unexpected character: "\\u{d800}"', 1, 3)
    assert lex_error('"ab\udc00"') == ("E001", 'unexpected character: "\\u{dc00}"', 1, 4)
    assert lex_error('"a\\\ud800"') == ("E001", 'unexpected character: "\\u{d800}"', 1, 4)
    assert lex_error("// é \ud800") == ("E001", 'unexpected character: "\\u{d800}"', 1, 7)


def test_bytes_input_is_decoded_and_invalid_utf8_is_e001():
    assert tokenize(b"fn") == [Token("fn", None, 1, 1)]
    assert lex_error(b"x \xff") == ("E001", 'unexpected character: "\\u{dcff}"', 1, 3)


@pytest.mark.parametrize("text,quoted", [
    ("@", '"@"'), ("\r", '"\\r"'), ("\0", '"\\0"'), ("\t\n", '"\\t\\n"'),
    ('"', '"\\""'), ("'", "\"'\""), ("\\", '"\\\\"'), ("\x7f", '"\\u{7f}"'),
    ("\x1b", '"\\u{1b}"'), ("e\u0301", '"e\\u{301}"'), ("\u200d", '"\\u{200d}"'),
    ("\u2028", '"\\u{2028}"'), ("\u00ad", '"\\u{ad}"'), ("é", '"é"'), ("日本", '"日本"'),
    (" ", '" "'),
])
def test_rust_debug_quoting(text, quoted):
    assert debug_str(text) == quoted


def test_comments_are_kept_only_on_request():
    source = "a // one\n\n// two\nb"
    assert tokenize(source, comments=True) == [
        Token("Ident", "a", 1, 1), Token("Comment", " one", 1, 3),
        Token("Newline", None, 2, 1), Token("Comment", " two", 3, 1),
        Token("Ident", "b", 4, 1)]
    assert [t.kind for t in tokenize(source)] == ["Ident", "Newline", "Ident"]


def test_a_comment_wins_over_the_slash_and_words_know_their_kind():
    # one pattern group holds identifiers, keywords and punctuation; `//` is tried first
    assert kinds("a/b//c / d") == ["Ident", "Slash", "Ident"]
    assert tokenize("fn _ x ::", comments=True) == [
        Token("fn", None, 1, 1), Token("Underscore", None, 1, 4), Token("Ident", "x", 1, 6),
        Token("ColonColon", None, 1, 8)]
    assert [(t.kind, t.col) for t in tokenize('"é" + x')] == [
        ("StringLit", 1), ("Plus", 6), ("Ident", 8)]
