"""`boruna repair FILE [--apply best|all|PATCH_ID] [--dry-run] [--json]` (also
`boruna lang repair`): apply suggested fixes and rewrite the file.

The file is rewritten only when a fix was applied and `--dry-run` is not given; `--dry-run`
prints the change as a unified diff. Exit status 1 when errors remain after the repair.
"""
from __future__ import annotations

import difflib

from boruna.cli.console import Console
from boruna.cli.errors import EXIT_FAILURE, EXIT_OK
from boruna.cli.files import read_text, write_text
from boruna.cli.json_output import (call, failure_error, print_response, response_of,
                                    source_limit)
from boruna.cli.errors import CliError, UsageError
from boruna.cli.program import STDIN, label, read_source, resolve_libs_dir
from boruna.cli.render import field, plural
from boruna.core.errors import ErrorKind


def strategy_for(apply: str) -> tuple[str, str | None]:
    """`--apply` as (strategy, patch_id): best, all, or one patch id."""
    if apply in ("best", "all"):
        return apply, None
    return "best", apply


def unified_diff(path: str, before: str, after: str) -> str:
    relative = not path.startswith("/")
    lines = difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                 fromfile=f"a/{path}" if relative else path,
                                 tofile=f"b/{path}" if relative else path)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in lines).rstrip("\n")


def cmd_repair(args, console: Console) -> int:
    from boruna import service

    if args.file == STDIN and not (args.dry_run or args.json):
        raise UsageError("standard input cannot be rewritten; use --dry-run or --json")
    source = read_source(args.file)
    libs_dir = resolve_libs_dir(args.libs_dir)
    strategy, patch_id = strategy_for(args.apply)
    if args.json and args.from_file:
        raise UsageError("--from cannot be combined with --json (boruna_repair always "
                         "checks the source itself)")
    saved = read_text(args.from_file) if args.from_file else None
    result = call(service.repair, source, strategy=strategy, patch_id=patch_id,
                  file_name=label(args.file), libs_dir=libs_dir,
                  source_limit=source_limit(args), saved_json=saved)
    if args.json:
        response = response_of(result)
        if (response.get("success") and response.get("patches_applied") and not args.dry_run
                and args.file != STDIN and response.get("repaired_source") != source):
            write_text(args.file, response["repaired_source"])
        print_response(console, response)
        if not response.get("success"):
            return EXIT_FAILURE
        return EXIT_OK if response.get("verify_passed") else EXIT_FAILURE
    if not result.success:
        if result.error_kind == ErrorKind.INVALID_DIAGNOSTICS:
            raise CliError(f"invalid diagnostics JSON '{args.from_file}': {result.message}")
        raise failure_error(result, args.file, source, console)
    _print_report(result.report, source, args, console)
    return EXIT_OK if result.report.verify_passed else EXIT_FAILURE


def _print_report(result, source: str, args, console: Console) -> None:
    style = console.out_style
    applied = list(result.applied)
    skipped = list(result.skipped)
    changed = result.repaired_source != source
    if not applied:
        console.out("no fixes applied")
    else:
        verb = "would apply" if args.dry_run else "applied"
        console.out(f"{verb} {plural(len(applied), 'fix', 'fixes')}:")
        for a in applied:
            console.out(f"  [{field(a, 'diagnostic_id')}] {field(a, 'patch_id')}: "
                        f"{field(a, 'description')}")
    for s in skipped:
        console.out(f"  skipped {field(s, 'diagnostic_id')}: {field(s, 'reason')}")
    if applied and changed:
        if args.dry_run:
            console.out(unified_diff(label(args.file), source, result.repaired_source))
        else:
            write_text(args.file, result.repaired_source)
            console.out(f"rewrote {args.file}")
    console.out(f"diagnostics: {result.diagnostics_before} -> {result.diagnostics_after}")
    if result.verify_passed:
        console.out(f"verify: {style.ok('PASS')}")
    else:
        console.out(f"verify: {style.error('FAIL')} (errors remain; run: boruna check {label(args.file)})")
