"""Results nested far deeper than Python's recursion limit are answered, not internal_error.

`l = [l]` in a loop builds a list nested once per iteration; 100,000 levels used to make
boruna_run and boruna_run_sealed answer `internal_error: input is nested too deeply`.
"""
import json

from boruna.service import render, run_sealed_tool, run_tool
from boruna.core.json_text import compact_json, deeper_than

DEPTH = 100_000
NESTED = ("fn main() -> List<Int> { let mut l = []\n let mut i = 0\n"
          f" while i < {DEPTH} {{ l = [l]\n i = i + 1 }}\n l }}")


def test_run_returns_a_result_nested_100000_levels():
    response = run_tool(NESTED)
    assert response["success"] is True
    assert response["steps"] == 12 * DEPTH + 11
    text = render(response)
    # DEPTH + 1 nested lists in result, plus the empty ui_output
    assert text.count("[") == DEPTH + 2 and text.count("]") == DEPTH + 2
    assert text.startswith('{\n  "success": true,\n  "protocol_version": 1,\n  "result": [\n')
    # below the pretty-printed top levels the rest is one compact run
    assert "[" * (DEPTH - 100) + "]" * (DEPTH - 100) in text


def test_sealed_run_digests_and_returns_the_same_deep_result():
    response = run_sealed_tool(NESTED)
    assert response["success"] is True
    assert response["replay_verified"] is True
    assert render(response).count("[") >= DEPTH + 1


def test_output_budget_counts_deep_results_exactly():
    size = 2 * (DEPTH + 1)            # "[[...[]...]]"
    assert run_tool(NESTED, limits={"max_output_bytes": size})["success"] is True
    over = run_tool(NESTED, limits={"max_output_bytes": size - 1})
    assert over["error_kind"] == "limit_exceeded"
    assert over["limit_kind"] == "output_bytes"


def test_recursive_output_schema_refuses_a_too_deep_result_quickly():
    schema = {"type": "array", "items": {"$ref": "#"}}
    response = run_tool(NESTED, output_schema=schema)
    assert response["success"] is False
    assert response["error_kind"] == "validation_failed"
    assert response["errors"] == [{
        "message": "result nests more than 5000 levels: too deep to validate against a "
                   "recursive output_schema", "path": ""}]
    assert response["total_errors"] == 1
    shallow = NESTED.replace(str(DEPTH), "40")
    assert run_tool(shallow, output_schema=schema)["success"] is True
    # a schema without references does not follow the depth: deep results still validate
    assert run_tool(NESTED, output_schema={"type": "array"})["success"] is True


def test_compact_json_matches_the_standard_encoder_and_writes_null_for_non_finite():
    value = {"b": [1, 2.5, "é\n", None, True], "a": {"x": []}}
    assert compact_json(value) == json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    assert compact_json(value, sort_keys=True) == '{"a":{"x":[]},"b":[1,2.5,"é\\n",null,true]}'
    assert compact_json([float("nan"), float("inf"), -float("inf")]) == "[null,null,null]"
    deep = []
    for _ in range(300):
        deep = [deep, {"k": float("nan")}]
    assert compact_json(deep) == "[" * 300 + "[]" + ',{"k":null}]' * 300


def test_deeper_than_counts_container_levels():
    assert deeper_than([[1]], 1) is True
    assert deeper_than([[1]], 2) is False
    assert deeper_than({"a": [{}]}, 3) is False
    assert deeper_than(5, 0) is False
