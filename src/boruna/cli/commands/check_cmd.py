"""`boruna check FILE [--json]` (also `boruna lang check`): every diagnostic with its
location, source excerpt and suggested fixes. Exit status 1 when any is an error."""
from __future__ import annotations

from boruna.cli.console import Console
from boruna.cli.errors import EXIT_FAILURE, EXIT_OK
from boruna.cli.files import write_text
from boruna.cli.json_output import (call, failure_error, print_response, response_of,
                                    source_limit)
from boruna.cli.program import label, read_source, resolve_libs_dir
from boruna.cli.render import (enum_text, field, format_diagnostic, format_diagnostics_summary,
                               pretty_json)


def _has_errors(diagnostics) -> bool:
    return any(enum_text(field(d, "severity")) == "error" for d in diagnostics)


def cmd_check(args, console: Console) -> int:
    from boruna import service

    source = read_source(args.file)
    name = label(args.file)
    result = call(service.check, source, file_name=name,
                  libs_dir=resolve_libs_dir(args.libs_dir), source_limit=source_limit(args))
    if args.output and result.success:
        write_text(args.output, pretty_json(result.found.to_full_dict()) + "\n")
    if args.json:
        response = response_of(result)
        print_response(console, response)
        if not response.get("success"):
            return EXIT_FAILURE
        return EXIT_FAILURE if _has_errors(response.get("diagnostics", [])) else EXIT_OK
    if not result.success:
        raise failure_error(result, args.file, source, console)
    diagnostics = list(result.found.diagnostics)
    style = console.out_style
    for diag in diagnostics:
        console.out(format_diagnostic(diag, name, source, style))
        console.out("")
    console.out(format_diagnostics_summary(diagnostics, name, style))
    return EXIT_FAILURE if _has_errors(diagnostics) else EXIT_OK
