"""`boruna evidence verify DIR`: check an evidence bundle (checksums, file list, audit chain)."""
from __future__ import annotations

from boruna.cli.console import Console
from boruna.cli.errors import EXIT_FAILURE, EXIT_OK
from boruna.cli.json_output import call, print_result


def cmd_verify(args, console: Console) -> int:
    from boruna import service

    result = call(service.verify_evidence, args.dir)
    if args.json:
        return print_result(console, result)
    if result.success:
        r = result.report
        console.out(f"evidence bundle {args.dir} verifies: {r['files']} files, "
                    f"{r['audit_entries']} audit entries, bundle hash {r['bundle_hash']}")
        return EXIT_OK
    console.error(f"evidence bundle {args.dir} does not verify:")
    for problem in result.fields.get("problems", []):
        console.err(f"  {problem}")
    return EXIT_FAILURE
