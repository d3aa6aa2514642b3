"""Properties: check and repair never raise on any text; repair never turns source that
parses into source that does not; repair is deterministic."""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from boruna.language.errors import CompileError
from boruna.language.frontend import parse
from boruna.diagnostics import check_source, collector
from boruna.diagnostics.repair import repair_source

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@pytest.fixture(autouse=True)
def strict_analyzers(monkeypatch):
    monkeypatch.setattr(collector, "STRICT", True)


def parses(source: str) -> bool:
    try:
        parse(source)
    except CompileError:
        return False
    return True


SEEDS = [
    "enum Shape { Circle(Int), Square(Int), Dot }\nfn area(s: Shape) -> Int {\n"
    "    match s {\n        Dot => 0\n    }\n}\n",
    "type Point { x: Int, y: Int }\nfn origin() -> Point {\n    Point { xx: 0, yy: 0 }\n}\n",
    "fn main() -> Int {\n    let count = 10\n    countt\n}\n",
    "type State { n: Int }\nfn init() -> State { State { n: 0 } }\n"
    "fn update(state: State, m: Int) -> State !{net.fetch} { state }\n"
    "fn view(state: State) -> Int !{fs.rd} { state.n }\n",
    "fn helper(a: Int) -> Int { a }\nfn main() -> Int {\n    let label: String = helperr(1)\n"
    "    helper(\"x\")\n}\n",
    "enum E { A, B(Int) }\nfn f(e: E) -> Int { match e { A => 1 } }\n",
    "fn f(o: Option<Int>, b: Bool) -> Int {\n    let x = match o {\n        Some(v) => v\n    }\n"
    "    match b { true => x }\n}\nfn main() -> Int { f(None, true) }\n",
]

# Small source fragments that keep programs plausible while breaking them in many ways.
FRAGMENTS = ["{", "}", "(", ")", "\n", " ", "match s {", "A => 1", "Dot => 0", "_ => 0",
             "xx: 1", "Point { x: 1 }", "countt", "count", "!{net}", "!{bogus}", "fn ",
             "let q = ", "\"str}\"", "// c }\n", "E::A", ",", "=>", "Circle(_)", "main"]


NAMES = ["a", "x", "count", "Point", "Dot", "Circle", "state", "s", "net", "helper", "n",
         "main", "update", "view", "init", "xx", "E", "A", "B"]
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@st.composite
def mutated(draw):
    """A seed program with a few identifier swaps (usually still parses) and a few raw
    insertions/deletions (often does not)."""
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(0, 3))):
        words = list(WORD.finditer(text))
        word = words[draw(st.integers(0, len(words) - 1))]
        replacement = draw(st.one_of(
            st.sampled_from(NAMES),
            st.just(word.group()[:-1] or "q"),
            st.just(word.group() + word.group()[-1])))
        text = text[:word.start()] + replacement + text[word.end():]
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2]))):
        pos = draw(st.integers(0, len(text)))
        if draw(st.booleans()):
            text = text[:pos] + draw(st.sampled_from(FRAGMENTS)) + text[pos:]
        else:
            end = min(len(text), pos + draw(st.integers(1, 6)))
            text = text[:pos] + text[end:]
    return text


@SETTINGS
@given(st.text(max_size=300))
def test_check_and_repair_never_raise_on_any_text(text):
    found = check_source(text)
    assert all(d.severity in ("error", "warning") for d in found.diagnostics)
    result = repair_source(text)
    assert isinstance(result.repaired_source, str)
    assert result.patches_applied == len(result.applied)


@SETTINGS
@given(mutated(), st.sampled_from(["best", "all"]))
def test_repair_output_parses_when_input_parsed(source, strategy):
    result = repair_source(source, strategy=strategy)
    if parses(source):
        assert parses(result.repaired_source), result.repaired_source
    assert result.verify_passed == (not check_source(result.repaired_source).has_errors())
    assert result.diagnostics_after == len(check_source(result.repaired_source).diagnostics)
    assert repair_source(source, strategy=strategy).to_mcp_dict() == result.to_mcp_dict()


@SETTINGS
@given(mutated())
def test_every_single_patch_keeps_parsing_source_parsing(source):
    if not parses(source):
        return
    for diag in check_source(source).diagnostics:
        for patch in diag.patches:
            result = repair_source(source, patch_id=patch.id)
            assert parses(result.repaired_source)


def test_deeply_nested_input_does_not_crash():
    deep = "fn main() -> Int { " + "(" * 5000 + "1" + ")" * 5000 + " }\n"
    check_source(deep)
    nested_blocks = "fn main() -> Int { " + "{ " * 3000 + "zz" + " }" * 3000 + " }\n"
    found = check_source(nested_blocks)
    assert [d.id for d in found.diagnostics][:1] in (["E003"], ["E002"])
