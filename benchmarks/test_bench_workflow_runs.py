"""Workflow runner speed (docs/workflows.md has the figures):

- scheduling overhead per step: a 1,000-step chain of trivial steps on the local engine,
  against the same 1,000 steps run bare (`run_step` alone, no scheduler or journal);
- journal cost per capability call: one step making 2,000 `time_now()` calls under the runner
  (each call journaled, with its audit entry) against the same program under `boruna.run`;
- a 200-step fan-out on 2 Dask workers against the local engine (both 2 at a time);
- a step paused at a delegated call after 1,000,000 loop iterations, answered: going on from
  its journaled snapshot against re-running the step from its start (its journal replayed).

Run: python -m pytest benchmarks/test_bench_workflow_runs.py --benchmark-only
"""
import json
import threading

import pytest

from boruna.workflow import runs
from boruna.workflow.engines.base import StepTask
from boruna.workflow.engines.step import run_step

TRIVIAL = 'fn main() -> Int { parse_int(step_input("x")) + 1 }'
FIRST = "fn main() -> Int { 0 }"
CALLS = ("fn main() -> Int !{time.now} {\n let mut i = 0\n let mut t = 0\n"
         " while i < 2000 {\n  t = t + time_now() - 1700000000\n  i = i + 1\n }\n i\n}")
WORK = ("fn main() -> Int {\n let mut i = 0\n while i < 20000 {\n  i = i + 1\n }\n i\n}")


def chain(tmp_path, n):
    root = tmp_path / f"chain{n}"
    root.mkdir()
    (root / "first.ax").write_text(FIRST)
    (root / "step.ax").write_text(TRIVIAL)
    steps = {"s0000": {"kind": "source", "source": "first.ax"}}
    for i in range(1, n):
        steps[f"s{i:04d}"] = {"kind": "source", "source": "step.ax",
                              "inputs": {"x": f"s{i - 1:04d}.result"}}
    (root / "workflow.json").write_text(json.dumps(
        {"schema_version": 1, "name": "chain", "version": "1", "steps": steps, "edges": []}))
    return runs.load_directory(root)


def test_chain_of_1000_trivial_steps(benchmark, tmp_path):
    definition = chain(tmp_path, 1000)
    counter = iter(range(100))
    view = benchmark.pedantic(lambda: runs.start(definition, data_dir=tmp_path / f"d{next(counter)}"),
                              rounds=3, iterations=1)
    assert view["status"] == "completed" and view["outputs"]["s0999"] == {"result": 999}


def test_1000_bare_steps_baseline(benchmark):
    def bare():
        value = 0
        for i in range(1000):
            task = StepTask("r", f"s{i:04d}", 1, TRIVIAL, {"default_allow": True}, [],
                            {"x": value}, {}, [])
            value = run_step(task, lambda **k: None).outputs["result"]
        return value

    assert benchmark.pedantic(bare, rounds=3, iterations=1) == 1000


def test_journaled_capability_calls(benchmark, tmp_path):
    root = tmp_path / "calls"
    root.mkdir()
    (root / "calls.ax").write_text(CALLS)
    (root / "workflow.json").write_text(json.dumps(
        {"schema_version": 1, "name": "calls", "version": "1", "edges": [],
         "steps": {"c": {"kind": "source", "source": "calls.ax", "capabilities": ["time.now"]}}}))
    definition = runs.load_directory(root)
    counter = iter(range(100))
    view = benchmark.pedantic(lambda: runs.start(definition, data_dir=tmp_path / f"d{next(counter)}"),
                              rounds=3, iterations=1)
    assert view["effects_count"] == 2000


def test_unjournaled_capability_calls_baseline(benchmark):
    import boruna

    module = boruna.compile(CALLS)
    outcome = benchmark.pedantic(lambda: boruna.run(module), rounds=3, iterations=1)
    assert outcome.result == 2000


def fan_out(tmp_path, n):
    root = tmp_path / f"fan{n}"
    root.mkdir(exist_ok=True)
    (root / "work.ax").write_text(WORK)
    steps = {f"w{i:03d}": {"kind": "source", "source": "work.ax"} for i in range(n)}
    (root / "workflow.json").write_text(json.dumps(
        {"schema_version": 1, "name": "fan", "version": "1", "steps": steps, "edges": []}))
    return runs.load_directory(root)


def test_fan_out_200_local(benchmark, tmp_path):
    definition = fan_out(tmp_path, 200)
    counter = iter(range(100))
    view = benchmark.pedantic(lambda: runs.start(definition, data_dir=tmp_path / f"d{next(counter)}",
                                                 concurrency=2), rounds=2, iterations=1)
    assert view["status"] == "completed"


def test_fan_out_200_dask_2_workers(benchmark, tmp_path):
    pytest.importorskip("distributed")
    import boruna.workflow.runs as module
    from boruna.workflow.engines.dask import DaskExecutor

    executor = DaskExecutor(2)

    class Borrowed:
        name = "dask"
        submit = staticmethod(executor.submit)

        def shutdown(self):
            pass

    original = module._executor
    module._executor = lambda *a, **k: Borrowed()
    definition = fan_out(tmp_path, 200)
    counter = iter(range(100))
    try:
        view = benchmark.pedantic(
            lambda: runs.start(definition, data_dir=tmp_path / f"d{next(counter)}",
                               concurrency=2), rounds=2, iterations=1)
    finally:
        module._executor = original
        executor.shutdown()
    assert view["status"] == "completed"


ASKING = ("fn main() -> String !{llm.call} {\n let mut i = 0\n let mut acc = 0\n"
          " while i < 1000000 {\n  acc = acc + i % 7\n  i = i + 1\n }\n"
          ' let a: String = llm_call("acc " ++ __builtin_int_to_string(acc))\n a ++ "!"\n}')


def _answered_run(tmp_path, counter):
    """A fresh run of the asking step, paused at its llm.call and answered (not yet
    continued): the benchmarks time `runs.resume` of it."""
    root = tmp_path / "ask"
    if not root.exists():
        root.mkdir()
        (root / "ask.ax").write_text(ASKING)
        (root / "workflow.json").write_text(json.dumps(
            {"schema_version": 1, "name": "ask", "version": "1", "edges": [],
             "steps": {"ask": {"kind": "source", "source": "ask.ax",
                               "capabilities": ["llm.call"],
                               "budget": {"max_steps": 50_000_000},
                               "handlers": {"llm.call": "client"}}}}))
    data = tmp_path / f"ask{next(counter)}"
    paused = runs.start(runs.load_directory(root), data_dir=data)
    runs.decide(paused["run_id"], "ask", "answer", answer="ok", data_dir=data,
                continue_run=False)
    return (paused["run_id"], data), {}


def _resume(run_id, data):
    view = runs.resume(run_id, data_dir=data)
    assert view["outputs"] == {"ask": {"result": "ok!"}}
    return view


def test_answered_step_goes_on_from_its_snapshot(benchmark, tmp_path):
    counter = iter(range(100))
    benchmark.pedantic(_resume, setup=lambda: _answered_run(tmp_path, counter), rounds=10,
                       iterations=1)


def test_answered_step_rerun_from_its_start_baseline(benchmark, tmp_path, monkeypatch):
    from boruna.workflow.journal.store import Journal

    counter = iter(range(100))

    def setup():
        monkeypatch.undo()
        made = _answered_run(tmp_path, counter)
        # the scheduler finds no snapshot: the attempt runs from its start, journal replayed
        monkeypatch.setattr(Journal, "suspension", lambda self, run_id, step_id: None)
        return made

    benchmark.pedantic(_resume, setup=setup, rounds=10, iterations=1)
