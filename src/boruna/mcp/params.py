"""Parameter models of the MCP tools, and the JSON Schemas `tools/list` advertises for them.

Decoding follows the reference: unknown keys are ignored, `null` for an optional parameter
means "omitted", `null` or a wrong type for a required one is an invalid-params error, and
integers must be whole, non-negative u64 values (no coercion from strings or floats).
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

from pydantic import (BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError,
                      conint)

from boruna.core.limits import DEFAULT_MAX_STEPS, MAX_SOURCE_BYTES, TRACE_LIMIT, U64_MAX

U64 = Annotated[StrictInt, Field(ge=0, le=U64_MAX)]

SOURCE_DOC = (f"The complete .ax program text (not a file path). At most {MAX_SOURCE_BYTES:,} "
              "UTF-8 bytes; "
              "larger sources are rejected with an invalid-params error.")


class _Params(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)


class CompileParams(_Params):
    source: StrictStr = Field(description=SOURCE_DOC)
    name: Optional[StrictStr] = Field(None, description='Module name reported back; default "module".')


class AstParams(_Params):
    source: StrictStr = Field(description=SOURCE_DOC)


class SymbolsParams(_Params):
    source: StrictStr = Field(description=SOURCE_DOC)


class ValidateAppParams(_Params):
    source: StrictStr = Field(description=SOURCE_DOC)


class RunLimitsParams(_Params):
    max_wall_ms: Optional[U64] = Field(None, description=(
        "Wall-clock limit in milliseconds (operational safety net, not deterministic; checked "
        "every 1024 steps). Overrun: error_kind limit_exceeded, limit_kind wall_ms."))
    max_output_bytes: Optional[U64] = Field(None, description=(
        "Cap on the compact JSON size of result plus all ui_output trees. Overrun: "
        "error_kind limit_exceeded, limit_kind output_bytes."))
    max_memory_mb: Optional[U64] = Field(None, description=(
        "Reserved, not enforced: any value is refused with error_kind unsupported_limit."))


POLICY_DOC = (
    'Capability policy. "allow-all" (default) or "deny-all", or a Policy object '
    '{"schema_version": 1, "default_allow": bool (default false), "rules": {"<capability>": '
    '{"allow": bool, "budget": int (0 = unlimited)}}, "net_policy": {...}}. Capability names: '
    "net.fetch, fs.read, fs.write, db.query, ui.render, time.now, random, llm.call, "
    "actor.spawn, actor.send, step.input. Rejections: error_kind invalid_policy, with the "
    "validator's finer kind (policy.unknown_field, policy.invalid_capability, "
    "policy.parse_error, policy.unknown_schema_version, policy.invalid_net_policy) in "
    "policy_error. See docs/policy.schema.json.")
MAX_STEPS_DOC = (f"Deterministic step ceiling (default {DEFAULT_MAX_STEPS}). Exceeding it is a "
                 "runtime_error "
                 "'max execution steps exceeded (N)' with steps = N + 1.")


HANDLERS_DOC = (
    'Capabilities the client answers itself, e.g. {"llm.call": "client"} (any capability '
    'may be named; "client" is the only answerer). The run stops at the first such call '
    '(after the policy and its budget allowed it) with status "input_required", the '
    'request {capability, args} and a resume_token; continue with boruna_resume.')


class RunParams(_Params):
    source: StrictStr = Field(description=SOURCE_DOC)
    policy: Any = Field(None, description=POLICY_DOC)
    max_steps: Optional[U64] = Field(None, description=MAX_STEPS_DOC)
    trace: Optional[StrictBool] = Field(None, description=(
        f"Return the opcode trace (first {TRACE_LIMIT} entries, trace_truncated tells if more ran). "
        "Default false."))
    limits: Optional[RunLimitsParams] = Field(None, description=(
        "Optional operational limits: max_wall_ms, max_output_bytes (max_memory_mb is reserved "
        "and refused). Overruns return error_kind limit_exceeded with limit_kind wall_ms or "
        "output_bytes."))
    output_schema: Any = Field(None, description=(
        "Optional JSON Schema (draft 2020-12) the encoded result must satisfy. Records/enums "
        "use their wrapped encoding. Failures: validation_failed (with errors[{message, path}]) "
        "or invalid_output_schema."))
    handlers: Optional[dict[StrictStr, StrictStr]] = Field(None, description=HANDLERS_DOC)


class ResumeParams(_Params):
    resume_token: StrictStr = Field(description=(
        "The resume_token of an input_required response (boruna_run with handlers, or an "
        "earlier boruna_resume). Tokens are sealed by this server; a token can be resumed "
        "again (each resume is an independent continuation)."))
    result: Any = Field(description=(
        "Your answer to the pending capability call, as JSON: a string, number, boolean, "
        "null, array (a List) or object (a Map). It must fit the capability builtin's result "
        "type (llm.call, net.fetch and fs.read: a string; fs.write: a boolean; time.now: "
        "an integer; random: a number; db.query: an array of objects); a mismatch is "
        "error_kind invalid_answer and the token stays usable."))


class RunSealedParams(_Params):
    source: StrictStr = Field(description=SOURCE_DOC)
    policy: Any = Field(None, description=POLICY_DOC)
    max_steps: Optional[U64] = Field(None, description=MAX_STEPS_DOC + " Applies to the run and to its replay.")


FILE_NAME_DOC = 'File name shown in diagnostic locations; default "<source>".'


class CheckParams(_Params):
    source: StrictStr = Field(description=SOURCE_DOC)
    file_name: Optional[StrictStr] = Field(None, description=FILE_NAME_DOC)


class RepairParams(_Params):
    source: StrictStr = Field(description=SOURCE_DOC)
    file_name: Optional[StrictStr] = Field(None, description=FILE_NAME_DOC)
    strategy: Optional[StrictStr] = Field(None, description=(
        '"best" (default: the highest-confidence patch per diagnostic) or "all". "all" ignores '
        "patch_id; any other value behaves as best."))
    patch_id: Optional[StrictStr] = Field(None, description=(
        "Apply only patches with this id (as listed by boruna_check), unless strategy is \"all\"."))


class FrameworkTestParams(_Params):
    source: StrictStr = Field(description=SOURCE_DOC)
    messages: list[StrictStr] = Field(description=(
        'Messages sent in order, each "tag:payload" (payload becomes an Int when it is a '
        'decimal integer, else a String) or just "tag" (payload 0). May be empty.'))


class WorkflowValidateParams(_Params):
    workflow_json: StrictStr = Field(description="The full text of a workflow.json (not a path).")
    sources: Optional[dict[StrictStr, StrictStr]] = Field(None, description=(
        "Optional step sources {path: text}: each source step's main is then checked against "
        "its declared outputs as the runner does before a run (ContractViolation)."))


class TemplateApplyParams(_Params):
    template_name: StrictStr = Field(description='Template directory name, e.g. "crud-admin" (see boruna_template_list).')
    args: list[StrictStr] = Field(description=(
        'Template variables as "key=value" strings (split at the first "="), e.g. '
        '["entity_name=User", "fields=name:String"]. Every required argument must be present.'))
    validate_output: Optional[StrictBool] = Field(None, alias="validate", description=(
        "Also compile the rendered source and report validation {passed, error}. Default false."))


class PolicyValidateParams(_Params):
    policy_json: StrictStr = Field(description=(
        "A policy file body: JSON text of a Policy object (shorthand strings are not accepted "
        "here)."))


RUN_ID_DOC = "The run id boruna_workflow_run returned."
CONCURRENCY_DOC = "Steps run at once (1-64). Default 1."


class WorkflowRunParams(_Params):
    directory: Optional[StrictStr] = Field(None, description=(
        "A workflow directory (workflow.json + step sources) inside the server's workflow "
        "root (--workflow-root, default its working directory). Or give workflow_json."))
    workflow_json: Optional[StrictStr] = Field(None, description=(
        "The text of a workflow.json (instead of directory), with its step sources in sources."))
    sources: Optional[dict[StrictStr, StrictStr]] = Field(None, description=(
        'With workflow_json: each step\'s "source" path mapped to its .ax text, e.g. '
        '{"fetch.ax": "fn main() -> String { ... }"}.'))
    inputs: Optional[dict[StrictStr, Any]] = Field(None, description=(
        'Run inputs (JSON values) that steps read through "$input.NAME" refs.'))
    policy: Any = Field(None, description=POLICY_DOC)
    concurrency: Optional[conint(strict=True, ge=1, le=64)] = Field(  # type: ignore[valid-type]
        None, description=CONCURRENCY_DOC)
    handlers: Optional[dict[StrictStr, StrictStr]] = Field(None, description=(
        'Capabilities you answer yourself in every step, e.g. {"llm.call": "client"} (as '
        'boruna_run\'s handlers; a step may also declare its own "handlers" in the '
        'workflow JSON). A step stops at such a call (after the policy and its budget allowed '
        'it): the run pauses with the step awaiting_input and its request {capability, args} '
        'under waiting; answer with boruna_workflow_decide (decision answer, result). The '
        'step goes on from where it stopped, not from its start.'))


class WorkflowStatusParams(_Params):
    run_id: StrictStr = Field(description=RUN_ID_DOC)


class WorkflowResumeParams(_Params):
    run_id: StrictStr = Field(description=RUN_ID_DOC)
    concurrency: Optional[conint(strict=True, ge=1, le=64)] = Field(  # type: ignore[valid-type]
        None, description=CONCURRENCY_DOC)


class WorkflowDecideParams(_Params):
    run_id: StrictStr = Field(description=RUN_ID_DOC)
    step: StrictStr = Field(description="The waiting step's id.")
    decision: Literal["approve", "reject", "trigger", "answer"] = Field(description=(
        "approve / reject an approval_gate step, trigger an external_trigger step, or answer "
        "the capability call an awaiting_input step waits on."))
    role: Optional[StrictStr] = Field(None, description=(
        "approve: must equal the gate's required_role (reject: recorded)."))
    reason: Optional[StrictStr] = Field(None, description="reject: why (recorded).")
    token: Optional[StrictStr] = Field(None, description=(
        "trigger: the step's token (boruna_workflow_status shows it under waiting)."))
    payload: Any = Field(None, description="trigger: a JSON value, the step's result output.")
    result: Any = Field(None, description=(
        "answer: your result for the step's request (JSON), checked against the capability "
        "builtin's result type as boruna_resume checks it (llm.call, net.fetch, fs.read: a "
        "string; ...); a mismatch is error_kind invalid_answer and the step keeps waiting."))
class FormatParams(_Params):
    source: StrictStr = Field(description=SOURCE_DOC)
    width: Optional[Annotated[StrictInt, Field(ge=20, le=1000)]] = Field(
        None, description="Line width the layout wraps at, 20 to 1000; default 100.")


class NoParams(_Params):
    """Tools without parameters."""


def describe_validation_error(exc: ValidationError) -> str:
    """`failed to deserialize parameters: ...` for the first problem pydantic found."""
    first = exc.errors(include_url=False)[0]
    loc = ".".join(str(p) for p in first["loc"])
    if first["type"] == "missing":
        detail = f"missing field `{loc}`"
    elif first["type"] == "model_type" and not loc:
        detail = "arguments must be an object"
    else:
        detail = f"invalid value for `{loc}`: {first['msg']}" if loc else first["msg"]
    return f"failed to deserialize parameters: {detail}"


# ----------------------------------------------------------------- advertised schemas

def _sorted(value):
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted(v) for v in value]
    return value


def _property_schema(prop: dict) -> dict:
    """One pydantic property schema in the advertised form: JSON Schema 2020-12 as standard
    validators read it (an optional field's null is a `"null"` type member or an `anyOf`
    branch, never the OpenAPI `nullable` keyword), titles dropped, integers as uint64."""
    prop = dict(prop)
    prop.pop("title", None)
    any_of = prop.pop("anyOf", None)
    if any_of is not None:
        others = [s for s in any_of if s != {"type": "null"}]
        if len(others) == 1 and "$ref" in others[0]:
            prop["anyOf"] = [others[0], {"type": "null"}]
            prop["default"] = None
            return prop
        if len(others) == 1:
            prop.pop("default", None)
            prop.update(others[0])
            prop["type"] = [prop["type"], "null"]
    elif prop.get("default", "absent") is None and "type" not in prop:
        prop = {"default": None, **{k: v for k, v in prop.items() if k != "default"}}
    types = prop.get("type")
    if types == "integer" or (isinstance(types, list) and "integer" in types):
        prop.pop("maximum", None)
        prop["format"] = "uint64"
        prop["minimum"] = 0
    if prop.get("type") == "array":
        items = dict(prop.get("items", {}))
        items.pop("title", None)
        prop["items"] = items
    return prop


def input_schema(model: type[BaseModel]) -> dict:
    """The inputSchema advertised for `model` (draft 2020-12, keys sorted like the reference)."""
    if not model.model_fields:
        return {"properties": {}, "type": "object"}
    raw = model.model_json_schema(by_alias=True)
    schema: dict = {"$schema": "https://json-schema.org/draft/2020-12/schema"}
    if "$defs" in raw:
        defs = {}
        for name, sub in raw["$defs"].items():
            props = {}
            for key, prop in sub.get("properties", {}).items():
                rewritten = _property_schema(prop)
                rewritten["default"] = None
                props[key] = rewritten
            defs[name] = {"properties": props, "type": "object"}
        schema["$defs"] = defs
    schema["properties"] = {k: _property_schema(v) for k, v in raw["properties"].items()}
    if raw.get("required"):
        schema["required"] = list(raw["required"])
    schema["title"] = model.__name__
    schema["type"] = "object"
    return _sorted(schema)
