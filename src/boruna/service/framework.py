"""`boruna_validate_app` and `boruna_framework_test`: the Elm-style App protocol."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boruna.core.errors import ErrorKind
from boruna.core.limits import APP_TEST_MAX_TOTAL_STEPS, DEFAULT_MAX_WALL_MS
from boruna.service.boundary import tool_boundary
from boruna.service.compile_errors import compile_failure
from boruna.service.envelope import fail, ok
from boruna.service.errors import MAX_SOURCE_BYTES, guard_source
from boruna.service.output_budget import OutputBudget, OutputLimitExceeded, output_limit_failure
from boruna.service.results import Failure, failure_of, use_case
from boruna.service.vm import vm_missing

APP_MODULE_NAME = "app"


@dataclass
class AppChecked:
    """The App protocol report (violations are `valid: false`, not failures)."""

    report: Any     # framework.validator.AppValidation
    success = True

    def to_json(self) -> dict:
        return ok(**self.report.to_dict())


@dataclass
class AppTested:
    """An App test run; `success` is false when construction or a cycle failed."""

    result: Any     # framework.test_runner.AppTestResult
    module: Any = None

    @property
    def success(self) -> bool:
        return bool(self.result.ok)

    def to_json(self) -> dict:
        from boruna.service.error_places import place_fields

        fields = self.result.to_dict()
        if self.result.ok:
            return ok(**fields)
        fields.update(place_fields(self.result.vm_error, self.module))
        return fail(ErrorKind.FRAMEWORK_ERROR, fields.pop("message"), **fields)


@use_case
def validate_app(source: str, libs_dir=None, source_limit: int | None = MAX_SOURCE_BYTES):
    """Which App functions exist, the detected State/Msg types, and every violation.

    Only a source that does not lex or parse fails (a `CompileFailure`), and
    `framework_error` means the validator itself failed. `import` lines resolve against
    `libs_dir`, as in `framework_test`.
    """
    from boruna.framework import validate_app as validate
    from boruna.language.errors import CompileError
    from boruna.language.frontend import parse
    from boruna.language.imports import resolve_imports

    guard_source(source, source_limit)
    try:
        own_source, _libraries = resolve_imports(source, libs_dir)
        program = parse(own_source)
    except CompileError as err:
        return compile_failure(err, source)
    try:
        return AppChecked(validate(program))
    except Exception as exc:  # the validator itself broke: the seed's framework_error
        return Failure(ErrorKind.FRAMEWORK_ERROR, f"validator failed: {type(exc).__name__}: {exc}")


@use_case
def framework_test(source: str, messages, libs_dir=None,
                   source_limit: int | None = MAX_SOURCE_BYTES, cancel_event=None,
                   max_total_steps: int = APP_TEST_MAX_TOTAL_STEPS,
                   max_wall_ms: int = DEFAULT_MAX_WALL_MS):
    """Send `messages` ("tag:payload") to the App; states and UI trees use the brief encoding.

    The whole run is bounded by `max_total_steps` VM steps and `max_wall_ms` of wall clock
    (`limit_exceeded`, `limit_kind` `total_steps` or `wall_ms`); a set `cancel_event`
    (threading.Event) stops it (`cancelled`). The encoded states and UI trees share one
    output budget (`limit_exceeded` / `output_bytes` when they overrun it).
    """
    from boruna.compiler import compile_source
    from boruna.framework import run_app_test
    from boruna.framework.errors import FrameworkLimit
    from boruna.language.errors import CompileError

    guard_source(source, source_limit)
    try:
        module = compile_source(source, name=APP_MODULE_NAME, libs_dir=libs_dir)
    except CompileError as err:
        return compile_failure(err, source)
    missing = vm_missing()
    if missing is not None:
        return Failure(ErrorKind.FRAMEWORK_ERROR, missing)
    try:
        result = run_app_test(module, list(messages), cancel_event=cancel_event,
                              max_total_steps=max_total_steps, max_wall_ms=max_wall_ms,
                              budget=OutputBudget())
    except OutputLimitExceeded as exc:
        return failure_of(output_limit_failure(exc.limit))
    if isinstance(result.stopped_by, FrameworkLimit):
        return Failure(ErrorKind.LIMIT_EXCEEDED, result.error, {
            "limit_kind": result.stopped_by.kind, "limit": result.stopped_by.limit,
            "phase": "execution", "cycles_completed": max(0, len(result.cycles) - 1)})
    if result.stopped_by is not None:
        return Failure(ErrorKind.CANCELLED, "execution cancelled")
    return AppTested(result, module)


@tool_boundary
def validate_app_tool(source: str, libs_dir=None) -> dict:
    """See `validate_app`; protocol violations are `success: true, valid: false`."""
    return validate_app(source, libs_dir).to_json()


@tool_boundary
def framework_test_tool(source: str, messages, libs_dir=None, cancel_event=None,
                        max_total_steps: int = APP_TEST_MAX_TOTAL_STEPS,
                        max_wall_ms: int = DEFAULT_MAX_WALL_MS) -> dict:
    """See `framework_test`; a failing cycle is `framework_error` carrying the partial cycles."""
    return framework_test(source, messages, libs_dir, cancel_event=cancel_event,
                          max_total_steps=max_total_steps, max_wall_ms=max_wall_ms).to_json()
