"""`boruna workflow validate DIR [--json]`: check DIR/workflow.json and print its order."""
from __future__ import annotations

import os

from boruna.cli.console import Console
from boruna.cli.errors import EXIT_FAILURE, EXIT_OK, CliError
from boruna.cli.files import read_text
from boruna.cli.json_output import call_tool, print_response
from boruna.cli.render import field


def workflow_path(path: str) -> str:
    """DIR/workflow.json for a directory; a file path is taken as the workflow file itself."""
    if os.path.isdir(path):
        return os.path.join(path, "workflow.json")
    if not os.path.exists(path):
        raise CliError(f"cannot read '{path}': no such file or directory")
    return path


def cmd_validate(args, console: Console) -> int:
    text = read_text(workflow_path(args.dir))
    if args.json:
        from boruna.service import workflow_validate_tool

        return print_response(console, call_tool(workflow_validate_tool, text))
    from boruna.workflow.validator import WorkflowParseError, validate_workflow_json

    try:
        report = validate_workflow_json(text)
    except WorkflowParseError as err:
        raise CliError(err.message) from None
    errors = list(field(report, "errors") or [])
    if errors:
        console.error("workflow validation failed:")
        for err in errors:
            console.err(f"  {field(err, 'kind')}: {field(err, 'message')}")
        return EXIT_FAILURE
    style = console.out_style
    console.out(style.ok(f"workflow '{report.workflow_name}' v{report.workflow_version} is valid"))
    console.out(f"  steps: {report.steps_count}")
    console.out(f"  edges: {report.edges_count}")
    console.out(f"  execution order: {' -> '.join(report.execution_order)}")
    return EXIT_OK
