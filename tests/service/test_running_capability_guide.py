"""docs/capabilities.md: every example program runs under the mock and gives the result the
guide shows; every capability builtin has an example; the table names every builtin."""
from __future__ import annotations

import json
import re
from pathlib import Path

from boruna import service
from boruna.core.builtins import BUILTINS

GUIDE = (Path(__file__).resolve().parents[2] / "docs" / "capabilities.md").read_text("utf-8")
EXAMPLES = re.findall(r"```ax\n(.*?)```\n\nMock result: `(.*?)`\n", GUIDE, re.S)


def test_every_example_gives_its_mock_result():
    assert len(EXAMPLES) == 9
    for source, shown in EXAMPLES:
        response = service.run_tool(source)
        assert response["success"] is True, source
        assert response["result"] == json.loads(shown), source


def test_every_example_is_denied_by_deny_all_unless_it_needs_no_capability():
    for source, _ in EXAMPLES:
        response = service.run_tool(source, policy="deny-all")
        if "!{" in source:
            assert response["message"].startswith("capability denied: "), source
        else:
            assert response["success"] is True


def test_each_capability_builtin_has_an_example_and_a_table_row():
    wanted = [b.name for b in BUILTINS if b.capability not in (None, "step.input")]
    assert wanted == ["net_fetch", "fs_read", "fs_write", "db_query", "time_now", "random",
                      "llm_call"]
    for name in wanted + ["map_new"]:
        assert any(name + "(" in source for source, _ in EXAMPLES), name
        assert f"| `{name}(" in GUIDE, name
