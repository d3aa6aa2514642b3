"""The envelope, rendering, the 1 MB guard and the no-traceback boundary."""
import json

import pytest

from boruna.service import InvalidParams, fail, guard_source, ok, render
from boruna.service.boundary import tool_boundary


def test_ok_puts_success_then_protocol_version_first():
    response = ok(zeta=1, alpha=2)
    assert list(response) == ["success", "protocol_version", "zeta", "alpha"]
    assert response["success"] is True and response["protocol_version"] == 1


def test_fail_orders_error_kind_and_message_before_extras():
    response = fail("runtime_error", "division by zero", steps=4)
    assert list(response) == ["success", "protocol_version", "error_kind", "message", "steps"]
    assert fail(errors=[]) == {"success": False, "protocol_version": 1, "errors": []}


def test_render_is_pretty_insertion_ordered_and_keeps_unicode_raw():
    text = render(ok(b="żółw — ✓", a=[1, 2]))
    assert text == ('{\n  "success": true,\n  "protocol_version": 1,\n'
                    '  "b": "żółw — ✓",\n  "a": [\n    1,\n    2\n  ]\n}')


def test_render_turns_non_finite_floats_into_null():
    text = render(ok(result=[float("nan"), float("inf"), -float("inf"), 0.5]))
    assert json.loads(text)["result"] == [None, None, None, 0.5]
    assert "NaN" not in text and "Infinity" not in text


def test_guard_accepts_exactly_one_megabyte_and_rejects_one_byte_more():
    guard_source("a" * 1_048_576)
    with pytest.raises(InvalidParams) as info:
        guard_source("a" * 1_048_577)
    assert info.value.message == "source exceeds 1 MB limit"


def test_guard_counts_utf8_bytes_not_characters():
    guard_source("é" * 524_288)              # 2 bytes each: exactly 1,048,576 bytes
    with pytest.raises(InvalidParams):
        guard_source("é" * 524_288 + "a")    # 1,048,577 bytes in 524,289 characters
    guard_source("€" * 349_525)              # 3 bytes each: 1,048,575 bytes


def test_boundary_turns_exceptions_into_internal_error_responses():
    @tool_boundary
    def broken():
        raise KeyError("boom")

    @tool_boundary
    def deep():
        raise RecursionError("maximum recursion depth exceeded")

    assert broken() == {"success": False, "protocol_version": 1, "error_kind": "internal_error",
                        "message": "internal error (KeyError): 'boom'"}
    assert deep()["message"] == "input is nested too deeply to process"


def test_boundary_lets_invalid_params_through():
    @tool_boundary
    def too_big():
        guard_source("x" * 2_000_000)

    with pytest.raises(InvalidParams):
        too_big()


def test_render_prints_very_deep_values_without_quadratic_indentation():
    value = 1
    for _ in range(20_000):
        value = [value]
    text = render(ok(result=value, x=float("nan")))
    assert len(text) < 100_000                        # pretty to depth 64, compact below
    assert text.startswith('{\n  "success": true,\n  "protocol_version": 1,\n  "result": [\n')
    assert '"x": null' in text
    assert ("[" * (20_000 - 64)) + "1" + ("]" * (20_000 - 64)) in text


def test_render_of_a_deep_run_result_over_the_service():
    from boruna.service import run_tool

    depth = 5_000
    response = run_tool("fn main() -> List<Int> { " + "[" * depth + "1" + "]" * depth + " }")
    text = render(response)
    assert response["success"] is True
    assert text.count("[") == depth + 1 and len(text) < 200_000     # + the ui_output list


def test_values_up_to_the_pretty_depth_are_fully_pretty():
    value = 1
    for _ in range(60):
        value = [value]
    response = ok(result=value)
    assert render(response) == json.dumps(response, indent=2)


def test_render_escapes_lone_surrogates_so_the_text_is_valid_utf8():
    text = render(ok(message="a\ud800b", nested=["\udfff", "é"]))
    assert text.encode("utf-8").decode("utf-8") == text
    assert '"message": "a\\ud800b"' in text
    assert '"é"' in text
    assert json.loads(text)["message"] == "a\ud800b"
    # a response without surrogates is untouched
    assert render(ok(message="plain")) == '{\n  "success": true,\n  "protocol_version": 1,\n  "message": "plain"\n}'
