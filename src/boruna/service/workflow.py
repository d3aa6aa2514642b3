"""`boruna_workflow_validate`: check a workflow DAG and return its execution order."""
from __future__ import annotations

from boruna.service.boundary import tool_boundary
from boruna.service.envelope import fail, ok


@tool_boundary
def workflow_validate_tool(workflow_json: str) -> dict:
    """`parse_error` for unreadable JSON, `validation_error` with every DAG problem, else the order."""
    from boruna.workflow.validator import WorkflowParseError, validate_workflow_json

    try:
        report = validate_workflow_json(workflow_json)
    except WorkflowParseError as err:
        return fail("parse_error", err.message)
    if report.errors:
        return fail("validation_error",
                    errors=[{"kind": e["kind"], "message": e["message"]} for e in report.errors])
    return ok(
        workflow_name=report.workflow_name,
        workflow_version=report.workflow_version,
        steps_count=report.steps_count,
        edges_count=report.edges_count,
        execution_order=list(report.execution_order),
    )
