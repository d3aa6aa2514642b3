"""Workflow runs: `boruna_workflow_run`, `_status`, `_resume`, `_decide`, and the CLI's
`boruna workflow run|show|list|resume|approve|reject|trigger|cancel|evidence`,
`boruna evidence verify`.

Each use case calls `workflow.runs` and returns `WorkflowRunView` (a run's status, steps,
outputs, what it waits for, its audit head) or a `Failure` whose `error_kind` is the
`RunError`'s. Progress: `on_progress(count, message)` once per step event (`step fetch:
completed`) and per 100,000 VM steps of a running step; a set `cancel_event` cancels the
run, which stays resumable.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional

from boruna.core.errors import ErrorKind
from boruna.service.boundary import tool_boundary
from boruna.service.envelope import ok
from boruna.service.results import Failure, use_case


@dataclass
class WorkflowRunView:
    """A run as the journal has it."""

    run: dict
    success = True

    def to_json(self) -> dict:
        return ok(**self.run)


@dataclass
class WorkflowRunList:
    runs: list
    success = True

    def to_json(self) -> dict:
        return ok(count=len(self.runs), runs=self.runs)


@dataclass
class EvidenceWritten:
    manifest: dict
    out_dir: str
    success = True

    def to_json(self) -> dict:
        m = self.manifest
        return ok(run_id=m.get("run_id"), out_dir=self.out_dir, bundle_hash=m["bundle_hash"],
                  files=m["files"])


@dataclass
class EvidenceVerified:
    report: dict
    success = True

    def to_json(self) -> dict:
        return ok(**self.report)


def _failure(err) -> Failure:
    return Failure(err.kind, err.message, dict(err.fields))


def _progress(on_progress: Optional[Callable]):
    """Step events and VM progress as `on_progress(count, message)` notifications."""
    if on_progress is None:
        return None, None
    count = [0]
    lock = threading.Lock()
    last = [0.0]

    def send(message, throttle=False):
        with lock:
            now = time.monotonic()
            if throttle and now - last[0] < 0.1:
                return
            last[0] = now
            count[0] += 1
            n = count[0]
        try:
            on_progress(n, message)
        except Exception:  # noqa: BLE001 - a lost notification never stops the run
            pass

    def on_event(event: dict):
        step = event.get("step")
        name = event["event"]
        text = f"step {step}: {name.replace('step_', '')}" if step else name
        if name == "step_failed":
            text += f" ({event.get('error_kind')})"
        send(text)

    def on_steps(step_id, steps):
        send(f"step {step_id}: {steps} VM steps", throttle=True)

    return on_event, on_steps


def _drive_options(concurrency, engine, scheduler, handlers, libs_dir, on_progress,
                   cancel_event) -> dict:
    on_event, on_steps = _progress(on_progress)
    return {"concurrency": concurrency or 1, "engine": engine or "local",
            "scheduler_address": scheduler, "handlers": handlers, "libs_dir": libs_dir,
            "cancel": cancel_event, "on_event": on_event, "on_progress": on_steps}


@use_case
def run_workflow(*, directory=None, workflow_json=None, sources=None, inputs=None,
                 policy=None, concurrency: int = 1, data_dir=None, engine="local",
                 scheduler=None, handlers=None, libs_dir=None, allowed_root=None,
                 on_progress=None, cancel_event=None, delegate=None):
    """Start a run of a workflow directory (inside `allowed_root` when given) or of an inline
    workflow (`workflow_json` + `sources`: path → text) and drive it until it completes,
    fails, pauses at an approval/trigger or a delegated capability call (`delegate`:
    `{"llm.call": "client"}` or capability names, for every step), or is cancelled."""
    from boruna.workflow import runs

    try:
        if directory is not None:
            definition = runs.load_directory(directory, allowed_root)
        elif workflow_json is not None:
            definition = runs.inline_definition(workflow_json, sources or {})
        else:
            return Failure(ErrorKind.INVALID_ARGS, "give a workflow directory or workflow_json "
                                                   "with its sources")
        return WorkflowRunView(runs.start(
            definition, data_dir=data_dir, inputs=inputs, policy=policy or "allow-all",
            delegate=delegate, **_drive_options(concurrency, engine, scheduler, handlers, libs_dir, on_progress,
                             cancel_event)))
    except runs.RunError as err:
        return _failure(err)


@use_case
def workflow_status(run_id: str, *, data_dir=None):
    from boruna.workflow import runs

    try:
        return WorkflowRunView(runs.show(run_id, data_dir=data_dir))
    except runs.RunError as err:
        return _failure(err)


@use_case
def list_workflow_runs(*, data_dir=None, status=None):
    from boruna.workflow import runs

    try:
        return WorkflowRunList(runs.list_runs(data_dir=data_dir, status=status))
    except runs.RunError as err:
        return _failure(err)


@use_case
def resume_workflow(run_id: str, *, data_dir=None, concurrency: int = 1, engine="local",
                    scheduler=None, handlers=None, libs_dir=None, on_progress=None,
                    cancel_event=None):
    from boruna.workflow import runs

    try:
        return WorkflowRunView(runs.resume(
            run_id, data_dir=data_dir,
            **_drive_options(concurrency, engine, scheduler, handlers, libs_dir, on_progress,
                             cancel_event)))
    except runs.RunError as err:
        return _failure(err)


@use_case
def decide_workflow(run_id: str, step: str, decision: str, *, role=None, reason=None,
                    token=None, payload: Any = None, answer: Any = None, data_dir=None,
                    concurrency: int = 1, engine="local", scheduler=None, handlers=None,
                    libs_dir=None, on_progress=None, cancel_event=None):
    """approve / reject / trigger / answer a waiting step, then drive the run on."""
    from boruna.workflow import runs

    try:
        return WorkflowRunView(runs.decide(
            run_id, step, decision, data_dir=data_dir, role=role, reason=reason, token=token,
            payload=payload, answer=answer,
            **_drive_options(concurrency, engine, scheduler, handlers, libs_dir, on_progress,
                             cancel_event)))
    except runs.RunError as err:
        return _failure(err)


@use_case
def cancel_workflow(run_id: str, *, data_dir=None):
    from boruna.workflow import runs

    try:
        return WorkflowRunView(runs.cancel(run_id, data_dir=data_dir))
    except runs.RunError as err:
        return _failure(err)


@use_case
def export_evidence(run_id: str, out_dir, *, data_dir=None):
    from boruna.workflow import runs

    try:
        return EvidenceWritten(runs.export_evidence(run_id, out_dir, data_dir=data_dir),
                               str(out_dir))
    except runs.RunError as err:
        return _failure(err)


@use_case
def verify_evidence(bundle_dir):
    """`ok` when every file matches the manifest and the audit chain is unbroken; otherwise
    `evidence_invalid` with the problems."""
    from boruna.workflow.evidence import EvidenceError, verify_bundle

    try:
        report = verify_bundle(bundle_dir)
    except EvidenceError as err:
        return Failure(ErrorKind.EVIDENCE_INVALID, str(err), {"problems": [str(err)]})
    if not report["ok"]:
        return Failure(ErrorKind.EVIDENCE_INVALID,
                       f"evidence bundle {bundle_dir} does not verify: "
                       + "; ".join(report["problems"]), {"problems": report["problems"]})
    return EvidenceVerified(report)


@tool_boundary
def workflow_run_tool(**kwargs) -> dict:
    return run_workflow(**kwargs).to_json()


@tool_boundary
def workflow_status_tool(run_id: str, **kwargs) -> dict:
    return workflow_status(run_id, **kwargs).to_json()


@tool_boundary
def workflow_resume_tool(run_id: str, **kwargs) -> dict:
    return resume_workflow(run_id, **kwargs).to_json()


@tool_boundary
def workflow_decide_tool(run_id: str, step: str, decision: str, **kwargs) -> dict:
    return decide_workflow(run_id, step, decision, **kwargs).to_json()
