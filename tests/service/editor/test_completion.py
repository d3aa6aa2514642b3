"""Completion contexts (`service/editor/completion.py`) on real analyses."""
from __future__ import annotations

from boruna.service.editor.analysis import analyse
from boruna.service.editor.completion import complete, locals_at

SOURCE = """\
enum Color { Red, Green }

fn pick(o: Option<Color>) -> Int {
    let base = 1
    match o {
        Some(Red) => base,
        Some(Green) => 2,
        None => 0,
    }
}

fn main() -> Int {
    pick(Some(Color::Red))
}
"""


def at(needle, offset=0):
    i = SOURCE.index(needle) + offset
    return SOURCE.count("\n", 0, i) + 1, i - SOURCE.rfind("\n", 0, i)


def test_variants_inside_a_nested_pattern():
    analysis = analyse(SOURCE, "c.ax")
    labels = [i.label for i in complete(analysis, *at("Red) =>", 1))]
    assert labels[:2] == ["Red", "Green"]


def test_locals_in_scope_follow_blocks_and_arms():
    analysis = analyse(SOURCE, "c.ax")
    assert [n for n, _ in locals_at(analysis, *at("base,"))] == ["o", "base"]
    assert [n for n, _ in locals_at(analysis, *at("pick(Some"))] == []


def test_without_any_parsed_version_only_the_tables_are_offered():
    from boruna.core.builtins import BUILTINS
    from boruna.language.tokens import KEYWORDS

    broken = analyse("fn main( {\n    \n", "b.ax")
    labels = {i.label for i in complete(broken, 2, 5)}
    assert labels == {b.name for b in BUILTINS} | set(KEYWORDS)
    assert complete(broken, 1, 1) != []


def test_fields_of_a_record_literal_not_yet_written():
    source = ("type P { x: Int, y: Int, z: Int }\n\nfn main() -> Int {\n"
              "    let p = P { x: 1,  }\n    p.x\n}\n")
    analysis = analyse(source, "r.ax")
    line = 4
    col = len("    let p = P { x: 1, ".encode()) + 1
    items = complete(analysis, line, col)
    assert [i.label for i in items[:2]] == ["y", "z"]
    assert items[0].detail == "P.y: Int"
    # in a value, not a field name's place: no field items first
    value_col = len("    let p = P { x: ".encode()) + 1
    assert complete(analysis, line, value_col)[0].label != "y"
