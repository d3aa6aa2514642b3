"""Steps that delegate capability calls to the run's caller (workflow/runs.py, scheduler,
engines/step.py, journal/store.py `suspensions`): the step pauses at the call, the journal
stores its VM snapshot and the request, an answer continues it from the snapshot (not from
its start), in this process or another one."""
import json
import subprocess
import sys

import pytest

from boruna.core.capabilities import LLM_CALL, TIME_NOW
from boruna.workflow import runs
from boruna.workflow.journal.store import Journal
from boruna.workflow.runs import RunError

STEP = """fn main() -> String !{time.now, llm.call} {
    let t = time_now()
    let mut i = 0
    let mut acc = 0
    while i < 500 { acc = acc + i  i = i + 1 }
    let a: String = llm_call("sum " ++ __builtin_int_to_string(acc))
    let mut k = 0
    while k < 300 { k = k + 1 }
    a ++ "|" ++ __builtin_int_to_string(t + k)
}
"""
TWO = """fn main() -> String !{llm.call} {
    let a: String = llm_call("first")
    let b: String = llm_call(a ++ " then")
    a ++ "+" ++ b
}
"""
ANSWER = "the answer"


class Counting:
    """A HandlerConfig stand-in whose handler counts the calls that reach it."""

    def __init__(self):
        self.calls = []

    def handler(self, _policy):
        outer = self

        class H:
            def handle(self, cap, args):
                outer.calls.append(cap.wire_name)
                if cap.id == TIME_NOW:
                    return 1000
                if cap.id == LLM_CALL:
                    return ANSWER
                raise AssertionError(cap.wire_name)
        return H()


def S(name, **more):
    return dict({"kind": "source", "source": f"{name}.ax",
                 "capabilities": ["time.now", "llm.call"]}, **more)


def by_id(view):
    return {s["id"]: s for s in view["steps"]}


def vm_steps(data, run_id, step):
    journal = Journal(data)
    try:
        return journal.steps(run_id)[step]["vm_steps"]
    finally:
        journal.close()


def test_a_delegated_call_pauses_the_step_and_the_answer_continues_it_from_its_snapshot(
        make_workflow, tmp_path):
    # the uninterrupted run: the handler answers llm.call itself
    plain_root = make_workflow({"ask": S("ask"), "after": S("after", inputs={"x": "ask.result"})},
                               {"ask.ax": STEP, "after.ax": 'fn main() -> String { step_input("x") }'},
                               directory="plain")
    counting = Counting()
    plain = runs.start(runs.load_directory(plain_root), data_dir=tmp_path / "p",
                       handlers=counting)
    assert plain["status"] == "completed" and counting.calls == ["time.now", "llm.call"]
    whole_steps = vm_steps(tmp_path / "p", plain["run_id"], "ask")

    root = make_workflow({"ask": S("ask", handlers={"llm.call": "client"}),
                          "after": S("after", inputs={"x": "ask.result"})},
                         {"ask.ax": STEP, "after.ax": 'fn main() -> String { step_input("x") }'})
    data = tmp_path / "d"
    counting = Counting()
    paused = runs.start(runs.load_directory(root), data_dir=data, handlers=counting)
    assert paused["status"] == "paused" and counting.calls == ["time.now"]
    steps = by_id(paused)
    assert steps["ask"]["status"] == "awaiting_input" and steps["after"]["status"] == "pending"
    pause_steps = vm_steps(data, paused["run_id"], "ask")
    assert 0 < pause_steps < whole_steps
    assert paused["waiting"] == [{"step": "ask", "status": "awaiting_input",
                                  "request": {"capability": "llm.call", "args": ["sum 124750"]},
                                  "steps": pause_steps}]
    assert runs.show(paused["run_id"], data_dir=data)["waiting"] == paused["waiting"]

    events = []
    done = runs.decide(paused["run_id"], "ask", "answer", answer=ANSWER, data_dir=data,
                       handlers=counting, on_event=events.append)
    assert done["status"] == "completed"
    assert done["outputs"] == plain["outputs"] == {
        "ask": {"result": "the answer|1300"}, "after": {"result": "the answer|1300"}}
    # the effect before the pause was not performed again (nor replayed: the VM did not run
    # it again), the delegated call never reached the handler
    assert counting.calls == ["time.now"]
    completed = [e for e in events if e["event"] == "step_completed" and e["step"] == "ask"]
    assert completed[0]["resumed_at"] == pause_steps and completed[0]["replayed"] == 1
    # the resumed step took exactly the steps of the uninterrupted one
    assert completed[0]["steps"] == vm_steps(data, paused["run_id"], "ask") == whole_steps
    journal = Journal(data)
    try:
        effects = journal.effects(paused["run_id"], "ask")
        audit = [e["event"] for e in journal.audit_entries(paused["run_id"])]
        assert journal.suspension(paused["run_id"], "ask") is None    # dropped on completion
    finally:
        journal.close()
    assert [(e["seq"], e["capability"], e.get("result")) for e in effects] == [
        (1, "time.now", 1000), (2, "llm.call", ANSWER)]
    assert audit.count("input_requested") == 1 and audit.count("input_answered") == 1
    assert done["effects_count"] == plain["effects_count"]


def test_a_wrong_answer_is_a_clean_error_and_the_step_keeps_waiting(make_workflow, tmp_path):
    root = make_workflow({"ask": S("ask", handlers={"llm.call": "client"})}, {"ask.ax": STEP})
    data = tmp_path / "d"
    paused = runs.start(runs.load_directory(root), data_dir=data, handlers=Counting())
    with pytest.raises(RunError) as err:
        runs.decide(paused["run_id"], "ask", "answer", answer=42, data_dir=data)
    assert err.value.kind == "invalid_answer"
    assert err.value.message == ("answer for llm.call: expected String at $, got an integer "
                                 "(the builtin returns String) (step 'ask' still waits)")
    again = runs.show(paused["run_id"], data_dir=data)
    assert again["status"] == "paused" and again["waiting"] == paused["waiting"]
    with pytest.raises(RunError) as err:
        runs.decide(paused["run_id"], "nope", "answer", answer="x", data_dir=data)
    assert err.value.kind == "not_found"
    done = runs.decide(paused["run_id"], "ask", "answer", answer="ok", data_dir=data,
                       handlers=Counting())
    assert done["outputs"] == {"ask": {"result": "ok|1300"}}
    with pytest.raises(RunError) as err:           # answered: nothing waits any more
        runs.decide(paused["run_id"], "ask", "answer", answer="x", data_dir=data)
    assert err.value.kind == "invalid_state"


def test_a_run_delegates_for_every_step_and_a_step_may_pause_many_times(make_workflow,
                                                                         tmp_path):
    root = make_workflow({"two": {"kind": "source", "source": "two.ax",
                                  "capabilities": ["llm.call"]}}, {"two.ax": TWO})
    data = tmp_path / "d"
    first = runs.start(runs.load_directory(root), data_dir=data,
                       delegate={"llm.call": "client"})
    assert first["waiting"][0]["request"] == {"capability": "llm.call", "args": ["first"]}
    second = runs.decide(first["run_id"], "two", "answer", answer="A", data_dir=data)
    assert second["status"] == "paused"
    assert second["waiting"][0]["request"] == {"capability": "llm.call", "args": ["A then"]}
    done = runs.decide(first["run_id"], "two", "answer", answer="B", data_dir=data)
    assert done["status"] == "completed" and done["outputs"] == {"two": {"result": "A+B"}}
    with pytest.raises(RunError) as err:
        runs.start(runs.load_directory(root), data_dir=data, delegate={"llm.call": "server"})
    assert err.value.kind == "invalid_params"
    with pytest.raises(RunError) as err:
        runs.start(runs.load_directory(root), data_dir=data, delegate=["no.such"])
    assert err.value.message == "handlers: unknown capability 'no.such'"


def test_step_handlers_are_validated(make_workflow, tmp_path):
    root = make_workflow({"a": {"kind": "source", "source": "a.ax",
                                "handlers": {"llm.call": "client"}}},
                         {"a.ax": "fn main() -> Int { 1 }"})
    with pytest.raises(RunError) as err:
        runs.load_directory(root)
    assert [p["kind"] for p in err.value.fields["errors"]] == ["DelegatedNotAllowed"]
    root = make_workflow({"a": {"kind": "source", "source": "a.ax",
                                "handlers": {"llm.call": "me"}}},
                         {"a.ax": "fn main() -> Int { 1 }"}, directory="wf2")
    with pytest.raises(RunError) as err:
        runs.load_directory(root)
    assert err.value.kind == "parse_error"


def test_the_answer_may_come_from_another_process(make_workflow, tmp_path):
    root = make_workflow({"ask": S("ask", handlers={"llm.call": "client"})}, {"ask.ax": STEP})
    data = tmp_path / "d"
    paused = runs.start(runs.load_directory(root), data_dir=data, handlers=Counting())
    out = subprocess.run([sys.executable, "-m", "boruna.cli", "workflow", "resume", paused["run_id"],
                          "--answer", json.dumps("far"), "--data-dir", str(data), "--json"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    view = json.loads(out.stdout)
    assert view["status"] == "completed"
    assert view["outputs"] == {"ask": {"result": "far|1300"}}     # t: the journaled 1000
    journal = Journal(data)
    try:
        audit = journal.audit_entries(paused["run_id"])
    finally:
        journal.close()
    done = [e["data"] for e in audit if e["event"] == "step_completed"]
    assert done == [{"attempt": 1, "resumed_at": vm_steps_at_pause(audit),
                     "outputs": {"result": "far|1300"}}]


def vm_steps_at_pause(audit):
    return [e["data"]["vm_steps"] for e in audit if e["event"] == "input_requested"][0]


def test_an_answer_given_while_another_runner_drives_the_run_is_picked_up(make_workflow,
                                                                          tmp_path):
    import threading

    # the driver is held inside its `awaiting_input` notification until the answer is
    # journaled by another connection, so the answer always lands while the run is being
    # driven (no timing: the VM's speed must not decide whether the run pauses first)
    count = ("fn main() -> Int {\n    let mut i = 0\n    while i < 20000000 {\n        i = i + 1\n"
             "    }\n    i\n}")
    root = make_workflow({"ask": S("ask", handlers={"llm.call": "client"}),
                          "after": S("after", inputs={"x": "ask.result"}),
                          "long": S("long", budget={"max_steps": 400_000_000})},
                         {"ask.ax": STEP, "after.ax": 'fn main() -> String { step_input("x") }',
                          "long.ax": count})
    data = tmp_path / "d"
    waiting = threading.Event()
    answered = threading.Event()
    result = {}

    def on_event(event):
        if event["event"] == "awaiting_input":
            waiting.set()
            result["held"] = answered.wait(30)

    def drive():
        result["view"] = runs.start(runs.load_directory(root), data_dir=data, concurrency=2,
                                    on_event=on_event, handlers=Counting())

    thread = threading.Thread(target=drive)
    thread.start()
    assert waiting.wait(30)
    run_id = runs.list_runs(data_dir=data)[0]["run_id"]
    answer = runs.decide(run_id, "ask", "answer", answer="late", data_dir=data,
                         handlers=Counting())
    answered.set()
    assert by_id(answer)["ask"]["status"] in ("pending", "running", "completed")
    thread.join(60)
    assert result["held"] is True
    view = result["view"]
    assert view["status"] == "completed"
    assert view["outputs"] == {"ask": {"result": "late|1300"}, "after": {"result": "late|1300"},
                               "long": {"result": 20000000}}


def _tamper(data, run_id, recompute: bool):
    import hashlib
    import sqlite3

    conn = sqlite3.connect(str(data / "runs.db"), isolation_level=None)
    try:
        blob = bytearray(conn.execute("SELECT snapshot FROM suspensions WHERE run_id = ?",
                                      (run_id,)).fetchone()[0])
        blob[40] ^= 0xFF
        digest = hashlib.sha256(bytes(blob)).hexdigest() if recompute else "0" * 64
        conn.execute("UPDATE suspensions SET snapshot = ?, snapshot_sha256 = ? WHERE "
                     "run_id = ?", (bytes(blob), digest, run_id))
    finally:
        conn.close()


def test_a_stored_snapshot_that_changed_is_journal_corrupt(make_workflow, tmp_path):
    root = make_workflow({"ask": S("ask", handlers={"llm.call": "client"})}, {"ask.ax": STEP})
    data = tmp_path / "d"
    paused = runs.start(runs.load_directory(root), data_dir=data, handlers=Counting())
    _tamper(data, paused["run_id"], recompute=False)
    with pytest.raises(RunError) as err:
        runs.decide(paused["run_id"], "ask", "answer", answer="x", data_dir=data)
    assert err.value.kind == "journal_corrupt"
    assert "the stored snapshot of step 'ask'" in err.value.message


def test_a_snapshot_the_vm_refuses_runs_the_attempt_from_its_start_with_its_journal(
        make_workflow, tmp_path):
    root = make_workflow({"ask": S("ask", handlers={"llm.call": "client"})}, {"ask.ax": STEP})
    data = tmp_path / "d"
    counting = Counting()
    paused = runs.start(runs.load_directory(root), data_dir=data, handlers=counting)
    _tamper(data, paused["run_id"], recompute=True)      # the journal's digest agrees
    events = []
    done = runs.decide(paused["run_id"], "ask", "answer", answer="again", data_dir=data,
                       handlers=counting, on_event=events.append)
    assert done["outputs"] == {"ask": {"result": "again|1300"}}
    assert counting.calls == ["time.now"]          # replayed from the journal, not made again
    [completed] = [e for e in events if e["event"] == "step_completed"]
    assert "resumed_at" not in completed and completed["replayed"] == 2


def test_a_journal_of_schema_version_1_is_migrated_and_its_runs_go_on(make_workflow, tmp_path,
                                                                       monkeypatch):
    from boruna.workflow.journal import store

    root = make_workflow({"gate": {"kind": "approval_gate", "required_role": "ops"},
                          "ask": S("ask", handlers={"llm.call": "client"},
                                   depends_on=["gate"])}, {"ask.ax": STEP})
    data = tmp_path / "d"
    with monkeypatch.context() as m:              # the build before the suspensions table
        m.setattr(store, "MIGRATIONS", store.MIGRATIONS[:1])
        m.setattr(store, "SCHEMA_VERSION", 1)
        paused = runs.start(runs.load_directory(root), data_dir=data)
        assert Journal(data).schema_version() == 1
    journal = Journal(data)
    assert journal.schema_version() == 2
    journal.close()
    asking = runs.decide(paused["run_id"], "gate", "approve", role="ops", data_dir=data,
                         handlers=Counting())
    assert asking["waiting"][0]["status"] == "awaiting_input"
    done = runs.decide(paused["run_id"], "ask", "answer", answer="v2", data_dir=data,
                       handlers=Counting())
    assert done["outputs"]["ask"] == {"result": "v2|1300"}


def test_a_runner_dying_before_the_run_was_marked_paused_keeps_the_audit_chain(
        make_workflow, tmp_path, monkeypatch):
    """Killed after the step's suspension was journaled, before `run_paused`: the answer
    first settles the run (its pause journaled), so the chain is the uninterrupted one's."""
    from boruna.workflow.journal import store

    root = make_workflow({"ask": S("ask", handlers={"llm.call": "client"})}, {"ask.ax": STEP})
    reference = runs.start(runs.load_directory(root), data_dir=tmp_path / "ref",
                           handlers=Counting())
    reference = runs.decide(reference["run_id"], "ask", "answer", answer="x",
                            data_dir=tmp_path / "ref", handlers=Counting())

    class Died(BaseException):
        pass

    real = store.Journal.set_run_status

    def dies(self, run_id, status, *args, **kwargs):
        if status == "paused":
            raise Died()
        return real(self, run_id, status, *args, **kwargs)

    data = tmp_path / "d"
    with monkeypatch.context() as m:
        m.setattr(store.Journal, "set_run_status", dies)
        with pytest.raises(Died):
            runs.start(runs.load_directory(root), data_dir=data, handlers=Counting())
    run_id = runs.list_runs(data_dir=data)[0]["run_id"]
    left = runs.show(run_id, data_dir=data)
    assert left["status"] == "running" and left["waiting"][0]["status"] == "awaiting_input"
    done = runs.decide(run_id, "ask", "answer", answer="x", data_dir=data, handlers=Counting())
    assert done["status"] == "completed" and done["outputs"] == reference["outputs"]
    assert (done["audit_head"], done["audit_entries"]) == (reference["audit_head"],
                                                           reference["audit_entries"])
