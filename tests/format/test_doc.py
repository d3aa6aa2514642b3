"""The document algebra: groups flat when they fit, else broken; nesting; hard lines break
the groups around them; trailing commas only when broken; line suffixes; fresh lines."""
from boruna.format.doc import (BREAK_PARENT, FRESHLINE, HARDLINE, LINE, SOFTLINE, Group,
                               IfBreak, LineSuffix, Nest, group, indent, join, render)


def call(name, args):
    return group(name, "(", indent(SOFTLINE, join([",", LINE], args)), SOFTLINE, ")")


def test_a_group_that_fits_prints_flat():
    assert render(call("f", ["a", "b"]), 20) == "f(a, b)"


def test_a_group_that_does_not_fit_breaks_and_indents():
    assert render(call("f", ["alpha", "beta"]), 10) == "f(\n    alpha,\n    beta\n)"


def test_the_width_counts_what_follows_the_group_up_to_a_line_break():
    doc = [call("f", ["a", "b"]), ") + more", HARDLINE, "x"]
    assert render(doc, 14) == "f(\n    a,\n    b\n)) + more\nx"
    assert render(doc, 15) == "f(a, b)) + more\nx"


def test_inner_groups_break_independently():
    doc = call("outer", [call("inner", ["x"]), "a_long_argument_name"])
    assert render(doc, 30) == "outer(\n    inner(x),\n    a_long_argument_name\n)"


def test_a_hard_line_breaks_every_group_around_it():
    doc = group("[", indent(SOFTLINE, "a", HARDLINE, "b"), SOFTLINE, "]")
    assert render(doc, 100) == "[\n    a\n    b\n]"


def test_if_break_prints_its_broken_text_only_in_a_broken_group():
    doc = group("[", indent(SOFTLINE, join([",", LINE], ["aa", "bb"]), IfBreak(",")),
                SOFTLINE, "]")
    assert render(doc, 100) == "[aa, bb]"
    assert render(doc, 5) == "[\n    aa,\n    bb,\n]"


def test_nest_takes_any_width():
    assert render(["a", Nest(2, [HARDLINE, "b"]), HARDLINE, "c"]) == "a\n  b\nc"


def test_a_line_suffix_waits_for_the_end_of_the_line_and_breaks_its_group():
    doc = group("f(", indent(SOFTLINE, "a", LineSuffix(" // note"), BREAK_PARENT, ",", LINE,
                             "b"), SOFTLINE, ")")
    assert render(doc, 100) == "f(\n    a, // note\n    b\n)"


def test_a_fresh_line_breaks_only_a_line_that_has_text():
    assert render(["a", FRESHLINE, "b"]) == "a\nb"
    assert render(["a", HARDLINE, FRESHLINE, "b"]) == "a\nb"


def test_blank_lines_carry_no_indentation_and_lines_no_trailing_blanks():
    doc = ["{", indent(HARDLINE, "x = ", HARDLINE, HARDLINE, "y"), HARDLINE, "}"]
    assert render(doc) == "{\n    x =\n\n    y\n}"


def test_deep_documents_render_without_recursion():
    doc = "x"
    for _ in range(50_000):
        doc = Group(["(", doc, ")"])
    text = render(doc, 100)
    assert len(text) == 100_001 and text.startswith("((") and "\n" not in text
