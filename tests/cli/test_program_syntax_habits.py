"""Habits from other languages that the grammar lacks: `else if` and `x += 1`. `run` says
what to write, `check` offers the patch and `repair` applies it."""
from boruna.service import check_tool, repair_tool

GRADE = """fn grade(n: Int) -> String {
    if n >= 90 {
        "A"
    } else if n >= 80 {
        "B"
    } else {
        "F"
    }
}

fn main() -> String {
    let mut total = 5
    total += 80
    grade(total)
}
"""

GRADE_FIXED = """fn grade(n: Int) -> String {
    if n >= 90 {
        "A"
    } else { if n >= 80 {
        "B"
    } else {
        "F"
    } }
}

fn main() -> String {
    let mut total = 5
    total = total + 80
    grade(total)
}
"""


def test_run_explains_else_if(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with open("grade.ax", "w") as handle:
        handle.write(GRADE)
    result = cli("run", "grade.ax")
    assert result.code == 1
    assert result.err.splitlines() == [
        "error[E002]: expected LBrace, found 'if'",
        " --> grade.ax:4:12",
        "  |",
        "4 |     } else if n >= 80 {",
        "  |            ^^",
        "  = help: there is no 'else if': write 'else { if ... }' "
        "(boruna repair grade.ax does it)",
    ]


def test_run_explains_compound_assignment(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with open("add.ax", "w") as handle:
        handle.write("fn main() -> Int {\n    let mut total = 5\n    total -= 2\n    total\n}\n")
    result = cli("run", "add.ax")
    assert result.code == 1
    assert result.err.splitlines()[-1] == (
        "  = help: there is no '-=': write 'total = total - ...' (boruna repair add.ax does it)")
    assert cli("repair", "add.ax").code == 0
    assert cli("run", "add.ax").out == "3\nsteps: 9\n"


def test_check_offers_the_patches():
    patches = check_tool(GRADE)["diagnostics"][0]["patches"]
    assert [(p["id"], p["description"]) for p in patches] == [
        ("E002-else-if", "write 'else { if ... }'")]
    fixed_if = GRADE.replace("} else if n >= 80 {", "} else { if n >= 80 {").replace(
        '        "F"\n    }\n}', '        "F"\n    } }\n}')
    patches = check_tool(fixed_if)["diagnostics"][0]["patches"]
    assert [(p["id"], p["description"]) for p in patches] == [
        ("E002-compound-assign-total", "write 'total = total + ...'")]


def test_two_repairs_fix_both(cli, tmp_path):
    first = repair_tool(GRADE)
    assert first["applied"][0]["patch_id"] == "E002-else-if"
    second = repair_tool(first["repaired_source"])
    assert second["repaired_source"] == GRADE_FIXED
    assert second["verify_passed"] is True
    prog = tmp_path / "g.ax"
    prog.write_text(GRADE_FIXED)
    assert cli("run", prog).out == '"B"\nsteps: 21\n'


def test_one_line_else_if_chain():
    source = ("fn main() -> Int {\n    let x = 1\n"
              "    if x > 3 { 1 } else if x > 1 { 2 } else if x > 0 { 3 } else { 4 }\n}\n")
    once = repair_tool(source)["repaired_source"]
    assert once.splitlines()[2] == (
        "    if x > 3 { 1 } else { if x > 1 { 2 } else if x > 0 { 3 } else { 4 } }")
    twice = repair_tool(once)
    assert twice["repaired_source"].splitlines()[2] == (
        "    if x > 3 { 1 } else { if x > 1 { 2 } else { if x > 0 { 3 } else { 4 } } }")
    assert twice["verify_passed"] is True
