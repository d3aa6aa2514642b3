"""Compiler-style error display: location line, source excerpt, caret, help lines."""
from types import SimpleNamespace

from boruna.cli.render import format_compile_error, split_message
from boruna.cli.snippet import char_index, render_snippet, source_line
from boruna.cli.style import Style

PLAIN = Style(False)
SOURCE = "fn main() -> Int {\n    let width = 3\n    widht * 2\n}\n"


def test_source_line():
    assert source_line(SOURCE, 3) == "    widht * 2"
    assert source_line("a\r\nb\r\n", 1) == "a"
    assert source_line(SOURCE, 0) is None
    assert source_line(SOURCE, 99) is None


def test_char_index_counts_bytes():
    assert char_index("é@", 3) == 1
    assert char_index("abc", 1) == 0
    assert char_index("abc", 40) == 3


def test_snippet_underlines_the_identifier():
    assert render_snippet(SOURCE, "p.ax", 3, 5, PLAIN) == [
        " --> p.ax:3:5",
        "  |",
        "3 |     widht * 2",
        "  |     ^^^^^",
    ]


def test_snippet_single_caret_on_punctuation():
    assert render_snippet("let x = ;\n", "p.ax", 1, 9, PLAIN)[-1] == "  |         ^"


def test_snippet_without_column_has_no_caret():
    assert render_snippet(SOURCE, "p.ax", 2, None, PLAIN) == [
        " --> p.ax:2", "  |", "2 |     let width = 3"]


def test_snippet_past_the_end_shows_only_the_location():
    assert render_snippet("x", "p.ax", 7, 1, PLAIN) == [" --> p.ax:7:1"]


def test_snippet_tabs_and_multibyte_characters():
    src = '\tlet s = "é" @\n'
    lines = render_snippet(src, "p.ax", 1, len('\tlet s = "é" '.encode()) + 1, PLAIN)
    assert lines[2] == '1 |     let s = "é" @'
    assert lines[3] == "  |                 ^"


def test_snippet_wide_characters_take_two_cells():
    src = 'let s = "日本" @'
    lines = render_snippet(src, "p.ax", 1, len('let s = "日本" '.encode()) + 1, PLAIN)
    assert lines[3] == "  |" + " " * 16 + "^"


def test_gutter_widens_for_long_line_numbers():
    src = "\n" * 120 + "oops\n"
    assert render_snippet(src, "p.ax", 121, 1, PLAIN) == [
        "   --> p.ax:121:1", "    |", "121 | oops", "    | ^^^^"]


def test_split_message_did_you_mean():
    assert split_message("undefined variable: widht\n  did you mean: 'width'?") == (
        "undefined variable: widht", ["did you mean: 'width'?"], [])


def test_compile_error_full_report():
    err = SimpleNamespace(code="E009", message="undefined variable: widht\n  did you mean: 'width'?",
                          line=3, col=5)
    assert format_compile_error(err, "p.ax", SOURCE, PLAIN) == "\n".join([
        "error[E009]: undefined variable: widht",
        " --> p.ax:3:5",
        "  |",
        "3 |     widht * 2",
        "  |     ^^^^^",
        "  = help: did you mean: 'width'?",
    ])


def test_compile_error_without_position():
    err = SimpleNamespace(code="E008", message="unknown enum: Shade", line=0, col=0)
    assert format_compile_error(err, "p.ax", SOURCE, PLAIN) == \
        "error[E008]: unknown enum: Shade\n --> p.ax"


def test_reference_caret_decoration_is_not_repeated():
    err = SimpleNamespace(code="E001", line=1, col=13,
                          message='unexpected character: "@"\n  fn main() { @ }\n              ^')
    text = format_compile_error(err, "p.ax", "fn main() { @ }\n", PLAIN)
    assert text.count("^") == 1
    assert text.splitlines()[0] == 'error[E001]: unexpected character: "@"'


def test_colour_marks_the_label():
    err = SimpleNamespace(code="E002", message="expected expression, found Semi", line=1, col=9)
    text = format_compile_error(err, "p.ax", "let x = ;", Style(True))
    assert text.startswith("\x1b[1;31merror[E002]\x1b[0m\x1b[1m: expected expression")


def test_split_message_dash_advice_becomes_help():
    message = ("expected item, found 'fnn'\n  did you mean: 'fn'? \u2014 check for mismatched "
               "braces or a missing expression")
    assert split_message(message) == (
        "expected item, found 'fnn'",
        ["did you mean: 'fn'?", "check for mismatched braces or a missing expression"], [])


def test_labels_are_drawn_in_line_order_with_gaps():
    source = "fn f(a: Int) -> Int { a }\n\nfn main() -> Int {\n    f(\"x\")\n}\n" + "\n" * 5 + "x\n"
    labels = [(1, 9, 12, "declared here"), (4, 5, 6, "the callee"), (11, 1, 2, "later")]
    assert render_snippet(source, "p.ax", 4, 7, PLAIN, end_col=10, labels=labels) == [
        "  --> p.ax:4:7",
        "   |",
        " 1 | fn f(a: Int) -> Int { a }",
        "   |         --- declared here",
        "...",
        ' 4 |     f("x")',
        "   |       ^^^",
        "   |     - the callee",
        "...",
        "11 | x",
        "   | - later",
    ]


def test_a_label_on_the_next_line_has_no_gap_marker():
    source = "let a = 1\nlet b = a\n"
    assert render_snippet(source, "p.ax", 1, 5, PLAIN, labels=[(2, 9, 10, "used")]) == [
        " --> p.ax:1:5",
        "  |",
        "1 | let a = 1",
        "  |     ^",
        "2 | let b = a",
        "  |         - used",
    ]
