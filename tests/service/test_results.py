"""Typed use-case results: `to_json()` is exactly the tool's response, and the use-case
boundary turns a surprise into an `internal_error` Failure that keeps the exception."""
import pytest

from boruna import service
from boruna.service.results import Failure, Success, failure_of, use_case

SOURCE = "fn main() -> Int {\n    6 * 7\n}\n"


def test_failure_json_is_the_fail_envelope():
    failure = Failure("runtime_error", "boom", {"steps": 4})
    assert failure.success is False
    assert failure.to_json() == {"success": False, "protocol_version": 1,
                                 "error_kind": "runtime_error", "message": "boom", "steps": 4}
    assert failure_of(failure.to_json()).to_json() == failure.to_json()


def test_success_json_is_the_ok_envelope():
    assert Success({"b": 1, "a": 2}).to_json() == {"success": True, "protocol_version": 1,
                                                   "b": 1, "a": 2}


def test_use_case_boundary_keeps_the_exception():
    error = KeyError("boom")

    @use_case
    def broken():
        raise error

    failure = broken()
    assert failure.exception is error
    assert failure.to_json() == {"success": False, "protocol_version": 1,
                                 "error_kind": "internal_error",
                                 "message": "internal error (KeyError): 'boom'"}


def test_use_case_boundary_lets_invalid_params_through():
    with pytest.raises(service.InvalidParams):
        service.compile_module("x" * 1_048_577)
    assert service.compile_module("x" * 1_048_577 + "\n", source_limit=None).success is False


@pytest.mark.parametrize("use_case, tool, args", [
    (service.compile_module, service.compile_tool, (SOURCE,)),
    (service.parse_ast, service.ast_tool, (SOURCE,)),
    (service.list_symbols, service.symbols_tool, (SOURCE,)),
    (service.run_sealed, service.run_sealed_tool, (SOURCE,)),
    (service.check, service.check_tool, ("fn main() -> Int {\n    x\n}\n",)),
    (service.repair, service.repair_tool, ("fn main() -> Int {\n    x\n}\n",)),
    (service.validate_workflow, service.workflow_validate_tool, ("{",)),
    (service.validate_policy, service.policy_validate_tool, ('{"schema_version": 9}',)),
    (service.list_capabilities, service.capability_list_tool, ()),
], ids=lambda v: getattr(v, "__name__", "args"))
def test_each_tool_is_its_use_case_as_json(use_case, tool, args):
    assert use_case(*args).to_json() == tool(*args)


def test_compile_failure_keeps_the_error_and_gives_advice():
    failure = service.compile_module("fn main() -> Int {\n    let x = 1;\n    x\n}\n")
    assert failure.to_json() == {"success": False, "protocol_version": 1, "errors": [
        {"severity": "error", "code": "E002", "message": failure.compile_error.message,
         "line": 2, "col": 14}]}
    assert [(a.text, a.repairable) for a in failure.advice] == [
        ("statements end at the end of their line; remove the ';'", True)]


def test_run_tool_is_the_run_of_its_request_as_json():
    assert service.run(service.RunRequest.of(SOURCE)).to_json() == service.run_tool(SOURCE)


def test_a_run_request_is_validated_when_made():
    with pytest.raises(service.InvalidParams):
        service.RunRequest.of(SOURCE, max_steps=-1)
    request = service.RunRequest.of(SOURCE, policy={"schema_version": 1, "nope": 1},
                                    limits={"max_wall_ms": 5})
    assert (request.max_wall_ms, request.policy, request.policy_failure_first) == (5, None, False)
    assert request.policy_failure.error_kind == "invalid_policy"
    refused = service.RunRequest.of(SOURCE, limits={"max_memory_mb": 1, "max_wall_ms": "x"})
    assert service.run(refused).error_kind == "unsupported_limit"


def test_run_result_carries_the_outcome_and_module():
    ran = service.run(service.RunRequest.of(SOURCE))
    assert (ran.success, ran.outcome.result, ran.outcome.steps) == (True, 42, 5)
    assert ran.module.functions[ran.module.entry].name == "main"
