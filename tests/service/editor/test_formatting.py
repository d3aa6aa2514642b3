"""Formatter output as line edits (`service/editor/formatting.py`): applying the edits gives
the formatted text exactly, for whole documents and for ranges."""
from __future__ import annotations

import random

from boruna.service.editor.formatting import format_document, line_edits


def apply(source: str, edits) -> str:
    lines = source.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line.encode()) + 1)
    raw = source.encode()

    def at(line, col):
        return offsets[line - 1] + col - 1

    # from the end, so earlier offsets hold; inserts at one place keep the array's order
    indexed = sorted(enumerate(edits), key=lambda p: (p[1].location.line, p[1].location.col,
                                                      p[0]), reverse=True)
    for _, e in indexed:
        loc = e.location
        raw = raw[:at(loc.line, loc.col)] + e.new_text.encode() + raw[at(loc.end_line,
                                                                          loc.end_col):]
    return raw.decode()


CASES = [
    ("a\nb\nc\n", "a\nB\nc\n"),
    ("a\nb\nc", "a\nb\nc\nd"),
    ("a\nb\nc", "a"),
    ("a\nb\nc\n", "x\ny\n"),
    ("", "fn main() {}\n"),
    ("a\n\n\nb\n", "a\n\nb\n"),
    ("é\nb", "é\nbb"),
]


def test_edits_reproduce_the_formatted_text():
    for source, formatted in CASES:
        assert apply(source, line_edits("f", source, formatted)) == formatted, (source,
                                                                                formatted)


def test_random_texts():
    rng = random.Random(7)
    words = ["a", "b", "", "fn x() {", "}", "    y"]
    for _ in range(300):
        source = "\n".join(rng.choice(words) for _ in range(rng.randint(0, 8)))
        formatted = "\n".join(rng.choice(words) for _ in range(rng.randint(0, 8)))
        assert apply(source, line_edits("f", source, formatted)) == formatted


def test_a_range_keeps_only_the_runs_touching_it():
    source = "a\nb\nc\nd\ne\n"
    formatted = "A\nb\nc\nD\ne\n"
    [edit] = line_edits("f", source, formatted, 4, 4)
    assert (edit.location.line, edit.new_text) == (4, "D\n")
    assert apply(source, [edit]) == "a\nb\nc\nD\ne\n"


def test_format_document_with_a_formatter():
    assert format_document("f", "x  \n", fmt=lambda s: s.rstrip() + "\n")[0].new_text == "x\n"
    assert format_document("f", "x\n", fmt=lambda s: s) == []


def test_a_range_formats_the_items_touching_it_with_the_formatter():
    from boruna.format import format_source

    source = ("// adds\nfn add(a:Int,b:Int)->Int{a+b}\n\n\ntype P{x:Int}\n\n"
              "fn main()->Int{\n  add(1,2)\n}")
    edits = format_document("f", source, 7, 7)
    assert [(e.location.line, e.location.end_line) for e in edits] == [(7, 9)]
    assert apply(source, edits) == ("// adds\nfn add(a:Int,b:Int)->Int{a+b}\n\n\n"
                                    "type P{x:Int}\n\nfn main() -> Int {\n    add(1, 2)\n}")
    # every item touched: each one formatted, the text between items as it was
    everything = apply(source, format_document("f", source, 1, 9))
    assert everything == ("// adds\nfn add(a: Int, b: Int) -> Int {\n    a + b\n}\n\n\n"
                          "type P {\n    x: Int,\n}\n\nfn main() -> Int {\n    add(1, 2)\n}")
    assert apply(source, format_document("f", source)) == format_source(source)
