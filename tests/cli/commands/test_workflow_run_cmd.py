"""`boruna workflow run|show|list|resume|approve|reject|trigger|cancel|evidence` and
`boruna evidence verify`: text output, exit codes, and `--json` equal to the MCP tool's."""
import json

import pytest

WF = {"schema_version": 1, "name": "cli-demo", "version": "1", "edges": [],
      "steps": {"a": {"kind": "source", "source": "a.ax", "inputs": {"n": "$input.n"}},
                "event": {"kind": "external_trigger", "depends_on": ["a"]},
                "b": {"kind": "source", "source": "b.ax",
                      "inputs": {"x": "a.result", "e": "event.result"}}}}


@pytest.fixture
def wf(tmp_path):
    root = tmp_path / "wf"
    root.mkdir()
    (root / "workflow.json").write_text(json.dumps(WF))
    (root / "a.ax").write_text('fn main() -> Int { parse_int(step_input("n")) + 1 }')
    (root / "b.ax").write_text('fn main() -> String { step_input("e") ++ step_input("x") }')
    return root


def test_run_trigger_show_list_and_evidence(cli, wf, tmp_path):
    data = ["--data-dir", tmp_path / "data"]
    result = cli("workflow", "run", wf, "--input", "n=41", *data)
    assert result.code == 0
    lines = result.out.splitlines()
    run_id = lines[0].split()[1]
    assert lines[0] == f"run {run_id} (cli-demo): paused"
    assert lines[1:4] == ['  a                    ok  {"result": 42}',
                          "  b                    pending",
                          "  event                waiting"]
    assert lines[4].startswith(f"waiting: event needs an event: boruna workflow trigger {run_id} "
                               f"event --token ")
    assert "  step a: started\n  step a: completed\n" in result.err
    token = lines[4].split("--token ")[1].split()[0]
    assert cli("workflow", "trigger", run_id, "event", "--token", "bad", *data).code == 1
    done = cli("workflow", "trigger", run_id, "event", "--token", token, "--payload", '"id-"',
               *data)
    assert done.code == 0 and '  b                    ok  {"result": "id-42"}' in done.out
    assert cli("workflow", "list", *data).out == f"{run_id}  completed  cli-demo\n"
    assert cli("workflow", "list", "--status", "paused", *data).out == "no runs\n"
    shown = cli("workflow", "show", run_id, "--json", *data)
    from boruna.service import render, workflow_status_tool
    assert shown.out == render(workflow_status_tool(run_id, data_dir=tmp_path / "data")) + "\n"
    ev = cli("workflow", "evidence", run_id, "--out", tmp_path / "ev", *data)
    assert ev.code == 0 and ev.out.startswith("wrote 8 files to ")
    verified = cli("evidence", "verify", tmp_path / "ev")
    assert verified.code == 0 and "verifies: 8 files" in verified.out
    (tmp_path / "ev" / "outputs.json").write_text("{}")
    broken = cli("evidence", "verify", tmp_path / "ev")
    assert broken.code == 1
    assert broken.err.endswith("  changed file: outputs.json (checksum differs)\n")


def test_run_errors_are_one_line_with_the_problems_listed(cli, wf, tmp_path):
    result = cli("workflow", "run", wf, "--data-dir", tmp_path / "data")
    assert result.code == 1
    assert result.err.strip().endswith("error: missing run input(s) n (the workflow reads: n)")
    (wf / "a.ax").unlink()
    result = cli("workflow", "run", wf, "--input", "n=1", "--data-dir", tmp_path / "data")
    assert result.code == 1
    assert f"  SourceError: step 'a' source 'a.ax' not found in {wf}" in result.err
    assert cli("workflow", "show", "nope", "--data-dir", tmp_path / "data").code == 1
    bad = cli("workflow", "run", wf, "--policy", "nope", "--data-dir", tmp_path / "data")
    assert bad.code == 1 and "invalid policy 'nope'" in bad.err


def test_json_is_the_mcp_shape_and_cancel_resume(cli, wf, tmp_path):
    data = ["--data-dir", tmp_path / "data"]
    out = json.loads(cli("workflow", "run", wf, "--input", "n=1", "--json", *data).out)
    assert out["success"] is True and out["protocol_version"] == 1 and out["status"] == "paused"
    cancelled = cli("workflow", "cancel", out["run_id"], *data)
    assert cancelled.out.splitlines()[0].endswith("cancelled")
    assert cli("workflow", "cancel", out["run_id"], *data).code == 1
    resumed = cli("workflow", "resume", out["run_id"], *data)
    assert resumed.code == 0 and resumed.out.splitlines()[0].endswith("paused")


def test_approve_needs_role_and_reject_fails_the_run(cli, tmp_path):
    root = tmp_path / "g"
    root.mkdir()
    (root / "workflow.json").write_text(json.dumps(
        {"schema_version": 1, "name": "g", "version": "1", "edges": [],
         "steps": {"gate": {"kind": "approval_gate", "required_role": "ops"}}}))
    data = ["--data-dir", tmp_path / "data"]
    run_id = cli("workflow", "run", root, *data).out.split()[1]
    wrong = cli("workflow", "approve", run_id, "gate", "--role", "dev", *data)
    assert wrong.code == 1 and "needs role 'ops'" in wrong.err
    rejected = cli("workflow", "reject", run_id, "gate", "--reason", "no", *data)
    assert rejected.code == 1
    assert "  gate                 FAILED  [rejected] rejected: no" in rejected.out


ASK = {"schema_version": 1, "name": "cli-ask", "version": "1", "edges": [],
       "steps": {"ask": {"kind": "source", "source": "ask.ax", "capabilities": ["llm.call"]},
                 "also": {"kind": "source", "source": "ask.ax",
                          "capabilities": ["llm.call"]}}}
ASK_SRC = ('fn main() -> String !{llm.call} {\n    let a: String = llm_call("name?")\n'
           '    a ++ "!"\n}\n')


def test_delegate_pauses_steps_and_resume_answer_continues_them(cli, tmp_path):
    root = tmp_path / "ask"
    root.mkdir()
    (root / "workflow.json").write_text(json.dumps(ASK))
    (root / "ask.ax").write_text(ASK_SRC)
    data = ["--data-dir", tmp_path / "data"]
    result = cli("workflow", "run", root, "--delegate", "llm.call", *data)
    assert result.code == 0
    lines = result.out.splitlines()
    run_id = lines[0].split()[1]
    assert lines == [f"run {run_id} (cli-ask): paused",
                     "  also                 waiting",
                     "  ask                  waiting",
                     f'waiting: also asks llm.call("name?"): boruna workflow resume {run_id} '
                     f"--step also --answer JSON",
                     f'waiting: ask asks llm.call("name?"): boruna workflow resume {run_id} '
                     f"--step ask --answer JSON"]
    two = cli("workflow", "resume", run_id, "--answer", '"Ada"', *data)
    assert two.code == 1
    assert two.err.strip().endswith("has 2 steps waiting for an answer (also, ask): name one "
                                    "with --step")
    wrong = cli("workflow", "resume", run_id, "--step", "ask", "--answer", "7", *data)
    assert wrong.code == 1 and "answer for llm.call: expected String at $, got an integer" \
        in wrong.err
    assert cli("workflow", "resume", run_id, "--step", "ask", "--answer", "{", *data).code == 1
    half = cli("workflow", "resume", run_id, "--step", "ask", "--answer", '"Ada"', *data)
    assert half.code == 0 and '  ask                  ok  {"result": "Ada!"}' in half.out
    done = cli("workflow", "resume", run_id, "--answer", '"Bo"', "--json", *data)
    view = json.loads(done.out)
    assert view["status"] == "completed"
    assert view["outputs"] == {"also": {"result": "Bo!"}, "ask": {"result": "Ada!"}}
    lone = cli("workflow", "resume", run_id, "--step", "ask", *data)
    assert lone.code == 1 and lone.err.strip().endswith("--step needs --answer JSON")
