"""The live table of step states: redrawn in place from the run's progress messages."""
import io

from boruna.cli.step_table import StepTable
from boruna.cli.style import Style


def test_the_table_redraws_in_place_and_is_erased_at_the_end():
    stream = io.StringIO()
    table = StepTable(stream, Style(False))
    table(1, "step fetch: started")
    table(2, "step fetch: 200000 VM steps")
    table(3, "step fetch: completed")
    table(4, "step gate: awaiting_approval")
    table(5, "not a step message")
    assert table.rows() == ["2 step(s) seen, 1 completed", "  fetch                completed",
                            "  gate                 awaiting_approval"]
    text = stream.getvalue()
    assert text.startswith("1 step(s) seen, 0 completed\n  fetch                running\n")
    assert "\x1b[2F\x1b[J1 step(s) seen, 0 completed\n  fetch                running, 200,000 VM steps\n" in text
    table.close()
    assert stream.getvalue().endswith("\x1b[3F\x1b[J") and table.lines == 0


def test_only_the_last_rows_are_shown_with_a_count():
    table = StepTable(io.StringIO(), Style(False))
    for i in range(20):
        table(i, f"step s{i:02d}: completed")
    rows = table.rows()
    assert rows[0] == "20 step(s) seen, 20 completed (5 earlier not shown)"
    assert len(rows) == 16 and rows[1].startswith("  s05 ")
