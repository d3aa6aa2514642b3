"""E007 undeclared capability use (the type checker's effect inference, issue 12) for the
capability builtins of issue 13: an error at the call of a capability builtin, and
transitively at the call of a function that uses one; the patch declares it and repair
verifies. `step.input` without a `!{...}` set stays a warning (the compiler declares it)."""
from __future__ import annotations

from boruna import service

FETCH = ('fn fetch(u: String) -> String { net_fetch(u) }\n'
         'fn main() -> String !{time.now} {\n    fetch("http://x")\n}\n')


def e007(source):
    return [(d["severity"], d["message"].split(" \u2014 ")[0], d["location"]["line"],
             d["location"]["col"], [p["id"] for p in d.get("patches", [])])
            for d in service.check_tool(source)["diagnostics"]
            if d["id"] == "E007" and "capability violation" in d["message"]]


def test_undeclared_use_is_reported_at_the_call_and_through_callers():
    assert e007(FETCH) == [
        ("error", "capability violation: `fetch` uses `net.fetch` but does not declare it",
         1, 33, ["E007-declare-fetch-net.fetch"]),
        ("error", "capability violation: `main` uses `net.fetch` through `fetch` but does not "
         "declare it", 3, 5, ["E007-declare-main-net.fetch"]),
    ]


def test_repair_declares_the_capabilities():
    response = service.repair_tool(FETCH)
    assert response["repaired_source"] == (
        'fn fetch(u: String) -> String !{net.fetch} { net_fetch(u) }\n'
        'fn main() -> String !{time.now, net.fetch} {\n    fetch("http://x")\n}\n')
    assert response["verify_passed"] is True


def test_declared_use_step_input_and_user_functions_are_not_reported():
    assert e007('fn main() -> Int !{time.now, random} {\n'
                '    if random() < 0.5 { time_now() } else { 1 }\n}') == []
    assert [d["severity"] for d in service.check_tool('fn main() -> String { step_input("a") }')
            ["diagnostics"]] == ["warning"]
    assert e007('fn time_now() -> Int { 1 }\nfn main() -> Int { time_now() }') == []
    assert e007('fn main() -> Int !{db} { list_len(db_query("select 1")) }') == []


def test_recursion_reaches_a_fixpoint():
    source = ("fn a(n: Int) -> Int { if n == 0 { time_now() } else { b(n - 1) } }\n"
              "fn b(n: Int) -> Int { a(n) }\n")
    assert [m[1] for m in e007(source)] == [
        "capability violation: `a` uses `time.now` but does not declare it",
        "capability violation: `b` uses `time.now` through `a` but does not declare it",
    ]
