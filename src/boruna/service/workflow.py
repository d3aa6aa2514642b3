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


def _contract_problems(workflow_json: str, directory, sources) -> list[dict]:
    """The runner's own pre-run outputs check (`workflow.contracts.static_problems`) on the
    step sources at hand: read from `directory`, or `sources` (path → text); a source that
    is missing or unreadable is not checked here (the run reports it)."""
    from pathlib import Path

    from boruna.workflow.contracts import static_problems
    from boruna.workflow.model import inline_sources, read_all_sources
    from boruna.workflow.validator import parse_workflow

    workflow = parse_workflow(workflow_json)
    if directory is not None:
        texts, _ = read_all_sources(workflow, Path(directory))
    else:
        texts, _ = inline_sources(workflow, sources)
    return static_problems(workflow, texts)


@use_case
def validate_workflow(workflow_json: str, directory=None, sources: dict | None = None):
    """`parse_error` for unreadable JSON (`fields["errors"]`: every decode problem, then the
    structural ones of what decoded), `validation_error` with every DAG problem
    (`fields["errors"]`), else `WorkflowValid`. Given the step sources (`directory`, or
    `sources`: path → text), a `main` whose declared return type cannot give the step's
    `outputs` is a `ContractViolation` error too, as `workflow run` would refuse it."""
    from boruna.workflow.validator import WorkflowParseError, validate_workflow_json

    try:
        report = validate_workflow_json(workflow_json)
    except WorkflowParseError as err:
        return Failure(ErrorKind.PARSE_ERROR, err.message, {"errors": err.problems})
    if not report.errors and (directory is not None or sources):
        report.errors.extend(_contract_problems(workflow_json, directory, sources))
    if report.errors:
        return Failure(ErrorKind.VALIDATION_ERROR, None, {
            "errors": [{"kind": e["kind"], "message": e["message"]} for e in report.errors]})
    return WorkflowValid(report)


@tool_boundary
def workflow_validate_tool(workflow_json: str, sources: dict | None = None) -> dict:
    """See `validate_workflow`."""
    return validate_workflow(workflow_json, sources=sources).to_json()
