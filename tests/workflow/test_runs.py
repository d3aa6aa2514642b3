"""The runner end to end (workflow/runs.py + scheduler + journal + local engine): scheduling,
failures, retries, contracts, limits, inputs, approvals, triggers, hashes, resume."""
import threading

import pytest

from boruna.workflow import runs
from boruna.workflow.runs import RunError

INT = "fn main() -> Int { %s }"
READ = 'fn main() -> Int { parse_int(step_input("x")) + %d }'


def S(name, **more):
    return dict({"kind": "source", "source": f"{name}.ax"}, **more)


def start(root, data, **kw):
    return runs.start(runs.load_directory(root), data_dir=data, **kw)


def by_id(view):
    return {s["id"]: s for s in view["steps"]}


def test_a_chain_passes_outputs_through_step_input(make_workflow, tmp_path):
    root = make_workflow({"a": S("a"), "b": S("b", inputs={"x": "a.result"}),
                          "c": S("c", inputs={"x": "b.result"})},
                         {"a.ax": INT % "40", "b.ax": READ % 1, "c.ax": READ % 1})
    view = start(root, tmp_path / "d")
    assert view["status"] == "completed"
    assert view["outputs"] == {"a": {"result": 40}, "b": {"result": 41}, "c": {"result": 42}}
    assert view["effects_count"] == 2      # the two step_input calls, journaled


def test_a_step_starts_as_soon_as_its_inputs_complete_not_in_waves(make_workflow, tmp_path):
    # `wait` never completes by itself; `b` and `after_b` still run (wave scheduling would
    # hold after_b back until the whole first level, `wait` included, finished)
    root = make_workflow({"wait": {"kind": "external_trigger"}, "b": S("b"),
                          "after_b": S("c", inputs={"x": "b.result"}),
                          "after_wait": S("d", depends_on=["wait"])},
                         {"b.ax": INT % "1", "c.ax": READ % 1, "d.ax": INT % "0"})
    view = start(root, tmp_path / "d", concurrency=2)
    steps = by_id(view)
    assert view["status"] == "paused"
    assert steps["after_b"]["status"] == "completed" and steps["after_b"]["outputs"] == {"result": 2}
    assert steps["after_wait"]["status"] == "pending"
    assert steps["wait"]["status"] == "awaiting_external_event"
    assert view["waiting"][0]["step"] == "wait" and len(view["waiting"][0]["token"]) == 32


def test_a_failure_skips_its_dependents_and_lets_other_branches_finish(make_workflow, tmp_path):
    root = make_workflow({"bad": S("bad"), "child": S("c", depends_on=["bad"]),
                          "grandchild": S("c", depends_on=["child"]), "other": S("ok")},
                         {"bad.ax": INT % "1 / 0", "c.ax": INT % "1", "ok.ax": INT % "7"})
    view = start(root, tmp_path / "d")
    steps = by_id(view)
    assert view["status"] == "failed" and view["error"] == "failed step(s): bad"
    assert steps["bad"]["status"] == "failed" and steps["bad"]["error_kind"] == "runtime_error"
    assert steps["child"]["status"] == "skipped" and steps["grandchild"]["status"] == "skipped"
    assert steps["child"]["error"] == "skipped: upstream step 'bad' did not complete"
    assert steps["other"]["outputs"] == {"result": 7}


def test_retries_only_for_listed_classes_with_exponential_backoff(make_workflow, tmp_path):
    from boruna.workflow.journal.store import Journal

    root = make_workflow({"r": S("bad", retry={"max_attempts": 3, "retry_on": ["runtime_error"]}),
                          "n": S("bad", retry={"max_attempts": 3, "retry_on": ["io_error"]})},
                         {"bad.ax": INT % "1 / 0"})
    view = start(root, tmp_path / "d")
    steps = by_id(view)
    assert steps["r"]["attempts"] == 3 and steps["r"]["status"] == "failed"
    assert steps["n"]["attempts"] == 1
    entries = Journal(tmp_path / "d").audit_entries(view["run_id"])
    backoffs = [e["data"]["backoff_ms"] for e in entries if e["event"] == "step_retry_scheduled"]
    assert backoffs == [100, 200]


def test_backoff_doubles_from_100_ms_and_is_capped_at_5_s():
    from boruna.workflow.scheduler import backoff_ms

    assert [backoff_ms(n) for n in range(1, 9)] == [100, 200, 400, 800, 1600, 3200, 5000, 5000]


MAP = 'fn main() -> Map<String, Int> { __builtin_map_set(__builtin_map_set(map_new(), "a", 1), "b", 2) }'


# what the source does not pin (a Map, an Option) is checked when the step returns; the rest
# before the run (tests/workflow/test_runs_hostile.py)
@pytest.mark.parametrize("source, outputs, message", [
    ("fn main() -> Option<Int> { Some(1) }", {"a": "Int", "b": "String"},
     "main must return a record with the declared outputs (a, b); it returned Int"),
    (MAP, {"a": "Int", "c": "String"}, "main's record lacks declared output(s) c (it has: a, b)"),
    (MAP, {"a": "Int", "b": "String"}, "output 'b' must be String, main returned Int"),
    ("fn main() -> Option<Int> { Some(1) }", {"result": "String"},
     "output 'result' must be String, main returned Int"),
])
def test_outputs_contract_violations(make_workflow, tmp_path, source, outputs, message):
    root = make_workflow({"s": S("s", outputs=outputs)}, {"s.ax": source})
    step = by_id(start(root, tmp_path / "d"))["s"]
    assert (step["status"], step["error_kind"], step["error"]) == ("failed", "contract_violation",
                                                                  message)


def test_declared_record_outputs_are_stored_by_name(make_workflow, tmp_path):
    root = make_workflow({"s": S("s", outputs={"a": "Int", "b": "List<Int>"})},
                         {"s.ax": "type R { b: List<Int>, a: Int, extra: Bool }\n"
                                  "fn main() -> R { R { b: [1, 2], a: 3, extra: true } }"})
    assert start(root, tmp_path / "d")["outputs"] == {"s": {"a": 3, "b": [1, 2]}}


LOOP = "fn main() -> Int {\n    let mut i = 0\n    while true {\n        i = i + 1\n    }\n    i\n}"
FETCH3 = ('fn main() -> Int !{net.fetch} {\n    let a = net_fetch("u1")\n'
          '    let b = net_fetch("u2")\n    let c = net_fetch("u3")\n    1\n}')


@pytest.mark.parametrize("step, source, kind", [
    ({"timeout_ms": 50, "budget": {"max_steps": 10**15}}, LOOP, "wall_time_exceeded"),
    ({"budget": {"max_steps": 1000}}, LOOP, "step_limit_exceeded"),
    ({"capabilities": ["net.fetch"], "budget": {"max_calls": 2}}, FETCH3,
     "capability_budget_exceeded"),
    ({"capabilities": []}, FETCH3, "capability_denied"),
    ({}, "fn main( {", "compile_error"),
])
def test_timeouts_budgets_and_capabilities_are_enforced(make_workflow, tmp_path, step, source,
                                                        kind):
    root = make_workflow({"s": S("s", **step)}, {"s.ax": source})
    got = by_id(start(root, tmp_path / "d"))["s"]
    assert (got["status"], got["error_kind"]) == ("failed", kind)


def test_run_inputs_are_required_and_passed(make_workflow, tmp_path):
    root = make_workflow({"s": S("s", inputs={"x": "$input.n"})}, {"s.ax": READ % 2})
    with pytest.raises(RunError) as err:
        start(root, tmp_path / "d")
    assert err.value.kind == "invalid_inputs"
    assert err.value.message == "missing run input(s) n (the workflow reads: n)"
    with pytest.raises(RunError) as err:
        start(root, tmp_path / "d", inputs={"n": 1, "m": 2})
    assert err.value.message == "unknown run input(s) m (the workflow reads: n)"
    assert start(root, tmp_path / "d", inputs={"n": 40})["outputs"] == {"s": {"result": 42}}


def test_approval_gate_role_reject_and_approve(make_workflow, tmp_path):
    root = make_workflow({"gate": {"kind": "approval_gate", "required_role": "ops"},
                          "after": S("a", depends_on=["gate"])}, {"a.ax": INT % "5"})
    data = tmp_path / "d"
    view = start(root, data)
    assert view["status"] == "paused"
    assert view["waiting"] == [{"step": "gate", "status": "awaiting_approval",
                                "required_role": "ops"}]
    with pytest.raises(RunError) as err:
        runs.decide(view["run_id"], "gate", "approve", role="dev", data_dir=data)
    assert err.value.kind == "role_mismatch"
    with pytest.raises(RunError) as err:
        runs.decide(view["run_id"], "after", "approve", role="ops", data_dir=data)
    assert err.value.kind == "invalid_state"
    done = runs.decide(view["run_id"], "gate", "approve", role="ops", data_dir=data)
    assert done["status"] == "completed" and done["outputs"]["after"] == {"result": 5}

    rejected = start(root, data)
    out = runs.decide(rejected["run_id"], "gate", "reject", reason="not today", data_dir=data)
    steps = by_id(out)
    assert out["status"] == "failed"
    assert steps["gate"]["error"] == "rejected: not today" and steps["after"]["status"] == "skipped"


def test_external_trigger_needs_its_token_and_its_payload_is_the_result(make_workflow, tmp_path):
    root = make_workflow({"event": {"kind": "external_trigger"},
                          "use": S("u", inputs={"x": "event.result"})},
                         {"u.ax": 'fn main() -> String { step_input("x") }'})
    data = tmp_path / "d"
    view = start(root, data)
    token = view["waiting"][0]["token"]
    with pytest.raises(RunError) as err:
        runs.decide(view["run_id"], "event", "trigger", token="0" * 32, payload={}, data_dir=data)
    assert err.value.kind == "invalid_token"
    done = runs.decide(view["run_id"], "event", "trigger", token=token,
                       payload={"id": 7}, data_dir=data)
    assert done["outputs"] == {"event": {"result": {"id": 7}}, "use": {"result": '{"id":7}'}}


def test_the_workflow_hash_covers_step_sources_and_resume_refuses_a_change(make_workflow,
                                                                            tmp_path):
    root = make_workflow({"gate": {"kind": "approval_gate", "required_role": "ops"},
                          "s": S("s", depends_on=["gate"])}, {"s.ax": INT % "1"})
    data = tmp_path / "d"
    before = runs.load_directory(root).hash
    view = start(root, data)
    (root / "s.ax").write_text(INT % "2")
    after = runs.load_directory(root).hash
    assert before != after and view["workflow_hash"] == before
    with pytest.raises(RunError) as err:
        runs.resume(view["run_id"], data_dir=data)
    assert err.value.kind == "workflow_changed"
    assert before in err.value.message and after in err.value.message
    assert err.value.fields == {"persisted_hash": before, "current_hash": after}
    (root / "s.ax").write_text(INT % "1")
    assert runs.resume(view["run_id"], data_dir=data)["status"] == "paused"


def test_cancel_stops_a_running_step_and_the_run_stays_resumable(make_workflow, tmp_path):
    count = "fn main() -> Int {\n    let mut i = 0\n    while i < 1000000 {\n        i = i + 1\n    }\n    i\n}"
    root = make_workflow({"long": S("long")}, {"long.ax": count})
    data = tmp_path / "d"
    cancel = threading.Event()
    # cancelled from inside the run, after its first 100,000-step slice
    view = start(root, data, cancel=cancel, on_progress=lambda step, steps: cancel.set())
    assert view["status"] == "cancelled" and by_id(view)["long"]["status"] == "pending"
    done = runs.resume(view["run_id"], data_dir=data)
    assert done["status"] == "completed" and done["outputs"] == {"long": {"result": 1000000}}
    assert by_id(done)["long"]["attempts"] == 1


def test_cancel_request_for_a_paused_run(make_workflow, tmp_path):
    root = make_workflow({"gate": {"kind": "approval_gate", "required_role": "ops"}}, {})
    data = tmp_path / "d"
    view = start(root, data)
    assert runs.cancel(view["run_id"], data_dir=data)["status"] == "cancelled"
    with pytest.raises(RunError) as err:
        runs.cancel(view["run_id"], data_dir=data)
    assert err.value.kind == "invalid_state"
    assert runs.resume(view["run_id"], data_dir=data)["status"] == "paused"


def test_show_and_list(make_workflow, tmp_path):
    root = make_workflow({"s": S("s")}, {"s.ax": INT % "1"})
    data = tmp_path / "d"
    view = start(root, data)
    assert runs.show(view["run_id"], data_dir=data) == view
    listed = runs.list_runs(data_dir=data, status="completed")
    assert [r["run_id"] for r in listed] == [view["run_id"]]
    assert runs.list_runs(data_dir=data, status="failed") == []
    with pytest.raises(RunError) as err:
        runs.show("nope", data_dir=data)
    assert err.value.kind == "not_found"
    with pytest.raises(RunError) as err:
        runs.show("nope", data_dir=tmp_path / "empty")
    assert err.value.kind == "not_found" and "no workflow runs in" in err.value.message


def test_inline_definition_with_sources(tmp_path):
    wf = ('{"schema_version": 1, "name": "i", "version": "1", "edges": [],'
          ' "steps": {"a": {"kind": "source", "source": "./a.ax"}}}')
    view = runs.start(runs.inline_definition(wf, {"a.ax": INT % "9"}), data_dir=tmp_path / "d")
    assert view["outputs"] == {"a": {"result": 9}}
    with pytest.raises(RunError) as err:
        runs.inline_definition(wf, {"b.ax": "x"})
    assert err.value.kind == "validation_error"
    assert err.value.fields["errors"] == [{"kind": "SourceError", "message":
                                           "step 'a' source './a.ax' is not among the given "
                                           "sources (b.ax)"}]


def test_python_api_returns_a_typed_run(make_workflow, tmp_path):
    import boruna.workflow as wf

    root = make_workflow({"s": S("s")}, {"s.ax": INT % "3"})
    result = wf.run(root, data_dir=tmp_path / "d")
    assert isinstance(result, wf.WorkflowRun)
    assert result.status == "completed" and result.steps["s"].outputs == {"result": 3}
    assert wf.status(result.run_id, data_dir=tmp_path / "d").audit_head == result.audit_head


def test_a_transient_network_failure_is_retried_live_and_the_run_completes(make_workflow,
                                                                           tmp_path):
    import http.server

    from boruna.runtime.live import HandlerConfig

    hits = []

    class Flaky(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            if len(hits) < 3:           # the connection drops: a transient network failure
                self.close_connection = True
                return
            body = b"ok"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Flaky)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/x"
        root = make_workflow({"f": S("f", capabilities=["net.fetch"],
                                     retry={"max_attempts": 3, "on_transient": True})},
                             {"f.ax": 'fn main() -> String !{net.fetch} { net_fetch("%s") }' % url})
        policy = {"default_allow": True, "net_policy": {"allowed_domains": ["127.0.0.1"]}}
        view = start(root, tmp_path / "d", policy=policy, handlers=HandlerConfig(live=True))
    finally:
        httpd.shutdown()
    step = by_id(view)["f"]
    assert (view["status"], step["attempts"], step["outputs"]) == ("completed", 3, {"result": "ok"})
    assert hits == ["/x", "/x", "/x"]         # one live call per attempt, none replayed
    assert view["effects_count"] == 3         # two journaled failures, then the answer


def test_a_decision_made_while_another_runner_drives_the_run_is_picked_up(make_workflow,
                                                                          tmp_path):
    # the driver is held inside its `awaiting_approval` notification until the decision is
    # journaled by another connection, so the decision always lands while the run is being
    # driven (no timing: the VM's speed must not decide whether the run pauses first)
    count = ("fn main() -> Int {\n    let mut i = 0\n    while i < 20000000 {\n        i = i + 1\n"
             "    }\n    i\n}")
    root = make_workflow({"gate": {"kind": "approval_gate", "required_role": "ops"},
                          "after": S("a", depends_on=["gate"]),
                          "long": S("long", budget={"max_steps": 400_000_000})},
                         {"a.ax": INT % "5", "long.ax": count})
    data = tmp_path / "d"
    waiting = threading.Event()
    decided = threading.Event()
    result = {}

    def on_event(event):
        if event["event"] == "awaiting_approval":
            result["run_id"] = None
            waiting.set()
            result["held"] = decided.wait(30)

    def drive():
        result["view"] = start(root, data, concurrency=2, on_event=on_event)

    thread = threading.Thread(target=drive)
    thread.start()
    assert waiting.wait(30)
    run_id = runs.list_runs(data_dir=data)[0]["run_id"]
    answer = runs.decide(run_id, "gate", "approve", role="ops", data_dir=data)
    decided.set()
    assert by_id(answer)["gate"]["status"] == "completed"    # recorded; the driver goes on
    thread.join(60)
    assert result["held"] is True
    view = result["view"]
    assert view["status"] == "completed"
    assert view["outputs"]["after"] == {"result": 5} and view["outputs"]["long"] == {"result": 20000000}
