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


LONG = ("fn main() -> Int {\n    let mut i = 0\n    while i < 5000000 {\n        i = i + 1\n"
        "    }\n    i\n}")


def test_cancelling_the_call_cancels_the_run_and_resume_finishes_it(raw_server_factory,
                                                                    tool_payload, tmp_path):
    import os
    import time

    wf = {"schema_version": 1, "name": "long", "version": "1", "edges": [],
          "steps": {"long": {"kind": "source", "source": "long.ax",
                             "budget": {"max_steps": 1000000000}}}}
    env = dict(os.environ, BORUNA_DATA_DIR=str(tmp_path / "data"))
    server = raw_server_factory(env=env, cwd=tmp_path)
    try:
        server.initialize()
        server.call(2, "boruna_workflow_run", {"workflow_json": json.dumps(wf),
                                               "sources": {"long.ax": LONG}})
        from boruna.workflow import runs
        from boruna.workflow.journal.store import Journal
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:       # until the step runs
            if (tmp_path / "data" / "runs.db").exists():
                listed = runs.list_runs(data_dir=tmp_path / "data")
                if listed and Journal(tmp_path / "data").steps(listed[0]["run_id"])["long"][
                        "status"] == "running":
                    break
            time.sleep(0.01)
        server.cancel(2)
        server.send(json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "boruna_workflow_status", "arguments": {"run_id": "x"}}}))
        server.answers([3])
        for _ in range(200):
            listed = runs.list_runs(data_dir=tmp_path / "data")
            if listed and listed[0]["status"] != "running":
                break
            time.sleep(0.05)
        assert listed[0]["status"] == "cancelled"
        run_id = listed[0]["run_id"]
        # the cancelled runner writes the status, then stops its step and lets go of the
        # lease; a resume before that is refused with `lease_held` (docs/workflows.md)
        for _ in range(400):
            if Journal(tmp_path / "data").run(run_id)["lease_owner"] is None:
                break
            time.sleep(0.05)
        server.call(4, "boruna_workflow_resume", {"run_id": run_id})
        resumed = tool_payload(server.answers([4])[4])
        assert resumed["status"] == "completed"
        assert resumed["outputs"] == {"long": {"result": 5000000}}
    finally:
        server.close()


ASK = {"schema_version": 1, "name": "mcp-ask", "version": "1", "edges": [],
       "steps": {"ask": {"kind": "source", "source": "ask.ax",
                         "capabilities": ["llm.call"], "inputs": {"q": "$input.q"}},
                 "after": {"kind": "source", "source": "after.ax",
                           "inputs": {"x": "ask.result"}}}}
ASK_SOURCES = {"ask.ax": 'fn main() -> String !{llm.call} {\n'
                         '    let a: String = llm_call(step_input("q"))\n'
                         '    let mut k = 0\n    while k < 100 { k = k + 1 }\n'
                         '    a ++ "/" ++ __builtin_int_to_string(k)\n}\n',
               "after.ax": 'fn main() -> String { step_input("x") ++ "." }'}


def test_a_delegated_call_pauses_the_step_and_decide_answers_it(server, schemas):
    run = checked(server, schemas, "boruna_workflow_run",
                  {"workflow_json": json.dumps(ASK), "sources": ASK_SOURCES,
                   "inputs": {"q": "why?"}, "handlers": {"llm.call": "client"}})
    assert run["status"] == "paused" and run["outputs"] == {}
    [waiting] = run["waiting"]
    assert waiting["step"] == "ask" and waiting["status"] == "awaiting_input"
    assert waiting["request"] == {"capability": "llm.call", "args": ["why?"]}
    assert waiting["steps"] > 0
    status = checked(server, schemas, "boruna_workflow_status", {"run_id": run["run_id"]})
    assert status == run
    wrong = checked(server, schemas, "boruna_workflow_decide",
                    {"run_id": run["run_id"], "step": "ask", "decision": "answer",
                     "result": {"not": "a string"}})
    assert wrong["success"] is False and wrong["error_kind"] == "invalid_answer"
    assert checked(server, schemas, "boruna_workflow_status", {"run_id": run["run_id"]}) == run
    done = checked(server, schemas, "boruna_workflow_decide",
                   {"run_id": run["run_id"], "step": "ask", "decision": "answer",
                    "result": "because"})
    assert done["status"] == "completed"
    assert done["outputs"] == {"ask": {"result": "because/100"},
                               "after": {"result": "because/100."}}
    bad = checked(server, schemas, "boruna_workflow_run",
                  {"workflow_json": json.dumps(ASK), "sources": ASK_SOURCES,
                   "inputs": {"q": "x"}, "handlers": {"llm.call": "server"}})
    assert bad["error_kind"] == "invalid_params"
