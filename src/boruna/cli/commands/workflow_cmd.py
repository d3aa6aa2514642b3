"""`boruna workflow validate DIR [--json]`: check DIR/workflow.json and print its order."""
from __future__ import annotations

import os

from boruna.cli.console import Console
from boruna.cli.errors import EXIT_FAILURE, EXIT_OK, CliError
from boruna.cli.files import read_text
from boruna.cli.json_output import call, failure_error, print_result
from boruna.core.errors import ErrorKind


def workflow_path(path: str) -> str:
    """DIR/workflow.json for a directory; a file path is taken as the workflow file itself."""
    if os.path.isdir(path):
        return os.path.join(path, "workflow.json")
    if not os.path.exists(path):
        raise CliError(f"cannot read '{path}': no such file or directory")
    return path


def cmd_validate(args, console: Console) -> int:
    from boruna import service

    path = workflow_path(args.dir)
    result = call(service.validate_workflow, read_text(path), os.path.dirname(path) or ".")
    if args.json:
        return print_result(console, result)
    if result.success:
        report = result.report
        style = console.out_style
        console.out(style.ok(f"workflow '{report.workflow_name}' v{report.workflow_version} "
                             "is valid"))
        console.out(f"  steps: {report.steps_count}")
        console.out(f"  edges: {report.edges_count}")
        console.out(f"  execution order: {' -> '.join(report.execution_order)}")
        return EXIT_OK
    if result.error_kind != ErrorKind.VALIDATION_ERROR:
        raise failure_error(result, args.dir, "", console)
    console.error("workflow validation failed:")
    for err in result.fields["errors"]:
        console.err(f"  {err['kind']}: {err['message']}")
    return EXIT_FAILURE
