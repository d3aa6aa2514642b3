"""Statement-ending semicolons (the language has none): `run` explains, `check` offers one
patch for all of them, `repair` removes them and leaves strings and comments alone."""
from boruna.service import check_tool

SOURCE = 'fn main() -> Int {\n    let x = 1; // one;\n    let s = "a;";\n    x + 1;\n}\n'
FIXED = 'fn main() -> Int {\n    let x = 1 // one;\n    let s = "a;"\n    x + 1\n}\n'


def test_run_explains_the_semicolon(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with open("semi.ax", "w") as handle:
        handle.write(SOURCE)
    result = cli("run", "semi.ax")
    assert result.code == 1
    assert result.err.splitlines() == [
        "error[E002]: expected expression, found Semi",
        " --> semi.ax:2:14",
        "  |",
        "2 |     let x = 1; // one;",
        "  |              ^",
        "  = help: statements end at the end of their line; remove the ';' "
        "(boruna repair semi.ax does it)",
    ]


def test_check_offers_one_patch_and_repair_applies_it(cli, tmp_path):
    patches = check_tool(SOURCE)["diagnostics"][0]["patches"]
    assert [(p["id"], p["description"], p["confidence"]) for p in patches] == [
        ("E002-remove-semicolons", "remove the 3 semicolons that end lines", "Medium")]
    prog = tmp_path / "semi.ax"
    prog.write_text(SOURCE)
    assert cli("repair", prog).code == 0
    assert prog.read_text() == FIXED
    assert cli("run", prog).out == "2\nsteps: 9\n"


def test_semicolon_between_statements_is_not_removed(cli, tmp_path):
    source = "fn main() -> Int {\n    let x = 1; let y = 2\n    x\n}\n"
    assert check_tool(source)["diagnostics"][0].get("patches", []) == []
    prog = tmp_path / "two.ax"
    prog.write_text(source)
    result = cli("run", prog)
    assert result.err.splitlines()[-1] == (
        "  = help: statements end at the end of their line; put each on its own line "
        "instead of separating them with ';'")


def test_semicolon_after_an_unfinished_statement_is_not_the_problem(cli, tmp_path):
    source = "fn main() -> Int {\n    let x = ;\n    1\n}\n"
    assert check_tool(source)["diagnostics"][0].get("patches", []) == []
    prog = tmp_path / "unfinished.ax"
    prog.write_text(source)
    result = cli("run", prog)
    assert "help" not in result.err
