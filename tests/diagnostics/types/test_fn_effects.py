"""Effects in the type system (issue 21): function types carry capability sets, a callee's
declared set is its callers' contract, calls of function values hold the caller to the
value's set, and an App's `init`/`update`/`view` reach no capability by any route. Every
rule with its exact (code, severity, line, column, message, fixes)."""
from __future__ import annotations

import pytest

from boruna.diagnostics import check_source, collector
from boruna.diagnostics.repair import repair_source
from boruna.service import run_tool

BASE = ("fn roll(n: Int) -> Int !{random} { n }\n"
        "fn pure(n: Int) -> Int { n + 1 }\n")


@pytest.fixture(autouse=True)
def strict_analyzers(monkeypatch):
    monkeypatch.setattr(collector, "STRICT", True)


def rows(src, codes=("E007", "E009")):
    return [(d.id, d.severity, d.location.line, d.location.col, d.body,
             [(f.id, f.applicability.confidence.value,
               [(e.start_line, e.new_text) for e in f.edits]) for f in d.fixes])
            for d in check_source(src).diagnostics if d.id in codes]


def labels(src, index=0):
    d = [d for d in check_source(src).diagnostics if d.id == "E007"][index]
    return [(label.message, label.location.line, label.location.col) for label in d.labels]


# ------------------------------------------------------------------ laundering closed

LAUNDER = """fn query(q: String) -> Int !{db.query} {
    list_len(db_query(q))
}
fn apply(f: Fn(String) -> Int, q: String) -> Int {
    f(q)
}
fn main() -> Int {
    apply(query, "select 1")
}
"""


def test_an_effectful_function_does_not_fit_a_pure_fn_parameter():
    assert rows(LAUNDER) == [
        ("E007", "error", 8, 11, "capability violation: the 1st argument of `apply` should be "
         "`Fn(String) -> Int`, but it is `Fn(String) -> Int !{db.query}`, which needs "
         "`db.query`",
         [("E007-list-db.query-4", "High",
           [(4, "fn apply(f: Fn(String) -> Int !{db.query}, q: String) -> Int !{db.query} {")])])]
    assert labels(LAUNDER) == [("`apply` declares `f: Fn(String) -> Int` here", 4, 13),
                               ("`query` declares !{db.query} here", 1, 28)]


def test_repair_closes_the_hole_in_rounds_and_the_result_runs():
    source, rounds = LAUNDER, 0
    while rows(source) and rounds < 5:
        source = repair_source(source).repaired_source
        rounds += 1
    assert rounds == 2      # the type and `apply`'s own set, then `main` (apply's contract)
    assert source == LAUNDER.replace(
        "fn apply(f: Fn(String) -> Int, q: String) -> Int {",
        "fn apply(f: Fn(String) -> Int !{db.query}, q: String) -> Int !{db.query} {").replace(
        "fn main() -> Int {", "fn main() -> Int !{db.query} {")
    assert check_source(source).diagnostics == []
    assert run_tool(source)["result"] == 0       # the mock database has no rows
    assert run_tool(source, policy="deny-all")["message"] == "capability denied: db.query"


def test_calling_an_effectful_value_needs_its_set():
    src = ("fn apply(f: Fn(String) -> Int !{db.query}, q: String) -> Int {\n    f(q)\n}\n"
           "fn main() -> Int { 0 }\n")
    assert rows(src) == [
        ("E007", "error", 2, 5, "capability violation: `apply` uses `db.query` through the "
         "function value `f` but does not declare it",
         [("E007-declare-apply-db.query", "High",
           [(1, "fn apply(f: Fn(String) -> Int !{db.query}, q: String) -> Int !{db.query} {")])])]
    assert labels(src) == [("`f` is declared `Fn(String) -> Int !{db.query}` here", 1, 13)]


def test_annotated_lets_list_their_sets_and_the_fix_extends_a_set():
    src = BASE + ("fn main() -> Int !{random} {\n    let g: Fn(Int) -> Int = roll\n"
                  "    let h: Fn(Int) -> Int !{time.now} = roll\n    g(1) + h(2)\n}\n")
    assert rows(src) == [
        ("E007", "error", 6, 12, "capability violation: `main` uses `time.now` through the "
         "function value `h` but does not declare it",
         [("E007-declare-main-time.now", "High", [(3, "fn main() -> Int !{random, time.now} {")])]),
        ("E007", "error", 4, 29, "capability violation: the value of `g` should be "
         "`Fn(Int) -> Int`, but it is `Fn(Int) -> Int !{random}`, which needs `random`",
         [("E007-list-random-4", "High", [(4, "    let g: Fn(Int) -> Int !{random} = roll")])]),
        ("E007", "error", 5, 41, "capability violation: the value of `h` should be "
         "`Fn(Int) -> Int !{time.now}`, but it is `Fn(Int) -> Int !{random}`, which needs "
         "`random`",
         [("E007-list-random-5", "High",
           [(5, "    let h: Fn(Int) -> Int !{time.now, random} = roll")])]),
    ]


def test_a_returned_function_value_must_fit_the_declared_result():
    src = BASE + "fn pick(b: Bool) -> Fn(Int) -> Int {\n    if b { roll } else { pure }\n}\n"
    assert rows(src) == [
        ("E007", "error", 4, 12, "capability violation: the result of `pick` should be "
         "`Fn(Int) -> Int`, but it is `Fn(Int) -> Int !{random}`, which needs `random`",
         [("E007-list-random-3", "High",
           [(3, "fn pick(b: Bool) -> Fn(Int) -> Int !{random} !{} {")])])]
    help_text = [d.help for d in check_source(src).diagnostics if d.id == "E007"][0]
    assert help_text == ("list the capabilities in the function type: `Fn(Int) -> Int "
                         "!{random}` (in a return type, a last `!{...}` is the function's own "
                         "set: write `-> Fn(Int) -> Int !{random} !{...}` with the function's "
                         "set after it)")
    fixed = src.replace("-> Fn(Int) -> Int {", "-> Fn(Int) -> Int !{random} !{} {")
    assert rows(fixed) == []
    assert repair_source(src).repaired_source == fixed
    own = BASE + "fn pick() -> Fn(Int) -> Int !{time.now} {\n    return roll\n}\n"
    assert rows(own) == [
        ("E007", "error", 4, 12, "capability violation: the value `pick` returns should be "
         "`Fn(Int) -> Int`, but it is `Fn(Int) -> Int !{random}`, which needs `random`",
         [("E007-list-random-3", "High",
           [(3, "fn pick() -> Fn(Int) -> Int !{random} !{time.now} {")])])]


def test_record_fields_and_enum_payloads_are_declared_types():
    src = BASE + ("type Deps { step: Fn(Int) -> Int }\nenum Job { Run(Fn(Int) -> Int), Idle }\n"
                  "fn main() -> Int {\n    let d = Deps { step: roll }\n"
                  "    let j = Job::Run(roll)\n    d.step(1)\n}\n")
    assert rows(src) == [
        ("E007", "error", 6, 26, "capability violation: the field `step` of `Deps` should be "
         "`Fn(Int) -> Int`, but it is `Fn(Int) -> Int !{random}`, which needs `random`",
         [("E007-list-random-3", "High", [(3, "type Deps { step: Fn(Int) -> Int !{random} }")])]),
        ("E007", "error", 7, 22, "capability violation: the payload of `Job::Run` should be "
         "`Fn(Int) -> Int`, but it is `Fn(Int) -> Int !{random}`, which needs `random`",
         [("E007-list-random-4", "High",
           [(4, "enum Job { Run(Fn(Int) -> Int !{random}), Idle }")])]),
    ]


def test_a_parameter_position_is_contravariant():
    src = BASE + ("fn k(cb: Fn(Int) -> Int) -> Int { cb(1) }\n"
                  "fn run(h: Fn(Fn(Int) -> Int !{random}) -> Int) -> Int { h(roll) }\n"
                  "fn main() -> Int { run(k) }\n")
    assert rows(src) == [
        ("E007", "error", 5, 24, "capability violation: the 1st argument of `run` should be "
         "`Fn(Fn(Int) -> Int !{random}) -> Int`, but it is `Fn(Fn(Int) -> Int) -> Int`, whose "
         "parameter `Fn(Int) -> Int` does not accept functions that need `random`", [])]


# ------------------------------------------------------------------ inference carries effects

@pytest.mark.parametrize("body, line, col", [
    ("    let g = roll\n    g(1)\n", 5, 5),                                   # a let
    ("    let fs = [pure, roll]\n    let mut t = 0\n    for f in fs { t = t + f(1) }\n    t\n",
     6, 27),                                                                # a list: the union
    ("    let f = if true { pure } else { roll }\n    f(1)\n", 5, 5),       # if branches
    ("    let f = match 1 { 0 => pure, _ => roll }\n    f(1)\n", 5, 5),     # match arms
    ("    let mut f = pure\n    f = roll\n    f(1)\n", 6, 5),                # reassigned
    ("    let mut f = pure\n    let mut i = 0\n    while i < 3 {\n        i = i + f(1)\n"
     "        f = roll\n    }\n    i\n", 7, 17),               # reassigned after the call
    ("    let fs = list_push([pure], roll)\n    let mut t = 0\n"
     "    for f in fs { t = t + f(1) }\n    t\n", 6, 27),                     # a generic builtin
    ("    match Some(roll) {\n        Some(f) => f(1),\n        None => 0,\n    }\n", 5, 20),
])
def test_unannotated_values_carry_the_effect(body, line, col):
    src = BASE + "fn main() -> Int {\n" + body + "}\n"
    assert rows(src) == [
        ("E007", "error", line, col, "capability violation: `main` uses `random` through the "
         "function value `f` but does not declare it" if "g(1)" not in body else
         "capability violation: `main` uses `random` through the function value `g` but does "
         "not declare it",
         [("E007-declare-main-random", "High", [(3, "fn main() -> Int !{random} {")])])]


def test_pure_functions_fit_every_fn_type_and_effects_appear_in_e009_types():
    src = BASE + ("fn apply(f: Fn(Int) -> Int !{random}) -> Int !{random} { f(1) }\n"
                  "fn main() -> Int !{random} {\n    let f: Fn(Int) -> Int !{random} = pure\n"
                  "    apply(pure) + apply(roll) + f(2)\n}\n")
    assert rows(src) == []
    wrong = BASE + "fn main() -> Int {\n    let n: Int = roll\n    n\n}\n"
    assert rows(wrong) == [
        ("E009", "error", 4, 18, "type mismatch: the value of `n` should be `Int`, but it is "
         "`Fn(Int) -> Int !{random}`", [])]


# ------------------------------------------------------------------ declarations are contracts

CONTRACT = """fn load() -> String !{fs.read} {
    "cached"
}
fn main() -> String {
    load()
}
"""


def test_a_caller_must_declare_what_the_callee_declares():
    assert rows(CONTRACT) == [
        ("E007", "warning", 1, 21, "`load` declares `fs.read` but never uses it",
         [("E007-drop-load-fs.read", "Medium", [(1, "fn load() -> String {")])]),
        ("E007", "error", 5, 5, "capability violation: `main` calls `load`, which declares "
         "`fs.read`, but `main` does not declare it",
         [("E007-declare-main-fs.read", "High", [(4, "fn main() -> String !{fs.read} {")])]),
    ]
    assert labels(CONTRACT, 1) == [("`load` declares !{fs.read} here", 1, 21)]


def test_either_fix_alone_leaves_a_clean_program():
    declared = CONTRACT.replace("fn main() -> String {", "fn main() -> String !{fs.read} {")
    dropped = CONTRACT.replace("fn load() -> String !{fs.read} {", "fn load() -> String {")
    assert rows(declared) == [] and rows(dropped) == []


def test_the_unused_warning_drops_one_name_of_several():
    src = ("fn load() -> String !{fs.read, time.now} {\n    __builtin_int_to_string(time_now())\n}"
           "\nfn main() -> String !{time.now} {\n    load()\n}\n")
    assert rows(src) == [
        ("E007", "warning", 1, 21, "`load` declares `fs.read` but never uses it",
         [("E007-drop-load-fs.read", "Medium",
           [(1, "fn load() -> String !{time.now} {")])]),
        ("E007", "error", 5, 5, "capability violation: `main` calls `load`, which declares "
         "`fs.read`, but `main` does not declare it",
         [("E007-declare-main-fs.read", "High",
           [(4, "fn main() -> String !{time.now, fs.read} {")])]),
    ]


def test_step_input_stays_implicitly_declared_and_its_unused_declaration_drops_safely():
    src = ('fn read() -> String { step_input("a") }\nfn main() -> String { read() }\n'
           'fn quiet() -> Int !{step.input} { 1 }\n')
    assert rows(src) == [
        ("E007", "warning", 1, 23, "capability violation: `read` uses `step.input` but does not "
         "declare it", [("E007-declare-read-step.input", "High",
                         [(1, 'fn read() -> String !{step.input} { step_input("a") }')])]),
        ("E007", "warning", 2, 23, "capability violation: `main` uses `step.input` through "
         "`read` but does not declare it",
         [("E007-declare-main-step.input", "High",
           [(2, "fn main() -> String !{step.input} { read() }")])]),
        ("E007", "warning", 3, 19, "`quiet` declares `step.input` but never uses it",
         [("E007-drop-quiet-step.input", "High", [(3, "fn quiet() -> Int { 1 }")])]),
    ]


# ------------------------------------------------------------------ App purity by any route

APP = """type State { n: Int }
type Msg { tag: String, payload: Int }
type Deps { clock: Fn() -> Int !{time.now} }
fn now_ms() -> Int !{time.now} { time_now() }
fn helper() -> Int !{time.now} { now_ms() }
fn init() -> State { State { n: helper() } }
fn update(state: State, msg: Msg) -> State {
    State { n: now_ms() }
}
fn view(state: State) -> Int {
    let d = Deps { clock: now_ms }
    d.clock()
}
"""


def test_app_functions_reach_no_capability_and_the_route_is_named():
    assert rows(APP) == [
        ("E007", "error", 6, 33, "capability violation: `init` must be pure, but it reaches "
         "`time.now`: `init` \u2192 `helper` \u2192 `now_ms` \u2192 `time.now`", []),
        ("E007", "error", 8, 16, "capability violation: `update` must be pure, but it reaches "
         "`time.now`: `update` \u2192 `now_ms` \u2192 `time.now`", []),
        ("E007", "error", 12, 5, "capability violation: `view` must be pure, but it reaches "
         "`time.now`: `view` \u2192 `d.clock` \u2192 `time.now`", []),
    ]
    assert labels(APP, 1) == [("`now_ms` declares !{time.now} here", 4, 20)]
    assert labels(APP, 2) == [("`Deps.clock` is declared `Fn() -> Int !{time.now}` here", 3, 20)]


def test_a_function_value_held_in_a_let_is_a_route_too():
    src = APP.replace("    State { n: now_ms() }", "    let f = now_ms\n    State { n: f() }")
    assert rows(src)[1][4] == ("capability violation: `update` must be pure, but it reaches "
                               "`time.now`: `update` \u2192 `f` \u2192 `time.now`")


def test_an_annotated_app_function_keeps_the_reference_finding_and_binds_no_caller():
    src = ("type State { n: Int }\ntype Msg { tag: String, payload: Int }\n"
           "fn init() -> State { State { n: 4 } }\n"
           "fn update(state: State, msg: Msg) -> State !{time.now} { state }\n"
           "fn view(state: State) -> Int { state.n * 10 }\n"
           "fn main() -> Int { view(update(init(), Msg { tag: \"x\", payload: 1 })) }\n")
    assert rows(src) == [
        ("E007", "error", 4, 44, "capability violation: function 'update' must be pure but is "
         "annotated with !{time.now}",
         [("E007-remove-caps", "High",
           [(4, "fn update(state: State, msg: Msg) -> State { state }")])])]


def test_pure_app_functions_using_pure_function_values_are_clean():
    src = ("type State { n: Int }\ntype Msg { tag: String, payload: Int }\n"
           "fn double(n: Int) -> Int { n * 2 }\n"
           "fn init() -> State { State { n: 1 } }\n"
           "fn update(state: State, msg: Msg) -> State {\n    let f = double\n"
           "    State { n: f(state.n) }\n}\n"
           "fn view(state: State) -> Int { state.n }\n")
    assert rows(src) == []


def test_an_unknown_name_in_a_function_types_set_is_reported_with_a_rename():
    src = ("type R { f: Fn() -> Int !{tim.now} }\n"
           "fn apply(f: Fn(Int) -> Int !{random, bogus}) -> Int !{random} {\n    f(1)\n}\n"
           "fn main() -> Int { 0 }\n")
    assert rows(src) == [
        ("E007", "error", 1, 27, "unknown capability 'tim.now' in the !{...} set of a function "
         "type (it counts for nothing, so the type lists fewer capabilities than meant); did "
         "you mean 'time.now'?",
         [("E007-rename-capability-tim.now", "Medium",
           [(1, "type R { f: Fn() -> Int !{time.now} }")])]),
        ("E007", "error", 2, 38, "unknown capability 'bogus' in the !{...} set of a function "
         "type (it counts for nothing, so the type lists fewer capabilities than meant); known "
         "capabilities are net.fetch, fs.read, fs.write, db.query, ui.render, time.now, random, "
         "llm.call, actor_spawn, actor_send, step.input", []),
    ]


def test_the_fix_finds_the_function_type_inside_a_list_or_option_annotation():
    src = BASE + ("type Bag { fs: List<Fn(Int) -> Int> }\nfn main() -> Int {\n"
                  "    let b = Bag { fs: [roll] }\n"
                  "    let o: Option<Fn(Int) -> Int !{time.now}> = Some(roll)\n    0\n}\n")
    assert rows(src) == [
        ("E007", "error", 5, 24, "capability violation: an element of the field `fs` of `Bag` "
         "should be `Fn(Int) -> Int`, but it is `Fn(Int) -> Int !{random}`, which needs "
         "`random`",
         [("E007-list-random-3", "High", [(3, "type Bag { fs: List<Fn(Int) -> Int !{random}> }")])]),
        ("E007", "error", 6, 54, "capability violation: the `Some` payload of the value of `o` "
         "should be `Fn(Int) -> Int !{time.now}`, but it is `Fn(Int) -> Int !{random}`, which "
         "needs `random`",
         [("E007-list-random-6", "High",
           [(6, "    let o: Option<Fn(Int) -> Int !{time.now, random}> = Some(roll)")])]),
    ]
