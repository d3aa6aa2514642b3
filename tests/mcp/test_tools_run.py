"""boruna_run over MCP: results, failures in evaluation order, limits, schemas, traces."""
import pytest

ADD = "fn main() -> Int { 1 + 2 }"
LOOP_FOREVER = """fn main() -> Int {
    let mut i = 0
    while true {
        i = i + 1
    }
    i
}
"""
TWO_INPUTS = """fn main() -> Int !{step.input} {
    let _a: String = step_input("x")
    let _b: String = step_input("y")
    1
}
"""


def _run(server, **arguments):
    payload, _ = server.call("boruna_run", arguments)
    return payload


def test_success_shape_and_values(mcp_server):
    payload, text = mcp_server.call("boruna_run", {"source": ADD})
    assert payload == {"success": True, "protocol_version": 1, "result": 3, "steps": 5,
                       "ui_output": []}
    assert text == ('{\n  "success": true,\n  "protocol_version": 1,\n  "result": 3,\n'
                    '  "steps": 5,\n  "ui_output": []\n}')


def test_emit_fills_ui_output_and_records_are_wrapped(mcp_server):
    source = ('type View { title: String, count: Int }\nfn main() -> Int {\n'
              '    emit View { title: "hi", count: 1 }\n    emit "done"\n    2\n}\n')
    assert _run(mcp_server, source=source) == {
        "success": True, "protocol_version": 1, "result": 2, "steps": 13,
        "ui_output": [{"type": "record", "type_id": 0, "fields": ["hi", 1], "type_name": "View",
                       "field_names": ["title", "count"]}, "done"]}


def test_trace_lists_each_dispatched_op(mcp_server):
    payload = _run(mcp_server, source=ADD, trace=True)
    assert payload["trace"] == ["[main:0] PushConst(0)  stack_depth=0",
                                "[main:1] PushConst(1)  stack_depth=1",
                                "[main:2] Add  stack_depth=2",
                                "[main:3] Ret  stack_depth=1"]
    assert payload["trace_truncated"] is False
    assert list(payload) == ["success", "protocol_version", "result", "steps", "ui_output",
                             "trace", "trace_truncated"]


def test_long_trace_is_capped_at_500(mcp_server):
    payload = _run(mcp_server, source=LOOP_FOREVER.replace("while true", "while i < 100"),
                   trace=True)
    assert payload["success"] is True
    assert len(payload["trace"]) == 500 and payload["trace_truncated"] is True


def test_compile_failure_uses_the_errors_array(mcp_server):
    payload = _run(mcp_server, source="fn main() -> Int { 1 + }")
    assert payload["success"] is False and "error_kind" not in payload
    assert [e["code"] for e in payload["errors"]] == ["E002"]
    assert list(payload["errors"][0]) == ["severity", "code", "message", "line", "col"]


def test_runtime_error_reports_message_and_steps(mcp_server):
    assert _run(mcp_server, source="fn main() -> Int { 1 / 0 }") == {
        "success": False, "protocol_version": 1, "error_kind": "runtime_error",
        "message": "division by zero", "steps": 3, "location": {"line": 1, "col": 20, "function": "main"}, "stack": [{"function": "main", "line": 1, "col": 20}]}


def test_step_limit_is_a_runtime_error(mcp_server):
    assert _run(mcp_server, source=LOOP_FOREVER, max_steps=1000) == {
        "success": False, "protocol_version": 1, "error_kind": "runtime_error",
        "message": "max execution steps exceeded (1000)", "steps": 1001,
        "location": {"line": 4, "col": 13, "function": "main"}, "stack": [{"function": "main", "line": 4, "col": 13}]}


def test_empty_source_has_no_entry_function(mcp_server):
    assert _run(mcp_server, source="") == {
        "success": False, "protocol_version": 1, "error_kind": "runtime_error",
        "message": "invalid function index: 0", "steps": 0}


def test_deny_all_denies_step_input(mcp_server):
    source = 'fn main() -> String {\n    step_input("doc")\n}\n'
    assert _run(mcp_server, source=source)["result"] == ""
    assert _run(mcp_server, source=source, policy="deny-all") == {
        "success": False, "protocol_version": 1, "error_kind": "runtime_error",
        "message": "capability denied: step.input", "steps": 2, "location": {"line": 2, "col": 5, "function": "main"}, "stack": [{"function": "main", "line": 2, "col": 5}]}


def test_budget_is_enforced(mcp_server):
    policy = {"rules": {"step.input": {"allow": True, "budget": 1}}}
    payload = _run(mcp_server, source=TWO_INPUTS, policy=policy)
    assert payload["error_kind"] == "runtime_error"
    assert payload["message"] == "capability budget exceeded: step.input"
    policy["rules"]["step.input"]["budget"] = 2
    assert _run(mcp_server, source=TWO_INPUTS, policy=policy)["result"] == 1


def test_empty_policy_object_denies_but_omitted_policy_allows(mcp_server):
    assert _run(mcp_server, source=TWO_INPUTS)["result"] == 1
    assert _run(mcp_server, source=TWO_INPUTS, policy={})["message"] == (
        "capability denied: step.input")


@pytest.mark.parametrize("policy, message", [
    ("Allow-All", "policy string must be 'allow-all' or 'deny-all' (got 'Allow-All'); pass an "
                  "object for fine-grained policy — see docs/reference/policy-schema.md"),
    (True, "policy must be a string ('allow-all'/'deny-all') or an object; got boolean"),
    (7, "policy must be a string ('allow-all'/'deny-all') or an object; got number"),
    ([1, {}, True], "policy must be a string ('allow-all'/'deny-all') or an object; got array"),
])
def test_non_object_policies_are_invalid_policy(mcp_server, policy, message):
    assert _run(mcp_server, source=ADD, policy=policy) == {
        "success": False, "protocol_version": 1, "error_kind": "invalid_policy",
        "message": message}


def test_rejected_policy_object_is_invalid_policy_with_the_finer_kind(mcp_server):
    assert _run(mcp_server, source=ADD, policy={"default_allow": True, "foo": 1}) == {
        "success": False, "protocol_version": 1, "error_kind": "invalid_policy",
        "message": 'policy.unknown_field: unknown field "foo" at foo',
        "policy_error": "policy.unknown_field"}


def test_compile_errors_win_over_policy_errors(mcp_server):
    payload = _run(mcp_server, source="fn main( {", policy="nope")
    assert "errors" in payload and "error_kind" not in payload


def test_memory_limit_is_refused_before_compiling(mcp_server):
    payload = _run(mcp_server, source="fn main( {", limits={"max_memory_mb": 0})
    assert payload["error_kind"] == "unsupported_limit"
    assert payload["limit_kind"] == "memory_mb"
    assert payload["message"].startswith("max_memory_mb is reserved for a future release")


def test_output_byte_budget_is_inclusive(mcp_server):
    source = 'fn main() -> String { "hello" }'
    assert _run(mcp_server, source=source, limits={"max_output_bytes": 7})["result"] == "hello"
    payload = _run(mcp_server, source=source, limits={"max_output_bytes": 6})
    assert payload == {"success": False, "protocol_version": 1, "error_kind": "limit_exceeded",
                       "message": "serialized output exceeded 6 bytes",
                       "limit_kind": "output_bytes", "limit": 6, "phase": "serialization",
                       "steps": payload["steps"]}
    assert payload["steps"] == _run(mcp_server, source=source)["steps"]


def test_wall_clock_limit(mcp_server):
    payload = _run(mcp_server, source=LOOP_FOREVER, max_steps=2**62,
                   limits={"max_wall_ms": 50})
    assert payload["error_kind"] == "limit_exceeded"
    assert payload["limit_kind"] == "wall_ms" and payload["limit"] == 50
    assert payload["phase"] == "execution"
    assert payload["message"] == "wall-clock execution limit of 50 ms exceeded"
    assert payload["steps"] > 0 and payload["steps"] % 1024 == 0


def test_output_schema_mismatch(mcp_server):
    payload = _run(mcp_server, source=ADD, output_schema={"type": "string"})
    assert payload == {"success": False, "protocol_version": 1,
                       "error_kind": "validation_failed",
                       "message": "result does not match output_schema",
                       "phase": "output_validation", "steps": 5,
                       "errors": [{"message": "3 is not of type 'string'", "path": ""}],
                       "total_errors": 1, "truncated": False}


def test_output_schema_match_and_boolean_schemas(mcp_server):
    assert _run(mcp_server, source=ADD, output_schema={"type": "integer", "minimum": 3})["result"] == 3
    assert _run(mcp_server, source=ADD, output_schema=True)["success"] is True
    assert _run(mcp_server, source=ADD, output_schema=False)["error_kind"] == "validation_failed"


def test_output_schema_of_another_draft_is_refused(mcp_server):
    payload = _run(mcp_server, source=ADD,
                   output_schema={"$schema": "http://json-schema.org/draft-07/schema#"})
    assert payload["error_kind"] == "invalid_output_schema"
    assert payload["message"].startswith(
        "output_schema declares $schema='http://json-schema.org/draft-07/schema#'; only JSON "
        "Schema Draft 2020-12 is supported.")


def test_invalid_output_schema(mcp_server):
    payload = _run(mcp_server, source=ADD, output_schema={"type": 5})
    assert payload["error_kind"] == "invalid_output_schema"
    assert payload["message"].startswith("output_schema is not a valid JSON Schema: ")


def test_zero_max_steps_fails_on_the_first_step(mcp_server):
    assert _run(mcp_server, source=ADD, max_steps=0) == {
        "success": False, "protocol_version": 1, "error_kind": "runtime_error",
        "message": "max execution steps exceeded (0)", "steps": 1, "location": {"line": 1, "col": 1, "function": "main"}, "stack": [{"function": "main", "line": 1, "col": 1}]}


def test_max_steps_accepts_the_whole_u64_range(mcp_server):
    assert _run(mcp_server, source=ADD, max_steps=2**64 - 1)["result"] == 3
    assert _run(mcp_server, source=ADD, max_steps=None)["steps"] == 5
    from mcp.shared.exceptions import MCPError

    with pytest.raises(MCPError) as info:
        mcp_server.call("boruna_run", {"source": ADD, "max_steps": 2**64})
    assert info.value.error.code == -32602


def test_null_optional_arguments_mean_omitted(mcp_server):
    assert _run(mcp_server, source=ADD, policy=None, trace=None, limits=None,
                output_schema=None) == {"success": True, "protocol_version": 1, "result": 3,
                                        "steps": 5, "ui_output": []}


SHARED_2_MIB = """fn main() -> List<String> {
    let mut s = "x"
    let mut i = 0
    while i < 21 { s = s ++ s
        i = i + 1 }
    let mut l = []
    let mut j = 0
    while j < 256 { l = list_push(l, s)
        j = j + 1 }
    l
}
"""


def test_an_amplified_result_is_limit_exceeded_and_the_server_keeps_serving(mcp_server):
    payload, text = mcp_server.call("boruna_run", {"source": SHARED_2_MIB})
    assert payload == {"success": False, "protocol_version": 1, "error_kind": "limit_exceeded",
                       "message": "serialized output exceeded 16777216 bytes",
                       "limit_kind": "output_bytes", "limit": 16777216,
                       "phase": "serialization", "steps": 3620}
    assert len(text) < 1000
    assert mcp_server.call("boruna_run", {"source": ADD})[0]["result"] == 3
