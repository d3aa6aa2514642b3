"""`boruna run FILE.ax|FILE.axbc [--policy P] [--max-steps N] [--max-wall-ms MS] [--trace]
[--live [--fs-root DIR] [--db FILE [--db-write]] [--llm-endpoint URL]] [--record TAPE |
--replay TAPE] [--tape-key FILE] [--libs-dir DIR] [--json]`.

One `service.run` call per invocation, rendered as text or (`--json`) as the `boruna_run`
response. The VM runs in slices of 100,000 steps; between slices
the progress line (stderr, terminals only) is redrawn and Ctrl-C is noticed, which stops the
run cleanly with the steps so far (exit 130).
"""
from __future__ import annotations

import threading

from boruna.cli.console import Console
from boruna.cli.errors import EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, CliError
from boruna.cli.files import read_text
from boruna.cli.interrupt import interrupt_sets
from boruna.cli.json_output import call, failure_error, print_result, source_limit
from boruna.cli.policy_option import load_policy_option, policy_error
from boruna.cli.program import (
    is_bytecode_path, label, module_name, read_program, resolve_libs_dir,
)
from boruna.cli.named_display import named_display
from boruna.cli.progress import ProgressLine
from boruna.cli.render import format_runtime_error, plural, pretty_json
from boruna.core.errors import ErrorKind
from boruna.core.regular_files import existing_kind
from boruna.service.error_places import failing_op, place_fields


class _Watch:
    """Progress line (when stderr is a terminal) plus the Ctrl-C event for one run."""

    def __init__(self, console: Console):
        self.cancel = threading.Event()
        self.progress = (ProgressLine(console.stderr, console.err_style)
                         if console.stderr_is_terminal() else None)

    def on_progress(self, steps, *rest) -> None:
        if self.progress is not None:
            self.progress(steps)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.close()


def cmd_run(args, console: Console) -> int:
    """Run the program and print its result, UI output and step count; `--json` prints the
    `boruna_run` response of the same run instead."""
    from boruna import service

    policy = load_policy_option(args.policy)
    if args.json and is_bytecode_path(args.file):
        raise CliError("--json needs a .ax source file (the boruna_run tool takes source); "
                       "run the .axbc file without --json")
    handlers, replay, tape_key = _capability_options(args)
    source, bytecode = read_program(args.file)
    limits = {"max_wall_ms": args.max_wall_ms} if args.max_wall_ms is not None else None
    libs_dir = None if bytecode is not None else resolve_libs_dir(args.libs_dir)
    request = call(service.RunRequest.of, source, policy=policy, max_steps=args.max_steps,
                   trace=args.trace, limits=limits, libs_dir=libs_dir, bytecode=bytecode,
                   name=module_name(args.file), source_limit=source_limit(args),
                   handlers=handlers, record=args.record is not None, replay=replay)
    if args.pause_after is not None or args.delegate or args.snapshot is not None:
        return args.run_pausing(args, console, request)     # snapshot_cmd.cmd_run
    watch = _Watch(console)
    try:
        with interrupt_sets(watch.cancel):
            result = call(service.run, request, on_progress=watch.on_progress,
                          cancel_event=watch.cancel)
    finally:
        watch.close()
    if args.record is not None and not isinstance(result, service.Failure):
        _write_tape(args.record, result.tape(tape_key))
    if args.json:
        status = print_result(console, result)
        if watch.cancel.is_set() and not result.success:
            return EXIT_INTERRUPTED
        return status
    if isinstance(result, service.Failure):
        if result.error_kind == ErrorKind.INVALID_POLICY:
            raise policy_error(args.policy, policy)
        if result.error_kind == ErrorKind.INVALID_BYTECODE:
            raise CliError(f"cannot load bytecode '{args.file}': {result.message}")
        if result.error_kind == ErrorKind.REPLAY_MISMATCH:
            raise CliError(f"{result.message} (tape '{args.replay}')")
        raise failure_error(result, args.file, source, console)
    return _report(result, args, console, watch.cancel.is_set(), source)


def _capability_options(args):
    """(HandlerConfig or None, the read tape or None, the tape key or None) from the
    capability flags."""
    from boruna import service

    needs_live = [flag for flag, value in (("--fs-root", args.fs_root), ("--db", args.db),
                                           ("--db-write", args.db_write),
                                           ("--llm-endpoint", args.llm_endpoint)) if value]
    if needs_live and not args.live:
        raise CliError(f"{needs_live[0]} needs --live")
    if args.db_write and not args.db:
        raise CliError("--db-write needs --db FILE")
    if args.replay is not None and (args.live or args.record is not None):
        raise CliError("--replay answers from the tape: it takes neither --live nor --record")
    key_file = getattr(args, "tape_key", None)
    if key_file is not None and args.record is None and args.replay is None:
        raise CliError("--tape-key needs --record TAPE or --replay TAPE")
    try:
        key = None if key_file is None else service.read_tape_key(key_file)
        if args.record is not None:
            service.check_tape_target(args.record)
    except service.TapeError as err:
        raise CliError(str(err))
    if args.db is not None:
        kind = existing_kind(args.db)
        if kind is not None:
            raise CliError(f"--db {args.db}: not a regular file (a {kind})")
    replay = None
    if args.replay is not None:
        try:
            replay = service.read_tape(service.read_tape_file(args.replay), key)
        except service.TapeError as err:
            raise CliError(f"cannot replay '{args.replay}': {err}")
    if not args.live:
        return None, replay, key
    return service.HandlerConfig.from_env(True, args.fs_root, args.db, args.db_write,
                                          args.llm_endpoint), None, key


def _write_tape(path: str, text: str) -> None:
    from boruna import service

    try:
        service.write_tape_file(path, text)
    except service.TapeError as err:
        raise CliError(str(err))


def _report(ran, args, console: Console, interrupted: bool, source=None) -> int:
    outcome, module = ran.outcome, ran.module
    if args.trace and outcome.trace:
        _print_trace(outcome, console)
    failed = outcome.error is not None
    kind = outcome.error_kind
    if kind == ErrorKind.CANCELLED or (interrupted and failed):
        console.err(f"{console.err_style.warning('interrupted')}: "
                    f"stopped after {plural(outcome.steps, 'step')}")
        return EXIT_INTERRUPTED
    if failed:
        message = getattr(outcome.error, "message", None) or str(outcome.error)
        if kind == ErrorKind.WALL_TIME:
            console.error(message)
        else:
            places = place_fields(outcome.vm_error, module)
            for line in format_runtime_error(message, places, label(args.file), source,
                                             console.err_style):
                console.err(line)
        console.err(f"  after {plural(outcome.steps, 'step')}")
        hint = ("raise the limit with --max-wall-ms MS" if kind == ErrorKind.WALL_TIME
                else _hint(outcome.vm_error, module))
        if hint:
            console.err(f"  {console.err_style.gutter('=')} help: {hint}")
        return EXIT_FAILURE
    console.out(named_display(outcome.result, module))
    if outcome.ui_output:
        console.out("")
        console.out("--- UI Output ---")
        for tree in ran.ui_output_json:
            console.out(pretty_json(tree))
    console.out(f"steps: {outcome.steps}")
    return EXIT_OK


def _print_trace(outcome, console: Console) -> None:
    shown = len(outcome.trace)
    total = getattr(outcome, "trace_total", None)
    if outcome.trace_truncated:
        head = f"--- Trace (first {shown} of {total} entries) ---" if total else \
            f"--- Trace (first {shown} entries, truncated) ---"
    else:
        head = f"--- Trace ({plural(shown, 'entry', 'entries')}) ---"
    console.out(head)
    for entry in outcome.trace:
        console.out(f"  {entry}")
    console.out("")


def _declared(cap_name, module) -> bool:
    """Whether some function of `module` declares the capability `cap_name` (wire name)."""
    from boruna.core.capabilities import by_wire_name

    cap = by_wire_name(cap_name) if isinstance(cap_name, str) else None
    return cap is not None and any(cap.id in f.capabilities for f in module.functions)


def _hint(err, module) -> str | None:
    """Advice for the VmError `err` (None when the run failed before the VM started)."""
    kind = getattr(err, "kind", None)
    if not module.functions and kind == ErrorKind.INVALID_FUNCTION:
        return "the program declares no function; add `fn main() -> Int { ... }` to run it"
    entry = module.functions[module.entry] if 0 <= module.entry < len(module.functions) else None
    if entry is not None and entry.arity:
        return (f"`{entry.name}` takes {plural(entry.arity, 'parameter')} but a run passes "
                "none (they are Unit); write the inputs into the program as literals")
    if kind == ErrorKind.TYPE_ERROR and err.expected == "Record":
        return ("`.name` reads a record field; other values have no fields or methods "
                "(call functions instead, e.g. list_len(xs), __builtin_string_len(s))")
    if (kind == ErrorKind.TYPE_ERROR and (err.expected, err.got) == ("numeric", "String")
            and failing_op(err, module) == "Add"):
        return "`+` adds numbers; join strings with `++` (`boruna check` reports this before running)"
    if kind == ErrorKind.CAPABILITY_DENIED:
        cap = err.capability
        policy = "run with a policy that allows it (--policy allow-all or a policy file)"
        if _declared(cap, module):
            return f"the program declares `{cap}`; the policy denies it: {policy}"
        return f"declare it on the function (`!{{{cap}}}`) and {policy}"
    if kind == ErrorKind.STEP_LIMIT:
        return "raise the limit with --max-steps N"
    return None
