"""`boruna_validate_app` and `boruna_framework_test`: the Elm-style App protocol."""
from __future__ import annotations

from boruna.service.boundary import tool_boundary
from boruna.service.compile_errors import compile_failure
from boruna.service.envelope import fail, ok
from boruna.service.errors import guard_source


@tool_boundary
def validate_app_tool(source: str) -> dict:
    """Which App functions exist and the detected State/Msg types.

    Protocol violations are `success: true, valid: false` with `errors`; only a source that
    does not lex or parse fails (the `errors` shape of `boruna_compile`).
    """
    from boruna.language.errors import CompileError
    from boruna.language.frontend import parse
    from boruna.tooling.framework import validate_app

    guard_source(source)
    try:
        program = parse(source)
    except CompileError as err:
        return compile_failure(err)
    report = validate_app(program)
    return ok(
        has_init=report.has_init,
        has_update=report.has_update,
        has_view=report.has_view,
        has_policies=report.has_policies,
        state_type=report.state_type,
        message_type=report.message_type,
        errors=list(report.errors),
        valid=not report.errors and report.has_init and report.has_update and report.has_view,
    )


@tool_boundary
def framework_test_tool(source: str, messages) -> dict:
    """Send `messages` ("tag:payload") to the App; states and UI trees use the brief encoding."""
    from boruna.compiler import compile_source
    from boruna.language.errors import CompileError
    from boruna.tooling.framework import run_app_test

    guard_source(source)
    try:
        module = compile_source(source, name="app")
    except CompileError as err:
        return compile_failure(err)
    return run_app_test(module, list(messages))
