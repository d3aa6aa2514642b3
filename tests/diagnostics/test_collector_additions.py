"""Findings and behaviours beyond the reference: unknown capability names, MISSING_MAIN,
real positions, scope-aware renames, the E006/E005 blind spots fixed, the JSON model."""
from __future__ import annotations

import json

import pytest

from boruna.diagnostics import DiagnosticSet, check_source, collector
from boruna.diagnostics.registry import ADVISORY_CODES, ALL_CODES, CODES
from boruna.diagnostics.repair import repair_diagnostics, repair_source


@pytest.fixture(autouse=True)
def strict_analyzers(monkeypatch):
    monkeypatch.setattr(collector, "STRICT", True)


def ids(src):
    return [d.id for d in check_source(src).diagnostics]


# ---------------------------------------------------------------- unknown capability names

def test_unknown_capability_with_a_close_name():
    src = "fn fetch(url: String) -> String !{net.fech, time} { url }\nfn main() -> Int { 0 }\n"
    [diag] = check_source(src).diagnostics
    assert diag.id == "E007" and diag.severity == "error"
    assert diag.message == (
        "unknown capability 'net.fech' in the !{...} annotation of function 'fetch' (the "
        "compiler ignores unknown names, so it grants nothing); did you mean 'net.fetch'?")
    assert (diag.location.line, diag.location.col, diag.location.end_col) == (1, 35, 43)
    assert [(p.id, p.confidence.value, p.edits[0].new_text) for p in diag.patches] == [
        ("E007-rename-capability-net.fech", "Medium",
         "fn fetch(url: String) -> String !{net.fetch, time} { url }"),
        ("E007-remove-capability-net.fech", "Low",
         "fn fetch(url: String) -> String !{time} { url }")]


def test_unknown_capability_family_and_unrelated_names():
    src = "fn h() -> Int !{fs} { 1 }\nfn g() -> Int !{made.up} { 1 }\nfn main() -> Int { 0 }\n"
    first, second = check_source(src).diagnostics
    assert first.message.endswith("did you mean 'fs.read' or 'fs.write'?")
    assert [p.edits[0].new_text for p in first.patches] == ["fn h() -> Int { 1 }"]
    assert second.message.endswith(
        "known capabilities are net.fetch, fs.read, fs.write, db.query, ui.render, time.now, "
        "random, llm.call, actor_spawn, actor_send, step.input")


def test_every_accepted_spelling_is_known():
    names = "net.fetch, net, fs.read, fs.write, db.query, db, ui.render, ui, time.now, " \
            "time, random, llm.call, llm, actor_spawn, actor_send, step.input, step_input"
    found = check_source(f"fn main() -> Int !{{{names}}} {{ 0 }}\n").diagnostics
    # issue 12: only the least-privilege warnings for the two unused step.input spellings
    assert [(d.id, d.severity, d.body) for d in found] == [
        ("E007", "warning", f"`main` declares `{name}` but never uses it")
        for name in ("step.input", "step_input")]


def test_remove_middle_and_last_unknown_names():
    src = "fn main() -> Int !{random, bogus, time} { 0 }\n"
    [diag] = check_source(src).diagnostics
    assert diag.patches[-1].edits[0].new_text == "fn main() -> Int !{random, time} { 0 }"
    src = "fn main() -> Int !{random, bogus} { 0 }\n"
    [diag] = check_source(src).diagnostics
    assert diag.patches[-1].edits[0].new_text == "fn main() -> Int !{random} { 0 }"


# ---------------------------------------------------------------- MISSING_MAIN

def test_missing_main_is_a_warning_with_add_main():
    [diag] = check_source("fn helper() -> Int { 1 }\nfn two() -> Int { 2 }\n").diagnostics
    assert (diag.id, diag.severity) == ("MISSING_MAIN", "warning")
    assert diag.message == (
        "no 'main' function: running this file starts at its first function 'helper' "
        "(line 1); add `fn main()` to make the entry point explicit, or define "
        "init/update/view for an App")
    assert diag.location.to_dict() == {"file": "<source>", "line": 1, "col": 1,
                                       "end_line": 1, "end_col": 1}
    [patch] = diag.patches
    assert (patch.id, patch.confidence.value) == ("add_main", "High")


def test_missing_main_calls_first_zero_arg_function_with_medium_confidence():
    [diag] = check_source("fn inc(n: Int) -> Int { n + 1 }\nfn go() { inc(1) }\n").diagnostics
    [patch] = diag.patches
    assert patch.confidence.value == "Medium"
    assert patch.edits[0].new_text == "fn go() { inc(1) }\n\nfn main() {\n    go()\n}"


def test_missing_main_without_zero_arg_function_has_no_patch():
    [diag] = check_source("fn inc(n: Int) -> Int { n + 1 }\n").diagnostics
    assert diag.id == "MISSING_MAIN" and diag.patches == []


@pytest.mark.parametrize("src", [
    "", "// only a comment\n", "type T { a: Int }\n", "fn main() -> Int { 0 }\n",
    "fn init() -> Int { 0 }\n", "fn view(s: Int) -> Int { s }\n"])
def test_no_missing_main(src):
    assert "MISSING_MAIN" not in ids(src)


def test_registry_lists_advisory_codes_separately():
    assert list(CODES) == [f"E00{i}" for i in range(1, 10)]
    assert list(ADVISORY_CODES) == ["MISSING_MAIN", "EAGER_AND_OR"]
    assert list(ALL_CODES)[-2:] == ["MISSING_MAIN", "EAGER_AND_OR"]
    assert ADVISORY_CODES["MISSING_MAIN"].to_dict()["category"] == "entry-point"


# ---------------------------------------------------------------- positions and scope

def test_e003_is_located_at_the_use_not_an_earlier_mention():
    src = ('fn main() -> Int {\n    let s = "totl"\n    // totl is mentioned\n'
           "    let total = 1\n    totl\n}\n")
    [diag] = check_source(src).diagnostics
    assert (diag.location.line, diag.location.col) == (5, 5)
    assert diag.patches[0].edits[0].new_text == "    total"


def test_e003_rename_skips_strings_fields_and_labels():
    src = ('type R { valu: Int }\nfn main() -> Int {\n    let value = 1\n'
           '    let r = R { valu: valu }\n    r.valu\n}\n')
    [diag] = check_source(src).diagnostics
    assert diag.id == "E003"
    assert diag.patches[0].edits[0].new_text == "    let r = R { valu: value }"


def test_e003_candidates_are_scope_aware():
    # `counter` lives in another function: the reference would rename to it and stay broken.
    src = ("fn other() -> Int {\n    let counter = 1\n    counter\n}\n"
           "fn main() -> Int {\n    let count = 2\n    countr\n}\n")
    [diag] = check_source(src).diagnostics
    assert diag.patches[0].description == "rename 'countr' to 'count'"
    assert repair_source(src).verify_passed


def test_e006_inside_for_loops_and_no_duplicate_field_suggestion():
    src = ("type P { a: Int, ab: Int }\nfn main() -> Int {\n    for i in [1] {\n"
           "        let p = P { a: 1, aa: 2 }\n    }\n    0\n}\n")
    [diag] = check_source(src).diagnostics
    assert diag.message == "unknown field 'aa' in record type 'P'"
    assert diag.patches[0].description == "rename field 'aa' to 'ab'"


def test_e006_rename_touches_only_that_label():
    src = ("type P { a: Int, b: Int }\nfn main() -> Int {\n"
           "    let q = P { a: 1, bx: 2 }\n    let xbx = 0\n    q.a\n}\n")
    [diag] = check_source(src).diagnostics
    assert diag.patches[0].edits[0].new_text == "    let q = P { a: 1, b: 2 }"


def test_e006_label_on_its_own_line():
    src = "type P { a: Int }\nfn main() -> P {\n    P {\n        aa:\n            1\n    }\n}\n"
    [diag] = check_source(src).diagnostics
    assert (diag.location.line, diag.location.col) == (4, 9)


def test_e005_one_line_match_gets_inline_arms():
    src = "enum E { A, B(Int) }\nfn f(e: E) -> Int { match e { A => 1 } }\nfn main() -> Int { f(E::A) }\n"
    result = repair_source(src)
    assert result.verify_passed
    assert result.repaired_source.split("\n")[1] == (
        'fn f(e: E) -> Int { match e { A => 1, B(_) => __builtin_guard(0, false, '
        '"TODO: handle E::B") } }')


def test_e005_braces_in_strings_and_comments_do_not_confuse_the_patch():
    src = ('enum E { A, B }\nfn f(e: E) -> String {\n    match e {\n'
           '        A => "}" // }\n    }\n}\nfn main() -> String { f(E::A) }\n')
    result = repair_source(src)
    assert result.verify_passed
    assert result.repaired_source.split("\n")[4] == (
        '        B => __builtin_guard(0, false, "TODO: handle E::B")')


def test_e005_in_nested_positions():
    src = ("enum E { A, B }\nfn f(e: E) -> Int {\n    let x = if true { match e { A => 1 } } "
           "else { 0 }\n    x\n}\nfn main() -> Int { f(E::A) }\n")
    assert ids(src) == ["E005"]


def test_type_check_of_calls_through_shadowing_locals_uses_the_local():
    # issue 12: the local `twice` (an Int) is called, which stops the VM: one error at it,
    # none for the argument `twice`'s parameter would have rejected
    src = ("fn twice(n: Int) -> Int { n * 2 }\nfn main() -> Int {\n"
           "    let twice = 3\n    twice(\"x\")\n}\n")
    diags = check_source(src).diagnostics
    assert [(d.id, d.severity, d.message, d.location.line, d.location.col) for d in diags] == [
        ("E009", "error", "type mismatch: this is `Int`, not a function, so it cannot be "
                          "called", 4, 5)]


# ---------------------------------------------------------------- model JSON

def test_full_dict_round_trips_and_mcp_view_hides_edits():
    src = "type Point { x: Int }\nfn origin() -> Point {\n    Point { xx: 0 }\n}\n"
    found = check_source(src, "p.ax")
    full = found.to_full_dict()
    assert list(full) == ["version", "file", "diagnostics"]
    assert list(full["diagnostics"][0]) == ["id", "severity", "message", "location",
                                            "suggested_patches", "related"]
    again = DiagnosticSet.from_full_dict(json.loads(json.dumps(full)))
    assert again == found
    mcp = found.to_mcp_dict()["diagnostics"][0]
    assert "edits" not in mcp["patches"][0] and "related" not in mcp


def test_from_full_dict_accepts_lower_case_confidence():
    doc = {"version": 1, "file": "x.ax", "diagnostics": [{
        "id": "E003", "severity": "error", "message": "m", "location": None,
        "suggested_patches": [{"id": "p", "description": "d", "confidence": "high",
                               "rationale": "r", "edits": [
                                   {"file": "x.ax", "start_line": 1,
                                    "old_text": "fn main() -> Int { 1 }",
                                    "new_text": "fn main() -> Int { 2 }"}]}], "related": []}]}
    found = DiagnosticSet.from_full_dict(doc)
    result = repair_diagnostics("fn main() -> Int { 1 }\n", found, "best")
    assert result.repaired_source == "fn main() -> Int { 2 }\n"
    assert result.applied == [{"diagnostic_id": "E003", "patch_id": "p", "description": "d"}]
    with pytest.raises((ValueError, KeyError, TypeError)):
        DiagnosticSet.from_full_dict({"diagnostics": [{"id": "E1", "severity": "fatal"}]})


def test_e003_suggests_long_builtin_names():
    src = 'fn main() -> Int {\n    __builtin_string_lenn("abc")\n}\n'
    [diag] = check_source(src).diagnostics
    assert diag.message.endswith("did you mean: '__builtin_string_len'?")
    assert diag.patches[0].edits[0].new_text == '    __builtin_string_len("abc")'


OPTION_RESULT_BOOL = '''fn f(o: Option<Int>, r: Result<Int, String>, b: Bool) -> Int {
    let x = match o {
        Some(v) => v
    }
    let y = match r { Err(e) => 0 }
    let z = match b {
        true => 1
    }
    x + y + z
}
fn main() -> Int { f(Some(1), Err("e"), true) }
'''


def test_e005_on_option_result_and_bool_parameters():
    found = check_source(OPTION_RESULT_BOOL).diagnostics
    assert [(d.id, d.message, d.location.line) for d in found] == [
        ("E005", "non-exhaustive match on 'o' of type 'Option<Int>': missing patterns: None", 2),
        ("E005", "non-exhaustive match on 'r' of type 'Result<Int, String>': missing patterns: "
                 "Ok", 5),
        ("E005", "non-exhaustive match on 'b' of type 'Bool': missing patterns: false", 6)]
    assert found[0].patches[0].edits[0].new_text == (
        '        None => __builtin_guard(0, false, "TODO: handle None")\n    }')


def test_e005_complete_builtin_matches_are_quiet():
    src = ("fn f(o: Option<Int>, b: Bool) -> Int {\n    let x = match o { None => 0, Some(v) => v }\n"
           "    match b { true => x, false => 0 }\n}\nfn main() -> Int { f(None, true) }\n")
    assert ids(src) == []


def test_check_source_resolves_imports_when_given_a_libs_dir(tmp_path):
    from boruna.diagnostics import check_source
    (tmp_path / "std-x" / "src").mkdir(parents=True)
    (tmp_path / "std-x" / "src" / "core.ax").write_text("fn helper() -> Int { 1 }\n")
    source = 'import "std-x"\nfn main() -> Int {\n    helper() + missing\n}\n'
    without = check_source(source)
    assert [d.id for d in without.diagnostics] == ["E002"]
    found = check_source(source, libs_dir=str(tmp_path))
    assert [(d.id, d.message, d.location.line, d.location.col) for d in found.diagnostics] == [
        ("E003", "undefined variable: missing", 3, 16)]


def test_check_runs_with_the_collector_paused_and_restores_it(monkeypatch):
    import gc

    seen = []

    def spy(ctx):
        seen.append(gc.isenabled())
        return []

    monkeypatch.setattr(collector, "ANALYZERS", (spy,))
    assert gc.isenabled()
    assert check_source("fn main() -> Int { 1 }\n").diagnostics == []
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:        # a caller that turned it off keeps it off
        check_source("fn main() -> Int { 1 }\n")
        assert not gc.isenabled()
    finally:
        gc.enable()
