"""The MCP surface of boruna-mcp: handshake, tools/list, envelope, MCP-level errors."""
import json

import pytest

from mcp.shared.exceptions import MCPError

TOOL_NAMES = [
    "boruna_ast", "boruna_capability_list", "boruna_check", "boruna_compile",
    "boruna_format", "boruna_framework_test", "boruna_policy_validate", "boruna_repair",
    "boruna_resume", "boruna_run",
    "boruna_run_sealed", "boruna_symbols", "boruna_template_apply", "boruna_template_list",
    "boruna_validate_app", "boruna_workflow_decide", "boruna_workflow_resume",
    "boruna_workflow_run", "boruna_workflow_status", "boruna_workflow_validate"]

REQUIRED = {
    "boruna_ast": ["source"], "boruna_capability_list": None, "boruna_check": ["source"],
    "boruna_compile": ["source"], "boruna_format": ["source"],
    "boruna_framework_test": ["source", "messages"],
    "boruna_policy_validate": ["policy_json"], "boruna_repair": ["source"],
    "boruna_resume": ["resume_token", "result"],
    "boruna_run": ["source"], "boruna_run_sealed": ["source"], "boruna_symbols": ["source"],
    "boruna_template_apply": ["template_name", "args"], "boruna_template_list": None,
    "boruna_validate_app": ["source"], "boruna_workflow_validate": ["workflow_json"],
    "boruna_workflow_run": None, "boruna_workflow_status": ["run_id"],
    "boruna_workflow_resume": ["run_id"],
    "boruna_workflow_decide": ["run_id", "step", "decision"]}


def _tools(server):
    return server.run(server.session.list_tools).tools


def test_initialize_reports_server_identity_and_capabilities(mcp_server):
    from boruna import __version__

    init = mcp_server.init
    assert (init.server_info.name, init.server_info.version) == ("boruna-mcp", __version__)
    assert init.capabilities.tools is not None
    assert init.capabilities.prompts is not None and init.capabilities.resources is not None
    assert "success=false" in init.instructions


def test_ping(mcp_server):
    mcp_server.run(mcp_server.session.send_ping)


def test_tools_list_has_all_fourteen_sorted_with_schemas(mcp_server):
    tools = _tools(mcp_server)
    assert [t.name for t in tools] == TOOL_NAMES
    for tool in tools:
        schema = tool.input_schema
        assert schema["type"] == "object"
        assert len(tool.description) > 80
        assert schema.get("required") == REQUIRED[tool.name]
        for name in REQUIRED[tool.name] or []:
            assert "description" in schema["properties"][name]


def test_run_schema_matches_the_reference_structure(mcp_server):
    run = next(t for t in _tools(mcp_server) if t.name == "boruna_run")
    schema = run.input_schema
    assert schema["title"] == "RunParams"
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    props = schema["properties"]
    assert sorted(props) == ["handlers", "limits", "max_steps", "output_schema", "policy",
                            "source", "trace"]
    assert props["source"]["type"] == "string"
    assert {k: props["max_steps"][k] for k in ("format", "minimum", "type")} == {
        "format": "uint64", "minimum": 0, "type": ["integer", "null"]}
    assert props["trace"]["type"] == ["boolean", "null"]
    assert props["policy"]["default"] is None and "type" not in props["policy"]
    assert props["limits"]["anyOf"] == [{"$ref": "#/$defs/RunLimitsParams"}, {"type": "null"}]
    assert sorted(schema["$defs"]["RunLimitsParams"]["properties"]) == [
        "max_memory_mb", "max_output_bytes", "max_wall_ms"]


def test_parameterless_tools_advertise_an_empty_object(mcp_server):
    tools = {t.name: t for t in _tools(mcp_server)}
    assert tools["boruna_template_list"].input_schema == {"properties": {}, "type": "object"}
    assert tools["boruna_capability_list"].input_schema == {"properties": {}, "type": "object"}


def test_response_is_one_pretty_text_item_success_first(mcp_server):
    payload, text = mcp_server.call("boruna_capability_list", {})
    assert text.startswith('{\n  "success": true,\n  "protocol_version": 1,\n')
    assert payload["capability_set_hash"] == (
        "sha256:980d017dc54e30c39c329484b501fbe46914d9ad344bfcb4610b0280f4300a67")
    assert text == json.dumps(payload, indent=2, ensure_ascii=False)


def _mcp_error(server, name, arguments):
    with pytest.raises(MCPError) as info:
        server.call(name, arguments)
    return info.value.error


def test_unknown_tool_is_invalid_params(mcp_server):
    error = _mcp_error(mcp_server, "boruna_nope", {})
    assert (error.code, error.message) == (-32602, "tool not found")


def test_missing_required_argument_is_invalid_params(mcp_server):
    error = _mcp_error(mcp_server, "boruna_compile", {})
    assert (error.code, error.message) == (
        -32602, "failed to deserialize parameters: missing field `source`")


@pytest.mark.parametrize("name, arguments", [
    ("boruna_run", {"source": "fn main() -> Int { 1 }", "trace": "true"}),
    ("boruna_run", {"source": "fn main() -> Int { 1 }", "max_steps": -1}),
    ("boruna_run", {"source": "fn main() -> Int { 1 }", "max_steps": 1.5}),
    ("boruna_compile", {"source": None}),
    ("boruna_compile", {"source": 42}),
    ("boruna_framework_test", {"source": "", "messages": "inc:1"}),
    ("boruna_template_apply", {"template_name": "x", "args": [1]}),
    ("boruna_run", {"source": "fn main() -> Int { 1 }", "limits": {"max_wall_ms": "10"}}),
])
def test_mistyped_arguments_are_invalid_params(mcp_server, name, arguments):
    error = _mcp_error(mcp_server, name, arguments)
    assert error.code == -32602
    assert error.message.startswith("failed to deserialize parameters: ")


def test_one_megabyte_source_is_accepted_and_one_byte_more_rejected(mcp_server):
    exact = "// " + "x" * (1_048_576 - 3)
    payload, _ = mcp_server.call("boruna_symbols", {"source": exact})
    assert payload["success"] is True
    error = _mcp_error(mcp_server, "boruna_symbols", {"source": exact + "x"})
    assert (error.code, error.message) == (-32602, "source exceeds 1 MB limit")
    assert error.data is None


@pytest.mark.parametrize("name", ["boruna_compile", "boruna_ast", "boruna_run",
                                  "boruna_run_sealed", "boruna_check", "boruna_repair",
                                  "boruna_validate_app", "boruna_symbols"])
def test_every_source_tool_enforces_the_limit(mcp_server, name):
    error = _mcp_error(mcp_server, name, {"source": "é" * 524_289})
    assert (error.code, error.message) == (-32602, "source exceeds 1 MB limit")


def test_framework_test_enforces_the_limit(mcp_server):
    error = _mcp_error(mcp_server, "boruna_framework_test",
                       {"source": "a" * 1_048_577, "messages": []})
    assert error.message == "source exceeds 1 MB limit"


def test_unknown_argument_keys_are_ignored(mcp_server):
    payload, _ = mcp_server.call("boruna_capability_list", {"step_limit": 5})
    assert payload["success"] is True


def test_server_keeps_serving_after_errors(mcp_server):
    _mcp_error(mcp_server, "boruna_nope", {})
    payload, _ = mcp_server.call("boruna_policy_validate", {"policy_json": "{}"})
    assert payload == {"success": True, "protocol_version": 1, "ok": True, "schema_version": 1}
