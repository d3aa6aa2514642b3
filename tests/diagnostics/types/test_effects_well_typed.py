"""Well-typed programs that use function values and capabilities correctly get no
diagnostics at all (issue 21: no false positives): effectful callbacks passed where the
`Fn` type lists their capabilities, pure callbacks passed anywhere, capabilities declared all
the way up, function values in lets, lists, records, enums, options and results."""
from __future__ import annotations

import pytest

from boruna.diagnostics import check_source, collector
from boruna.service import run_tool

# (capability as written, an Int expression using it and the parameter `x`)
CAPABILITIES = {
    "time.now": "time_now() + x",
    "random": "if random() < 0.5 { x } else { x + 1 }",
    "fs.read": "__builtin_string_len(fs_read(\"notes.txt\")) + x",
    "db.query": "list_len(db_query(\"select 1\")) + x",
    "net.fetch": "__builtin_string_len(net_fetch(\"http://example.com\")) + x",
    "llm.call": "__builtin_string_len(llm_call(\"hi\")) + x",
}

HEAD = """fn eff(x: Int) -> Int !{CAP} { USE }
fn pure(x: Int) -> Int { x * 2 }
"""

PATTERNS = {
    # an effectful callback whose parameter type lists its capability
    "callback": """fn apply(f: Fn(Int) -> Int !{CAP}, x: Int) -> Int !{CAP} { f(x) }
fn main() -> Int !{CAP} { apply(eff, 1) }
""",
    # a pure callback fits an effectful `Fn` type (and a pure one), from a pure caller
    "pure-anywhere": """fn apply(f: Fn(Int) -> Int !{CAP}, x: Int) -> Int !{CAP} { f(x) }
fn apply_pure(f: Fn(Int) -> Int, x: Int) -> Int { f(x) }
fn main() -> Int !{CAP} { apply(pure, 1) + apply_pure(pure, 2) + eff(0) }
""",
    # an un-annotated `let` carries the effect; the caller declares it
    "inferred-let": """fn main() -> Int !{CAP} {
    let g = eff
    let h = pure
    g(1) + h(2)
}
""",
    # a list of functions carries the union of their sets
    "list-union": """fn main() -> Int !{CAP} {
    let fs = [pure, eff]
    let mut total = 0
    for f in fs { total = total + f(1) }
    total
}
""",
    # an annotated list of effectful functions
    "list-annotated": """fn run_all(fs: List<Fn(Int) -> Int !{CAP}>) -> Int !{CAP} {
    let mut total = 0
    for f in fs { total = total + f(1) }
    total
}
fn main() -> Int !{CAP} { run_all([eff, pure]) }
""",
    # a record field holding an effectful function
    "record-field": """type Deps { step: Fn(Int) -> Int !{CAP}, base: Int }
fn go(d: Deps) -> Int !{CAP} { d.step(d.base) }
fn main() -> Int !{CAP} { go(Deps { step: eff, base: 3 }) + go(Deps { step: pure, base: 1 }) }
""",
    # an enum payload holding an effectful function
    "enum-payload": """enum Job { Run(Fn(Int) -> Int !{CAP}), Idle }
fn perform(j: Job) -> Int !{CAP} {
    match j {
        Run(f) => f(4),
        Idle => 0,
    }
}
fn main() -> Int !{CAP} { perform(Job::Run(eff)) + perform(Job::Idle) + perform(Job::Run(pure)) }
""",
    # a function returning an effectful function value (the Fn type's set, then its own)
    "returned": """fn pick(b: Bool) -> Fn(Int) -> Int !{CAP} !{} { if b { eff } else { pure } }
fn main() -> Int !{CAP} {
    let f = pick(true)
    f(5)
}
""",
    # an optional callback
    "option": """fn maybe(f: Option<Fn(Int) -> Int !{CAP}>) -> Int !{CAP} {
    match f {
        Some(g) => g(2),
        None => 0,
    }
}
fn main() -> Int !{CAP} { maybe(Some(eff)) + maybe(None) + maybe(Some(pure)) }
""",
    # a callback passed down two levels, declared all the way up
    "two-levels": """fn inner(f: Fn(Int) -> Int !{CAP}, x: Int) -> Int !{CAP} { f(x) }
fn outer(f: Fn(Int) -> Int !{CAP}, x: Int) -> Int !{CAP} { inner(f, x + 1) }
fn main() -> Int !{CAP} { outer(eff, 1) }
""",
    # an App whose update and view use only pure function values
    "app-pure-callbacks": """type State { n: Int }
type Msg { tag: String, payload: Int }
fn init() -> State { State { n: pure(1) } }
fn update(state: State, msg: Msg) -> State {
    let f = pure
    State { n: f(state.n) }
}
fn view(state: State) -> Int {
    let fs = [pure, pure]
    let mut n = state.n
    for f in fs { n = f(n) }
    n
}
fn main() -> Int !{CAP} { eff(view(update(init(), Msg { tag: "t", payload: 1 }))) }
""",
    # a wider set on the type than the value needs, and a reassigned variable
    "superset-and-reassign": """fn both(x: Int) -> Int !{CAP, step.input} {
    let s = step_input("k")
    x
}
fn apply(f: Fn(Int) -> Int !{CAP, step.input}, x: Int) -> Int !{CAP, step.input} { f(x) }
fn main() -> Int !{CAP, step.input} {
    let mut g = pure
    g = eff
    apply(eff, 1) + apply(both, 2) + g(3)
}
""",
}

PROGRAMS = {f"{pattern}-{cap}": (HEAD + body).replace("CAP", cap).replace("USE", use)
            for pattern, body in PATTERNS.items() for cap, use in CAPABILITIES.items()}


@pytest.fixture(autouse=True)
def strict_analyzers(monkeypatch):
    monkeypatch.setattr(collector, "STRICT", True)


def test_there_are_at_least_sixty_programs():
    assert len(PROGRAMS) == 72


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_well_typed_program_gets_no_diagnostics(name):
    assert [(d.id, d.location.line, d.body) for d in check_source(PROGRAMS[name]).diagnostics] \
        == []


@pytest.mark.parametrize("name, value", [("callback-time.now", 1700000001),
                                         ("record-field-db.query", 5),
                                         ("list-union-random", 3), ("returned-fs.read", 38)])
def test_a_sample_runs_under_allow_all_with_the_mock_handlers(name, value):
    result = run_tool(PROGRAMS[name])
    assert (result["success"], result["result"]) == (True, value)
