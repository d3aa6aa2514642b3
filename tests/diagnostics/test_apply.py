"""`boruna.diagnostics.apply`: applying a fix's edits to text, below the rules."""
import pytest

from boruna.diagnostics.apply import LineShifts, PatchFailed, apply_edit, apply_fix
from boruna.diagnostics.fix import Applicability, Edit, Fix


def fix(*edits):
    return Fix("p", "d", Applicability.SAFE, "r", [Edit(*e) for e in edits])


def test_apply_fix_keeps_crlf_and_the_final_newline():
    assert apply_fix("a\r\nb\r\n", fix((2, "b", "B\nC"))) == "a\r\nB\r\nC\r\n"
    assert apply_fix("a\nb", fix((1, "a", ""))) == "b"


def test_apply_edit_guards_the_old_text():
    assert apply_edit(["a", "b"], Edit(2, " b ", "x")) == ["a", "x"]
    with pytest.raises(PatchFailed) as info:
        apply_edit(["a", "b"], Edit(2, "c", "x"))
    assert info.value.reason == "line 2 mismatch: expected 'c', got 'b'"


def test_line_shifts_move_later_fixes_past_inserted_lines():
    shifts = LineShifts()
    shifts.record(fix((1, "a", "a\nnew")))
    assert shifts.line(1) == 1 and shifts.line(2) == 3
    assert shifts.rebase(fix((2, "b", "B"))).edits == [Edit(3, "b", "B")]
