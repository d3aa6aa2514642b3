"""Workflow DAGs: the `workflow.json` schema, its validation rules and the execution order.

`validate_workflow_json(text)` is what `boruna_workflow_validate` and `boruna workflow
validate` call (docs/spec/tooling.md §4). Parsing problems raise `WorkflowParseError` (→ `parse_error`);
structural problems are collected, all of them, into `WorkflowReport.errors` (→
`validation_error`) as `{"kind", "message"}` dicts in the order of §4.3.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import (BaseModel, ConfigDict, Field, StrictBool, StrictStr, ValidationError,
                      conint)

from boruna.core.limits import U64_MAX

MAX_SCHEMA_VERSION = 1
PARSE_PREFIX = "invalid workflow JSON: "
MISSING_SCHEMA_VERSION = ("workflow.json is missing required field `schema_version` "
                          "(expected `\"schema_version\": 1`); see docs/spec/workflow-dag-1.0.md")

# error kinds (the reference's enum variant names; a cycle is "Cycle" per the seed contract)
MISSING_FIELD = "MissingField"
EMPTY_WORKFLOW = "EmptyWorkflow"
UNKNOWN_STEP = "UnknownStep"
UNKNOWN_INPUT = "UnknownInput"
DUPLICATE_EDGE = "DuplicateEdge"
CYCLE = "Cycle"

U32 = conint(strict=True, ge=0, le=2**32 - 1)
U64 = conint(strict=True, ge=0, le=U64_MAX)


class WorkflowParseError(Exception):
    """The text is not a readable workflow; `message` starts with `invalid workflow JSON: `."""

    def __init__(self, detail: str):
        self.message = PARSE_PREFIX + detail
        super().__init__(self.message)


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class RetryPolicy(_Model):
    max_attempts: U32
    on_transient: StrictBool = False
    retry_on: list[StrictStr] = []


class StepBudget(_Model):
    max_tokens: Optional[U64] = None
    max_calls: Optional[U64] = None


class _StepBase(_Model):
    capabilities: list[StrictStr] = []
    inputs: dict[str, StrictStr] = {}
    outputs: dict[str, StrictStr] = {}
    depends_on: list[StrictStr] = []
    timeout_ms: Optional[U64] = None
    retry: Optional[RetryPolicy] = None
    budget: Optional[StepBudget] = None
    required_capability_versions: dict[str, StrictStr] = {}


class SourceStep(_StepBase):
    """A step that runs an `.ax` file (path relative to the workflow directory)."""

    kind: Literal["source"]
    source: StrictStr


class ApprovalGateStep(_StepBase):
    """A step that waits for a human with `required_role`."""

    kind: Literal["approval_gate"]
    required_role: StrictStr
    condition: Optional[StrictStr] = None


class ExternalTriggerStep(_StepBase):
    """A step completed by an outside event."""

    kind: Literal["external_trigger"]
    description: Optional[StrictStr] = None


STEP_KINDS = ("source", "approval_gate", "external_trigger")

Step = Annotated[Union[SourceStep, ApprovalGateStep, ExternalTriggerStep],
                 Field(discriminator="kind")]


class Workflow(_Model):
    """A parsed `workflow.json` (schema version 1). `steps` is keyed and sorted by step id."""

    schema_version: Optional[U32] = None      # a JSON integer; null counts as missing
    name: StrictStr
    version: StrictStr
    description: StrictStr = ""
    steps: dict[str, Step]
    edges: list[tuple[StrictStr, StrictStr]]

    def step_ids(self) -> list[str]:
        return sorted(self.steps)


@dataclass
class WorkflowReport:
    """The outcome of validating a parsed workflow. `ok` is true iff `errors` is empty."""

    ok: bool
    workflow_name: str
    workflow_version: str
    steps_count: int
    edges_count: int
    execution_order: list[str]
    errors: list[dict] = field(default_factory=list)


class CycleError(Exception):
    """The step graph has no complete topological order."""

    def __init__(self, resolved: int, total: int):
        self.resolved = resolved
        self.total = total
        super().__init__(f"cycle detected: resolved {resolved} of {total} steps")


def _describe_validation_error(exc: ValidationError) -> str:
    first = exc.errors(include_url=False)[0]
    loc = first["loc"]
    if len(loc) >= 3 and loc[0] == "steps" and loc[2] in STEP_KINDS:
        loc = loc[:2] + loc[3:]     # pydantic's union tag is not a field of the step
    kinds = ", ".join(STEP_KINDS)
    if first["type"] == "union_tag_not_found":
        return f"missing field `kind` in {'.'.join(str(p) for p in loc)} (one of: {kinds})"
    if first["type"] == "union_tag_invalid":
        tag = (first.get("ctx") or {}).get("tag", "")
        return (f"{'.'.join(str(p) for p in loc)}: unknown step kind '{tag}' "
                f"(expected one of: {kinds})")
    if loc and loc[0] == "edges" and first["type"] in ("tuple_type", "too_long", "too_short"):
        return f"{'.'.join(str(p) for p in loc[:2])}: expected a [from, to] pair of strings"
    if first["type"] == "missing" and loc and isinstance(loc[-1], str):
        parent = ".".join(str(p) for p in loc[:-1])
        return f"missing field `{loc[-1]}`" + (f" in {parent}" if parent else "")
    if first["type"] == "missing":
        return f"{'.'.join(str(p) for p in loc[:-1])}: expected a [from, to] pair of strings"
    where = ".".join(str(p) for p in loc)
    return f"{where}: {first['msg']}" if where else first["msg"]


def parse_workflow(text: str) -> Workflow:
    """Decode `text` into a `Workflow`, or raise `WorkflowParseError` (docs/spec/tooling.md §4.2)."""
    if not isinstance(text, str):
        raise WorkflowParseError("workflow_json must be a string")
    from boruna.core.jsonread import loads

    # serde_json's reader: its error texts, its 127-level nesting limit, and no lone
    # surrogate escapes (`"\\ud800"` would leave unencodable text in every later output)
    try:
        data = loads(text)
    except RecursionError:
        raise WorkflowParseError("JSON nesting too deep") from None
    except ValueError as exc:
        raise WorkflowParseError(str(exc)) from None
    if not isinstance(data, dict):
        raise WorkflowParseError(f"invalid type: expected a workflow object, got {_json_kind(data)}")
    # a null schema_version is the same as a missing one; decode everything else first
    try:
        workflow = Workflow.model_validate(data)
    except ValidationError as exc:
        raise WorkflowParseError(_describe_validation_error(exc)) from None
    except RecursionError:
        raise WorkflowParseError("JSON nesting too deep") from None
    if workflow.schema_version is None:
        raise WorkflowParseError(MISSING_SCHEMA_VERSION)
    if workflow.schema_version > MAX_SCHEMA_VERSION:
        raise WorkflowParseError(
            f"workflow.json `schema_version: {workflow.schema_version}` is not supported by this "
            f"build (max supported: {MAX_SCHEMA_VERSION}); upgrade Boruna to read this workflow")
    steps = {k: workflow.steps[k] for k in sorted(workflow.steps)}
    return workflow.model_copy(update={"steps": steps})


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array"


def _graph_edges(workflow: Workflow) -> list[tuple[str, str]]:
    """Explicit edges ∪ depends_on edges, de-duplicated and sorted by (from, to)."""
    edges = set(workflow.edges)
    for step_id, step in workflow.steps.items():
        for dep in step.depends_on:
            edges.add((dep, step_id))
    return sorted(edges)


def _in_degrees(workflow: Workflow) -> tuple[dict[str, int], dict[str, list[str]]]:
    in_degree = {step_id: 0 for step_id in workflow.steps}
    dependents: dict[str, list[str]] = {}
    for src, dst in _graph_edges(workflow):
        in_degree[dst] = in_degree.get(dst, 0) + 1
        dependents.setdefault(src, []).append(dst)
    return in_degree, dependents


def execution_order(workflow: Workflow) -> list[str]:
    """FIFO Kahn's algorithm seeded in sorted order (§4.4); raises `CycleError`."""
    in_degree, dependents = _in_degrees(workflow)
    queue = sorted(k for k, d in in_degree.items() if d == 0)
    order: list[str] = []
    head = 0
    while head < len(queue):
        node = queue[head]
        head += 1
        order.append(node)
        for nxt in dependents.get(node, ()):
            in_degree[nxt] -= 1
            if in_degree[nxt] == 0:
                queue.append(nxt)
    if len(order) != len(workflow.steps):
        raise CycleError(len(order), len(workflow.steps))
    return order


def topological_levels(workflow: Workflow) -> list[list[str]]:
    """Waves of steps that may run concurrently (each wave sorted); raises `CycleError`."""
    in_degree, dependents = _in_degrees(workflow)
    level = sorted(k for k, d in in_degree.items() if d == 0)
    levels: list[list[str]] = []
    total = 0
    while level:
        levels.append(level)
        total += len(level)
        following = []
        for node in level:
            for nxt in dependents.get(node, ()):
                in_degree[nxt] -= 1
                if in_degree[nxt] == 0:
                    following.append(nxt)
        level = sorted(following)
    if total != len(workflow.steps):
        raise CycleError(total, len(workflow.steps))
    return levels


def _error(kind: str, message: str) -> dict:
    return {"kind": kind, "message": message}


def validation_errors(workflow: Workflow) -> list[dict]:
    """Every problem of §4.3, in its order; empty when the workflow is valid."""
    errors: list[dict] = []
    if workflow.name == "":
        errors.append(_error(MISSING_FIELD, "workflow name is empty"))
    if workflow.version == "":
        errors.append(_error(MISSING_FIELD, "workflow version is empty"))
    if not workflow.steps:
        errors.append(_error(EMPTY_WORKFLOW, "workflow has no steps"))
    steps = workflow.steps
    for src, dst in workflow.edges:
        for end in (src, dst):
            if end not in steps:
                errors.append(_error(UNKNOWN_STEP, f"edge references unknown step '{end}'"))
    for step_id in workflow.step_ids():
        for dep in steps[step_id].depends_on:
            if dep not in steps:
                errors.append(_error(UNKNOWN_STEP,
                                     f"step '{step_id}' depends on unknown step '{dep}'"))
    for step_id in workflow.step_ids():
        inputs = steps[step_id].inputs
        for name in sorted(inputs):
            ref = inputs[name]
            producer, dot, _output = ref.partition(".")
            if not dot:
                errors.append(_error(
                    UNKNOWN_INPUT, f"step '{step_id}' input '{name}' has invalid ref format "
                                   f"'{ref}' (expected 'step.output')"))
            elif producer not in steps:
                errors.append(_error(
                    UNKNOWN_INPUT,
                    f"step '{step_id}' input '{name}' references unknown step '{producer}'"))
    for step_id in workflow.step_ids():
        step = steps[step_id]
        if isinstance(step, SourceStep) and step.source == "":
            errors.append(_error(MISSING_FIELD, f"step '{step_id}' has empty source path"))
    seen: set[tuple[str, str]] = set()
    for edge in workflow.edges:
        if edge in seen:
            errors.append(_error(DUPLICATE_EDGE, f"duplicate edge: {edge[0]} -> {edge[1]}"))
        seen.add(edge)
    try:
        execution_order(workflow)
    except CycleError as exc:
        errors.append(_error(CYCLE, str(exc)))
    return errors


def validate_workflow(workflow: Workflow) -> WorkflowReport:
    """Validate a parsed workflow; the order is filled only when there are no errors."""
    errors = validation_errors(workflow)
    order = [] if errors else execution_order(workflow)
    return WorkflowReport(ok=not errors, workflow_name=workflow.name,
                          workflow_version=workflow.version, steps_count=len(workflow.steps),
                          edges_count=len(workflow.edges), execution_order=order, errors=errors)


def validate_workflow_json(text: str) -> WorkflowReport:
    """Parse and validate a `workflow.json` text; raises `WorkflowParseError`."""
    return validate_workflow(parse_workflow(text))
