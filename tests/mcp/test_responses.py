"""Every tool's advertised outputSchema describes what the tool really returns: real responses
(success and failure shapes) taken from a running server validate against it."""
import json

import jsonschema
import pytest

from boruna.mcp.responses import RESPONSES, output_schema

APP = open(__file__.rsplit("/tests/", 1)[0] + "/examples/counter_app.ax", encoding="utf-8").read()
OK = "fn main() -> Int { 1 + 2 }"
LOOP = "fn main() -> Int {\n    let mut i = 0\n    while true {\n        i = i + 1\n    }\n    i\n}\n"
FETCH = 'fn main() -> String { step_input("upstream") }'
LLM = 'fn main() -> String !{llm.call} { let a: String = llm_call("q?")\n a }'
WORKFLOW = json.dumps({"schema_version": 1, "name": "w", "version": "1", "edges": [["a", "b"]],
                       "steps": {"a": {"kind": "source", "source": "a.ax"},
                                 "b": {"kind": "source", "source": "b.ax"}}})
CYCLE = json.dumps({"schema_version": 1, "name": "w", "version": "1",
                    "edges": [["a", "b"], ["b", "a"]],
                    "steps": {"a": {"kind": "source", "source": "a.ax"},
                              "b": {"kind": "source", "source": "b.ax"}}})

# (tool, arguments, expected success) — at least one success and one failure per tool
# wherever the tool can fail on its input.
CASES = [
    ("boruna_ast", {"source": OK}, True),
    ("boruna_ast", {"source": "fn main( {"}, False),
    ("boruna_capability_list", {}, True),
    ("boruna_check", {"source": "fn main() -> Int { gret }"}, True),
    ("boruna_check", {"source": OK}, True),
    ("boruna_compile", {"source": OK, "name": "m"}, True),
    ("boruna_compile", {"source": "fn main() -> Int { x }"}, False),
    ("boruna_format", {"source": OK}, True),
    ("boruna_format", {"source": APP, "width": 40}, True),
    ("boruna_format", {"source": "fn main( {"}, False),
    ("boruna_framework_test", {"source": APP, "messages": ["increment:2", "reset"]}, True),
    ("boruna_framework_test", {"source": "fn main( {", "messages": []}, False),
    ("boruna_framework_test", {"source": OK, "messages": ["x"]}, False),
    ("boruna_policy_validate", {"policy_json": "{}"}, True),
    ("boruna_policy_validate", {"policy_json": '{"bogus": 1}'}, True),
    ("boruna_repair", {"source": "fn main() -> Int { let greet = 1\n gret }"}, True),
    ("boruna_run", {"source": OK, "trace": True}, True),
    ("boruna_run", {"source": APP}, True),
    ("boruna_run", {"source": "fn main() -> Int { x }"}, False),
    ("boruna_run", {"source": LOOP, "max_steps": 1000}, False),
    ("boruna_run", {"source": OK, "policy": "nope"}, False),
    ("boruna_run", {"source": OK, "limits": {"max_memory_mb": 1}}, False),
    ("boruna_run", {"source": OK, "output_schema": {"type": "string"}}, False),
    ("boruna_run", {"source": FETCH, "policy": "deny-all"}, False),
    ("boruna_run", {"source": LLM, "handlers": {"llm.call": "client"}}, True),
    ("boruna_run", {"source": OK, "handlers": {"nope": "client"}}, False),
    ("boruna_resume", {"resume_token": "bst1.e30.e30", "result": "x"}, False),
    ("boruna_run_sealed", {"source": FETCH}, True),
    ("boruna_run_sealed", {"source": FETCH, "policy": "deny-all"}, False),
    ("boruna_run_sealed", {"source": "fn main( {"}, False),
    ("boruna_symbols", {"source": APP}, True),
    ("boruna_symbols", {"source": "fn main( {"}, False),
    ("boruna_template_apply", {"template_name": "crud-admin",
                               "args": ["entity_name=User", "fields=name:String"],
                               "validate": True}, True),
    ("boruna_template_apply", {"template_name": "crud-admin", "args": ["oops"]}, False),
    ("boruna_template_apply", {"template_name": "nope", "args": []}, False),
    ("boruna_template_list", {}, True),
    ("boruna_validate_app", {"source": APP}, True),
    ("boruna_validate_app", {"source": "fn init(x: Int) -> Int { x }"}, True),
    ("boruna_validate_app", {"source": "fn main( {"}, False),
    ("boruna_workflow_validate", {"workflow_json": WORKFLOW}, True),
    ("boruna_workflow_validate", {"workflow_json": CYCLE}, False),
    ("boruna_workflow_validate", {"workflow_json": "{"}, False),
]


@pytest.fixture(scope="module")
def advertised(mcp_server):
    return {t.name: t.output_schema for t in mcp_server.run(mcp_server.session.list_tools).tools}


def test_every_tool_is_covered_by_a_success_and_a_failure_where_it_can_fail():
    # the workflow run tools write a journal: tests/mcp/test_tools_workflow.py covers them
    # against a server of their own with --data-dir
    workflow_runs = {"boruna_workflow_run", "boruna_workflow_status", "boruna_workflow_resume",
                     "boruna_workflow_decide"}
    assert sorted({name for name, _, _ in CASES}) == sorted(set(RESPONSES) - workflow_runs)
    always_succeed = {"boruna_capability_list", "boruna_check", "boruna_policy_validate",
                      "boruna_repair", "boruna_template_list"}
    failing = {name for name, _, success in CASES if not success}
    assert failing == set(RESPONSES) - always_succeed - workflow_runs


def test_advertised_output_schemas_are_the_generated_ones_and_valid_2020_12(advertised):
    for name, schema in advertised.items():
        assert schema == output_schema(name)
        assert schema["type"] == "object"
        jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("name, arguments, success", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_real_responses_validate_against_the_advertised_schema(mcp_server, advertised, name,
                                                              arguments, success):
    payload, _ = mcp_server.call(name, arguments)
    assert payload["success"] is success
    jsonschema.Draft202012Validator(advertised[name]).validate(payload)


def test_schemas_reject_what_a_tool_never_returns(advertised):
    validator = jsonschema.Draft202012Validator(advertised["boruna_run"])
    assert not validator.is_valid({"success": True, "protocol_version": 1, "steps": 1})
    assert not validator.is_valid({"success": False, "protocol_version": 1,
                                   "error_kind": "template_error", "message": "x"})
    assert not validator.is_valid({"success": True, "protocol_version": 2, "result": 1,
                                   "steps": 1, "ui_output": []})


def test_internal_errors_are_part_of_every_failure_shape():
    internal = {"success": False, "protocol_version": 1, "error_kind": "internal_error",
                "message": "internal error (ValueError): x"}
    for name in RESPONSES:
        jsonschema.Draft202012Validator(output_schema(name)).validate(internal)
