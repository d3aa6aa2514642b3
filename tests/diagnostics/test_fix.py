"""`boruna.diagnostics.fix`: applicability and the seed's confidence, fixes and edits."""
import pytest

from boruna.diagnostics.fix import Applicability, Confidence, Edit, Fix, SuggestedPatch


def test_applicability_reads_as_the_seeds_confidence_and_back():
    assert [(a.name, a.confidence.value) for a in Applicability] == [
        ("SAFE", "High"), ("UNSAFE", "Medium"), ("DISPLAY_ONLY", "Low")]
    assert [Applicability.of(text) for text in ("high", "Medium", "LOW")] == [
        Applicability.SAFE, Applicability.UNSAFE, Applicability.DISPLAY_ONLY]
    assert Applicability.of(Confidence.MEDIUM) is Applicability.UNSAFE
    with pytest.raises(ValueError, match="^invalid confidence: 'sure'$"):
        Applicability.of("sure")


def test_suggested_patch_is_a_fix_built_from_a_confidence():
    fix = SuggestedPatch("p", "d", Confidence.LOW, "r", [Edit(2, "a", "b")])
    assert fix == Fix("p", "d", Applicability.DISPLAY_ONLY, "r", [Edit(2, "a", "b", "<source>")])
    assert fix.confidence is Confidence.LOW
    assert fix.to_mcp_dict() == {"id": "p", "description": "d", "confidence": "Low",
                                 "rationale": "r"}
    assert fix.to_full_dict()["edits"] == [
        {"file": "<source>", "start_line": 2, "old_text": "a", "new_text": "b"}]
    assert Fix.from_dict(fix.to_full_dict()) == fix


def test_moved_keeps_everything_but_the_edits():
    fix = Fix("p", "d", Applicability.SAFE, "r", [Edit(1, "a", "b")])
    moved = fix.moved([Edit(3, "a", "b")])
    assert moved == Fix("p", "d", Applicability.SAFE, "r", [Edit(3, "a", "b")])
    assert fix.edits == [Edit(1, "a", "b")]
