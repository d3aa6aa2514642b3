"""Suspended runs at the terminal (docs/snapshots.md):

    boruna run FILE --pause-after N --snapshot SNAP      stop after N steps, write SNAP
    boruna run FILE --delegate llm.call --snapshot SNAP  stop at the first llm.call, write SNAP
    boruna run FILE --snapshot SNAP                      at the step limit: paused, not failed
    boruna resume SNAP [--answer JSON] [--snapshot OUT] [--pause-after N] [--max-steps N]
    boruna snapshot inspect SNAP [--json]

A snapshot file holds the program's bytecode, the paused machine and the run's settings
(policy, delegated capabilities, trace, limits); `resume` continues it in a new machine, so
one file resumed twice with different answers gives two independent runs. A run that stops
again is written to `--snapshot OUT` (default: SNAP itself).
"""
from __future__ import annotations

import json
from types import SimpleNamespace

from boruna.cli.console import Console
from boruna.cli.errors import EXIT_INTERRUPTED, EXIT_OK, CliError
from boruna.cli.files import read_bytes, write_bytes
from boruna.cli.json_output import call, print_result
from boruna.cli.render import plural, pretty_json


def read_suspended(path: str):
    from boruna.runtime.suspend import SuspendedRun, SuspendError

    try:
        return SuspendedRun.from_bytes(read_bytes(path))
    except SuspendError as err:
        raise CliError(f"cannot read snapshot '{path}': {err.message}") from None


def report_stop(result, args, console: Console, path: str, watch=None, source=None) -> int:
    """Print a delegating or pausing run's result: the snapshot written, or the ended run as
    `boruna run` prints it."""
    from boruna import service
    from boruna.cli.commands.run_cmd import _report
    from boruna.service.suspended import Paused

    if isinstance(result, Paused):
        write_bytes(path, result.suspended.to_bytes())
        if args.json:
            response = result.to_json()
            response["snapshot"] = path
            console.out(service.render(response))
            return EXIT_OK
        if result.pending:
            cap, call_args = result.pending
            shown = ", ".join(json.dumps(a, ensure_ascii=False) for a in
                              result.to_json()["request"]["args"])
            console.out(f"waiting for {cap}({shown}) after {plural(result.steps, 'step')}")
            console.out(f"snapshot written to {path}; answer with: boruna resume {path} "
                        "--answer JSON")
        elif result.at_limit:
            console.out(f"paused at the step limit, after {plural(result.steps, 'step')}")
            console.out(f"snapshot written to {path}; continue with: boruna resume {path} "
                        "--max-steps N")
        else:
            console.out(f"paused after {plural(result.steps, 'step')}")
            console.out(f"snapshot written to {path}; continue with: boruna resume {path}")
        return EXIT_OK
    if args.json:
        return print_result(console, result)
    if isinstance(result, service.Failure):
        from boruna.cli.json_output import failure_error

        raise failure_error(result, args.file, source or "", console)
    interrupted = watch is not None and watch.cancel.is_set()
    trace = SimpleNamespace(trace=bool(getattr(args, "trace", False)))
    return _report(result, trace, console, interrupted)


def cmd_run(args, console: Console) -> int:
    """`boruna run`: run_cmd.cmd_run, which hands a run with --pause-after, --delegate or
    --snapshot back to `run_pausing` (so run_cmd needs no import of this module)."""
    from boruna.cli.commands.run_cmd import cmd_run as run_command

    args.run_pausing = run_pausing
    return run_command(args, console)


def run_pausing(args, console: Console, request) -> int:
    """`boruna run --pause-after N / --delegate CAP --snapshot SNAP`; with --snapshot a run
    that reaches its step limit is paused there (resume it with a higher --max-steps)."""
    from boruna import service
    from boruna.cli.commands.run_cmd import _Watch
    from boruna.cli.interrupt import interrupt_sets
    from boruna.runtime.suspend import SuspendError, delegated_names

    if args.snapshot is None:
        raise CliError("--pause-after and --delegate need --snapshot FILE (where the paused "
                       "run is written)")
    if args.record is not None or args.replay is not None:
        raise CliError("--pause-after and --delegate take neither --record nor --replay")
    try:
        delegated = delegated_names({name: "client" for name in args.delegate or ()})
    except SuspendError as err:
        raise CliError(f"--delegate: {err.message.removeprefix('handlers: ')}") from None
    watch = _Watch(console)
    try:
        with interrupt_sets(watch.cancel):
            result = call(service.run_delegating, request, delegated, None, args.pause_after,
                          watch.on_progress, watch.cancel, True)
    finally:
        watch.close()
    status = report_stop(result, args, console, args.snapshot, watch, request.source)
    if watch.cancel.is_set() and not result.success:
        return EXIT_INTERRUPTED
    return status


def cmd_resume(args, console: Console) -> int:
    """Continue a snapshot file's run, with `--answer` for the call it waits on."""
    from boruna import service
    from boruna.cli.commands.run_cmd import _Watch, _capability_options
    from boruna.cli.interrupt import interrupt_sets

    suspended = read_suspended(args.file)
    answered = args.answer is not None
    answer = None
    if answered:
        try:
            answer = json.loads(args.answer)
        except ValueError as exc:
            raise CliError(f"--answer is not JSON: {exc}") from None
    header = _header(suspended, args.file)
    pending = header.get("pending")
    if pending is not None and not pending.get("answered") and not answered:
        raise CliError(f"the run in '{args.file}' waits for the result of "
                       f"{pending.get('capability')}: pass --answer JSON")
    args.record = args.replay = None
    args.tape_key = None
    handlers, _, _ = _capability_options(args)
    watch = _Watch(console)
    try:
        with interrupt_sets(watch.cancel):
            result = call(service.resume_run, suspended, answer, answered, None, handlers,
                          args.max_steps, args.pause_after, watch.on_progress, watch.cancel,
                          True)
    finally:
        watch.close()
    if isinstance(result, service.Failure) and result.error_kind == "invalid_answer":
        raise CliError(result.message)
    args.trace = bool(suspended.settings.get("trace"))
    status = report_stop(result, args, console, args.snapshot or args.file, watch)
    if watch.cancel.is_set() and not result.success:
        return EXIT_INTERRUPTED
    return status


def _header(suspended, path: str) -> dict:
    from boruna.runtime.suspend import SuspendError

    try:
        return suspended.header()
    except SuspendError as err:
        raise CliError(f"cannot read snapshot '{path}': {err.message}") from None


def cmd_inspect(args, console: Console) -> int:
    """Print what a snapshot file holds: frames, step, pending call, settings."""
    from boruna import service

    suspended = read_suspended(args.file)
    _header(suspended, args.file)
    result = service.inspect_snapshot(suspended)
    if args.json:
        return print_result(console, result)
    if isinstance(result, service.Failure):
        raise CliError(result.message)
    f = result.fields
    console.out(f"snapshot of module {f['module']} (format {f['format']}, "
                f"{f['snapshot_bytes']} bytes, module sha256 {f['module_sha256'][:16]}...)")
    console.out(f"status: {f['status']} after {plural(f['steps'], 'step')} "
                f"(max {f['max_steps']}), work {f['work']}")
    call_ = f["pending_call"]
    if call_ is not None:
        console.out(f"pending call: {call_['capability']} with "
                    f"{plural(call_['args'], 'argument')}"
                    + (" (answered)" if call_["answered"] else ""))
    console.out(f"frames ({len(f['frames'])}, innermost last):")
    for fr in f["frames"]:
        console.out(f"  {fr['function']} at instruction {fr['ip']}")
    console.out(f"operand stack: {plural(f['stack_depth'], 'value')}; locals: "
                f"{plural(f['locals'], 'slot')}; events: {f['events']}; UI trees: "
                f"{f['ui_output']}; trace lines: {f['trace_lines']}")
    console.out("settings: " + pretty_json(f["settings"]).replace("\n", "\n  "))
    return EXIT_OK
