"""`boruna fmt FILE... [--check] [--diff] [--width N] [--json]`: the canonical layout.

Each FILE is rewritten in place when its layout changes; `-` reads standard input and prints
the formatted text on stdout. `--check` rewrites nothing and names the files that would
change; `--diff` prints the changes as unified diffs instead. Exit status: 0 when every file
is formatted (or was rewritten), 1 when `--check`/`--diff` found a file that would change,
2 when a file does not parse (drawn as the usual compile error) or cannot be read. With
`--json` the output is the `boruna_format` tool's response (one FILE), or for several files
`{"success", "protocol_version", "files": [{"file", ...response}]}`.
"""
from __future__ import annotations

from boruna.cli.commands.repair_cmd import unified_diff
from boruna.cli.console import Console
from boruna.cli.errors import EXIT_FAILURE, EXIT_OK, CliError
from boruna.cli.files import write_text
from boruna.cli.json_output import (call, print_json, print_response, response_of,
                                    source_limit)
from boruna.cli.program import STDIN, label, read_source, report_compile_error

EXIT_BROKEN = 2
"""A file that does not parse or cannot be read (CI tells it from "needs formatting", 1)."""


def cmd_fmt(args, console: Console) -> int:
    from boruna import service

    if args.files.count(STDIN) > 1:
        raise CliError("standard input ('-') can be given once", EXIT_BROKEN)
    status = EXIT_OK
    changed = unchanged = 0
    responses = []
    for path in args.files:
        try:
            source = read_source(path)
        except CliError as exc:
            console.error(exc.message)
            status = EXIT_BROKEN
            continue
        result = call(service.format_code, source, width=args.width,
                      source_limit=source_limit(args))
        if args.json:
            response = response_of(result)
            responses.append((path, response))
        if not result.success:
            if not args.json:
                if result.compile_error is None:
                    console.error(f"{label(path)}: {result.message}")
                else:
                    report_compile_error(result, path, source, console)
            status = EXIT_BROKEN
            continue
        if not result.changed:
            unchanged += 1
            if path == STDIN and not (args.check or args.diff or args.json):
                _print_text(console, result.formatted)
            continue
        changed += 1
        if args.check or args.diff:
            if args.diff and not args.json:
                console.out(unified_diff(label(path), source, result.formatted))
            elif not args.json:
                console.out(f"would reformat {label(path)}")
            status = max(status, EXIT_FAILURE)
        elif path == STDIN:
            if not args.json:
                _print_text(console, result.formatted)
        else:
            write_text(path, result.formatted)
            if not args.json:
                console.out(f"reformatted {path}")
    if args.json:
        _print_responses(console, responses)
    elif (changed or unchanged) and (STDIN not in args.files or len(args.files) > 1):
        console.err(_summary(changed, unchanged, args.check or args.diff))
    return status


def _print_text(console: Console, text: str) -> None:
    if text:
        console.out(text[:-1] if text.endswith("\n") else text)


def _summary(changed: int, unchanged: int, dry: bool) -> str:
    def files(n: int) -> str:
        return f"{n} file" + ("" if n == 1 else "s")

    verb = "would be reformatted" if dry else "reformatted"
    parts = []
    if changed:
        parts.append(f"{files(changed)} {verb}")
    if unchanged:
        parts.append(f"{files(unchanged)} {'already formatted' if dry else 'left unchanged'}")
    return ", ".join(parts)


def _print_responses(console: Console, responses) -> None:
    if len(responses) == 1:
        print_response(console, responses[0][1])
        return
    from boruna import service

    every = all(r.get("success") for _, r in responses)
    print_json(console, service.render({
        "success": every, "protocol_version": service.PROTOCOL_VERSION,
        "files": [{"file": label(path), **response} for path, response in responses]}))
