"""Definition, references and rename on the name index (`service/editor/navigation.py`,
`index.py`), including shadowing, match bindings and imported libraries."""
from __future__ import annotations

import pytest

from boruna.service.editor.analysis import analyse
from boruna.service.editor.navigation import (RenameRefused, definition, references, rename,
                                              symbol_at)

SOURCE = """\
type P { x: Int }

enum E { A(Int), B }

fn f(x: Int) -> Int {
    let y = x + 1
    let x = y * 2
    match E::A(x) {
        A(x) => x,
        B => x,
    }
}

fn main() -> Int {
    let p = P { x: 3 }
    f(p.x)
}
"""


def pos(text, needle, nth=0, offset=0):
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    i += offset
    line = text.count("\n", 0, i) + 1
    return line, len(text[text.rfind("\n", 0, i) + 1:i].encode()) + 1


@pytest.fixture(scope="module")
def analysis():
    return analyse(SOURCE, "s.ax")


def refs(analysis, needle, nth=0, offset=0):
    return [(r.line, r.col) for r in references(analysis, *pos(SOURCE, needle, nth, offset))]


def test_shadowing_and_pattern_bindings_are_distinct_locals(analysis):
    # the parameter `x` is read once, by `let y = x + 1`
    assert refs(analysis, "x: Int) -> Int") == [pos(SOURCE, "x: Int) -> Int"),
                                                 pos(SOURCE, "x + 1")]
    # the second `let x` is read by `E::A(x)` and by the `B` arm
    assert refs(analysis, "x = y") == [pos(SOURCE, "x = y"), pos(SOURCE, "x) {"),
                                       pos(SOURCE, "x,\n    }")]
    # the arm's binding `x` only in its arm
    assert refs(analysis, "x) => x") == [pos(SOURCE, "x) => x"), pos(SOURCE, "x,\n        B")]


def test_field_and_variant_keys(analysis):
    assert symbol_at(analysis, *pos(SOURCE, "x: 3")).key == ("field", "P", "x")
    assert symbol_at(analysis, *pos(SOURCE, "x)\n}")).key == ("field", "P", "x")
    assert symbol_at(analysis, *pos(SOURCE, "A(x) =>")).key == ("variant", "E", "A")
    assert symbol_at(analysis, *pos(SOURCE, "x: Int }")).key == ("field", "P", "x")
    [d] = definition(analysis, *pos(SOURCE, "x)\n}"))
    assert (d.line, d.col, d.end_col) == (1, 10, 11)


def test_rename_edits_every_occurrence_once(analysis):
    edits = rename(analysis, *pos(SOURCE, "f(p.x)"), "g")
    assert [(e.location.line, e.location.col) for e in edits["s.ax"]] == [
        pos(SOURCE, "f(x"), pos(SOURCE, "f(p.x)")]
    with pytest.raises(RenameRefused, match="not an identifier"):
        rename(analysis, *pos(SOURCE, "f(p.x)"), "1g")
    with pytest.raises(RenameRefused, match="already has a variant"):
        rename(analysis, *pos(SOURCE, "A(Int)"), "B")
    with pytest.raises(RenameRefused, match="no renamable name"):
        rename(analysis, *pos(SOURCE, "+ 1"), "z")


def test_a_source_that_does_not_parse_has_no_symbols():
    broken = analyse("fn main( {", "b.ax")
    assert symbol_at(broken, 1, 4) is None
    assert definition(broken, 1, 4) == [] and references(broken, 1, 4) == []
