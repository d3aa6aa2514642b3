"""Round trip for every auto-fixable finding: a broken program, repaired with the default
strategy, verifies, then compiles and runs to the expected value."""
from __future__ import annotations

import pytest

from boruna.compiler import compile_source
from boruna.diagnostics import check_source, collector
from boruna.diagnostics.repair import repair_source


@pytest.fixture(autouse=True)
def strict_analyzers(monkeypatch):
    monkeypatch.setattr(collector, "STRICT", True)


def run_value(source: str):
    from boruna.api import run

    outcome = run(compile_source(source))
    assert outcome.error is None, outcome.error
    return outcome.result


APP = """type State { n: Int }
type Msg { tag: String, payload: Int }

fn init() -> State { State { n: 4 } }
fn update(state: State, msg: Msg) -> State !{time.now} { state }
fn view(state: State) -> Int { state.n * 10 }
fn main() -> Int { view(update(init(), Msg { tag: "x", payload: 1 })) }
"""

CASES = {
    "E003": ("fn main() -> Int {\n    let count = 10\n    countt + 1\n}\n", ["E003"], 11),
    "E005": ("enum Shape { Circle(Int), Square(Int), Dot }\n"
             "fn area(s: Shape) -> Int {\n    match s {\n        Circle(r) => r * r * 3\n    }\n}\n"
             "fn main() -> Int { area(Shape::Circle(2)) }\n", ["E005"], 12),
    "E006": ("type Point { x: Int, y: Int }\nfn main() -> Int {\n"
             "    let p = Point { x: 3, yy: 4 }\n    p.x * 10 + p.y\n}\n", ["E006"], 34),
    "E007-purity": (APP, ["E007"], 40),
    "E007-unknown-capability": ("fn main() -> Int !{net.fech} {\n    5\n}\n", ["E007"], 5),
    "MISSING_MAIN": ("fn answer() -> Int { 42 }\n", ["MISSING_MAIN"], 42),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_repair_then_compile_and_run(name):
    source, expected_ids, expected_value = CASES[name]
    assert [d.id for d in check_source(source).diagnostics] == expected_ids
    result = repair_source(source)
    assert result.patches_applied == len(expected_ids)
    assert result.skipped == []
    assert result.verify_passed
    assert result.diagnostics_after == 0
    assert check_source(result.repaired_source).diagnostics == []
    assert run_value(result.repaired_source) == expected_value


def test_stub_arm_traps_with_a_labelled_message():
    source, _, _ = CASES["E005"]
    repaired = repair_source(source).repaired_source
    from boruna.api import run

    outcome = run(compile_source(repaired.replace("Shape::Circle(2)", "Shape::Dot")))
    assert outcome.error is not None
    assert "TODO: handle Shape::Dot" in str(outcome.error)


def test_missing_main_patch_makes_main_the_entry():
    repaired = repair_source(CASES["MISSING_MAIN"][0]).repaired_source
    assert repaired == "fn answer() -> Int { 42 }\n\nfn main() -> Int {\n    answer()\n}\n"
    module = compile_source(repaired)
    assert module.functions[module.entry].name == "main"
