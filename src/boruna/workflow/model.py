"""The workflow as typed objects: `workflow.json` (schema version 1) read with pydantic 2.

These models are what `boruna_workflow_validate` has always read (docs/spec/tooling.md §4.1),
extended without breaking it: `budget.max_steps`, run inputs (`"$input.NAME"` refs), and the
runner's view of a step (its dependencies, declared outputs and retry classes). Unknown
fields are ignored everywhere (forward compatibility).

`WorkflowDefinition` is a workflow with its step sources read (from a directory, every path
kept inside it, symlinks resolved, or given inline), and `workflow_hash` covers the JSON and
every step source, so an edited `.ax` file changes the hash.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr, conint

from boruna.core.limits import MAX_SOURCE_BYTES, U64_MAX

U32 = conint(strict=True, ge=0, le=2**32 - 1)
U64 = conint(strict=True, ge=0, le=U64_MAX)

RUN_INPUT_PREFIX = "$input."
RESULT = "result"
MAX_STEPS_PER_WORKFLOW = 10_000
"""Steps a workflow the runner accepts may hold (the validator reads any number)."""

# The error classes a step failure falls in; `retry.retry_on` names some of them.
ERROR_CLASSES = ("wall_time_exceeded", "step_limit_exceeded", "capability_denied",
                 "capability_budget_exceeded", "compile_error", "runtime_error",
                 "contract_violation", "io_error", "input_resolution", "transient_network")
TRANSIENT_CLASSES = ("transient_network", "io_error")
"""What `retry.on_transient: true` adds to `retry_on`."""

# Output type labels the runner checks; any other label is informational (accepts any value)
OUTPUT_TYPES = ("Int", "Float", "Number", "String", "Bool", "List", "Map", "Record", "Unit",
                "Any", "Json")


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class RetryPolicy(_Model):
    max_attempts: U32
    on_transient: StrictBool = False
    retry_on: list[StrictStr] = []

    def retry_classes(self) -> frozenset[str]:
        classes = set(self.retry_on)
        if self.on_transient:
            classes.update(TRANSIENT_CLASSES)
        return frozenset(classes)


class StepBudget(_Model):
    max_tokens: Optional[U64] = None
    max_calls: Optional[U64] = None
    max_steps: Optional[U64] = None


class _StepBase(_Model):
    capabilities: list[StrictStr] = []
    inputs: dict[str, StrictStr] = {}
    outputs: dict[str, StrictStr] = {}
    depends_on: list[StrictStr] = []
    timeout_ms: Optional[U64] = None
    retry: Optional[RetryPolicy] = None
    budget: Optional[StepBudget] = None
    required_capability_versions: dict[str, StrictStr] = {}

    def output_names(self) -> list[str]:
        """The outputs the step produces: the declared ones, else `result`."""
        return sorted(self.outputs) if self.outputs else [RESULT]


class SourceStep(_StepBase):
    """A step that runs an `.ax` file (path relative to the workflow directory). `handlers`
    names the capabilities whose calls the run's caller answers (`{"llm.call": "client"}`,
    as `boruna_run`'s `handlers`): the step pauses at such a call, stored as a snapshot in
    the journal, and goes on from there with the answer."""

    kind: Literal["source"]
    source: StrictStr
    handlers: dict[StrictStr, Literal["client"]] = {}


class ApprovalGateStep(_StepBase):
    """A step that waits for a human with `required_role`."""

    kind: Literal["approval_gate"]
    required_role: StrictStr
    condition: Optional[StrictStr] = None


class ExternalTriggerStep(_StepBase):
    """A step completed by an outside event (its payload becomes its `result`)."""

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


@dataclass(frozen=True)
class InputRef:
    """A step input: `step.output` (`step` set) or a run input `$input.NAME` (`step` None)."""

    local: str
    step: Optional[str]
    name: str

    @property
    def text(self) -> str:
        return f"{RUN_INPUT_PREFIX}{self.name}" if self.step is None else f"{self.step}.{self.name}"


def parse_ref(local: str, ref: str) -> Optional[InputRef]:
    """The input ref `ref` (split at the first `.`), None when it has no dot."""
    if ref.startswith(RUN_INPUT_PREFIX) and len(ref) > len(RUN_INPUT_PREFIX):
        return InputRef(local, None, ref[len(RUN_INPUT_PREFIX):])
    producer, dot, output = ref.partition(".")
    if not dot:
        return None
    return InputRef(local, producer, output)


def step_refs(step) -> list[InputRef]:
    """The step's well-formed input refs, by local name."""
    refs = []
    for local in sorted(step.inputs):
        ref = parse_ref(local, step.inputs[local])
        if ref is not None:
            refs.append(ref)
    return refs


def dependencies(workflow: Workflow) -> dict[str, list[str]]:
    """Step id → the steps it waits for: edges, `depends_on` and the producers of its inputs
    (the runner waits for an input's producer even without an edge)."""
    deps: dict[str, set[str]] = {sid: set() for sid in workflow.steps}
    for src, dst in workflow.edges:
        if dst in deps:
            deps[dst].add(src)
    for sid, step in workflow.steps.items():
        deps[sid].update(step.depends_on)
        deps[sid].update(r.step for r in step_refs(step) if r.step is not None)
    return {sid: sorted(d) for sid, d in deps.items()}


def run_input_names(workflow: Workflow) -> list[str]:
    """The run inputs (`$input.NAME`) the workflow's steps read."""
    return sorted({r.name for s in workflow.steps.values() for r in step_refs(s)
                   if r.step is None})


def plan_problems(workflow: Workflow) -> list[dict]:
    """What keeps a valid workflow from running, beyond the validator's checks: inputs
    naming outputs their producer does not declare, retry classes that do not exist, output
    type labels, too many steps. `{"kind", "message"}` dicts."""
    problems = []
    if len(workflow.steps) > MAX_STEPS_PER_WORKFLOW:
        problems.append({"kind": "TooManySteps", "message":
                         f"workflow has {len(workflow.steps)} steps; the runner takes at most "
                         f"{MAX_STEPS_PER_WORKFLOW}"})
    for sid in workflow.step_ids():
        step = workflow.steps[sid]
        for ref in step_refs(step):
            if ref.step is None or ref.step not in workflow.steps:
                continue
            names = workflow.steps[ref.step].output_names()
            if ref.name not in names:
                problems.append({"kind": "UnknownOutput", "message":
                                 f"step '{sid}' input '{ref.local}' reads '{ref.text}', but "
                                 f"step '{ref.step}' has no output '{ref.name}' (outputs: "
                                 f"{', '.join(names)})"})
        if isinstance(step, SourceStep):
            problems.extend(_handler_problems(sid, step))
        if step.retry is not None:
            for cls in step.retry.retry_on:
                if cls not in ERROR_CLASSES:
                    problems.append({"kind": "UnknownErrorClass", "message":
                                     f"step '{sid}' retry_on names unknown error class "
                                     f"'{cls}' (one of: {', '.join(ERROR_CLASSES)})"})
    return problems


def delegated_wire_names(names) -> tuple[Optional[tuple], Optional[str]]:
    """The wire names of capability names (aliases accepted), sorted; or the first unknown
    one's problem text."""
    from boruna.core.capabilities import from_source_name

    wire = set()
    for name in names:
        cap = from_source_name(name) if isinstance(name, str) else None
        if cap is None:
            return None, f"unknown capability {name!r}"
        wire.add(cap.wire_name)
    return tuple(sorted(wire)), None


def _handler_problems(sid: str, step: "SourceStep") -> list[dict]:
    """A step's `handlers`: known capabilities the step may call."""
    wire, problem = delegated_wire_names(step.handlers)
    if problem is not None:
        return [{"kind": "UnknownCapability", "message":
                 f"step '{sid}' handlers: {problem}"}]
    allowed, _ = delegated_wire_names(step.capabilities)
    missing = [w for w in wire if allowed is not None and w not in allowed]
    return [{"kind": "DelegatedNotAllowed", "message":
             f"step '{sid}' handlers delegate {name}, which its capabilities do not list "
             f"(add it to capabilities)"} for name in missing]


def step_delegated(step, run_delegated=()) -> list[str]:
    """The wire names of the capabilities whose calls in `step` the caller answers: the
    run's (`run_delegated`, wire names) and the step's own `handlers`."""
    own, _ = delegated_wire_names(getattr(step, "handlers", {}) or {})
    return sorted(set(run_delegated) | set(own or ()))


# --------------------------------------------------------------------- sources and hashing

class SourceError(Exception):
    """A step source that cannot be read from the workflow directory."""

    def __init__(self, step_id: str, message: str):
        self.step_id = step_id
        self.message = message
        super().__init__(message)


@dataclass(frozen=True)
class WorkflowDefinition:
    """A workflow with everything a run needs: its JSON text, the parsed model, each source
    step's `.ax` text (by step id) and the directory it came from (None when inline)."""

    workflow: Workflow
    workflow_json: str
    sources: dict            # step id → source text
    directory: Optional[str] = None

    @property
    def hash(self) -> str:
        return workflow_hash(self.workflow_json, self.workflow, self.sources)


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def workflow_hash(workflow_json: str, workflow: Workflow, sources: dict) -> str:
    """SHA-256 over the workflow (its parsed JSON, canonical: whitespace and key order do not
    count) and, per source step in id order, its path and the SHA-256 of its source text."""
    try:
        body = _canonical(json.loads(workflow_json))
    except ValueError:
        body = workflow_json
    digest = hashlib.sha256(b"boruna-workflow-hash-v1\n")
    digest.update(body.encode("utf-8", "surrogatepass"))
    for sid in sorted(workflow.steps):
        step = workflow.steps[sid]
        if isinstance(step, SourceStep):
            digest.update(f"\n{sid}\0{step.source}\0{sha256_text(sources.get(sid, ''))}"
                          .encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _source_path(directory: Path, step_id: str, name: str) -> Path:
    """`name` inside `directory`: relative, no `..`, and inside once symlinks resolve."""
    if name == "":
        raise SourceError(step_id, f"step '{step_id}' has empty source path")
    pure = Path(name)
    if pure.is_absolute() or name.startswith(("/", "\\")) or ":" in pure.parts[0]:
        raise SourceError(step_id, f"step '{step_id}' source '{name}' must be a path relative "
                                   f"to the workflow directory")
    if ".." in pure.parts or "\0" in name:
        raise SourceError(step_id, f"step '{step_id}' source '{name}' leaves the workflow "
                                   f"directory (`..` is not allowed)")
    path = directory / pure
    try:
        resolved = path.resolve(strict=True)
        resolved.relative_to(directory.resolve(strict=True))
    except FileNotFoundError:
        raise SourceError(step_id, f"step '{step_id}' source '{name}' not found in "
                                   f"{directory}") from None
    except (ValueError, RuntimeError, OSError):
        raise SourceError(step_id, f"step '{step_id}' source '{name}' leads outside the "
                                   f"workflow directory (a symlink?)") from None
    if not resolved.is_file():
        raise SourceError(step_id, f"step '{step_id}' source '{name}' is not a file")
    return resolved


def read_sources(workflow: Workflow, directory: Path) -> dict:
    """Each source step's text, read from inside `directory`; SourceError for the first
    that cannot be read (`read_all_sources` collects them all)."""
    sources, problems = read_all_sources(workflow, directory)
    if problems:
        raise problems[0]
    return sources


def read_all_sources(workflow: Workflow, directory: Path) -> tuple[dict, list[SourceError]]:
    sources: dict = {}
    problems: list[SourceError] = []
    texts: dict = {}            # source path → text, for steps sharing a file
    for sid in workflow.step_ids():
        step = workflow.steps[sid]
        if not isinstance(step, SourceStep):
            continue
        if step.source in texts:
            sources[sid] = texts[step.source]
            continue
        try:
            path = _source_path(directory, sid, step.source)
            data = path.read_bytes()
            if len(data) > MAX_SOURCE_BYTES:
                raise SourceError(sid, f"step '{sid}' source '{step.source}' exceeds 1 MB")
            sources[sid] = texts[step.source] = data.decode("utf-8")
        except SourceError as err:
            problems.append(err)
        except UnicodeDecodeError:
            problems.append(SourceError(sid, f"step '{sid}' source '{step.source}' is not "
                                             f"UTF-8 text"))
        except OSError as err:
            problems.append(SourceError(sid, f"step '{sid}' source '{step.source}' cannot be "
                                             f"read: {err.strerror or err}"))
    return sources, problems


def inline_sources(workflow: Workflow, files: dict) -> tuple[dict, list[SourceError]]:
    """Each source step's text from `files` (source path → text), for a workflow given
    inline (MCP): paths are looked up as written, `./` prefixes ignored."""
    normalized = {str(k).removeprefix("./"): v for k, v in files.items()}
    sources, problems = {}, []
    for sid in workflow.step_ids():
        step = workflow.steps[sid]
        if not isinstance(step, SourceStep):
            continue
        text = normalized.get(step.source.removeprefix("./"))
        if not isinstance(text, str):
            problems.append(SourceError(sid, f"step '{sid}' source '{step.source}' is not among "
                                             f"the given sources ({', '.join(sorted(normalized)) or 'none'})"))
        elif len(text.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES:
            problems.append(SourceError(sid, f"step '{sid}' source '{step.source}' exceeds 1 MB"))
        else:
            sources[sid] = text
    return sources, problems
