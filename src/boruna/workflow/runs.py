"""A run's life: start, drive, pause, decide, resume, cancel, show, export its evidence.

Every function opens the journal under a data directory (`--data-dir`, `$BORUNA_DATA_DIR`,
else `./.boruna/data`) and returns the run's view (`view`): the plain dict the service
wraps and the MCP tools and `boruna workflow ... --json` print. Failures raise `RunError`
(`kind`, `message`, `fields`), never anything else for bad input.

Driving a run takes its lease (one driver per run; a second one gets `lease_held`), renews
it from a heartbeat thread, which also notices a `workflow cancel` from another process, and
releases it when the scheduler stops. A crash leaves the lease to expire; a lease of a
process of this host that no longer exists is taken over at once.
"""
from __future__ import annotations

import hashlib
import json
import secrets
import threading
from pathlib import Path
from typing import Callable, Optional

from boruna.workflow.contracts import static_problems
from boruna.workflow.journal.store import (LEASE_MS, WAITING_STEP, Journal, JournalError,
                                           lease_owner_id)
from boruna.workflow.model import (SourceStep, WorkflowDefinition, inline_sources,
                                   plan_problems, read_all_sources, run_input_names)

WORKFLOW_FILE = "workflow.json"


class RunError(Exception):
    def __init__(self, kind: str, message: str, **fields):
        self.kind = kind
        self.message = message
        self.fields = fields
        super().__init__(message)


# ------------------------------------------------------------------ definitions

def _checked(workflow_json: str, sources_of) -> WorkflowDefinition:
    from boruna.workflow.validator import WorkflowParseError, parse_workflow, validation_errors

    try:
        workflow = parse_workflow(workflow_json)
    except WorkflowParseError as err:
        raise RunError("parse_error", err.message, errors=err.problems) from None
    problems = validation_errors(workflow) + plan_problems(workflow)
    if any(p["kind"] == "TooManySteps" for p in problems):
        raise RunError("validation_error", problems[0]["message"], errors=problems)
    sources, source_problems = sources_of(workflow)
    problems += [{"kind": "SourceError", "message": p.message} for p in source_problems]
    problems += static_problems(workflow, sources)
    if problems:
        raise RunError("validation_error", f"workflow '{workflow.name}' cannot run: "
                       + "; ".join(p["message"] for p in problems), errors=problems)
    return workflow, sources


def load_directory(path, allowed_root=None) -> WorkflowDefinition:
    """The workflow of directory `path` (or of a workflow.json file), its sources read from
    inside the directory; with `allowed_root`, the directory must lie inside it."""
    target = Path(path)
    directory = target.parent if target.name == WORKFLOW_FILE and not target.is_dir() else target
    if allowed_root is not None:
        try:
            directory.resolve().relative_to(Path(allowed_root).resolve())
        except (ValueError, OSError):
            raise RunError("invalid_path", f"workflow directory {path} is outside the allowed "
                                           f"root {allowed_root}") from None
    file = directory / WORKFLOW_FILE
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RunError("io_error", f"{file} not found (a workflow directory holds "
                                   f"workflow.json and the step sources)") from None
    except (OSError, UnicodeDecodeError) as err:
        raise RunError("io_error", f"cannot read {file}: {err}") from None
    workflow, sources = _checked(text, lambda wf: read_all_sources(wf, directory))
    return WorkflowDefinition(workflow, text, sources, str(directory.resolve()))


def inline_definition(workflow_json: str, files: dict) -> WorkflowDefinition:
    """A workflow given as text with its step sources (`source path → text`)."""
    workflow, sources = _checked(workflow_json, lambda wf: inline_sources(wf, files or {}))
    return WorkflowDefinition(workflow, workflow_json, sources, None)


def _persisted(run: dict) -> WorkflowDefinition:
    from boruna.workflow.validator import parse_workflow

    return WorkflowDefinition(parse_workflow(run["workflow_json"]), run["workflow_json"],
                              run["sources"], run["workflow_dir"])


# ------------------------------------------------------------------ views

def view(journal: Journal, run_id: str) -> dict:
    run = journal.run(run_id)
    steps = journal.steps(run_id)
    entries = journal.audit_entries(run_id)
    listing, waiting, outputs = [], [], {}
    for sid, row in steps.items():
        item = {"id": sid, "kind": row["kind"], "status": row["status"],
                "attempts": row["attempt"]}
        if row["status"] == "completed":
            item["outputs"] = row["outputs"]
            outputs[sid] = row["outputs"]
        if row["error_kind"] and row["status"] in ("failed", "skipped", "pending"):
            item["error_kind"], item["error"] = row["error_kind"], row["error"]
        if row["status"] in WAITING_STEP:
            wait = dict(row["wait"] or {})
            wait = {k: v for k, v in wait.items() if v is not None}
            item["waiting_for"] = wait
            waiting.append(dict(step=sid, status=row["status"], **wait))
        listing.append(item)
    return {"run_id": run_id, "workflow_name": run["workflow_name"],
            "workflow_hash": run["workflow_hash"], "status": run["status"],
            **({"error": run["error"]} if run["error"] else {}),
            "steps": listing, "waiting": waiting, "outputs": outputs,
            "inputs": run["inputs"], "effects_count": journal.effects_count(run_id),
            "audit_entries": len(entries),
            "audit_head": entries[-1]["entry_hash"] if entries else None,
            "data_dir": str(journal.data_dir)}


def _open(data_dir, create: bool = False) -> Journal:
    try:
        return Journal(data_dir, create=create)
    except JournalError as err:
        raise RunError(err.kind, err.message) from None


def _journal_call(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except JournalError as err:
        raise RunError(err.kind, err.message) from None


# ------------------------------------------------------------------ driving

def _executor(engine: str, concurrency: int, scheduler_address=None):
    if engine in (None, "local"):
        from boruna.workflow.engines.local import LocalExecutor

        return LocalExecutor(concurrency)
    if engine == "dask":
        try:
            from boruna.workflow.engines.dask import DaskExecutor
        except ImportError:
            raise RunError("engine_unavailable", "the dask engine needs the `distributed` "
                                                 "package: pip install 'boruna[dask]'") from None
        return DaskExecutor(concurrency, scheduler_address)
    raise RunError("invalid_params", f"unknown engine '{engine}' (local or dask)")


class _Heartbeat(threading.Thread):
    """Renews the lease; sets `cancel` when the lease is lost or the run was cancelled."""

    def __init__(self, journal: Journal, run_id: str, owner: str, cancel: threading.Event):
        super().__init__(name="boruna-lease", daemon=True)
        self.journal, self.run_id, self.owner, self.cancel = journal, run_id, owner, cancel
        self.stopped = threading.Event()
        self.cancel_requested = False

    def run(self):
        while not self.stopped.wait(min(1.0, LEASE_MS / 3000)):
            try:
                if not self.journal.renew_lease(self.run_id, self.owner):
                    self.cancel.set()
                if self.journal.run_status(self.run_id) == "cancelled":
                    self.cancel_requested = True
                    self.cancel.set()
            except JournalError:
                continue


def drive(journal: Journal, run_id: str, definition: WorkflowDefinition, *,
          concurrency: int = 1, engine: str = "local", scheduler_address=None, handlers=None,
          libs_dir=None, cancel: Optional[threading.Event] = None,
          on_event: Optional[Callable] = None, on_progress=None, owner: Optional[str] = None,
          audit_resume: bool = False) -> dict:
    from boruna.workflow.scheduler import Scheduler

    run = journal.run(run_id)
    owner = owner or lease_owner_id()
    _journal_call(journal.acquire_lease, run_id, owner)
    cancel = cancel if cancel is not None else threading.Event()
    heartbeat = _Heartbeat(journal, run_id, owner, cancel)
    executor = None
    try:
        if run["status"] != "running":
            _journal_call(journal.resume_run, run_id, audit_resume)
        executor = _executor(engine, concurrency, scheduler_address)
        heartbeat.start()
        scheduler = Scheduler(journal, run_id, definition, executor, inputs=run["inputs"],
                              policy=run["policy"], concurrency=concurrency,
                              handlers=handlers, libs_dir=libs_dir,
                              delegated=(run["options"] or {}).get("delegated", ()),
                              cancel=cancel,
                              on_event=on_event, on_progress=on_progress)
        try:
            status = scheduler.drive()
        except JournalError as err:
            raise RunError(err.kind, err.message + f" (run '{run_id}' stays resumable: "
                                                   f"boruna workflow resume {run_id})",
                           run_id=run_id) from None
        error = None
        if status == "failed":
            failed = [sid for sid, st in scheduler.status.items() if st == "failed"]
            error = "failed step(s): " + ", ".join(sorted(failed))
        _journal_call(journal.set_run_status, run_id, status, error,
                      {"outputs_of": sorted(scheduler.outputs)} if status == "completed" else {})
    finally:
        heartbeat.stopped.set()
        if executor is not None:
            executor.shutdown()
        try:
            journal.release_lease(run_id, owner)
        except JournalError:
            pass
    return view(journal, run_id)


def delegated_capabilities(delegate) -> tuple:
    """The wire names a run delegates to its caller: capability names (`--delegate CAP`) or
    `boruna_run`'s mapping `{"llm.call": "client"}`; `invalid_params` for another answerer
    or an unknown capability."""
    from boruna.workflow.model import delegated_wire_names

    if not delegate:
        return ()
    if isinstance(delegate, dict):
        for name, who in delegate.items():
            if who != "client":
                raise RunError("invalid_params", f'handlers: {name} can only be answered by '
                                                 f'"client" (got {who!r})')
        names = list(delegate)
    elif isinstance(delegate, (list, tuple)):
        names = list(delegate)
    else:
        raise RunError("invalid_params", 'handlers must be an object like {"llm.call": '
                                         '"client"}')
    wire, problem = delegated_wire_names(names)
    if problem is not None:
        raise RunError("invalid_params", f"handlers: {problem}")
    return wire


def start(definition: WorkflowDefinition, *, data_dir=None, inputs: Optional[dict] = None,
          policy="allow-all", delegate=None, **drive_options) -> dict:
    """Create a run of `definition` and drive it; the run's view. `delegate`: capabilities
    whose calls in every step the caller answers (`delegated_capabilities`)."""
    from boruna.runtime.policy import PolicyError, parse_policy

    delegated = delegated_capabilities(delegate)
    inputs = dict(inputs or {})
    wf = definition.workflow
    needed = run_input_names(wf)
    missing = [n for n in needed if n not in inputs]
    unknown = sorted(set(inputs) - set(needed))
    if missing or unknown:
        parts = []
        if missing:
            parts.append("missing run input(s) " + ", ".join(missing))
        if unknown:
            parts.append("unknown run input(s) " + ", ".join(unknown))
        raise RunError("invalid_inputs", "; ".join(parts) + f" (the workflow reads: "
                                                            f"{', '.join(needed) or 'none'})")
    try:
        checked = parse_policy(policy)
    except PolicyError as err:
        raise RunError("invalid_policy", err.message) from None
    policy_value = checked.model_dump(mode="json", exclude_none=True)
    journal = _open(data_dir, create=True)
    try:
        run_id = secrets.token_hex(8)
        owner = lease_owner_id()
        kinds = {sid: step.kind for sid, step in wf.steps.items()}
        _journal_call(journal.create_run, run_id=run_id, workflow_name=wf.name,
                      workflow_hash=definition.hash, workflow_dir=definition.directory,
                      workflow_json=definition.workflow_json, sources=definition.sources,
                      inputs=inputs, policy=policy_value,
                      options={"delegated": list(delegated)} if delegated else {},
                      steps=kinds, owner=owner,
                      audit_data={"workflow": wf.name, "version": wf.version,
                                  "workflow_hash": definition.hash, "inputs": inputs,
                                  "policy": policy_value})
        return drive(journal, run_id, definition, owner=owner, **drive_options)
    finally:
        journal.close()


def resume(run_id: str, *, data_dir=None, on_disk: Optional[WorkflowDefinition] = None,
           **drive_options) -> dict:
    """Drive an interrupted, paused or cancelled run on from its journal. A run of a
    directory is checked against the directory as it is now (`on_disk`, read when not
    given): a changed workflow or step source is refused with both hashes."""
    journal = _open(data_dir)
    try:
        run = _journal_call(journal.run, run_id)
        if run["status"] in ("completed", "failed"):
            return view(journal, run_id)
        if on_disk is None and run["workflow_dir"]:
            try:
                on_disk = load_directory(run["workflow_dir"])
            except RunError as err:
                raise RunError("workflow_changed", f"run '{run_id}' cannot resume: its "
                               f"workflow directory no longer loads ({err.message})",
                               persisted_hash=run["workflow_hash"]) from None
        if on_disk is not None and on_disk.hash != run["workflow_hash"]:
            raise RunError("workflow_changed",
                           f"run '{run_id}' cannot resume: the workflow changed since it "
                           f"started (persisted hash {run['workflow_hash']}, on-disk hash "
                           f"{on_disk.hash}); start a new run instead",
                           persisted_hash=run["workflow_hash"], current_hash=on_disk.hash)
        return drive(journal, run_id, _persisted(run),
                     audit_resume=run["status"] in ("paused", "cancelled"), **drive_options)
    finally:
        journal.close()


def decide(run_id: str, step_id: str, action: str, *, data_dir=None, role=None, reason=None,
           token=None, payload=None, answer=None, continue_run: bool = True,
           **drive_options) -> dict:
    """approve / reject an approval gate, trigger an external event, or answer a step's
    delegated capability call (`answer`, JSON, checked against the capability builtin's
    result type: `invalid_answer` leaves the step waiting); then the run goes on (unless
    another runner drives it, which picks the decision up). An answered step goes on from
    its stored snapshot."""
    if continue_run:
        _settle_interrupted(run_id, data_dir, drive_options)
    journal = _open(data_dir)
    try:
        run = _journal_call(journal.run, run_id)
        steps = journal.steps(run_id)
        if step_id not in steps:
            raise RunError("not_found", f"run '{run_id}' has no step '{step_id}' (steps: "
                                        f"{', '.join(sorted(steps))})")
        row = steps[step_id]
        wait = row["wait"] or {}
        if action in ("approve", "reject"):
            if row["status"] != "awaiting_approval":
                raise RunError("invalid_state", f"step '{step_id}' is {row['status']}, not "
                                                f"awaiting_approval")
            if action == "approve":
                required = wait.get("required_role")
                if role != required:
                    raise RunError("role_mismatch", f"step '{step_id}' needs role "
                                                    f"'{required}' (got {role!r})")
                _journal_call(journal.complete_step, run_id, step_id,
                              {"result": {"approved": True, "role": role}},
                              event="approval_granted", data={"role": role})
            else:
                _journal_call(journal.fail_step, run_id, step_id, "rejected",
                              f"rejected: {reason or 'no reason given'}",
                              event="approval_rejected",
                              data={"role": role, "reason": reason})
        elif action == "trigger":
            if row["status"] != "awaiting_external_event":
                raise RunError("invalid_state", f"step '{step_id}' is {row['status']}, not "
                                                f"awaiting_external_event")
            if not token or not secrets.compare_digest(str(token), str(wait.get("token"))):
                raise RunError("invalid_token", f"the token does not match step "
                                                f"'{step_id}''s trigger token")
            _journal_call(journal.complete_step, run_id, step_id, {"result": payload},
                          event="trigger_received", data={})
        elif action == "answer":
            _answer(journal, run_id, step_id, row, answer)
        else:
            raise RunError("invalid_params", f"unknown decision '{action}' (approve, reject, "
                                             f"trigger or answer)")
        if not continue_run or run["status"] in ("completed", "failed"):
            return view(journal, run_id)
    finally:
        journal.close()
    try:
        return resume(run_id, data_dir=data_dir, **drive_options)
    except RunError as err:
        if err.kind != "lease_held":
            raise
        journal = _open(data_dir)
        try:
            return view(journal, run_id)      # the driving runner picks the decision up
        finally:
            journal.close()


def _settle_interrupted(run_id: str, data_dir, drive_options: dict) -> None:
    """A run left `running` by a runner that died (its lease is free) is first driven to
    where it rests, so its pause is journaled as an uninterrupted run's was, and only then
    is a decision recorded: the audit chain stays the one of a run that never stopped (a
    runner killed after a step began to wait, before the run was marked paused, would
    otherwise leave `run_paused`/`run_resumed` out). A run another runner drives is left to
    it (`lease_held`: that runner picks the decision up)."""
    journal = _open(data_dir)
    try:
        status = _journal_call(journal.run, run_id)["status"]
    finally:
        journal.close()
    if status != "running":
        return
    try:
        resume(run_id, data_dir=data_dir, **drive_options)
    except RunError as err:
        if err.kind != "lease_held":
            raise


def _answer(journal: Journal, run_id: str, step_id: str, row: dict, answer) -> None:
    from boruna.runtime.suspend import SuspendError, answer_value
    from boruna.runtime.tape import TapeError, to_plain

    if row["status"] != "awaiting_input":
        raise RunError("invalid_state", f"step '{step_id}' is {row['status']}, not "
                                        f"awaiting_input")
    suspension = _journal_call(journal.suspension, run_id, step_id)
    if suspension is None:
        raise RunError("invalid_state", f"step '{step_id}' has no stored request")
    try:
        plain = to_plain(answer_value(suspension["capability"], answer))
    except SuspendError as err:
        raise RunError("invalid_answer", err.message + f" (step '{step_id}' still waits)",
                       step=step_id, capability=suspension["capability"]) from None
    except (TapeError, RecursionError) as err:
        raise RunError("invalid_answer", f"answer for {suspension['capability']}: {err} "
                                         f"(step '{step_id}' still waits)") from None
    _journal_call(journal.answer_step, run_id, step_id, plain)


def cancel(run_id: str, *, data_dir=None) -> dict:
    """Mark the run cancelled (a runner driving it stops at its next heartbeat, leaving
    every interrupted step resumable)."""
    journal = _open(data_dir)
    try:
        run = _journal_call(journal.run, run_id)
        if run["status"] in ("completed", "failed", "cancelled"):
            raise RunError("invalid_state", f"run '{run_id}' is {run['status']}; only running "
                                            f"or paused runs can be cancelled")
        _journal_call(journal.set_run_status, run_id, "cancelled", "cancelled by request")
        return view(journal, run_id)
    finally:
        journal.close()


def show(run_id: str, *, data_dir=None) -> dict:
    journal = _open(data_dir)
    try:
        _journal_call(journal.run, run_id)
        return view(journal, run_id)
    finally:
        journal.close()


def list_runs(*, data_dir=None, status: Optional[str] = None) -> list:
    journal = _open(data_dir)
    try:
        return _journal_call(journal.list_runs, status)
    finally:
        journal.close()


def export_evidence(run_id: str, out_dir, *, data_dir=None) -> dict:
    """Write the run's evidence bundle into `out_dir`; its manifest."""
    from boruna.workflow.evidence import EvidenceError, write_bundle

    journal = _open(data_dir)
    try:
        run = _journal_call(journal.run, run_id)
        definition = _persisted(run)
        entries = journal.audit_entries(run_id)
        files = {"workflow.json": run["workflow_json"],
                 "policy.json": json.dumps(run["policy"], indent=2, sort_keys=True) + "\n",
                 "inputs.json": json.dumps(run["inputs"], indent=2, sort_keys=True) + "\n",
                 "audit_log.jsonl": "".join(json.dumps(e, sort_keys=True, ensure_ascii=False)
                                            + "\n" for e in entries)}
        the_view = view(journal, run_id)
        files["outputs.json"] = json.dumps(the_view["outputs"], indent=2, sort_keys=True) + "\n"
        files["run.json"] = json.dumps({k: the_view[k] for k in (
            "run_id", "workflow_name", "workflow_hash", "status", "steps", "effects_count",
            "audit_entries", "audit_head")}, indent=2, sort_keys=True) + "\n"
        for sid, step in definition.workflow.steps.items():
            if isinstance(step, SourceStep):
                name = sid if all(c.isalnum() or c in "_-." for c in sid) and sid[0] != "." \
                    else "step-" + hashlib.sha256(sid.encode("utf-8", "surrogatepass")).hexdigest()[:16]
                files[f"sources/{name}.ax"] = definition.sources.get(sid, "")
        try:
            manifest = write_bundle(out_dir, files)
        except (EvidenceError, OSError) as err:
            raise RunError("io_error", f"cannot write the evidence bundle: {err}") from None
        manifest["run_id"] = run_id
        return manifest
    finally:
        journal.close()
