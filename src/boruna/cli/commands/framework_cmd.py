"""`boruna framework validate FILE [--json]` and
`boruna framework test FILE -m "tag:payload,..." [--json]`."""
from __future__ import annotations

import json

from boruna.cli.console import Console
from boruna.cli.errors import EXIT_FAILURE, EXIT_OK
from boruna.cli.json_output import (call, failure_error, print_response, print_result,
                                    response_of, source_limit)
from boruna.cli.program import read_source, resolve_libs_dir
from boruna.cli.render import field


def split_messages(values: list[str]) -> list[str]:
    """`-m "a:1,b:2" -m c` -> ["a:1", "b:2", "c"]; empty pieces are skipped."""
    messages: list[str] = []
    for value in values:
        messages.extend(piece for piece in value.split(",") if piece.strip())
    return messages


def compact(value) -> str:
    """A brief-encoded value as one line of JSON."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def cmd_validate(args, console: Console) -> int:
    from boruna import service

    source = read_source(args.file)
    result = call(service.validate_app, source, libs_dir=resolve_libs_dir(args.libs_dir),
                  source_limit=source_limit(args))
    if args.json:
        response = response_of(result)
        print_response(console, response)
        return EXIT_OK if response.get("success") and response.get("valid", True) else EXIT_FAILURE
    if not result.success:
        raise failure_error(result, args.file, source, console)
    report = result.report
    style = console.out_style

    def mark(present: bool, absent: str = "MISSING") -> str:
        return style.ok("yes") if present else style.error(absent)

    errors = list(field(report, "errors") or [])
    valid = bool(field(report, "valid", not errors))
    console.out(style.ok("valid App protocol") if valid else style.error("invalid App protocol"))
    console.out(f"  init:     {mark(field(report, 'has_init'))}")
    console.out(f"  update:   {mark(field(report, 'has_update'))}")
    console.out(f"  view:     {mark(field(report, 'has_view'))}")
    console.out("  policies: " + (style.ok("yes") if field(report, "has_policies")
                                  else "none (using defaults)"))
    if field(report, "state_type"):
        console.out(f"  state type: {field(report, 'state_type')}")
    if field(report, "message_type"):
        console.out(f"  message type: {field(report, 'message_type')}")
    if not valid:
        for err in errors:
            console.error(f"{args.file}: {err}")
        return EXIT_FAILURE
    return EXIT_OK


def cmd_test(args, console: Console) -> int:
    from boruna import service

    source = read_source(args.file)
    messages = split_messages(args.messages)
    result = call(service.framework_test, source, messages,
                  libs_dir=resolve_libs_dir(args.libs_dir), source_limit=source_limit(args))
    if args.json:
        return print_result(console, result)
    if isinstance(result, service.Failure):
        raise failure_error(result, args.file, source, console)
    tested, result = result, result.result      # the App test run: its cycles, states and error
    cycles = list(field(result, "cycles") or [])
    init_state = field(result, "init_state")
    if init_state is None and not cycles and not field(result, "ok", True):
        console.error(str(field(result, "error")))
        return EXIT_FAILURE
    console.out(f"init state: {compact(init_state)}")
    for number, cycle in enumerate(cycles, start=1):
        message = field(cycle, "message")
        if field(cycle, "error") is not None:
            console.error(f"cycle {number} ({message}) failed: {field(cycle, 'error')}")
            _draw_place(tested, args.file, source, console)
            return EXIT_FAILURE
        console.out(f"cycle {number} ({message}): state={compact(field(cycle, 'state'))}")
        effects = field(cycle, "effects", 0)
        if effects:
            console.out(f"  effects: {effects}")
        console.out(f"  view: {compact(field(cycle, 'ui_tree'))}")
    if not field(result, "ok", True):
        console.error(str(field(result, "error")))
        return EXIT_FAILURE
    console.out("")
    console.out(f"final state: {compact(field(result, 'final_state'))}")
    console.out(f"cycles: {field(result, 'total_cycles', len(cycles))}")
    return EXIT_OK


def _draw_place(tested, path: str, source: str, console: Console) -> None:
    """Where in the App a failed cycle's runtime error happened: the excerpt and the stack,
    drawn as `boruna run` draws them (nothing when the error carries no place)."""
    from boruna.cli.program import label
    from boruna.cli.render import format_runtime_error
    from boruna.service.error_places import place_fields

    places = place_fields(getattr(tested.result, "vm_error", None), getattr(tested, "module", None))
    if not places.get("location"):
        return
    for line in format_runtime_error("", places, label(path), source, console.err_style)[1:]:
        console.err(line)
