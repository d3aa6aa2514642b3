"""`boruna workflow run|show|list|resume|approve|reject|trigger|cancel|evidence`: one service
use case each (`service.workflow_runs`); `--json` prints what the MCP tool returns."""
from __future__ import annotations

import json
import threading

from boruna.cli.console import Console
from boruna.cli.errors import EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, CliError
from boruna.cli.interrupt import interrupt_sets
from boruna.cli.json_output import call, print_result
from boruna.cli.policy_option import load_policy_option, policy_error
from boruna.cli.step_table import StepTable

STATUS_MARK = {"completed": "ok", "failed": "FAILED", "skipped": "skipped",
               "awaiting_approval": "waiting", "awaiting_external_event": "waiting",
               "awaiting_input": "waiting", "running": "running", "pending": "pending"}


def _inputs(pairs: list) -> dict:
    inputs = {}
    for pair in pairs:
        name, eq, text = pair.partition("=")
        if not eq or not name:
            raise CliError(f"--input expects NAME=JSON, got {pair!r}")
        try:
            inputs[name] = json.loads(text)
        except ValueError:
            inputs[name] = text
    return inputs


def _handlers(args):
    from boruna import service

    needs_live = [flag for flag, value in (("--fs-root", args.fs_root), ("--db", args.db),
                                           ("--db-write", args.db_write),
                                           ("--llm-endpoint", args.llm_endpoint)) if value]
    if needs_live and not args.live:
        raise CliError(f"{needs_live[0]} needs --live")
    if args.db_write and not args.db:
        raise CliError("--db-write needs --db FILE")
    if not args.live:
        return None
    return service.HandlerConfig.from_env(True, args.fs_root, args.db, args.db_write,
                                          args.llm_endpoint)


def _driver(args, console: Console) -> tuple[dict, threading.Event]:
    """The driver options of a run, resume or decision; on a terminal the step states are a
    live table (`StepTable`, erased at the end), elsewhere one line per step event."""
    if args.concurrency < 1:
        raise CliError("--concurrency must be at least 1")
    cancel = threading.Event()

    def progress(_count, message=None):
        if message and not args.json and not message.endswith("VM steps"):
            console.err(f"  {message}")

    if not args.json and console.stderr_is_terminal():
        progress = StepTable(console.stderr, console.err_style)
    return {"data_dir": args.data_dir, "concurrency": args.concurrency, "engine": args.engine,
            "scheduler": args.scheduler, "handlers": _handlers(args),
            "on_progress": progress, "cancel_event": cancel}, cancel


def _drive(use_case, args, console, *call_args, **fields):
    """Call a driving use case under Ctrl-C handling; the live table is erased after it."""
    options, cancel = _driver(args, console)
    try:
        with interrupt_sets(cancel):
            result = call(use_case, *call_args, **fields, **options)
    finally:
        if isinstance(options["on_progress"], StepTable):
            options["on_progress"].close()
    return _report(result, args, console, cancel)


def _report(result, args, console: Console, cancel=None) -> int:
    if args.json:
        status = print_result(console, result)
        return EXIT_INTERRUPTED if cancel is not None and cancel.is_set() else status
    if not result.success:
        if result.exception is not None:
            raise result.exception
        for problem in result.fields.get("errors", []):
            console.err(f"  {problem['kind']}: {problem['message']}")
        raise CliError(result.message or result.error_kind)
    run = result.run
    console.out(f"run {run['run_id']} ({run['workflow_name']}): {run['status']}")
    for step in run["steps"]:
        line = f"  {step['id']:<20} {STATUS_MARK.get(step['status'], step['status'])}"
        if step.get("outputs") is not None:
            line += "  " + json.dumps(step["outputs"], ensure_ascii=False, sort_keys=True)
        if step.get("error"):
            line += f"  [{step.get('error_kind')}] {step['error']}"
        console.out(line)
    for wait in run["waiting"]:
        if wait["status"] == "awaiting_approval":
            console.out(f"waiting: {wait['step']} needs approval by role "
                        f"'{wait.get('required_role')}': boruna workflow approve "
                        f"{run['run_id']} {wait['step']} --role {wait.get('required_role')}")
        elif wait["status"] == "awaiting_input":
            request = wait.get("request") or {}
            args_text = ", ".join(json.dumps(a, ensure_ascii=False)
                                  for a in request.get("args", []))
            console.out(f"waiting: {wait['step']} asks {request.get('capability')}"
                        f"({args_text}): boruna workflow resume {run['run_id']} --step "
                        f"{wait['step']} --answer JSON")
        else:
            console.out(f"waiting: {wait['step']} needs an event: boruna workflow trigger "
                        f"{run['run_id']} {wait['step']} --token {wait.get('token')} "
                        f"--payload JSON")
    if cancel is not None and cancel.is_set():
        return EXIT_INTERRUPTED
    return EXIT_OK if run["status"] in ("completed", "paused") else EXIT_FAILURE


def cmd_run(args, console: Console) -> int:
    from boruna import service

    policy = load_policy_option(args.policy)
    if policy.rejected:
        raise policy_error(args.policy, policy)
    return _drive(service.run_workflow, args, console, directory=args.dir,
                  inputs=_inputs(args.input), policy=policy.policy,
                  delegate=list(args.delegate) or None)


def cmd_resume(args, console: Console) -> int:
    from boruna import service

    if args.step is not None and args.answer is None:
        raise CliError("--step needs --answer JSON")
    if args.answer is None:
        return _drive(service.resume_workflow, args, console, args.run_id)
    try:
        answer = json.loads(args.answer)
    except ValueError as err:
        raise CliError(f"--answer is not JSON: {err}") from None
    step = args.step
    if step is None:
        found = call(service.workflow_status, args.run_id, data_dir=args.data_dir)
        if not found.success:
            return _report(found, args, console)
        waiting = [w["step"] for w in found.run["waiting"] if w["status"] == "awaiting_input"]
        if len(waiting) != 1:
            raise CliError(f"run {args.run_id} has {len(waiting)} steps waiting for an answer"
                           + (f" ({', '.join(waiting)}): name one with --step" if waiting
                              else ""))
        step = waiting[0]
    return _decide(args, console, "answer", answer=answer, step=step)


def _decide(args, console, decision, step=None, **fields) -> int:
    from boruna import service

    return _drive(service.decide_workflow, args, console, args.run_id, step or args.step,
                  decision, **fields)


def cmd_approve(args, console: Console) -> int:
    return _decide(args, console, "approve", role=args.role)


def cmd_reject(args, console: Console) -> int:
    return _decide(args, console, "reject", role=args.role, reason=args.reason)


def cmd_trigger(args, console: Console) -> int:
    try:
        payload = json.loads(args.payload)
    except ValueError as err:
        raise CliError(f"--payload is not JSON: {err}") from None
    return _decide(args, console, "trigger", token=args.token, payload=payload)


def cmd_show(args, console: Console) -> int:
    from boruna import service

    return _report(call(service.workflow_status, args.run_id, data_dir=args.data_dir), args,
                   console)


def cmd_cancel(args, console: Console) -> int:
    from boruna import service

    return _report(call(service.cancel_workflow, args.run_id, data_dir=args.data_dir), args,
                   console)


def cmd_list(args, console: Console) -> int:
    from boruna import service

    result = call(service.list_workflow_runs, data_dir=args.data_dir, status=args.status)
    if args.json:
        return print_result(console, result)
    if not result.success:
        raise CliError(result.message)
    if not result.runs:
        console.out("no runs")
    for run in result.runs:
        console.out(f"{run['run_id']}  {run['status']:<10} {run['workflow_name']}")
    return EXIT_OK


def cmd_evidence(args, console: Console) -> int:
    from boruna import service

    result = call(service.export_evidence, args.run_id, args.out, data_dir=args.data_dir)
    if args.json:
        return print_result(console, result)
    if not result.success:
        raise CliError(result.message)
    console.out(f"wrote {len(result.manifest['files'])} files to {args.out} "
                f"(bundle hash {result.manifest['bundle_hash']})")
    return EXIT_OK
