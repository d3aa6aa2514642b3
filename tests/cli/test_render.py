"""The CLI's human-readable JSON (`cli.render.pretty_json`) is the `--json` printer:
UI trees and `check -o` reports print at any nesting depth, NaN/Infinity as null."""
from boruna.cli.render import pretty_json
from boruna.service import render, run_tool

DEEP_EMIT = """fn main() -> Int {
    let mut x = [1]
    let mut i = 0
    while i < 3000 {
        x = [x]
        i = i + 1
    }
    emit x
    0
}
"""


def test_pretty_json_small_values_exact():
    assert pretty_json({"a": [1, 2.5], "b": float("nan"), "c": "é"}) == (
        '{\n  "a": [\n    1,\n    2.5\n  ],\n  "b": null,\n  "c": "é"\n}')
    assert pretty_json((1, float("inf"))) == "[\n  1,\n  null\n]"


def test_deeply_nested_ui_tree_prints(cli, tmp_path):
    path = tmp_path / "deep.ax"
    path.write_text(DEEP_EMIT, encoding="utf-8")
    result = cli("run", path)
    assert result.code == 0
    assert result.err == ""
    response = run_tool(DEEP_EMIT)
    (tree,) = response["ui_output"]
    steps = response["steps"]
    assert result.out == f"0\n\n--- UI Output ---\n{render(tree)}\nsteps: {steps}\n"
