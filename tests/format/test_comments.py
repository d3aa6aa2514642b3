"""Comments come back where they were: leading on their own lines, trailing at the end of
their line, dangling inside their brackets; blank-line paragraphs kept (at most one); never
one lost, always in order."""
import pytest

from boruna.format import format_source
from boruna.format.comments import Comments
from boruna.language.lexer import tokenize


def texts(source):
    return ["//" + t.value.rstrip() for t in tokenize(source, comments=True)
            if t.kind == "Comment"]


def test_leading_trailing_dangling_and_paragraphs_in_a_block():
    source = ("// header\n\n// about main\nfn main() -> Int { // opening\n    // leading\n"
              "    let x = 1 // trailing\n\n\n    // paragraph\n    x // last\n"
              "    // dangling\n}\n// the end\n")
    assert format_source(source) == (
        "// header\n\n// about main\nfn main() -> Int { // opening\n    // leading\n"
        "    let x = 1 // trailing\n\n    // paragraph\n    x // last\n    // dangling\n}\n"
        "// the end\n")


def test_comments_in_records_calls_and_lists_break_them_one_entry_a_line():
    source = ("fn main() { let r = Point { x: 1, // first\n y: 2 } f(a, // after a\n b) "
              "let l = [1, // one\n 2, // two\n] }")
    assert format_source(source) == (
        "fn main() {\n    let r = Point {\n        x: 1, // first\n        y: 2,\n    }\n"
        "    f(\n        a, // after a\n        b\n    )\n    let l = [\n        1, // one\n"
        "        2, // two\n    ]\n}\n")


def test_comments_between_match_arms_and_type_fields():
    assert format_source("fn main() { let v = match x { 1 => 2, // one\n // before two\n"
                         " 2 => 3 } }") == (
        "fn main() {\n    let v = match x {\n        1 => 2, // one\n        // before two\n"
        "        2 => 3,\n    }\n}\n")
    assert format_source("type P { x: Int, // the x\n // the y\n y: Int }") == (
        "type P {\n    x: Int, // the x\n    // the y\n    y: Int,\n}\n")


def test_a_comment_after_an_operator_or_an_opening_bracket_stays_there():
    assert format_source("fn main() { let x = a + // after plus\n b }") == (
        "fn main() {\n    let x = a + // after plus\n        b\n}\n")
    assert format_source("fn main() { f( // nothing\n) }") == (
        "fn main() {\n    f( // nothing\n    )\n}\n")


def test_a_trailing_comment_after_a_call_does_not_break_it():
    assert format_source("fn main() {\n    let y = foo(1, 2) // why\n}\n") == (
        "fn main() {\n    let y = foo(1, 2) // why\n}\n")


def test_comment_text_is_kept_less_trailing_blanks():
    source = "fn main() {\n    //   indented  text   \n    1\n}\n//\n"
    assert format_source(source) == "fn main() {\n    //   indented  text\n    1\n}\n//\n"


def test_a_file_of_comments_only():
    assert format_source("// one\n\n\n// two\n") == "// one\n\n// two\n"


@pytest.mark.parametrize("source", [
    # comments in every odd place: between tokens of a signature, a let, an if, a type
    "fn // a\n main // b\n ( // c\n x // d\n : // e\n Int // f\n ) // g\n -> // h\n Int // i\n"
    " { x }",
    "fn main() { let // a\n mut // b\n x // c\n = // d\n 1 // e\n if // f\n x // g\n { // h\n"
    " } // i\n else // j\n { // k\n } }",
    "enum E { // a\n A // b\n , // c\n B(Int) // d\n } // e\n",
    "fn main() { (a // a\n ) + ( // b\n b) // c\n }",
    "fn main() { emit // a\n x send // b\n a // c\n b spawn // d\n (f(x)) }",
])
def test_no_comment_is_ever_lost_and_the_layout_is_stable(source):
    once = format_source(source)
    assert texts(once) == texts(source)
    assert format_source(once) == once


def test_the_cursor_finds_every_printed_token_of_the_examples():
    from boruna.format.doc import render
    from boruna.format.printer import Printer
    from boruna.language.parser import parse_program

    source = open(__file__.rsplit("/tests/", 1)[0] + "/examples/counter_app.ax").read()
    comments = Comments(source)
    render(Printer(comments).program_doc(parse_program(source)))
    assert comments.misses == 0 and not comments.active and comments.count == 4
