"""docs/spec/tooling.md §7.1 D1–D20 against `check_source`, adjusted where docs/spec/README.md and the
task say so (seed confidence casing, columns on locations, MISSING_MAIN, compiling E005
stubs, call-site positions for E009 warnings)."""
from __future__ import annotations

import pytest

from boruna.language.errors import CompileError
from boruna.diagnostics import check_source, collector
from boruna.diagnostics.compiler_errors import parse_diagnostic
from boruna.diagnostics.context import CheckContext
from boruna.diagnostics.registry import CODES, codes_document


@pytest.fixture(autouse=True)
def strict_analyzers(monkeypatch):
    monkeypatch.setattr(collector, "STRICT", True)


def ids(result):
    return [d.id for d in result.diagnostics]


def only(result, code):
    found = [d for d in result.diagnostics if d.id == code]
    assert len(found) == 1, ids(result)
    return found[0]


def loc(diag):
    l = diag.location
    return (l.line, l.col, l.end_line, l.end_col)


def test_d1_clean_program():
    result = check_source("fn main() -> Int {\n    42\n}\n")
    assert result.diagnostics == []
    assert result.to_mcp_dict() == {"file": "<source>", "diagnostics_count": 0, "diagnostics": []}
    assert not result.has_errors()


def test_d2_lexer_error_with_caret():
    result = check_source("fn main() -> Int {\n    let x = 1 @ 2\n    x\n}\n")
    assert ids(result) == ["E001"]
    diag = result.diagnostics[0]
    assert diag.severity == "error"
    assert diag.message == ('unexpected character: "@"\n'
                            "      let x = 1 @ 2\n"
                            "  " + " " * 14 + "^")
    assert (diag.location.line, diag.location.col) == (2, 15)
    assert diag.patches == []


def test_d3_parse_error_gets_brace_hint():
    result = check_source("fn main() -> Int {\n    let x = \n}\n")
    assert ids(result) == ["E002"]
    diag = result.diagnostics[0]
    assert diag.message.endswith(" — check for mismatched braces or a missing expression")
    assert diag.message.startswith("expected expression, found RBrace")
    assert diag.location.line == 3


def test_d3_parse_message_with_hint_is_kept():
    ctx = CheckContext.build("a\nb\nc\n", "<source>")
    diag = parse_diagnostic(CompileError("E002", "unexpected token; hint: add a brace", 3, 0), ctx)
    assert diag.message == "unexpected token; hint: add a brace"
    assert diag.location.line == 3 and diag.location.col is None


D4 = "fn main() -> Int {\n    let count = 10\n    countt\n}\n"


def test_d4_near_miss_variable():
    result = check_source(D4)
    assert ids(result) == ["E003"]
    diag = result.diagnostics[0]
    assert diag.message == "undefined variable: countt\n  did you mean: 'count'?"
    assert loc(diag) == (3, 5, 3, 11)
    [patch] = diag.patches
    assert patch.to_mcp_dict() == {
        "id": "E003-rename-countt", "description": "rename 'countt' to 'count'",
        "confidence": "Medium",
        "rationale": "'countt' is not defined; did you mean 'count'? (edit distance: 1)"}
    [edit] = patch.edits
    assert (edit.start_line, edit.old_text, edit.new_text) == (3, "    countt", "    count")


def test_d5_undefined_call_is_e003():
    src = "fn helper() -> Int { 42 }\n\nfn main() -> Int {\n    helperr()\n}\n"
    result = check_source(src)
    diag = only(result, "E003")
    assert ids(result) == ["E003"]
    assert diag.message.split("\n")[0] == "undefined variable: helperr"
    assert loc(diag) == (4, 5, 4, 12)
    [patch] = diag.patches
    assert patch.id == "E003-rename-helperr"
    assert [(e.start_line, e.old_text, e.new_text) for e in patch.edits] == [
        (4, "    helperr()", "    helper()")]


def test_d6_no_candidate_close_enough():
    result = check_source("fn main() -> Int {\n    zzzzqqq\n}\n")
    diag = only(result, "E003")
    assert diag.message == "undefined variable: zzzzqqq"
    assert diag.location.line == 2
    assert "patches" not in diag.to_mcp_dict()


def test_d7_tie_goes_to_first_candidate():
    src = "fn main() -> Int {\n    let abc = 1\n    let abd = 2\n    abx\n}\n"
    diag = only(check_source(src), "E003")
    assert diag.message == "undefined variable: abx"
    assert diag.location.line == 4
    [patch] = diag.patches
    assert patch.description == "rename 'abx' to 'abc'"
    assert patch.rationale.endswith("(edit distance: 1)")


D8 = """enum Shape { Circle(Int), Square(Int), Dot }

fn area(s: Shape) -> Int {
    match s {
        Dot => 0
    }
}
"""


def test_d8_non_exhaustive_match_with_compiling_stub_arms():
    result = check_source(D8)
    assert ids(result) == ["E005", "MISSING_MAIN"]
    diag = result.diagnostics[0]
    assert diag.message == ("non-exhaustive match on 's' of type 'Shape': "
                            "missing variants: Circle, Square")
    assert loc(diag) == (4, 5, 6, 6)
    [patch] = diag.patches
    assert patch.to_mcp_dict() == {
        "id": "E005-add-arms", "description": "add missing match arms: Circle, Square",
        "confidence": "High",
        "rationale": ("match expression does not cover variants: Circle, Square; "
                      "adding stub arms with TODO markers")}
    [edit] = patch.edits
    assert edit.start_line == 6 and edit.old_text == "    }"
    assert edit.new_text == (
        '        Circle(_) => __builtin_guard(0, false, "TODO: handle Shape::Circle")\n'
        '        Square(_) => __builtin_guard(0, false, "TODO: handle Shape::Square")\n'
        "    }")


@pytest.mark.parametrize("extra_arm", ["_ => 1", "other => 1"])
def test_d9_wildcard_or_binding_suppresses_e005(extra_arm):
    src = D8.replace("        Dot => 0\n", f"        Dot => 0\n        {extra_arm}\n")
    assert ids(check_source(src)) == ["MISSING_MAIN"]


def test_d10_let_bound_scrutinee_not_checked():
    src = ("enum Color { Red, Green }\nfn pick() -> Int {\n    let c: Color = Color::Red\n"
           "    match c {\n        Red => 1\n    }\n}\n")
    assert ids(check_source(src)) == ["MISSING_MAIN"]


D11 = "type Point { x: Int, y: Int }\n\nfn origin() -> Point {\n    Point { xx: 0, yy: 0 }\n}\n"


def test_d11_two_unknown_fields_on_one_line():
    result = check_source(D11)
    assert ids(result) == ["E006", "E006", "MISSING_MAIN"]
    first, second = result.diagnostics[:2]
    assert first.message == "unknown field 'xx' in record type 'Point'"
    assert second.message == "unknown field 'yy' in record type 'Point'"
    assert loc(first) == (4, 13, 4, 15)
    assert loc(second) == (4, 20, 4, 22)
    assert [p.to_mcp_dict() for p in first.patches] == [{
        "id": "E006-rename-xx", "description": "rename field 'xx' to 'x'",
        "confidence": "High", "rationale": "field 'xx' does not exist; closest match is 'x'"}]
    assert first.patches[0].edits[0].new_text == "    Point { x: 0, yy: 0 }"
    assert second.patches[0].id == "E006-rename-yy"
    assert second.patches[0].edits[0].new_text == "    Point { xx: 0, y: 0 }"
    for diag in (first, second):
        assert [r.message for r in diag.related] == ["type 'Point' has fields: x, y"]
        assert diag.related[0].location.line == 1


D12 = """type State { n: Int }
type Msg { tag: String, payload: Int }

fn init() -> State { State { n: 0 } }
fn update(state: State, msg: Msg) -> State { state }
fn view(state: State) -> Int !{net.fetch, time.now} { state.n }
"""


def test_d12_capability_violation_on_view():
    result = check_source(D12)
    assert ids(result) == ["E007"]
    diag = result.diagnostics[0]
    assert diag.message == (
        "capability violation: function 'view' must be pure but is annotated with "
        "!{net.fetch, time.now} — remove the capability annotation")
    line6 = D12.splitlines()[5]
    start = line6.index("!{") + 1
    assert loc(diag) == (6, start, 6, line6.index("}") + 2)
    [patch] = diag.patches
    assert patch.id == "E007-remove-caps"
    assert patch.description == "remove capability annotation !{net.fetch, time.now}"
    assert patch.confidence.value == "High"
    assert patch.rationale == "update() and view() must be pure functions with no capabilities"
    assert patch.edits[0].new_text == "fn view(state: State) -> Int { state.n }"


def test_d13_purity_needs_all_three_functions():
    src = "fn init() -> Int { 0 }\nfn update(a: Int, b: Int) -> Int !{fs.read} { a }\n"
    assert ids(check_source(src)) == []


def test_d14_let_annotation_warning():
    # issue 12: an error (the reference warns), at the initializer, with the annotation as
    # the second label (docs/compatibility.md)
    src = "fn main() -> Int {\n    let label: String = 42\n    0\n}\n"
    result = check_source(src)
    assert ids(result) == ["E009"]
    diag = result.diagnostics[0]
    assert diag.severity == "error"
    assert diag.message == ("type mismatch: the value of `label` should be `String`, but it "
                            "is `Int`")
    loc = diag.location
    assert (loc.line, loc.col, loc.end_line, loc.end_col) == (2, 25, 2, 27)
    assert [(r.message, r.location.line, r.location.col) for r in diag.related] == [
        ("`label` is declared `String` here", 2, 16)]
    assert diag.patches == []
    assert result.has_errors()


def test_d15_call_argument_warning_points_at_the_argument():
    src = 'fn twice(n: Int) -> Int { n * 2 }\nfn main() -> Int {\n    twice("7")\n}\n'
    result = check_source(src)
    assert ids(result) == ["E009"]
    diag = result.diagnostics[0]
    assert diag.severity == "error"      # issue 12 (the reference warns)
    assert diag.message == ("type mismatch: the 1st argument of `twice` should be `Int`, but "
                            "it is `String`")
    assert (diag.location.line, diag.location.col) == (3, 11)
    assert [(r.message, r.location.line, r.location.col) for r in diag.related] == [
        ("`twice` declares `n: Int` here", 1, 13)]


def test_d16_compiler_arity_error():
    src = "fn add(a: Int, b: Int) -> Int { a + b }\nfn main() -> Int { add(1) }\n"
    result = check_source(src)
    assert ids(result) == ["E009"]
    diag = result.diagnostics[0]
    assert diag.severity == "error"
    assert diag.message == "function 'add' expects 2 arguments, got 1"
    assert (diag.location.line, diag.location.col) == (2, 20)
    assert "patches" not in diag.to_mcp_dict()


def test_d17_compiler_error_then_analyzer_findings():
    src = "type P { a: Int }\nfn f() -> P {\n    P { aa: missing }\n}\n"
    result = check_source(src)
    assert ids(result) == ["E003", "E006", "MISSING_MAIN"]
    e003, e006 = result.diagnostics[:2]
    assert e003.message == "undefined variable: missing"
    assert e003.location.line == 3 and e003.patches == []
    assert e006.message == "unknown field 'aa' in record type 'P'"
    assert e006.location.line == 3
    assert e006.patches[0].id == "E006-rename-aa"
    assert e006.patches[0].edits[0].new_text == "    P { a: missing }"


def test_d18_parse_error_hides_everything_else():
    src = ("type P { a: Int }\nfn f() -> P { P { b: 1 } }\n\nfn g() -> Int {\n"
           "    let = 3\n}\n")
    result = check_source(src)
    assert ids(result) == ["E002"]
    assert result.diagnostics[0].location.line == 5


def test_d19_mcp_json_shape():
    result = check_source(D4)
    mcp = result.to_mcp_dict()
    assert list(mcp) == ["file", "diagnostics_count", "diagnostics"]
    assert mcp["diagnostics_count"] == 1
    [diag] = mcp["diagnostics"]
    assert list(diag) == ["id", "severity", "message", "location", "patches"]
    assert diag["location"] == {"file": "<source>", "line": 3, "col": 5, "end_line": 3,
                                "end_col": 11}
    assert list(diag["patches"][0]) == ["id", "description", "confidence", "rationale"]
    named = check_source(D4, "app.ax").to_mcp_dict()
    assert named["file"] == "app.ax"
    assert named["diagnostics"][0]["location"]["file"] == "app.ax"


def test_d20_registry():
    doc = codes_document()
    assert doc["version"] == 1
    assert [(c["code"], c["name"], c["category"]) for c in doc["codes"]] == [
        ("E001", "lexer-error", "lexical"), ("E002", "parse-error", "syntax"),
        ("E003", "undefined-variable", "name-resolution"),
        ("E004", "undefined-function", "name-resolution"),
        ("E005", "non-exhaustive-match", "pattern-matching"),
        ("E006", "unknown-field", "type"), ("E007", "capability-violation", "capability"),
        ("E008", "codegen-error", "codegen"), ("E009", "type-error", "type")]
    assert list(doc["codes"][0]) == ["code", "name", "summary", "category"]
    assert CODES["E003"].summary == "A referenced variable is not defined in scope."
