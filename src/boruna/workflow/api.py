"""`boruna.workflow.run(...)`, `resume(...)`, `decide(...)`: the Python API of workflow runs,
returning a typed `WorkflowRun` (the same facts the MCP tools return)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import boruna.workflow.runs as runs
from boruna.workflow.runs import RunError  # noqa: F401  (re-exported)


@dataclass(frozen=True)
class StepState:
    id: str
    kind: str
    status: str
    attempts: int
    outputs: Optional[dict] = None
    error_kind: Optional[str] = None
    error: Optional[str] = None
    waiting_for: Optional[dict] = None


@dataclass(frozen=True)
class WorkflowRun:
    run_id: str
    workflow_name: str
    workflow_hash: str
    status: str                     # running, completed, failed, paused, cancelled
    steps: dict                     # step id → StepState
    outputs: dict                   # step id → its outputs (completed steps)
    waiting: list = field(default_factory=list)
    effects_count: int = 0
    audit_head: Optional[str] = None
    data_dir: Optional[str] = None

    @classmethod
    def of(cls, view: dict) -> "WorkflowRun":
        steps = {s["id"]: StepState(s["id"], s["kind"], s["status"], s["attempts"],
                                    s.get("outputs"), s.get("error_kind"), s.get("error"),
                                    s.get("waiting_for")) for s in view["steps"]}
        return cls(view["run_id"], view["workflow_name"], view["workflow_hash"], view["status"],
                   steps, view["outputs"], view["waiting"], view["effects_count"],
                   view["audit_head"], view["data_dir"])


def run(directory=None, *, workflow_json: Optional[str] = None, sources: Optional[dict] = None,
        inputs: Optional[dict] = None, policy="allow-all", data_dir=None, concurrency: int = 1,
        engine: str = "local", handlers=None, libs_dir=None, cancel=None,
        delegate=None) -> WorkflowRun:
    """Run the workflow of `directory` (or `workflow_json` with `sources`: path → text);
    raises `RunError` (`kind`, `message`) when it cannot start. `delegate`: capabilities
    whose calls in every step you answer (`["llm.call"]` or `{"llm.call": "client"}`): a
    step stops at such a call (`awaiting_input`, its request in `waiting`) and
    `decide(run_id, step, "answer", answer=JSON)` continues it from its snapshot."""
    definition = (runs.load_directory(directory) if directory is not None
                  else runs.inline_definition(workflow_json or "", sources or {}))
    return WorkflowRun.of(runs.start(definition, data_dir=data_dir, inputs=inputs,
                                     policy=policy, concurrency=concurrency, engine=engine,
                                     handlers=handlers, libs_dir=libs_dir, cancel=cancel,
                                     delegate=delegate))


def resume(run_id: str, *, data_dir=None, concurrency: int = 1, engine: str = "local",
           handlers=None, libs_dir=None) -> WorkflowRun:
    return WorkflowRun.of(runs.resume(run_id, data_dir=data_dir, concurrency=concurrency,
                                      engine=engine, handlers=handlers, libs_dir=libs_dir))


def decide(run_id: str, step: str, decision: str, *, data_dir=None, **fields) -> WorkflowRun:
    return WorkflowRun.of(runs.decide(run_id, step, decision, data_dir=data_dir, **fields))


def status(run_id: str, *, data_dir=None) -> WorkflowRun:
    return WorkflowRun.of(runs.show(run_id, data_dir=data_dir))
