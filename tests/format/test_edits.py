"""The formatter as edits (the language server's document and range formatting)."""
from boruna.format import TextEdit, format_edits, format_range, format_source

SOURCE = "fn a() -> Int { 1 }\n\nfn b() -> Int {\n    2\n}\n\nfn c() -> Int { 3 }\n"


def apply(source: str, edits) -> str:
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    for e in sorted(edits, key=lambda e: (e.start_line, e.start_col), reverse=True):
        start = offsets[e.start_line] + e.start_col
        end = offsets[e.end_line] + e.end_col
        source = source[:start] + e.new_text + source[end:]
    return source


def test_the_edits_replace_only_the_lines_that_change():
    edits = format_edits(SOURCE)
    assert edits == [TextEdit(0, 0, 1, 0, "fn a() -> Int {\n    1\n}\n"),
                     TextEdit(6, 0, 7, 0, "fn c() -> Int {\n    3\n}\n")]
    assert apply(SOURCE, edits) == format_source(SOURCE)
    assert format_edits(format_source(SOURCE)) == []


def test_an_edit_of_a_last_line_without_newline_ends_at_its_end():
    source = "fn main() { 1 }"
    (edit,) = format_edits(source)
    assert edit == TextEdit(0, 0, 0, len(source), "fn main() {\n    1\n}\n")
    assert apply(source, [edit]) == format_source(source)


def test_a_range_formats_only_the_lines_it_touches():
    assert format_range(SOURCE, 7, 7) == (
        "fn a() -> Int { 1 }\n\nfn b() -> Int {\n    2\n}\n\nfn c() -> Int {\n    3\n}\n")
    assert format_range(SOURCE, 3, 5) == SOURCE
    assert format_range(SOURCE, 1, 7) == format_source(SOURCE)
