"""Value encoding of boruna_run results over MCP, and boruna_run_sealed/check/repair/framework."""

ENUM = """enum Shape { Dot, Circle(Int) }
fn main() -> Shape {
    Shape::Circle(3)
}
"""


def test_enum_variant_is_its_name(mcp_server):
    payload, _ = mcp_server.call("boruna_run", {"source": ENUM})
    assert payload["result"] == {"type": "enum", "type_id": 0, "variant": "Circle", "payload": 3}


def test_lists_strings_and_unit(mcp_server):
    source = 'fn main() -> List<String> {\n    ["a", "ż"]\n}\n'
    payload, text = mcp_server.call("boruna_run", {"source": source})
    assert payload["result"] == ["a", "ż"]
    assert '"ż"' in text                         # raw UTF-8, not \\u escapes
    unit, _ = mcp_server.call("boruna_run", {"source": "fn main() { let x = 1 }"})
    assert unit["result"] is None


def test_run_sealed_over_mcp(mcp_server):
    payload, text = mcp_server.call("boruna_run_sealed", {"source": "fn main() -> Int { 1 + 2 }"})
    assert payload["success"] is True and payload["replay_verified"] is True
    assert text.startswith('{\n  "success": true,\n  "protocol_version": 1,\n  "result": 3')


def test_check_and_repair_over_mcp(mcp_server):
    source = "fn main() -> Int {\n    let count = 1\n    countt\n}\n"
    check, _ = mcp_server.call("boruna_check", {"source": source, "file_name": "app.ax"})
    assert check["success"] is True and check["file"] == "app.ax"
    assert check["diagnostics_count"] == len(check["diagnostics"]) >= 1
    first = check["diagnostics"][0]
    assert first["id"] == "E003" and first["severity"] == "error"
    assert first["patches"][0]["confidence"] in ("High", "Medium", "Low")
    repair, _ = mcp_server.call("boruna_repair", {"source": source})
    assert repair["success"] is True
    assert repair["repaired_source"] == "fn main() -> Int {\n    let count = 1\n    count\n}\n"
    assert repair["verify_passed"] is True and repair["patches_applied"] == 1


def test_clean_source_repair_verifies(mcp_server):
    repair, _ = mcp_server.call("boruna_repair", {"source": "fn main() -> Int { 1 }"})
    assert repair == {"success": True, "protocol_version": 1,
                      "repaired_source": "fn main() -> Int { 1 }", "patches_applied": 0,
                      "patches_skipped": 0, "applied": [], "skipped": [],
                      "verify_passed": True, "diagnostics_before": 0, "diagnostics_after": 0}


def test_validate_app_and_workflow_over_mcp(mcp_server):
    app, _ = mcp_server.call("boruna_validate_app", {"source": "fn init() -> Int { 0 }"})
    assert app["success"] is True and app["valid"] is False
    assert app["errors"] == ["missing required function: update()",
                             "missing required function: view()"]
    flow, _ = mcp_server.call("boruna_workflow_validate", {"workflow_json": "[]"})
    assert flow["success"] is False and flow["error_kind"] == "parse_error"
