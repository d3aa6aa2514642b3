"""The workflow run tools through a real server (its own, with --data-dir and
--workflow-root): run inline and from a directory, status, decide, resume, progress
notifications per step, responses valid against the advertised output schemas."""
import json

import jsonschema
import pytest

WF = {"schema_version": 1, "name": "mcp-demo", "version": "1", "edges": [],
      "steps": {"a": {"kind": "source", "source": "a.ax", "inputs": {"n": "$input.n"}},
                "gate": {"kind": "approval_gate", "required_role": "ops", "depends_on": ["a"]},
                "b": {"kind": "source", "source": "b.ax", "inputs": {"x": "a.result"},
                      "depends_on": ["gate"]}}}
SOURCES = {"a.ax": 'fn main() -> Int { parse_int(step_input("n")) * 2 }',
           "b.ax": 'fn main() -> Int { parse_int(step_input("x")) + 1 }'}


@pytest.fixture(scope="module")
def server(server_factory, tmp_path_factory):
    root = tmp_path_factory.mktemp("mcp-workflows")
    (root / "wf").mkdir()
    (root / "wf" / "workflow.json").write_text(json.dumps(WF))
    for name, text in SOURCES.items():
        (root / "wf" / name).write_text(text)
    with server_factory("--data-dir", str(root / "data"), "--workflow-root", str(root / "wf"),
                        cwd=root) as handle:
        handle.root = root
        yield handle


@pytest.fixture(scope="module")
def schemas(server):
    return {t.name: t.output_schema for t in server.run(server.session.list_tools).tools}


def checked(server, schemas, name, arguments, **kwargs):
    payload, _ = server.call(name, arguments, **kwargs)
    jsonschema.Draft202012Validator(schemas[name]).validate(payload)
    return payload


def test_run_inline_pauses_at_the_gate_and_decide_completes_it(server, schemas):
    received = []

    async def on_progress(progress, total, message):
        received.append(message)

    run = checked(server, schemas, "boruna_workflow_run",
                  {"workflow_json": json.dumps(WF), "sources": SOURCES, "inputs": {"n": 21}},
                  progress_callback=on_progress)
    assert run["status"] == "paused" and run["outputs"] == {"a": {"result": 42}}
    assert run["waiting"] == [{"step": "gate", "status": "awaiting_approval",
                               "required_role": "ops"}]
    assert received == ["step a: started", "step a: completed", "step gate: awaiting_approval"]
    status = checked(server, schemas, "boruna_workflow_status", {"run_id": run["run_id"]})
    assert status == run
    wrong = checked(server, schemas, "boruna_workflow_decide",
                    {"run_id": run["run_id"], "step": "gate", "decision": "approve",
                     "role": "dev"})
    assert wrong["error_kind"] == "role_mismatch"
    done = checked(server, schemas, "boruna_workflow_decide",
                   {"run_id": run["run_id"], "step": "gate", "decision": "approve",
                    "role": "ops"})
    assert done["status"] == "completed" and done["outputs"]["b"] == {"result": 43}
    again = checked(server, schemas, "boruna_workflow_resume", {"run_id": run["run_id"]})
    assert again["status"] == "completed" and again["audit_head"] == done["audit_head"]


def test_run_a_directory_inside_the_root_and_refuse_one_outside(server, schemas):
    run = checked(server, schemas, "boruna_workflow_run",
                  {"directory": str(server.root / "wf"), "inputs": {"n": 1}})
    assert run["status"] == "paused" and run["outputs"] == {"a": {"result": 2}}
    outside = checked(server, schemas, "boruna_workflow_run", {"directory": str(server.root)})
    assert outside["error_kind"] == "invalid_path"


@pytest.mark.parametrize("name, arguments, kind", [
    ("boruna_workflow_run", {"workflow_json": "{"}, "parse_error"),
    ("boruna_workflow_run", {"workflow_json": json.dumps(WF), "sources": SOURCES},
     "invalid_inputs"),
    ("boruna_workflow_run", {"workflow_json": json.dumps(WF), "sources": {}},
     "validation_error"),
    ("boruna_workflow_run", {}, "invalid_args"),
    ("boruna_workflow_status", {"run_id": "nope"}, "not_found"),
    ("boruna_workflow_resume", {"run_id": "nope"}, "not_found"),
    ("boruna_workflow_decide", {"run_id": "nope", "step": "x", "decision": "trigger"},
     "not_found"),
])
def test_failures_have_their_kinds_and_schemas(server, schemas, name, arguments, kind):
    payload = checked(server, schemas, name, arguments)
    assert payload["success"] is False and payload["error_kind"] == kind
