"""output_schema and max_output_bytes checks of boruna_run, without running anything."""
from boruna.service.output_budget import compact_size, exceeds_budget
from boruna.service.output_schema import check_output, schema_problem


def test_conforming_result_passes():
    assert check_output({"type": "object", "required": ["a"]}, {"a": 1}, 9) is None


def test_errors_carry_json_pointers_and_are_capped_at_100():
    schema = {"type": "array", "items": {"type": "string"}}
    response = check_output(schema, list(range(150)), 42)
    assert response["error_kind"] == "validation_failed"
    assert response["steps"] == 42
    assert response["total_errors"] == 150 and response["truncated"] is True
    assert len(response["errors"]) == 100
    assert response["errors"][0] == {"message": "0 is not of type 'string'", "path": "/0"}


def test_pointer_escapes_tilde_and_slash():
    schema = {"type": "object", "properties": {"a/b~c": {"type": "integer"}}}
    response = check_output(schema, {"a/b~c": "x"}, 1)
    assert response["errors"] == [{"message": "'x' is not of type 'integer'",
                                   "path": "/a~1b~0c"}]


def test_schema_size_limit():
    big = {"enum": ["x" * 262_200]}
    assert schema_problem(big) == "output_schema exceeds 262144 bytes (got 262213)"


def test_draft_2020_12_with_trailing_hash_is_accepted():
    assert schema_problem({"$schema": "https://json-schema.org/draft/2020-12/schema#"}) is None


def test_unresolvable_ref_is_an_invalid_schema_not_a_crash():
    response = check_output({"$ref": "https://example.invalid/schema.json"}, 1, 1)
    assert response["error_kind"] == "invalid_output_schema"


def test_output_budget_charges_result_then_each_tree():
    assert compact_size({"a": [1, "é"]}) == len('{"a":[1,"é"]}'.encode())
    assert exceeds_budget(7, "hello", []) is False
    assert exceeds_budget(6, "hello", []) is True
    assert exceeds_budget(10, 1, ["ab", "cd"]) is False      # 1 + 4 + 4 = 9
    assert exceeds_budget(8, 1, ["ab", "cd"]) is True


def test_deeply_nested_schema_is_checked_not_crashed():
    from boruna.service import run_tool

    schema = {}
    for _ in range(250):
        schema = {"not": schema}                     # an even number of `not`s accepts
    assert run_tool("fn main() -> Int { 1 }", output_schema=schema)["result"] == 1
    schema = {"not": schema}
    assert run_tool("fn main() -> Int { 1 }", output_schema=schema)["error_kind"] == (
        "validation_failed")
