"""The MCP shapes of `boruna_check`/`boruna_repair` as the service layer renders them from
`check_source`/`repair_source` (docs/spec/tooling.md §7.1 D19, §7.2 R1, §7.7 L10)."""
from __future__ import annotations

import json

from boruna.service import check_tool, render, repair_tool

D4 = "fn main() -> Int {\n    let count = 10\n    countt\n}\n"


def test_check_envelope_and_keys():
    response = json.loads(render(check_tool(D4)))
    assert list(response) == ["success", "protocol_version", "file", "diagnostics_count",
                              "diagnostics"]
    assert response["success"] is True and response["protocol_version"] == 1
    [diag] = response["diagnostics"]
    assert list(diag) == ["id", "severity", "message", "location", "patches"]
    assert diag["patches"][0]["confidence"] == "Medium"
    named = check_tool(D4, file_name="app.ax")
    assert named["file"] == "app.ax" and named["diagnostics"][0]["location"]["file"] == "app.ax"


def test_repair_envelope_and_keys():
    response = json.loads(render(repair_tool(D4)))
    assert list(response) == ["success", "protocol_version", "repaired_source",
                              "patches_applied", "patches_skipped", "applied", "skipped",
                              "verify_passed", "diagnostics_before", "diagnostics_after"]
    assert response["verify_passed"] is True
    assert response["repaired_source"] == D4.replace("countt", "count")


def test_l10_check_does_not_resolve_imports():
    response = check_tool('import "std-ui"\nfn main() -> Int { 0 }\n')
    assert [d["id"] for d in response["diagnostics"]] == ["E002"]
    assert response["diagnostics"][0]["message"].startswith(
        "expected identifier, found <string literal>")
