"""boruna_policy_validate and boruna_capability_list through the service layer."""
import pytest

from boruna.service import capability_list_tool, policy_validate_tool, render


def test_capability_list_reports_all_eleven_with_the_golden_hash():
    response = capability_list_tool()
    assert list(response) == ["success", "protocol_version", "name", "version", "capabilities",
                              "capability_set_hash"]
    assert response["name"] == "boruna"
    assert [c["name"] for c in response["capabilities"]] == [
        "actor.send", "actor.spawn", "db.query", "fs.read", "fs.write", "llm.call", "net.fetch",
        "random", "step.input", "time.now", "ui.render"]
    assert {c["version"] for c in response["capabilities"]} == {"1"}
    assert {c["name"]: c["builtins"] for c in response["capabilities"] if c["builtins"]} == {
        "db.query": ["db_query"], "fs.read": ["fs_read"], "fs.write": ["fs_write"],
        "llm.call": ["llm_call"], "net.fetch": ["net_fetch"], "random": ["random"],
        "step.input": ["step_input"], "time.now": ["time_now"]}
    assert response["capability_set_hash"] == (
        "sha256:980d017dc54e30c39c329484b501fbe46914d9ad344bfcb4610b0280f4300a67")


@pytest.mark.parametrize("body", [
    '{"schema_version":1,"default_allow":false,"rules":{"fs.read":{"allow":true,"budget":0},'
    '"db.query":{"allow":true,"budget":25}}}',
    '{"default_allow":true,"rules":{"time.now":{"allow":false,"budget":0}}}',
    '{"schema_version":null,"net_policy":null,"default_allow":true}',
    "{}",
    "[1, {}, true]",
])
def test_valid_policy_bodies(body):
    assert policy_validate_tool(body) == {"success": True, "protocol_version": 1, "ok": True,
                                          "schema_version": 1}


def test_alias_capability_gets_a_hint():
    response = policy_validate_tool('{"rules":{"net":{"allow":true,"budget":0}}}')
    assert response == {
        "success": True, "protocol_version": 1, "ok": False, "schema_version": 1,
        "errors": [{"error_kind": "policy.invalid_capability", "found": "net",
                    "hint": "net.fetch",
                    "message": 'policy.invalid_capability: unknown capability "net" — did you '
                               'mean "net.fetch"?'}]}


def test_unknown_field_reports_path():
    response = policy_validate_tool('{"default_allow": true, "foo": 1}')
    assert response["ok"] is False
    assert response["errors"] == [{"error_kind": "policy.unknown_field",
                                   "message": 'policy.unknown_field: unknown field "foo" at foo',
                                   "path": "foo"}]


def test_schema_version_two_is_unknown():
    response = policy_validate_tool('{"schema_version": 2}')
    assert response["errors"] == [{
        "error_kind": "policy.unknown_schema_version", "found": 2,
        "message": "policy.unknown_schema_version: schema_version 2 not supported by this "
                   "binary (expected 1)"}]


def test_shorthand_string_is_not_a_policy_body():
    response = policy_validate_tool('"allow-all"')
    assert response["success"] is True and response["ok"] is False
    assert response["errors"][0]["error_kind"] == "policy.parse_error"


def test_policy_validate_renders_success_first():
    text = render(policy_validate_tool("{}"))
    assert text.startswith('{\n  "success": true,\n  "protocol_version": 1,\n  "ok": true')
