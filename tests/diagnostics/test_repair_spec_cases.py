"""docs/spec/tooling.md §7.2 R1–R13 against `repair_source`/`apply_patch`, adjusted where
docs/spec/README.md says so (verify_passed = no error diagnostics, clean input included; E005
stubs compile) and for the MISSING_MAIN addition."""
from __future__ import annotations

import pytest

from boruna.diagnostics import collector
from boruna.diagnostics.model import (Confidence, Diagnostic, DiagnosticSet,
                                              SuggestedPatch, TextEdit)
from boruna.diagnostics.repair import (PatchFailed, apply_patch, repair_diagnostics,
                                   repair_source)
from boruna.diagnostics import check_source


@pytest.fixture(autouse=True)
def strict_analyzers(monkeypatch):
    monkeypatch.setattr(collector, "STRICT", True)


D4 = "fn main() -> Int {\n    let count = 10\n    countt\n}\n"
D4_FIXED = "fn main() -> Int {\n    let count = 10\n    count\n}\n"
R1 = {"repaired_source": D4_FIXED, "patches_applied": 1, "patches_skipped": 0,
      "applied": [{"diagnostic_id": "E003", "patch_id": "E003-rename-countt",
                   "description": "rename 'countt' to 'count'"}],
      "skipped": [], "verify_passed": True, "diagnostics_before": 1, "diagnostics_after": 0}


def test_r1_best_success():
    result = repair_source(D4)
    assert result.to_mcp_dict() == R1
    assert list(result.to_mcp_dict()) == [
        "repaired_source", "patches_applied", "patches_skipped", "applied", "skipped",
        "verify_passed", "diagnostics_before", "diagnostics_after"]


def test_r2_clean_input_verifies():
    result = repair_source("fn main() -> Int { 1 }\n")
    assert result.to_mcp_dict() == {
        "repaired_source": "fn main() -> Int { 1 }\n", "patches_applied": 0,
        "patches_skipped": 0, "applied": [], "skipped": [], "verify_passed": True,
        "diagnostics_before": 0, "diagnostics_after": 0}


def test_r3_errors_but_no_patches():
    src = "fn main() -> Int {\n    zzzzqqq\n}\n"
    result = repair_source(src)
    assert (result.repaired_source, result.applied, result.skipped) == (src, [], [])
    assert (result.verify_passed, result.diagnostics_before, result.diagnostics_after) == (
        False, 1, 1)


def test_r4_unknown_patch_id():
    result = repair_source(D4, patch_id="E999-nope")
    assert result.repaired_source == D4
    assert result.skipped == [{"diagnostic_id": "all", "reason": "no applicable patches found"}]
    assert result.patches_skipped == 1
    assert (result.verify_passed, result.diagnostics_before, result.diagnostics_after) == (
        False, 1, 1)


def test_r5_by_id():
    assert repair_source(D4, patch_id="E003-rename-countt").to_mcp_dict() == R1


def test_r6_all_overrides_patch_id():
    assert repair_source(D4, strategy="all", patch_id="E999-nope").to_mcp_dict() == R1


@pytest.mark.parametrize("strategy", ["conservative", "garbage", "by_id", None])
def test_r7_other_strategies_act_as_best(strategy):
    assert repair_source(D4, strategy=strategy).to_mcp_dict() == R1


def test_r7_library_conservative_skips_medium_patches():
    result = repair_diagnostics(D4, check_source(D4), "conservative")
    assert result.skipped == [{"diagnostic_id": "all", "reason": "no applicable patches found"}]
    assert result.repaired_source == D4


D11 = "type Point { x: Int, y: Int }\n\nfn origin() -> Point {\n    Point { xx: 0, yy: 0 }\n}\n"


def test_r8_same_line_conflict_then_second_pass():
    result = repair_source(D11)
    assert result.applied == [
        {"diagnostic_id": "E006", "patch_id": "E006-rename-xx",
         "description": "rename field 'xx' to 'x'"},
        {"diagnostic_id": "MISSING_MAIN", "patch_id": "add_main",
         "description": "add `fn main()` calling 'origin'"}]
    assert result.skipped == [{
        "diagnostic_id": "E006",
        "reason": "line 4 mismatch: expected 'Point { xx: 0, yy: 0 }', got 'Point { x: 0, yy: 0 }'"}]
    assert result.repaired_source == (
        "type Point { x: Int, y: Int }\n\nfn origin() -> Point {\n    Point { x: 0, yy: 0 }\n}\n"
        "\nfn main() -> Point {\n    origin()\n}\n")
    assert (result.diagnostics_before, result.diagnostics_after, result.verify_passed) == (
        3, 1, False)
    again = repair_source(result.repaired_source)
    assert again.applied == [{"diagnostic_id": "E006", "patch_id": "E006-rename-yy",
                              "description": "rename field 'yy' to 'y'"}]
    assert (again.diagnostics_after, again.verify_passed) == (0, True)
    assert "Point { x: 0, y: 0 }" in again.repaired_source


def test_r9_partial_fix():
    src = "type P { a: Int }\nfn f() -> P {\n    P { aa: missing }\n}\n"
    result = repair_source(src)
    assert [a["patch_id"] for a in result.applied] == ["E006-rename-aa", "add_main"]
    assert (result.diagnostics_before, result.diagnostics_after, result.verify_passed) == (
        3, 1, False)
    assert check_source(result.repaired_source).diagnostics[0].message == (
        "undefined variable: missing")


R10 = """enum Action { Add, Remove, Clear }
type State { count: Int }

fn update(state: State, action: Action) -> State {
    match action {
        Add => State { count: state.count + 1 }
    }
}
"""


def test_r10_e005_repair_now_verifies():
    result = repair_source(R10)
    assert [a["patch_id"] for a in result.applied] == ["E005-add-arms"]
    lines = result.repaired_source.split("\n")
    assert lines[6:9] == [
        '        Clear => __builtin_guard(0, false, "TODO: handle Action::Clear")',
        '        Remove => __builtin_guard(0, false, "TODO: handle Action::Remove")',
        "    }"]
    assert (result.diagnostics_before, result.diagnostics_after, result.verify_passed) == (
        1, 0, True)


def test_r11_e007_repair():
    src = ("type State { n: Int }\ntype Msg { tag: String, payload: Int }\n\n"
           "fn init() -> State { State { n: 0 } }\n"
           "fn update(state: State, msg: Msg) -> State { state }\n"
           "fn view(state: State) -> Int !{net.fetch, time.now} { state.n }\n")
    result = repair_source(src)
    assert [a["patch_id"] for a in result.applied] == ["E007-remove-caps"]
    assert (result.verify_passed, result.diagnostics_after) == (True, 0)
    assert result.repaired_source.endswith("fn view(state: State) -> Int { state.n }\n")


def test_r12_missing_final_newline_stays_missing():
    result = repair_source(D4.rstrip("\n"))
    assert result.repaired_source == D4_FIXED.rstrip("\n")
    assert result.verify_passed


def test_crlf_line_endings_are_kept():
    # The reference normalised CRLF to LF (docs/spec/tooling.md §2.3 step 5); we keep the file's endings.
    result = repair_source(D4.replace("\n", "\r\n"))
    assert result.repaired_source == D4_FIXED.replace("\n", "\r\n")


def test_lf_text_with_a_stray_cr_stays_lf():
    # The first line decides; like the reference, a lone CRLF line is read as LF.
    result = repair_source("fn main() -> Int {\n    let count = 10\r\n    countt\n}\n")
    assert result.repaired_source == D4_FIXED


# ---------------------------------------------------------------- R13 apply_patch

ABCD = "a\nb\nc\nd\n"


def patch(*edits):
    return SuggestedPatch("p", "d", Confidence.HIGH, "r",
                          [TextEdit(line, old, new) for line, old, new in edits])


def test_r13_out_of_range():
    with pytest.raises(PatchFailed) as info:
        apply_patch(ABCD, patch((9, "x", "y")))
    assert info.value.reason == "edit line 9 out of range (1-4)"
    with pytest.raises(PatchFailed) as info:
        apply_patch(ABCD, patch((0, "x", "y")))
    assert info.value.reason == "edit line 0 out of range (1-4)"


def test_r13_trim_equal_guard_passes():
    assert apply_patch(ABCD, patch((2, "  b  ", "B"))) == "a\nB\nc\nd\n"


def test_r13_mismatch():
    with pytest.raises(PatchFailed) as info:
        apply_patch(ABCD, patch((2, "z", "B")))
    assert info.value.reason == "line 2 mismatch: expected 'z', got 'b'"


def test_r13_empty_new_text_deletes_the_line():
    assert apply_patch(ABCD, patch((2, "b", ""))) == "a\nc\nd\n"


def test_r13_multi_line_old_text_replaces_that_many_lines():
    assert apply_patch(ABCD, patch((2, "whatever\nelse", "X"))) == "a\nX\nd\n"


def test_r13_failing_edit_aborts_the_whole_patch():
    with pytest.raises(PatchFailed):
        apply_patch(ABCD, patch((1, "a", "A"), (3, "nope", "C")))


def test_edits_apply_bottom_up():
    assert apply_patch(ABCD, patch((1, "a", "A\nA2"), (3, "c", "C"))) == "A\nA2\nb\nC\nd\n"


# ---------------------------------------------------------------- safety

def test_patch_that_breaks_parsing_is_skipped():
    src = "fn main() -> Int {\n    1\n}\n"
    bad = Diagnostic("E009", "warning", "synthetic", None,
                     [SuggestedPatch("break-it", "d", Confidence.HIGH, "r",
                                     [TextEdit(2, "    1", "    1 +")])])
    result = repair_diagnostics(src, DiagnosticSet("<source>", [bad]), "best")
    assert result.applied == []
    assert result.skipped == [{
        "diagnostic_id": "E009",
        "reason": "patch would make the source fail to parse at line 3: expected expression, "
                  "found RBrace — check for mismatched braces or a missing expression"}]
    assert result.repaired_source == src
    assert result.verify_passed


def test_patch_that_adds_errors_is_skipped():
    src = "fn main() -> Int {\n    1\n}\n"
    bad = Diagnostic("E009", "warning", "synthetic", None,
                     [SuggestedPatch("worse", "d", Confidence.HIGH, "r",
                                     [TextEdit(2, "    1", "    nope")])])
    result = repair_diagnostics(src, DiagnosticSet("<source>", [bad]), "best")
    assert result.skipped == [{"diagnostic_id": "E009",
                               "reason": "patch would increase the errors from 0 to 1"}]
    assert result.repaired_source == src


def test_best_prefers_highest_confidence_and_last_on_ties():
    src = "a\n"
    def p(pid, conf):
        return SuggestedPatch(pid, pid, conf, "r", [])
    diag = Diagnostic("E009", "error", "m", None,
                      [p("low", Confidence.LOW), p("med1", Confidence.MEDIUM),
                       p("med2", Confidence.MEDIUM)])
    best = repair_diagnostics(src, DiagnosticSet("<source>", [diag]), "best")
    assert [a["patch_id"] for a in best.applied] == ["med2"]
    every = repair_diagnostics(src, DiagnosticSet("<source>", [diag]), "all")
    assert [a["patch_id"] for a in every.applied] == ["med1"]


def test_patches_below_an_insertion_still_apply():
    src = ("fn f(o: Option<Int>, b: Bool) -> Int {\n    let x = match o {\n        Some(v) => v\n"
           "    }\n    let z = match b {\n        true => 1\n    }\n    x + z\n}\n"
           "fn main() -> Int { f(Some(1), true) }\n")
    result = repair_source(src)
    assert [a["description"] for a in result.applied] == [
        "add missing match arms: None", "add missing match arms: false"]
    assert result.skipped == [] and result.verify_passed
    assert result.repaired_source.split("\n")[7] == (
        '        false => __builtin_guard(0, false, "TODO: handle false")')
