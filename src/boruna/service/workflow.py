"""`boruna_workflow_validate`: check a workflow DAG and return its execution order."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boruna.core.errors import ErrorKind
from boruna.service.boundary import tool_boundary
from boruna.service.envelope import ok
from boruna.service.results import Failure, use_case


@dataclass
class WorkflowValid:
    """A valid workflow: its name, version, counts and execution order."""

    report: Any     # workflow.validator.WorkflowReport
    success = True

    def to_json(self) -> dict:
        report = self.report
        return ok(
            workflow_name=report.workflow_name,
            workflow_version=report.workflow_version,
            steps_count=report.steps_count,
            edges_count=report.edges_count,
            execution_order=list(report.execution_order),
        )


@use_case
def validate_workflow(workflow_json: str):
    """`parse_error` for unreadable JSON (`fields["errors"]`: every decode problem, then the
    structural ones of what decoded), `validation_error` with every DAG problem
    (`fields["errors"]`), else `WorkflowValid`."""
    from boruna.workflow.validator import WorkflowParseError, validate_workflow_json

    try:
        report = validate_workflow_json(workflow_json)
    except WorkflowParseError as err:
        return Failure(ErrorKind.PARSE_ERROR, err.message, {"errors": err.problems})
    if report.errors:
        return Failure(ErrorKind.VALIDATION_ERROR, None, {
            "errors": [{"kind": e["kind"], "message": e["message"]} for e in report.errors]})
    return WorkflowValid(report)


@tool_boundary
def workflow_validate_tool(workflow_json: str) -> dict:
    """See `validate_workflow`."""
    return validate_workflow(workflow_json).to_json()
