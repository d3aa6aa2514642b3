"""The MCP tools: name, title, description, annotations, parameter model, and the service
call behind each.

Every `call` takes the decoded parameters and a `ToolEnv` and returns the service layer's
response dict; the server renders it and never adds logic of its own. Descriptions say when
to use a tool; the envelope every tool shares is described once, in the server instructions.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from boruna import service
from boruna.mcp import params as p
from boruna.mcp.inline_runs import may_begin_inline


@dataclass
class ToolEnv:
    """What a tool call may use besides its arguments."""

    templates_dir: Path
    libs_dir: Optional[Path]
    on_progress: Optional[Callable] = None
    cancel_event: threading.Event = field(default_factory=threading.Event)
    handlers: Optional[object] = None       # service.HandlerConfig (--live); None = the mock
    data_dir: Optional[Path] = None         # workflow runs' journal (--data-dir); None = default
    workflow_root: Optional[Path] = None    # directories boruna_workflow_run may read
    sealer: Optional[object] = None         # runtime.suspend.Sealer: the server's resume tokens


@dataclass(frozen=True)
class Tool:
    name: str
    title: str
    description: str
    params: type
    call: Callable[[object, ToolEnv], dict]
    takes_source: bool = True
    # True for the tools whose capability calls reach the live handlers under --live
    # (`env.handlers`); every other tool, and these without --live, uses no real I/O.
    executes_capabilities: bool = False
    # True for the tools that write the workflow run journal (never read-only or idempotent)
    writes_state: bool = False
    # for a tool whose call may begin on the event loop (`mcp/inline_runs.py`):
    # `begin(args, env)` is None when this call may not, else what `service.begin_run_tool`
    # returns (the response dict, or a PendingRun)
    begin: Optional[Callable[[object, ToolEnv], object]] = None

    def annotations(self, live: bool = False) -> dict:
        """The MCP `annotations` object (camelCase keys as on the wire). Without --live no
        tool writes files or reaches the network (capability calls get the deterministic
        mock); with it a run may write files (fs.write), a database (db.query with
        --db-write) or the network, and the clock and OS randomness answer differently each
        time."""
        real_io = live and self.executes_capabilities
        writes = real_io or self.writes_state
        return {"title": self.title, "readOnlyHint": not writes, "destructiveHint": real_io,
                "idempotentHint": not writes, "openWorldHint": real_io}

TOOLS: tuple[Tool, ...] = (
    Tool("boruna_ast", "Parse to AST",
         "Use when you need the syntax tree of .ax source (lex + parse only, no checks), e.g. to "
         "inspect how a construct parses. An AST whose pretty JSON exceeds 100 KB comes back "
         "truncated as a string with truncated:true and ast_size. Parse failures use the errors "
         "array shape of boruna_compile.",
         p.AstParams, lambda a, env: service.ast_tool(a.source)),
    Tool("boruna_capability_list", "List capabilities",
         "Use to learn which capabilities (net.fetch, fs.read, ...) a policy can allow, or to "
         "get capability_set_hash, a stable identity for cache keys (source hash, policy hash, "
         "capability-set hash). Lists name and contract version, sorted by name.",
         p.NoParams, lambda a, env: service.capability_list_tool(), takes_source=False),
    Tool("boruna_check", "Diagnose .ax source",
         "Use first after writing or editing .ax source: lexer, parser, name and type checks "
         "plus analyzers, all findings at once. Each diagnostic has id (e.g. E003; read "
         "boruna://codes/<id> for an explanation), severity, message, optional location and "
         "optional patches (id, description, confidence High/Medium/Low, rationale) that "
         "boruna_repair can apply. Always success:true; check diagnostics_count and severities.",
         p.CheckParams,
         lambda a, env: service.check_tool(a.source, file_name=a.file_name,
                                           libs_dir=env.libs_dir)),
    Tool("boruna_compile", "Compile .ax source",
         "Use to confirm that source compiles and to see module statistics (name, bytecode "
         "version, counts of functions, types and constants, entry function index). A failure "
         "returns errors:[{severity, code, message, line, col}] with the first error only, code "
         "E001 (lexer), E002 (parser), E009 (names/types) or E008 (codegen); boruna_check "
         "reports all problems with fixes.",
         p.CompileParams,
         lambda a, env: service.compile_tool(a.source, name=a.name, libs_dir=env.libs_dir)),
    Tool("boruna_format", "Format .ax source",
         "Use to put .ax source in the canonical layout before showing or saving it (what "
         "boruna fmt writes): 4-space indentation, lines wrapped at width (default 100) "
         "columns, trailing commas in multi-line records, lists and matches, every comment "
         "kept. Returns formatted (the text) and changed (false when it was already "
         "formatted); nothing is written to disk. The result parses to the same AST. Parse "
         "failures use the errors array shape of boruna_compile.",
         p.FormatParams, lambda a, env: service.format_tool(a.source, width=a.width)),
    Tool("boruna_framework_test", "Test an App with messages",
         "Use to exercise a framework App (init/update/view) end to end: sends a sequence of "
         "messages and returns init_state, each cycle's message, new state, effect count and "
         "ui_tree, then final_state and total_cycles. Values use the brief encoding (records as "
         "field arrays, enums as {variant, payload}). A failing cycle returns error_kind "
         "framework_error with the partial cycles, the failing entry carrying error. The whole "
         "test may take 100,000,000 VM steps and 30 s; beyond either it is limit_exceeded "
         "(limit_kind total_steps or wall_ms).",
         p.FrameworkTestParams,
         lambda a, env: service.framework_test_tool(a.source, a.messages,
                                                    libs_dir=env.libs_dir,
                                                    cancel_event=env.cancel_event)),
    Tool("boruna_policy_validate", "Validate a policy file",
         "Use before passing a Policy object to boruna_run, or to check a policy file body (JSON "
         "text) with the same strict parser. Always success:true; ok:true when valid, else "
         "ok:false with errors:[E], E = {error_kind (policy.parse_error, policy.unknown_field, "
         "policy.invalid_capability, policy.unknown_schema_version, policy.invalid_net_policy), "
         "message, ...details}.",
         p.PolicyValidateParams,
         lambda a, env: service.policy_validate_tool(a.policy_json), takes_source=False),
    Tool("boruna_repair", "Apply suggested fixes",
         "Use after boruna_check reports diagnostics with patches: applies them and returns "
         "repaired_source (nothing is written to disk), the applied and skipped patches, "
         "diagnostics_before/after and verify_passed (true exactly when the repaired source has "
         "no error diagnostics). Re-run to pick up fixes that conflicted.",
         p.RepairParams,
         lambda a, env: service.repair_tool(a.source, strategy=a.strategy, patch_id=a.patch_id,
                                            file_name=a.file_name, libs_dir=env.libs_dir)),
    Tool("boruna_run", "Run .ax source",
         "Use to execute a program and see its result. Compiles and runs deterministically under "
         "a capability policy; capability calls are answered by a mock handler (no real I/O, "
         "nothing leaves the process, unless the server runs with --live), so the same source "
         "and policy always give the same answer. Without a policy a run is allow-all under "
         "the mock, but deny-all on a --live server (unless it was started with --policy "
         "FILE): pass a policy that allows what the run needs. A capability builtin "
         "(boruna_capability_list "
         "names them) needs the calling function's !{capability} and the policy's allow. Returns "
         "result (Int/String/Bool as JSON, Unit null, Option {option, value}, Result {result, "
         "value}, records {type, type_id, fields}, enums {type, type_id, variant name, "
         "payload}), steps, ui_output and, with trace:true, trace. There is no input "
         "parameter: write inputs into the source as literals. Failures: errors array "
         "(compile), runtime_error (incl. step limit and denied capabilities), invalid_policy, "
         "limit_exceeded, unsupported_limit, validation_failed, invalid_output_schema. Send "
         "_meta.progressToken to receive notifications/progress with the cumulative step count "
         "at 100,000-step boundaries, at most every 0.1 s. With handlers (e.g. "
         "{\"llm.call\": \"client\"}) you answer those capability calls yourself: the run "
         "stops with status input_required, request {capability, args} and a resume_token for "
         "boruna_resume.",
         p.RunParams,
         lambda a, env: service.run_tool(
             a.source, policy=a.policy, max_steps=a.max_steps, trace=bool(a.trace),
             limits=None if a.limits is None else a.limits.model_dump(),
             output_schema=a.output_schema, libs_dir=env.libs_dir,
             on_progress=env.on_progress, cancel_event=env.cancel_event,
             handlers=env.handlers) if not a.handlers else service.run_delegating_tool(
             a.source, a.handlers, env.sealer, policy=a.policy, max_steps=a.max_steps,
             trace=bool(a.trace), limits=None if a.limits is None else a.limits.model_dump(),
             output_schema=a.output_schema, libs_dir=env.libs_dir,
             on_progress=env.on_progress, cancel_event=env.cancel_event, live=env.handlers),
         executes_capabilities=True, begin=lambda a, env: service.begin_run_tool(
             a.source, policy=a.policy, max_steps=a.max_steps, trace=bool(a.trace),
             limits=None if a.limits is None else a.limits.model_dump(),
             libs_dir=env.libs_dir, cancel_event=env.cancel_event) if may_begin_inline(a, env)
         else None),
    Tool("boruna_resume", "Answer a paused run",
         "Use after boruna_run (with handlers, e.g. {\"llm.call\": \"client\"}) answered "
         "status input_required: give your result for its request {capability, args} and the "
         "run continues from where it stopped, under the same policy, budgets and limits. The "
         "answer is what boruna_run gives (result, steps, ui_output, trace), or input_required "
         "again with a new resume_token for the next delegated call. A resume_token stays "
         "valid: resuming it again with another result forks an independent run. Failures: "
         "invalid_resume_token (not sealed by this server), invalid_answer (the result does "
         "not fit the capability's result type; the token stays usable), and boruna_run's.",
         p.ResumeParams,
         lambda a, env: service.resume_tool(a.resume_token, a.result, env.sealer,
                                            handlers=env.handlers, on_progress=env.on_progress,
                                            cancel_event=env.cancel_event),
         takes_source=False, executes_capabilities=True),
    Tool("boruna_run_sealed", "Run with a replay proof",
         "Use when you need evidence that a run is reproducible: runs like boruna_run, then "
         "replays it against the recorded capability results and returns result, steps, "
         "replay_verified, the event log (first 1000 events), capability_calls and "
         "event_log_sha256 (digest of the full log). The seal is a replay proof, not a signed "
         "evidence bundle. Failures: parse_error, compile_error, invalid_policy, "
         "capability_denied (with capability), runtime_error.",
         p.RunSealedParams,
         lambda a, env: service.run_sealed_tool(a.source, policy=a.policy, max_steps=a.max_steps,
                                                libs_dir=env.libs_dir,
                                                cancel_event=env.cancel_event,
                                                handlers=env.handlers),
         executes_capabilities=True),
    Tool("boruna_symbols", "List declared symbols",
         "Use to learn a module's real API instead of guessing (a library's source, or your own "
         "file): the top-level functions, records and enums with exact signatures, parameter "
         "and field types, return types, capabilities, requires/ensures counts and export "
         "flags. Failure: parse_error.",
         p.SymbolsParams,
         lambda a, env: service.symbols_tool(a.source, libs_dir=env.libs_dir)),
    Tool("boruna_template_apply", "Render an app template",
         "Use to start an App from a template (see boruna_template_list for names and "
         "arguments): renders it with key=value arguments and returns the .ax source, its "
         "dependencies and capabilities (nothing is written to disk). With validate:true the "
         "output is also compiled and validation {passed, error} is reported. Failures: "
         "invalid_args (an argument without '='), template_error (unknown template, missing "
         "required argument, unreadable files).",
         p.TemplateApplyParams,
         lambda a, env: service.template_apply_tool(env.templates_dir, a.template_name, a.args,
                                                    validate=bool(a.validate_output),
                                                    cancel_event=env.cancel_event),
         takes_source=False),
    Tool("boruna_template_list", "List app templates",
         "Use before boruna_template_apply: the available app templates with name, version, "
         "description, dependencies, required capabilities and argument names. A missing or "
         "malformed templates directory is error_kind template_error.",
         p.NoParams, lambda a, env: service.template_list_tool(env.templates_dir),
         takes_source=False),
    Tool("boruna_validate_app", "Check the App protocol",
         "Use before boruna_framework_test to check that .ax source follows the App protocol: "
         "init() with 0 parameters, update(state, msg) and view(state) without capabilities, "
         "optional policies(). Reports has_init, has_update, has_view, has_policies, the "
         "detected state_type and message_type, errors and valid (true when errors is empty and "
         "all three functions exist). Protocol violations are success:true with valid:false.",
         p.ValidateAppParams,
         lambda a, env: service.validate_app_tool(a.source, libs_dir=env.libs_dir)),
    Tool("boruna_workflow_validate", "Validate a workflow DAG",
         "Use to check a workflow definition (the text of a workflow.json): schema, step "
         "references, inputs, duplicate edges and cycles. Success returns the counts and the "
         "topological execution_order. Failures: parse_error (bad JSON or shape), "
         "validation_error with errors [{kind, message}] (kinds MissingField, EmptyWorkflow, "
         "UnknownStep, UnknownInput, DuplicateEdge, Cycle; with sources {path: text} also "
         "ContractViolation: a step whose main cannot return its declared outputs).",
         p.WorkflowValidateParams,
         lambda a, env: service.workflow_validate_tool(a.workflow_json, a.sources),
         takes_source=False),
    Tool("boruna_workflow_run", "Run a workflow",
         "Use to run a workflow durably: a directory (workflow.json + .ax step sources) under "
         "the server's workflow root, or workflow_json with sources {path: text}. Steps start "
         "as soon as their inputs complete (concurrency N); every capability call is journaled "
         "before the step goes on, so a resumed run never repeats an effect. Returns run_id, "
         "status (completed, failed, paused, cancelled), steps [{id, kind, status, attempts, "
         "outputs | error_kind, error | waiting_for}], outputs by step, waiting (a paused run's "
         "approval gates and triggers: decide them with boruna_workflow_decide) and the audit "
         "head. Format (check it with boruna_workflow_validate): steps of kind source (an .ax "
         "file whose main returns the step's result, or a record of its declared outputs), "
         "approval_gate or external_trigger; inputs map a local name to 'step.output' or "
         "'$input.NAME', read in the .ax source through the step.input capability (its "
         "builtin: boruna_capability_list), a String input as its text, any other value as "
         "JSON text. With handlers (e.g. {\"llm.call\": \"client\"}) you answer those calls: "
         "a step stops at one (status awaiting_input, its request under waiting) and "
         "boruna_workflow_decide with decision answer continues it from where it stopped. "
         "Cancelling the call cancels the run, which boruna_workflow_resume continues.",
         p.WorkflowRunParams,
         lambda a, env: service.workflow_run_tool(
             directory=a.directory, workflow_json=a.workflow_json, sources=a.sources,
             inputs=a.inputs, policy=a.policy, concurrency=a.concurrency or 1,
             delegate=a.handlers,
             data_dir=env.data_dir, handlers=env.handlers, libs_dir=env.libs_dir,
             allowed_root=env.workflow_root or Path.cwd(), on_progress=env.on_progress,
             cancel_event=env.cancel_event),
         takes_source=False, executes_capabilities=True, writes_state=True),
    Tool("boruna_workflow_status", "Show a workflow run",
         "Use to see a run's status, steps, outputs and what a paused run waits for (the same "
         "shape boruna_workflow_run returns: an awaiting_input step's request {capability, "
         "args} and its VM steps so far), from the run journal.",
         p.WorkflowStatusParams,
         lambda a, env: service.workflow_status_tool(a.run_id, data_dir=env.data_dir),
         takes_source=False),
    Tool("boruna_workflow_resume", "Resume a workflow run",
         "Use to continue an interrupted (crashed), cancelled or paused run from its journal: "
         "completed steps keep their outputs, an interrupted step replays its journaled "
         "effects and goes on live. A run whose workflow or step sources changed is refused "
         "(workflow_changed, both hashes).",
         p.WorkflowResumeParams,
         lambda a, env: service.workflow_resume_tool(
             a.run_id, data_dir=env.data_dir, concurrency=a.concurrency or 1,
             handlers=env.handlers, libs_dir=env.libs_dir, on_progress=env.on_progress,
             cancel_event=env.cancel_event),
         takes_source=False, executes_capabilities=True, writes_state=True),
    Tool("boruna_workflow_decide", "Approve, reject or trigger a step",
         "Use when a run is paused at an approval_gate (decision approve with role = its "
         "required_role, or reject with a reason) or an external_trigger (decision trigger with "
         "its token and a JSON payload, which becomes the step's result), or at a step "
         "awaiting_input (decision answer with your result for its request {capability, "
         "args}: the step goes on from its stored snapshot, not from its start; a result of "
         "the wrong type is invalid_answer and the step keeps waiting). The run then goes on "
         "and the answer is its new state.",
         p.WorkflowDecideParams,
         lambda a, env: service.workflow_decide_tool(
             a.run_id, a.step, a.decision, role=a.role, reason=a.reason, token=a.token,
             payload=a.payload, answer=a.result, data_dir=env.data_dir, handlers=env.handlers,
             libs_dir=env.libs_dir, on_progress=env.on_progress,
             cancel_event=env.cancel_event),
         takes_source=False, executes_capabilities=True, writes_state=True),
)

TOOLS_BY_NAME = {tool.name: tool for tool in TOOLS}
