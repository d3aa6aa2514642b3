"""Repair of many patches at once: one re-check for the whole batch when every patch did its
job, and the one-by-one path (with its skip reasons) as soon as one did not."""
import time

from boruna.diagnostics import check_source
from boruna.diagnostics.model import Confidence, SuggestedPatch, TextEdit
from boruna.diagnostics.repair import repair_diagnostics, repair_source


def _program(count: int, typo: str) -> str:
    fns = [f"type R{i} {{ a: Int, b: String }}\nfn f{i}(r: R{i}) -> Int {{\n    r.{typo} + {i}\n}}"
           for i in range(count)]
    return "\n".join(fns) + "\nfn main() -> Int { f1(R1 { a: 1, b: \"\" }) }\n"


def test_many_field_typos_are_fixed_in_one_repair_quickly():
    bad, good = _program(400, "aa"), _program(400, "a")
    assert len(check_source(bad).diagnostics) == 400
    started = time.monotonic()
    result = repair_source(bad)
    assert time.monotonic() - started < 30        # one re-check, not 400
    assert result.patches_applied == 400 and result.skipped == []
    assert result.repaired_source == good
    assert (result.verify_passed, result.diagnostics_before, result.diagnostics_after) == \
        (True, 400, 0)


def test_a_batch_with_a_harmful_patch_falls_back_to_one_by_one():
    source = _program(9, "aa")
    found = check_source(source)
    # a tenth "fix" that introduces an undefined name on main's line
    last = source.split("\n")[-2]
    harmful = SuggestedPatch("X-harm", "make it worse", Confidence.HIGH, "test",
                             [TextEdit(len(source.split("\n")) - 1, last,
                                       last.replace("f1(", "nope("))])
    found.diagnostics[-1].patches.append(harmful)   # its own diagnostic's best patch
    result = repair_diagnostics(source, found, "best")   # ties: the last patch
    assert [a["patch_id"] for a in result.applied] == ["E006-rename-aa"] * 8
    assert result.skipped == [{"diagnostic_id": "E006",
                               "reason": "patch would increase the errors from 1 to 2"}]
    assert result.diagnostics_after == 1 and result.verify_passed is False


def test_past_the_name_error_cap_the_batch_still_counts_as_progress():
    fns = "\n".join(f"fn f{i}(x: Int) -> Int {{\n    let total = x * 2\n    totl + {i}\n}}"
                    for i in range(150))
    source = fns + "\nfn main() -> Int { f1(3) }\n"
    assert len(check_source(source).diagnostics) == 100          # the cap
    started = time.monotonic()
    first = repair_source(source)
    assert time.monotonic() - started < 30
    assert first.patches_applied == 100 and first.diagnostics_after == 50
    second = repair_source(first.repaired_source)
    assert second.verify_passed is True
    assert second.repaired_source == source.replace("totl +", "total +")
