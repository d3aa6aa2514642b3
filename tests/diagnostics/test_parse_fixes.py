"""E002 patches (an addition): keyword typos, unclosed blocks at end of file, stray `}`."""
from __future__ import annotations

import pytest

from boruna.diagnostics import check_source, collector
from boruna.diagnostics.model import DiagnosticSet
from boruna.diagnostics.repair import _worse, repair_source


@pytest.fixture(autouse=True)
def strict_analyzers(monkeypatch):
    monkeypatch.setattr(collector, "STRICT", True)


def test_keyword_typo_at_item_position():
    src = "fnn main() -> Int { 1 }\n"
    [diag] = check_source(src).diagnostics
    assert diag.message == ("expected item, found 'fnn'\n  did you mean: 'fn'? — check for "
                            "mismatched braces or a missing expression")
    [patch] = diag.patches
    assert (patch.id, patch.description, patch.confidence.value) == (
        "E002-keyword-fnn", "replace 'fnn' with the keyword 'fn'", "Medium")
    result = repair_source(src)
    assert result.repaired_source == "fn main() -> Int { 1 }\n"
    assert (result.verify_passed, result.diagnostics_before, result.diagnostics_after) == (
        True, 1, 0)


def test_keyword_typo_in_for_loop():
    src = "fn main() -> Int {\n    for x inn [1] { x }\n    0\n}\n"
    result = repair_source(src)
    assert result.applied[0]["patch_id"] == "E002-keyword-inn"
    assert result.repaired_source.split("\n")[1] == "    for x in [1] { x }"


def test_unclosed_blocks_are_closed_at_the_end():
    src = "fn main() -> Int {\n    let x = 1\n    if x > 0 {\n        x\n"
    [diag] = check_source(src).diagnostics
    assert [p.id for p in diag.patches] == ["E002-close-blocks"]
    assert diag.patches[0].description == "close 2 open blocks at the end of the file"
    result = repair_source(src)
    assert result.repaired_source == src + "    }\n}\n"
    # the closed program parses, but `main` returns `()` when `x > 0` is false (issue 12)
    [left] = check_source(result.repaired_source).diagnostics
    assert (left.id, left.severity, left.location.line, left.location.col) == (
        "E009", "error", 3, 5)
    assert left.message.startswith("type mismatch: this `if` has no `else`, so the result "
                                   "of `main` is `()` when the condition is false")
    assert not result.verify_passed


def test_braces_inside_strings_do_not_count():
    src = 'fn main() -> String {\n    "{{"\n'
    result = repair_source(src)
    assert result.repaired_source == src + "}\n"
    assert result.verify_passed


def test_stray_closing_brace_is_removed():
    src = "fn main() -> Int {\n    1\n}\n}\n"
    [diag] = check_source(src).diagnostics
    assert [p.id for p in diag.patches] == ["E002-remove-stray-brace"]
    result = repair_source(src)
    assert result.repaired_source == "fn main() -> Int {\n    1\n}\n"
    assert result.verify_passed


@pytest.mark.parametrize("src", [
    "fn main() -> Int {\n    let x = \n}\n",          # missing expression: no guess
    "fn main() -> Int { 1 @ }\n",                     # lexer error
    "fn main() -> Int {\n  let xs = [1, 2\n  0\n}\n",  # unclosed list
])
def test_no_guess_without_a_clear_fix(src):
    assert all(not d.patches for d in check_source(src).diagnostics)


def test_a_patch_that_does_not_move_the_parse_error_is_worse():
    before = check_source("fn main() -> Int {\n    let x = \n}\n")
    same = check_source("fn main() -> Int {\n    let y = \n}\n")
    later = check_source("fn main() -> Int {\n    let x = 1\n    let y = \n}\n")
    fixed = check_source("fn main() -> Int {\n    1\n}\n")
    assert _worse(before, same) == "patch does not get the parser past the error"
    assert _worse(before, later) is None
    assert _worse(before, fixed) is None
    assert _worse(DiagnosticSet("<source>"), before).startswith(
        "patch would make the source fail to parse at line 3: expected expression")
