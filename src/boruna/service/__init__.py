"""The application API: one use case per tool, shared by `boruna-mcp` and every `boruna` command.

Each use case takes the request's arguments (validated once, here) and returns a typed result
(`results.Failure` or a success dataclass of its own) with `success` and `to_json()`; the CLI
renders that one result as text or, with `--json`, as `render(result.to_json())`:

    compile_module, parse_ast, list_symbols, run, run_sealed, check, repair, validate_app,
    framework_test, validate_workflow, list_templates, apply_template, list_capabilities,
    validate_policy, show_policy, list_codes, format_code

`run` takes a `RunRequest` (`RunRequest.of(...)`: validated once, its policy parsed once);
`policy_file` / `shorthand_policy` / `unreadable_policy` build the `PolicyFile` a caller who
read a policy itself hands to `RunRequest.of` and `show_policy`.

The `*_tool` functions below are `use_case(...).to_json()`, the MCP tools' response dicts.

Every tool function returns an insertion-ordered dict: `success` first, `protocol_version: 1`
second, then the tool's fields in the seed contract's order. Domain failures are responses
(`success: false` plus `error_kind`, or the `errors` array for compile failures); the only
exception a tool raises is `InvalidParams` (a `source` over 1,048,576 UTF-8 bytes, or an
argument of the wrong type), which MCP reports as JSON-RPC -32602. Unexpected exceptions
become `error_kind: "internal_error"` responses, never tracebacks.

    compile_tool(source, name="module", libs_dir=None)
    ast_tool(source)
    symbols_tool(source, libs_dir=None)
    run_tool(source, policy=None, max_steps=None, trace=False, limits=None,
             output_schema=None, libs_dir=None, on_progress=None, cancel_event=None,
             handlers=None)
        policy: None | "allow-all" | "deny-all" | dict | runtime.policy.Policy
        limits: {"max_wall_ms", "max_output_bytes", "max_memory_mb"} (None = unset)
        on_progress(steps, message): after an unfinished 100,000-step slice, at most
            every 0.1 s (the first at once, the last unsent one before the run returns)
        cancel_event: threading.Event; setting it stops the VM
        handlers: runtime.live.HandlerConfig (live handlers); None = the deterministic mock
    begin_run_tool(...): run_tool's arguments; the response dict when it is known before
        the run starts, else a PendingRun (`advance(steps, work, seconds)` takes a bounded
        few steps where the caller is, `result().to_json()` is the response)
    run_sealed_tool(source, policy=None, max_steps=None, libs_dir=None, cancel_event=None,
                    handlers=None)
    run_delegating_tool(source, handlers, sealer, policy=None, ...)   boruna_run + handlers
    resume_tool(resume_token, result, sealer, handlers=None, ...)    boruna_resume
    check_tool(source, file_name="<source>")
    repair_tool(source, strategy="best", patch_id=None, file_name="<source>")
    validate_app_tool(source, libs_dir=None)
    framework_test_tool(source, messages, libs_dir=None, cancel_event=None,
                        max_total_steps=100_000_000, max_wall_ms=30_000)
    workflow_validate_tool(workflow_json)
    template_list_tool(templates_dir)
    template_apply_tool(templates_dir, template_name, args, validate=False, cancel_event=None)
    capability_list_tool()
    policy_validate_tool(policy_json)
    format_tool(source, width=None)          the canonical layout (formatted, changed)

    render(response) -> str        pretty JSON (indent 2, raw UTF-8, NaN/Infinity -> null)
"""
# name -> the module that defines it; imported on first use (PEP 562), so importing the
# package (every `boruna` command does) costs only the modules a command touches
_LAZY = {
    'capability_list_tool': 'boruna.service.capabilities',
    'list_capabilities': 'boruna.service.capabilities',
    'list_codes': 'boruna.service.codes',
    'ast_tool': 'boruna.service.compiling',
    'compile_module': 'boruna.service.compiling',
    'compile_tool': 'boruna.service.compiling',
    'parse_ast': 'boruna.service.compiling',
    'check': 'boruna.service.diagnostics',
    'check_tool': 'boruna.service.diagnostics',
    'repair': 'boruna.service.diagnostics',
    'repair_tool': 'boruna.service.diagnostics',
    'PROTOCOL_VERSION': 'boruna.service.envelope',
    'fail': 'boruna.service.envelope',
    'ok': 'boruna.service.envelope',
    'render': 'boruna.service.envelope',
    'MAX_SOURCE_BYTES': 'boruna.service.errors',
    'InvalidParams': 'boruna.service.errors',
    'guard_source': 'boruna.service.errors',
    'format_code': 'boruna.service.formatting',
    'format_tool': 'boruna.service.formatting',
    'framework_test': 'boruna.service.framework',
    'framework_test_tool': 'boruna.service.framework',
    'validate_app': 'boruna.service.framework',
    'validate_app_tool': 'boruna.service.framework',
    'PolicyFile': 'boruna.service.policy_argument',
    'policy_file': 'boruna.service.policy_argument',
    'shorthand_policy': 'boruna.service.policy_argument',
    'unreadable_policy': 'boruna.service.policy_argument',
    'policy_validate_tool': 'boruna.service.policy_validation',
    'show_policy': 'boruna.service.policy_validation',
    'validate_policy': 'boruna.service.policy_validation',
    'Failure': 'boruna.service.results',
    'HandlerConfig': 'boruna.runtime.live',
    'TapeError': 'boruna.runtime.tape',
    'read_tape': 'boruna.runtime.tape',
    'check_tape_target': 'boruna.runtime.tape',
    'read_tape_file': 'boruna.runtime.tape',
    'read_tape_key': 'boruna.runtime.tape',
    'write_tape_file': 'boruna.runtime.tape',
    'RunRequest': 'boruna.service.running',
    'run': 'boruna.service.running',
    'run_tool': 'boruna.service.running',
    'begin_run_tool': 'boruna.service.running',
    'run_sealed': 'boruna.service.sealed',
    'run_sealed_tool': 'boruna.service.sealed',
    'inspect_snapshot': 'boruna.service.suspended',
    'resume_run': 'boruna.service.suspended',
    'resume_tool': 'boruna.service.suspended',
    'run_delegating': 'boruna.service.suspended',
    'run_delegating_tool': 'boruna.service.suspended',
    'list_symbols': 'boruna.service.symbols',
    'symbols_tool': 'boruna.service.symbols',
    'apply_template': 'boruna.service.templates',
    'list_templates': 'boruna.service.templates',
    'template_apply_tool': 'boruna.service.templates',
    'template_list_tool': 'boruna.service.templates',
    'validate_workflow': 'boruna.service.workflow',
    'workflow_validate_tool': 'boruna.service.workflow',
    'cancel_workflow': 'boruna.service.workflow_runs',
    'decide_workflow': 'boruna.service.workflow_runs',
    'export_evidence': 'boruna.service.workflow_runs',
    'list_workflow_runs': 'boruna.service.workflow_runs',
    'resume_workflow': 'boruna.service.workflow_runs',
    'run_workflow': 'boruna.service.workflow_runs',
    'verify_evidence': 'boruna.service.workflow_runs',
    'workflow_decide_tool': 'boruna.service.workflow_runs',
    'workflow_resume_tool': 'boruna.service.workflow_runs',
    'workflow_run_tool': 'boruna.service.workflow_runs',
    'workflow_status': 'boruna.service.workflow_runs',
    'workflow_status_tool': 'boruna.service.workflow_runs',
}

__all__ = [
    "PROTOCOL_VERSION", "MAX_SOURCE_BYTES", "InvalidParams", "guard_source", "ok", "fail",
    "render", "compile_tool", "ast_tool", "symbols_tool", "run_tool", "begin_run_tool",
    "run_sealed_tool",
    "check_tool", "repair_tool", "validate_app_tool", "framework_test_tool",
    "workflow_validate_tool", "template_list_tool", "template_apply_tool",
    "capability_list_tool", "policy_validate_tool",
    "Failure", "PolicyFile", "RunRequest", "compile_module", "parse_ast", "list_symbols", "run", "check",
    "repair", "validate_app", "framework_test", "validate_workflow", "list_templates",
    "apply_template", "list_capabilities", "validate_policy", "show_policy", "list_codes",
    "format_code", "format_tool",
    "policy_file", "shorthand_policy", "unreadable_policy", "run_sealed",
    "HandlerConfig", "TapeError", "read_tape",
    "check_tape_target", "read_tape_file", "read_tape_key", "write_tape_file",
    "run_workflow", "workflow_status", "list_workflow_runs", "resume_workflow",
    "decide_workflow", "cancel_workflow", "export_evidence", "verify_evidence",
    "workflow_run_tool", "workflow_status_tool", "workflow_resume_tool", "workflow_decide_tool",
    "run_delegating", "run_delegating_tool", "resume_run", "resume_tool", "inspect_snapshot",
]


from boruna.core.lazy_names import lazy_names  # noqa: E402

__getattr__, __dir__ = lazy_names(__name__, globals(), _LAZY)
