"""Hostile input for the runner: broken graphs, sources leaving the directory, huge
workflows, a corrupted / locked / full journal, two runners on one run. Each is a clear
error; nothing is lost and the run stays resumable."""
import os
import socket
import sqlite3

import pytest

from boruna.workflow import runs
from boruna.workflow.journal import store
from boruna.workflow.journal.store import Journal, JournalError
from boruna.workflow.runs import RunError

ONE = "fn main() -> Int { 1 }"


def S(name, **more):
    return dict({"kind": "source", "source": name}, **more)


def load_error(root):
    with pytest.raises(RunError) as err:
        runs.load_directory(root)
    return err.value


def test_cycles_dangling_refs_and_unknown_kinds_are_reported_together(make_workflow):
    root = make_workflow({"a": S("a.ax", depends_on=["b"]), "b": S("a.ax", depends_on=["a"]),
                          "c": S("a.ax", inputs={"x": "ghost.out"}), "d": {"kind": "shell"}},
                         {"a.ax": ONE})
    err = load_error(root)
    assert err.kind == "parse_error"
    assert [e["kind"] for e in err.fields["errors"]] == ["UnknownStepKind", "UnknownInput", "Cycle"]


def test_a_cycle_alone_is_a_validation_error(make_workflow):
    root = make_workflow({"a": S("a.ax"), "b": S("a.ax")}, {"a.ax": ONE},
                         edges=[("a", "b"), ("b", "a")])
    err = load_error(root)
    assert err.kind == "validation_error"
    assert err.fields["errors"] == [{"kind": "Cycle",
                                     "message": "cycle detected: resolved 0 of 2 steps"}]


def test_inputs_naming_missing_outputs(make_workflow):
    root = make_workflow({"a": S("x.ax", outputs={"x": "Int"}),
                          "b": S("a.ax", inputs={"v": "a.y"}), "c": S("a.ax", inputs={"v": "b.z"})},
                         {"a.ax": ONE, "x.ax": "type X { x: Int }\nfn main() -> X { X { x: 1 } }"})
    assert load_error(root).fields["errors"] == [
        {"kind": "UnknownOutput", "message": "step 'b' input 'v' reads 'a.y', but step 'a' has "
                                             "no output 'y' (outputs: x)"},
        {"kind": "UnknownOutput", "message": "step 'c' input 'v' reads 'b.z', but step 'b' has "
                                             "no output 'z' (outputs: result)"}]


def test_sources_outside_the_directory_are_refused(make_workflow, tmp_path):
    (tmp_path / "secret.ax").write_text(ONE)
    root = make_workflow({"up": S("../secret.ax"), "abs": S(str(tmp_path / "secret.ax")),
                          "link": S("link.ax"), "missing": S("nope.ax")}, {})
    os.symlink(tmp_path / "secret.ax", root / "link.ax")
    messages = [e["message"] for e in load_error(root).fields["errors"]]
    assert messages == [
        f"step 'abs' source '{tmp_path / 'secret.ax'}' must be a path relative to the workflow "
        f"directory",
        "step 'link' source 'link.ax' leads outside the workflow directory (a symlink?)",
        f"step 'missing' source 'nope.ax' not found in {root}",
        "step 'up' source '../secret.ax' leaves the workflow directory (`..` is not allowed)"]


def test_a_workflow_of_more_than_10000_steps_is_refused_quickly(make_workflow):
    steps = {f"s{i:05d}": S("a.ax") for i in range(10_001)}
    err = load_error(make_workflow(steps, {"a.ax": ONE}))
    assert err.fields["errors"] == [{"kind": "TooManySteps", "message":
                                     "workflow has 10001 steps; the runner takes at most 10000"}]


def test_a_never_ending_step_ends_at_its_limits(make_workflow, tmp_path):
    loop = "fn main() -> Int {\n    while true {\n        let x = 1\n    }\n    0\n}"
    root = make_workflow({"a": S("a.ax")}, {"a.ax": loop})
    step = runs.start(runs.load_directory(root), data_dir=tmp_path / "d")["steps"][0]
    assert (step["status"], step["error_kind"]) == ("failed", "step_limit_exceeded")


def test_a_corrupted_journal_is_a_clear_error(tmp_path):
    data = tmp_path / "d"
    data.mkdir()
    (data / "runs.db").write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(RunError) as err:
        runs.list_runs(data_dir=data)
    assert err.value.kind == "journal_corrupt"
    assert "is not a readable run journal" in err.value.message


def test_a_newer_journal_schema_is_refused(tmp_path):
    Journal(tmp_path).conn.execute("INSERT INTO schema_version VALUES (99)")
    with pytest.raises(JournalError) as err:
        Journal(tmp_path)
    assert err.value.kind == "journal_error" and "schema version 99" in err.value.message


def test_the_journal_has_its_schema_version_wal_and_foreign_keys(tmp_path):
    journal = Journal(tmp_path)
    assert journal.schema_version() == store.SCHEMA_VERSION
    assert journal.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    with pytest.raises(JournalError):      # an effect of a step that does not exist
        journal.record_effect("nope", "s", 1, 1, "net.fetch", [], "x")


def test_a_locked_journal_is_a_clear_error(make_workflow, tmp_path, monkeypatch):
    monkeypatch.setattr(store, "BUSY_TIMEOUT_MS", 100)
    data = tmp_path / "d"
    Journal(data).close()
    holder = sqlite3.connect(str(data / "runs.db"), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        root = make_workflow({"a": S("a.ax")}, {"a.ax": ONE})
        with pytest.raises(RunError) as err:
            runs.start(runs.load_directory(root), data_dir=data)
        assert err.value.kind == "journal_locked"
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_two_runners_on_one_run_exactly_one_wins(make_workflow, tmp_path):
    root = make_workflow({"gate": {"kind": "approval_gate", "required_role": "ops"},
                          "a": S("a.ax", depends_on=["gate"])}, {"a.ax": ONE})
    data = tmp_path / "d"
    view = runs.start(runs.load_directory(root), data_dir=data)
    journal = Journal(data)
    journal.acquire_lease(view["run_id"], store.lease_owner_id())   # a live runner (us)
    with pytest.raises(RunError) as err:
        runs.resume(view["run_id"], data_dir=data)
    assert err.value.kind == "lease_held" and "being driven by another runner" in err.value.message
    # a lease of a process that no longer exists is taken over at once
    dead = f"{socket.gethostname()}:999999999:x"
    journal.conn.execute("UPDATE runs SET lease_owner = ? WHERE run_id = ?", (dead, view["run_id"]))
    assert runs.resume(view["run_id"], data_dir=data)["status"] == "paused"


def test_disk_full_while_journaling_stops_the_run_resumably(make_workflow, tmp_path):
    src = ('fn main() -> Int !{net.fetch} {\n    let mut i = 0\n    while i < 400 {\n'
           '        let b = net_fetch("http://x/" ++ __builtin_int_to_string(i))\n'
           '        i = i + 1\n    }\n    i\n}')
    root = make_workflow({"a": S("a.ax", capabilities=["net.fetch"])}, {"a.ax": src})
    data = tmp_path / "d"
    definition = runs.load_directory(root)
    journal = Journal(data)
    journal.create_run(run_id="r1", workflow_name="w", workflow_hash=definition.hash,
                       workflow_dir=definition.directory, workflow_json=definition.workflow_json,
                       sources=definition.sources, inputs={}, policy={"default_allow": True},
                       options={}, steps={"a": "source"}, owner="x", audit_data={})
    pages = journal.conn.execute("PRAGMA page_count").fetchone()[0]
    journal.conn.execute(f"PRAGMA max_page_count = {pages + 2}")
    with pytest.raises(RunError) as err:
        runs.drive(journal, "r1", definition, owner="x")
    assert err.value.kind == "disk_full" and "stays resumable" in err.value.message
    journal.close()
    kept = Journal(data)
    journaled = len(kept.effects("r1"))
    assert 0 < journaled < 400 and kept.steps("r1")["a"]["live_attempt"] == 1
    done = runs.resume("r1", data_dir=data)
    assert done["status"] == "completed" and done["outputs"] == {"a": {"result": 400}}
    assert done["effects_count"] == 400 and done["steps"][0]["attempts"] == 1


def test_an_interrupted_step_replays_its_journal_and_repeats_only_the_unjournaled_call(
        make_workflow, tmp_path):
    """The one window: a call performed whose journal write failed is made again on resume;
    journaled calls are not."""
    from boruna.runtime.handlers import MockHandler
    from boruna.runtime.live import HandlerConfig

    performed = []

    class Counting(MockHandler):
        def handle(self, cap, args):
            performed.append(args[0])
            return super().handle(cap, args)

    class Config(HandlerConfig):
        def handler(self, policy=None):
            return Counting()

    src = ('fn main() -> Int !{net.fetch} {\n    let a = net_fetch("one")\n'
           '    let b = net_fetch("two")\n    let c = net_fetch("three")\n    1\n}')
    root = make_workflow({"a": S("a.ax", capabilities=["net.fetch"])}, {"a.ax": src})
    data = tmp_path / "d"
    definition = runs.load_directory(root)
    journal = Journal(data)
    journal.create_run(run_id="r1", workflow_name="w", workflow_hash=definition.hash,
                       workflow_dir=definition.directory, workflow_json=definition.workflow_json,
                       sources=definition.sources, inputs={}, policy={"default_allow": True},
                       options={}, steps={"a": "source"}, owner="x", audit_data={})
    real = journal.record_effect

    def failing(run_id, step_id, attempt, seq, *rest):
        if seq == 3:
            raise JournalError("disk_full", "no space left")
        return real(run_id, step_id, attempt, seq, *rest)

    journal.record_effect = failing
    with pytest.raises(RunError):
        runs.drive(journal, "r1", definition, handlers=Config(live=True), owner="x")
    assert performed == ["one", "two", "three"]
    done = runs.resume("r1", data_dir=data, handlers=Config(live=True))
    assert done["status"] == "completed"
    assert performed == ["one", "two", "three", "three"]
    assert [e["args"] for e in Journal(data).effects("r1")] == [["one"], ["two"], ["three"]]


def test_outputs_contracts_are_checked_before_running_where_the_source_pins_them(
        make_workflow):
    root = make_workflow({
        "plain": S("plain.ax", outputs={"a": "Int", "b": "String"}),
        "rec": S("rec.ax", outputs={"a": "Int", "b": "String", "c": "Bool"}),
        "one": S("plain.ax", outputs={"result": "String"}),
        "free": S("rec.ax", outputs={"a": "a count", "b": "Any"})},
        {"plain.ax": "fn main() -> Int { 1 }",
         "rec.ax": "type R { a: Int, b: Int }\nfn main() -> R { R { a: 1, b: 2 } }"})
    assert load_error(root).fields["errors"] == [
        {"kind": "ContractViolation", "message": "step 'one': output 'result' is declared "
                                                 "String, but main returns Int"},
        {"kind": "ContractViolation", "message": "step 'plain': main returns Int, but the step "
                                                 "declares outputs a, b: return a record with "
                                                 "those fields"},
        {"kind": "ContractViolation", "message": "step 'rec': main returns R, which has no "
                                                 "field(s) c (declared outputs)"},
        {"kind": "ContractViolation", "message": "step 'rec': output 'b' is declared String, "
                                                 "but R.b is Int"}]


def test_a_10000_step_workflow_loads_and_with_BORUNA_BIG_WORKFLOW_runs(make_workflow, tmp_path):
    """Loading (parse, checks, sources) in the default suite; the whole run (10,000 steps,
    about 12 s here) with BORUNA_BIG_WORKFLOW=1."""
    steps = {f"s{i:05d}": S("a.ax", depends_on=[f"s{i - 1:05d}"] if i % 100 else [])
             for i in range(10_000)}
    definition = runs.load_directory(make_workflow(steps, {"a.ax": ONE}))
    assert len(definition.workflow.steps) == 10_000 and len(definition.sources) == 10_000
    if not os.environ.get("BORUNA_BIG_WORKFLOW"):
        return
    view = runs.start(definition, data_dir=tmp_path / "d", concurrency=4)
    assert view["status"] == "completed" and len(view["outputs"]) == 10_000
