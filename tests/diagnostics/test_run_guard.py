"""repair never keeps a patch that a quick bounded run shows to break the program."""
from boruna.diagnostics.fix import Applicability, Edit, Fix
from boruna.diagnostics.model import Diagnostic, DiagnosticSet
from boruna.diagnostics.repair import repair_diagnostics
from boruna.diagnostics.run_guard import run_breaks

GOOD = "fn main() -> Int {\n    let xs = [1, 2]\n    list_get(xs, 0)\n}\n"
BROKEN = "fn main() -> Int {\n    let xs = [1, 2]\n    list_get(xs, 5)\n}\n"


def test_a_run_that_starts_failing_is_a_break():
    assert run_breaks(GOOD, BROKEN) == ("patch makes the program fail when it runs at line 3: "
                                        "list index out of bounds: index 5, length 2")


def test_the_same_failure_before_and_after_is_no_break():
    assert run_breaks(BROKEN, BROKEN) is None
    assert run_breaks(BROKEN, GOOD) is None


def test_programs_without_main_and_endless_ones_are_not_judged():
    app = "fn init() -> Int { list_get([1], 3) }\n"
    assert run_breaks("fn init() -> Int { 1 }\n", app) is None
    endless = "fn main() -> Int {\n    while true { }\n    0\n}\n"
    assert run_breaks(GOOD, endless) is None


def test_repair_skips_a_patch_that_breaks_the_run():
    fix = Fix(id="bad", description="use index 5", applicability=Applicability.SAFE,
              rationale="", edits=[Edit(3, "    list_get(xs, 0)", "    list_get(xs, 5)", "p.ax")])
    diag = Diagnostic("EAGER_AND_OR", "warning", "synthetic", None, fixes=[fix])
    found = DiagnosticSet(file="p.ax", diagnostics=[diag])
    result = repair_diagnostics(GOOD, found, "best", file="p.ax")
    assert result.repaired_source == GOOD
    assert result.applied == []
    assert result.skipped == [{"diagnostic_id": diag.id, "reason": (
        "patch makes the program fail when it runs at line 3: list index out of bounds: "
        "index 5, length 2")}]
