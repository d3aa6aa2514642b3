"""`boruna check` offers only fixes that `boruna repair` then applies: a parse-error patch
that would not get the parser past the error is not advertised."""
from boruna.service import check_tool


def test_unfinished_expression_gets_no_close_blocks_offer(cli, tmp_path):
    prog = tmp_path / "trunc.ax"
    prog.write_text("fn main() -> Int {\n    1 +\n")
    result = cli("check", prog)
    assert result.code == 1
    assert (result.out + result.err).splitlines()[-1] == f"{prog}: 1 error"
    assert check_tool(prog.read_text())["diagnostics"][0].get("patches", []) == []


def test_missing_brace_is_offered_and_applied(cli, tmp_path):
    prog = tmp_path / "open.ax"
    prog.write_text("fn main() -> Int {\n    let x = 1\n    x\n")
    check = cli("check", prog)
    assert (check.out + check.err).splitlines()[-1] == (
        f"{prog}: 1 error; 1 fix available (run: boruna repair {prog})")
    repair = cli("repair", prog)
    assert repair.code == 0
    assert prog.read_text() == "fn main() -> Int {\n    let x = 1\n    x\n}\n"
    assert cli("run", prog).out == "1\nsteps: 5\n"
