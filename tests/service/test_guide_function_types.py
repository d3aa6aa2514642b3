"""The guide's section on function types and effects (issue 21): its program checks clean
and runs, and each rule it states holds for that program changed the way the rule says."""
from __future__ import annotations

import re

from boruna.service import agent_docs, check_tool, run_tool

SECTION = "### Function values and capabilities"


def section() -> str:
    guide = agent_docs.guide()
    start = guide.index(SECTION)
    return guide[start:guide.index("\n## ", start)]


def program() -> str:
    (block,) = re.findall(r"```ax\n(.*?)```", section(), re.S)
    return block


def e007(source):
    return [(d["severity"], d["message"].split(" \u2014 ")[0], d["location"]["line"])
            for d in check_tool(source)["diagnostics"] if d["id"] == "E007"]


def test_the_section_states_the_syntax_and_the_rules():
    text = section()
    for phrase in ("`Fn(Int) -> Int !{random}`", "a pure function fits every `Fn` type",
                   "A declaration is a contract", "`fn pick() -> Fn(Int) -> Int !{random} !{} "
                   "{ roll }`", "`update` \u2192 `now_ms` \u2192 `time.now`"):
        assert phrase in text


def test_the_program_checks_clean_and_runs_under_its_policy():
    source = program()
    assert check_tool(source)["diagnostics"] == []
    assert run_tool(source)["result"] == 8
    assert run_tool(source, policy="deny-all")["message"] == "capability denied: random"


def test_a_pure_fn_type_does_not_take_roll():
    source = program().replace("type Dice { throw: Fn(Int) -> Int !{random} }",
                               "type Dice { throw: Fn(Int) -> Int }")
    assert e007(source) == [
        ("error", "capability violation: the field `throw` of `Dice` should be "
                  "`Fn(Int) -> Int`, but it is `Fn(Int) -> Int !{random}`, which needs "
                  "`random`", 16)]


def test_calling_the_values_needs_the_set():
    source = program().replace(
        "fn throw_all(dice: List<Fn(Int) -> Int !{random}>, sides: Int) -> Int !{random} {",
        "fn throw_all(dice: List<Fn(Int) -> Int !{random}>, sides: Int) -> Int {")
    assert e007(source) == [
        ("error", "capability violation: `throw_all` uses `random` through the function value "
                  "`d` but does not declare it", 11)]


def test_a_list_of_functions_carries_the_union():
    source = program().replace(
        "fn main() -> Int !{random} {\n    let cup = Dice { throw: roll }\n"
        "    throw_all([roll, fixed, cup.throw], 6)\n}",
        "fn main() -> Int {\n    let dice = [fixed, roll]\n    let mut total = 0\n"
        "    for d in dice { total = total + d(6) }\n    total\n}")
    assert e007(source) == [
        ("error", "capability violation: `main` uses `random` through the function value `d` "
                  "but does not declare it", 18)]


def test_the_returned_function_type_example_is_clean():
    source = ("fn roll(sides: Int) -> Int !{random} { sides }\n"
              "fn pick() -> Fn(Int) -> Int !{random} !{} { roll }\n"
              "fn main() -> Int !{random} { pick()(6) }\n")
    assert check_tool(source)["diagnostics"] == []
