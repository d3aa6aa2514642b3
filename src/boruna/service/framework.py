"""`boruna_validate_app` and `boruna_framework_test`: the Elm-style App protocol."""
from __future__ import annotations

from boruna.service.boundary import tool_boundary
from boruna.service.compile_errors import compile_failure
from boruna.service.envelope import fail, ok
from boruna.service.errors import guard_source

APP_MODULE_NAME = "app"


@tool_boundary
def validate_app_tool(source: str, libs_dir=None) -> dict:
    """Which App functions exist, the detected State/Msg types, and every violation.

    Protocol violations are `success: true, valid: false` with `errors`; only a source that
    does not lex or parse fails (the `errors` shape of `boruna_compile`), and
    `framework_error` means the validator itself failed. `import` lines resolve against
    `libs_dir`, as in `boruna_framework_test`.
    """
    from boruna.language.errors import CompileError
    from boruna.language.frontend import parse
    from boruna.language.imports import resolve_imports
    from boruna.framework import validate_app

    guard_source(source)
    try:
        own_source, _libraries = resolve_imports(source, libs_dir)
        program = parse(own_source)
    except CompileError as err:
        return compile_failure(err)
    try:
        report = validate_app(program)
    except Exception as exc:  # the validator itself broke: the seed's framework_error
        return fail("framework_error", f"validator failed: {type(exc).__name__}: {exc}")
    return ok(**report.to_dict())


@tool_boundary
def framework_test_tool(source: str, messages, libs_dir=None) -> dict:
    """Send `messages` ("tag:payload") to the App; states and UI trees use the brief encoding.

    A failing construction or cycle is `framework_error` carrying the partial cycles.
    """
    from boruna.compiler import compile_source
    from boruna.language.errors import CompileError
    from boruna.framework import run_app_test

    guard_source(source)
    try:
        module = compile_source(source, name=APP_MODULE_NAME, libs_dir=libs_dir)
    except CompileError as err:
        return compile_failure(err)
    result = run_app_test(module, list(messages))
    if result.ok:
        return ok(**result.to_dict())
    fields = result.to_dict()
    return fail("framework_error", fields.pop("message"), **fields)
