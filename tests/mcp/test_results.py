"""`tool_result`: the text item, `structuredContent` equal to its JSON, `isError` from `success`."""
import json

from boruna.mcp.results import STRUCTURED_DEPTH, tool_result
from boruna.service import fail, ok, render


def test_success_has_structured_content_equal_to_the_text_and_is_not_an_error():
    response = ok(result=1.5, steps=3, ui_output=[])
    result = tool_result(response)
    assert result.is_error is False
    assert [c.text for c in result.content] == [render(response)]
    assert result.structured_content == json.loads(render(response)) == response


def test_failure_is_an_error_with_the_same_text_and_error_kind():
    response = fail("runtime_error", "division by zero", steps=4)
    result = tool_result(response)
    assert result.is_error is True
    assert json.loads(result.content[0].text) == result.structured_content == response


def test_compile_failures_without_error_kind_are_errors_too():
    result = tool_result(fail(errors=[{"severity": "error", "code": "E001", "message": "x",
                                       "line": 1, "col": 1}]))
    assert result.is_error is True and "error_kind" not in result.structured_content


def test_structured_content_is_the_parsed_text_not_the_raw_value():
    result = tool_result(ok(result=float("nan"), steps=1, ui_output=[(1, 2)]))
    assert result.structured_content == {"success": True, "protocol_version": 1,
                                         "result": None, "steps": 1, "ui_output": [[1, 2]]}


def test_responses_too_deep_for_the_sdk_come_as_text_only():
    deep = []
    for _ in range(STRUCTURED_DEPTH):
        deep = [deep]
    result = tool_result(ok(result=deep, steps=1, ui_output=[]))
    assert result.structured_content is None
    assert "structured_content" not in result.model_fields_set
    assert json.loads(result.content[0].text)["steps"] == 1
    result.model_dump_json(by_alias=True)  # the SDK can send it
    shallow = tool_result(ok(result=deep[0][0], steps=1, ui_output=[]))
    assert shallow.structured_content["result"] == deep[0][0]
    shallow.model_dump_json(by_alias=True)


def test_a_response_over_the_output_budget_is_reported_as_the_failure_it_became():
    from boruna.service.envelope import DEFAULT_MAX_OUTPUT_BYTES

    result = tool_result(ok(result="x" * DEFAULT_MAX_OUTPUT_BYTES, steps=7, ui_output=[]))
    assert result.is_error is True
    assert result.structured_content == json.loads(result.content[0].text) == {
        "success": False, "protocol_version": 1, "error_kind": "limit_exceeded",
        "message": f"serialized output exceeded {DEFAULT_MAX_OUTPUT_BYTES} bytes",
        "limit_kind": "output_bytes", "limit": DEFAULT_MAX_OUTPUT_BYTES,
        "phase": "serialization", "steps": 7}
