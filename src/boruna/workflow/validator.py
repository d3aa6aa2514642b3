"""Workflow DAGs: the `workflow.json` schema, its validation rules and the execution order.

`validate_workflow_json(text)` is what `boruna_workflow_validate` and `boruna workflow
validate` call (docs/spec/tooling.md §4). Parsing problems raise `WorkflowParseError` (→ `parse_error`);
structural problems are collected, all of them, into `WorkflowReport.errors` (→
`validation_error`) as `{"kind", "message"}` dicts in the order of §4.3.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from pydantic import ValidationError

from boruna.workflow.model import (RUN_INPUT_PREFIX, STEP_KINDS, U32, U64,  # noqa: F401
                                   ApprovalGateStep, ExternalTriggerStep, RetryPolicy,
                                   SourceStep, Step, StepBudget, Workflow, parse_ref)

MAX_SCHEMA_VERSION = 1
PARSE_PREFIX = "invalid workflow JSON: "
MISSING_SCHEMA_VERSION = ("workflow.json is missing required field `schema_version` "
                          "(expected `\"schema_version\": 1`); see docs/workflows.md or the "
                          "boruna://workflows resource")

# error kinds (the reference's enum variant names; a cycle is "Cycle" per the seed contract)
MISSING_FIELD = "MissingField"
EMPTY_WORKFLOW = "EmptyWorkflow"
UNKNOWN_STEP = "UnknownStep"
UNKNOWN_INPUT = "UnknownInput"
DUPLICATE_EDGE = "DuplicateEdge"
CYCLE = "Cycle"

PARSE = "ParseError"
INVALID_FIELD = "InvalidField"
UNKNOWN_STEP_KIND = "UnknownStepKind"


class WorkflowParseError(Exception):
    """The text is not a readable workflow; `message` starts with `invalid workflow JSON: `.

    `problems` lists every problem found (`{"kind", "message"}`): each decode problem of the
    document, then the structural problems (§4.3) of what did decode, so one submission
    shows them all; `message` holds the first alone, or all of them counted."""

    def __init__(self, detail: str, problems: Optional[list] = None):
        self.problems = problems if problems else [{"kind": PARSE, "message": detail}]
        self.message = PARSE_PREFIX + detail
        super().__init__(self.message)

    @classmethod
    def of(cls, problems: list) -> "WorkflowParseError":
        texts = [p["message"] for p in problems]
        detail = texts[0] if len(texts) == 1 else f"{len(texts)} problems: " + "; ".join(texts)
        return cls(detail, problems)


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


def _describe_error(error: dict) -> dict:
    """One pydantic error as a `{"kind", "message"}` problem, in the reference's words."""
    loc = error["loc"]
    if len(loc) >= 3 and loc[0] == "steps" and loc[2] in STEP_KINDS:
        loc = loc[:2] + loc[3:]     # pydantic's union tag is not a field of the step
    where = ".".join(str(p) for p in loc)
    kinds = ", ".join(STEP_KINDS)
    kind = error["type"]
    if kind == "union_tag_not_found":
        return _error(MISSING_FIELD, f"missing field `kind` in {where} (one of: {kinds})")
    if kind == "union_tag_invalid":
        tag = (error.get("ctx") or {}).get("tag", "")
        return _error(UNKNOWN_STEP_KIND, f"{where}: unknown step kind '{tag}' "
                                         f"(expected one of: {kinds})")
    if loc and loc[0] == "edges" and (kind in ("tuple_type", "too_long", "too_short")
                                      or (kind == "missing" and not isinstance(loc[-1], str))
                                      or len(loc) > 2):
        return _error(INVALID_FIELD, f"{'.'.join(str(p) for p in loc[:2])}: expected a "
                                     f"[from, to] pair of strings")
    if kind == "missing" and loc and isinstance(loc[-1], str):
        parent = ".".join(str(p) for p in loc[:-1])
        return _error(MISSING_FIELD, f"missing field `{loc[-1]}`" + (f" in {parent}" if parent else ""))
    return _error(INVALID_FIELD, f"{where}: {error['msg']}" if where else error["msg"])


def _decode_problems(exc: ValidationError) -> list[dict]:
    problems: list[dict] = []
    for error in exc.errors(include_url=False):
        problem = _describe_error(error)
        if problem not in problems:
            problems.append(problem)
    return problems


def _salvage(data: dict) -> Optional[Workflow]:
    """The part of an undecodable document that decodes, for the structural checks: steps
    that fail stand in as placeholders with their readable `depends_on` and `inputs`, bad
    edges are left out. None when the top level itself is unreadable."""
    from pydantic import TypeAdapter

    name, version, steps, edges = (data.get(k) for k in ("name", "version", "steps", "edges"))
    if not (isinstance(name, str) and isinstance(version, str) and isinstance(steps, dict)
            and isinstance(edges, list)):
        return None
    adapter = TypeAdapter(Step)
    decoded = {}
    for sid, raw in steps.items():
        try:
            decoded[sid] = adapter.validate_python(raw)
        except (ValidationError, RecursionError):
            raw = raw if isinstance(raw, dict) else {}
            deps = raw.get("depends_on")
            inputs = raw.get("inputs")
            decoded[sid] = ExternalTriggerStep(
                kind="external_trigger",
                depends_on=deps if isinstance(deps, list) and all(isinstance(d, str) for d in deps) else [],
                inputs=inputs if isinstance(inputs, dict) and all(
                    isinstance(v, str) for v in inputs.values()) else {})
    pairs = [tuple(e) for e in edges if isinstance(e, list) and len(e) == 2
             and all(isinstance(x, str) for x in e)]
    try:
        return Workflow(schema_version=1, name=name, version=version,
                        steps={k: decoded[k] for k in sorted(decoded)}, edges=pairs)
    except (ValidationError, RecursionError):
        return None


def parse_workflow(text: str) -> Workflow:
    """Decode `text` into a `Workflow`, or raise `WorkflowParseError` (docs/spec/tooling.md §4.2)
    listing every problem of the document."""
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
        problems = _decode_problems(exc)
        partial = _salvage(data)
        if partial is not None:
            problems += [p for p in validation_errors(partial) if p not in problems]
        raise WorkflowParseError.of(problems) from None
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
            parsed = parse_ref(name, ref)
            producer = parsed.step if parsed is not None else None
            if parsed is None:
                errors.append(_error(
                    UNKNOWN_INPUT, f"step '{step_id}' input '{name}' has invalid ref format "
                                   f"'{ref}' (expected 'step.output')"))
            elif producer is not None and producer not in steps:
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
