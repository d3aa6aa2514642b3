"""Pydantic models of every tool's responses, and the `outputSchema` generated from them.

The models describe what `boruna.service` returns today (success and failure shapes); they
are never used to build responses, only to advertise them. Every model allows additional
properties: the seed's stability rules let new fields appear without a version bump.
`tests/mcp/test_responses.py` validates real responses of every tool against these schemas.
"""
from __future__ import annotations

from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

Value = Any
"""A runtime value in the `boruna_run` encoding (any JSON)."""


# A field typed `T = None` may be absent but is never null; `Optional[T]` may be null.

class _Response(BaseModel):
    model_config = ConfigDict(extra="allow")
    protocol_version: Literal[1]


class _Success(_Response):
    success: Literal[True]


class _Failure(_Response):
    success: Literal[False]


# ----------------------------------------------------------------------------- failures

class CompileErrorEntry(BaseModel):
    model_config = ConfigDict(extra="allow")
    severity: Literal["error"]
    code: str = Field(description="E001 lexer, E002 parser, E009 names/types, E008 codegen.")
    message: str
    line: int = Field(description="1-based line; 0 when unknown.")
    col: int = Field(description="1-based column; 0 when unknown.")


class CompileFailure(_Failure):
    """The source did not compile (no error_kind; see `errors`)."""
    errors: list[CompileErrorEntry] = Field(min_length=1)


class RuntimePlace(BaseModel):
    """Where a runtime error happened (the innermost frame)."""
    model_config = ConfigDict(extra="allow")
    line: int = Field(description="1-based source line.")
    col: int = Field(description="1-based source column.")
    function: str


class StackEntry(BaseModel):
    """One frame of a failed run, innermost first; line/col null without a line table."""
    model_config = ConfigDict(extra="allow")
    function: str
    line: Optional[int] = None
    col: Optional[int] = None


def failure(kinds: tuple[str, ...], name: str, places: bool = False) -> type[_Failure]:
    """A failure model whose `error_kind` is one of `kinds`, plus those any tool can meet:
    internal_error, server_busy (the server refused the call: its lane is full) and
    limit_exceeded (the response exceeded the output budget). `places`: the run failures'
    additive `location` and `stack` (where a runtime error happened)."""
    every = set(kinds) | {"internal_error", "server_busy", "limit_exceeded"}
    kind_type = Literal[tuple(sorted(every))]  # type: ignore[misc]
    annotations: dict = {"error_kind": kind_type, "message": str}
    fields: dict = {"message": Field(None, description="Human-readable explanation.")}
    if places:
        annotations["location"] = RuntimePlace
        annotations["stack"] = list[StackEntry]
        fields["location"] = Field(None, description="Where a runtime error happened.")
        fields["stack"] = Field(None, description="The call stack at the error, innermost first.")
    return type(name, (_Failure,), {
        "__doc__": "A domain failure: switch on error_kind.",
        "__annotations__": annotations, **fields,
    })


# ----------------------------------------------------------------------------- successes

class ModuleInfo(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    version: int
    functions: int
    types: int
    constants: int
    entry: int


class CompileSuccess(_Success):
    module: ModuleInfo


class AstSuccess(_Success):
    truncated: bool
    ast: Union[dict[str, Any], str] = Field(
        description="The AST object; with truncated:true, the first 100 KB of its text.")
    ast_size: int = Field(None, description="Full size in bytes when truncated.")


class SymbolsSuccess(_Success):
    symbols: list[dict[str, Any]] = Field(
        description="Functions, records and enums in source order (kind, name, signature, ...).")


class RunSuccess(_Success):
    result: Value
    steps: int
    ui_output: list[Value]
    trace: list[str] = Field(None, description="With trace:true: first 500 ops.")
    trace_truncated: bool = None


class InputRequiredSuccess(_Success):
    """The run waits for the client's answer to a delegated capability call (boruna_resume)."""
    status: Literal["input_required"]
    request: dict[str, Any] = Field(description="{capability, args}: the call to answer.")
    resume_token: str
    steps: int


class SealedSuccess(_Success):
    result: Value
    steps: int
    replay_verified: bool
    replay_divergence_reason: Optional[str]
    event_count: int
    capability_calls: list[dict[str, Any]]
    event_log: dict[str, Any]
    event_log_sha256: str
    seal: dict[str, Any]


class Location(BaseModel):
    model_config = ConfigDict(extra="allow")
    file: str
    line: int
    col: Optional[int]
    end_line: Optional[int]
    end_col: Optional[int]


class Patch(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    description: str
    confidence: Literal["High", "Medium", "Low"]
    rationale: str


class DiagnosticEntry(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str = Field(description="Diagnostic code (see the boruna://codes resources).")
    severity: Literal["error", "warning", "info", "hint"]
    message: str
    location: Location = None
    patches: list[Patch] = None


class CheckSuccess(_Success):
    file: str
    diagnostics_count: int
    diagnostics: list[DiagnosticEntry]


class RepairSuccess(_Success):
    repaired_source: str
    patches_applied: int
    patches_skipped: int
    applied: list[dict[str, Any]]
    skipped: list[dict[str, Any]]
    verify_passed: bool
    diagnostics_before: int
    diagnostics_after: int


class ValidateAppSuccess(_Success):
    has_init: bool
    has_update: bool
    has_view: bool
    has_policies: bool
    state_type: Optional[str]
    message_type: Optional[str]
    errors: list[str]
    valid: bool


class FrameworkTestSuccess(_Success):
    init_state: Value
    cycles: list[dict[str, Any]]
    final_state: Value
    total_cycles: int


class WorkflowSuccess(_Success):
    workflow_name: str
    workflow_version: str
    steps_count: int
    edges_count: int
    execution_order: list[str]


class TemplateInfo(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    version: str
    description: str
    dependencies: list[str]
    capabilities: list[str]
    args: list[str]
    origin: str = Field(None, description="local: the folder asked for; bundled: Boruna's own copy.")


class TemplateListSuccess(_Success):
    count: int
    templates: list[TemplateInfo]


class TemplateApplySuccess(_Success):
    template_name: str
    output_file: str
    source: str
    dependencies: list[str]
    capabilities: list[str]
    validation: dict[str, Any] = Field(None, description="With validate:true.")


class CapabilityEntry(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    version: str


class CapabilityListSuccess(_Success):
    name: str
    version: str
    capabilities: list[CapabilityEntry]
    capability_set_hash: str


class PolicyValidateSuccess(_Success):
    ok: bool
    schema_version: int
    errors: list[dict[str, Any]] = Field(None, description="With ok:false.")


class WorkflowStepView(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    kind: Literal["source", "approval_gate", "external_trigger"]
    status: Literal["pending", "running", "completed", "failed", "skipped",
                    "awaiting_approval", "awaiting_external_event", "awaiting_input"]
    attempts: int
    outputs: dict[str, Value] = Field(None, description="When completed.")
    error_kind: str = Field(None, description="When failed or skipped (an error class).")
    error: str = Field(None, description="When failed or skipped.")
    waiting_for: dict[str, Any] = Field(None, description=(
        "When awaiting: required_role (and condition), token (and description), or "
        "(awaiting_input) request {capability, args} and steps (the step's VM steps so far)."))


class WorkflowRunSuccess(_Success):
    run_id: str
    workflow_name: str
    workflow_hash: str
    status: Literal["running", "completed", "failed", "paused", "cancelled"]
    error: str = Field(None, description="Why the run failed or was cancelled.")
    steps: list[WorkflowStepView]
    waiting: list[dict[str, Any]] = Field(description="The steps a paused run waits for.")
    outputs: dict[str, dict[str, Value]]
    inputs: dict[str, Value]
    effects_count: int
    audit_entries: int
    audit_head: Optional[str]
    data_dir: str


WORKFLOW_JOURNAL_KINDS = ("journal_corrupt", "journal_locked", "disk_full", "journal_error",
                          "not_found", "lease_held")
WORKFLOW_RUN_KINDS = WORKFLOW_JOURNAL_KINDS + (
    "parse_error", "validation_error", "invalid_inputs", "invalid_policy", "invalid_path",
    "io_error", "invalid_args", "invalid_params", "engine_unavailable")
WORKFLOW_RESUME_KINDS = WORKFLOW_JOURNAL_KINDS + ("workflow_changed", "engine_unavailable",
                                                  "invalid_params")
WORKFLOW_DECIDE_KINDS = WORKFLOW_RESUME_KINDS + ("invalid_state", "role_mismatch",
                                                 "invalid_token", "invalid_answer")
class FormatSuccess(_Success):
    formatted: str = Field(description="The source in the canonical layout, comments kept.")
    changed: bool = Field(description="False when the source was already formatted.")


RUN_KINDS = ("runtime_error", "invalid_policy", "limit_exceeded", "unsupported_limit",
             "validation_failed", "invalid_output_schema", "cancelled")

RESPONSES: dict[str, tuple[type[BaseModel], ...]] = {
    "boruna_ast": (AstSuccess, CompileFailure, failure(("serialization_error",), "AstFailure")),
    "boruna_capability_list": (CapabilityListSuccess, failure((), "CapabilityListFailure")),
    "boruna_check": (CheckSuccess, failure((), "CheckFailure")),
    "boruna_compile": (CompileSuccess, CompileFailure, failure((), "CompileToolFailure")),
    "boruna_format": (FormatSuccess, CompileFailure, failure((), "FormatFailure")),
    "boruna_framework_test": (FrameworkTestSuccess, CompileFailure,
                              failure(("framework_error", "limit_exceeded", "cancelled"),
                                      "FrameworkTestFailure", places=True)),
    "boruna_policy_validate": (PolicyValidateSuccess, failure((), "PolicyValidateFailure")),
    "boruna_repair": (RepairSuccess, failure((), "RepairFailure")),
    "boruna_run": (RunSuccess, InputRequiredSuccess, CompileFailure,
                   failure(RUN_KINDS + ("invalid_args",), "RunFailure", places=True)),
    "boruna_resume": (RunSuccess, InputRequiredSuccess,
                      failure(RUN_KINDS + ("invalid_resume_token", "invalid_answer",
                                           "invalid_snapshot"), "ResumeFailure", places=True)),
    "boruna_run_sealed": (SealedSuccess, failure(
        ("parse_error", "compile_error", "invalid_policy", "capability_denied", "runtime_error",
         "cancelled"), "SealedFailure", places=True)),
    "boruna_symbols": (SymbolsSuccess, failure(("parse_error",), "SymbolsFailure")),
    "boruna_template_apply": (TemplateApplySuccess,
                              failure(("invalid_args", "template_error", "cancelled"),
                                      "TemplateApplyFailure")),
    "boruna_template_list": (TemplateListSuccess, failure(("template_error",), "TemplateListFailure")),
    "boruna_validate_app": (ValidateAppSuccess, CompileFailure,
                            failure(("framework_error",), "ValidateAppFailure")),
    "boruna_workflow_validate": (WorkflowSuccess, failure(("parse_error", "validation_error"),
                                                          "WorkflowFailure")),
    "boruna_workflow_run": (WorkflowRunSuccess, failure(WORKFLOW_RUN_KINDS, "WorkflowRunFailure")),
    "boruna_workflow_status": (WorkflowRunSuccess, failure(WORKFLOW_JOURNAL_KINDS,
                                                           "WorkflowStatusFailure")),
    "boruna_workflow_resume": (WorkflowRunSuccess, failure(WORKFLOW_RESUME_KINDS,
                                                           "WorkflowResumeFailure")),
    "boruna_workflow_decide": (WorkflowRunSuccess, failure(WORKFLOW_DECIDE_KINDS,
                                                           "WorkflowDecideFailure")),
}


def _compact(node):
    """Drop what only costs tokens: titles, `additionalProperties: true` (the default) and
    defaults (meaningless for output; a field with one is simply not required)."""
    if isinstance(node, dict):
        return {k: _compact(v) for k, v in node.items()
                if not (k in ("title", "default") and not isinstance(v, dict))
                and not (k == "additionalProperties" and v is True)}
    if isinstance(node, list):
        return [_compact(v) for v in node]
    return node


def output_schema(tool_name: str) -> dict:
    """The advertised outputSchema: an object that is one of the tool's response shapes."""
    models = RESPONSES[tool_name]
    raw = TypeAdapter(Union[models]).json_schema(ref_template="#/$defs/{model}")
    return {"type": "object", **_compact(raw)}
