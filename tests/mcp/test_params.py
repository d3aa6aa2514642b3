"""The advertised input schemas are standard JSON Schema 2020-12 and mean what the server
does: a validator accepts `null` exactly where the server's decoding accepts it."""
import jsonschema
import pytest
from pydantic import ValidationError

from boruna.mcp.params import input_schema
from boruna.mcp.tools import TOOLS

REQUIRED_VALUES = {"source": "fn main() -> Int { 1 }", "messages": [], "policy_json": "{}",
                   "workflow_json": "{}", "template_name": "crud-admin", "args": [],
                   "run_id": "0123456789abcdef", "step": "approve", "decision": "approve",
                   "resume_token": "bst1.e30.e30", "result": "an answer"}


def _minimal(tool):
    schema = input_schema(tool.params)
    return {name: REQUIRED_VALUES[name] for name in schema.get("required", [])}


def _server_accepts(tool, arguments) -> bool:
    try:
        tool.params.model_validate(arguments)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("tool", TOOLS, ids=lambda t: t.name)
def test_input_schema_is_valid_2020_12_without_openapi_keywords(tool):
    schema = input_schema(tool.params)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert "nullable" not in repr(schema)


@pytest.mark.parametrize("tool", TOOLS, ids=lambda t: t.name)
def test_null_is_valid_exactly_where_the_server_accepts_it(tool):
    schema = input_schema(tool.params)
    validator = jsonschema.Draft202012Validator(schema)
    base = _minimal(tool)
    assert validator.is_valid(base) and _server_accepts(tool, base)
    for name in schema["properties"]:
        arguments = {**base, name: None}
        assert validator.is_valid(arguments) is _server_accepts(tool, arguments), name


def test_optional_run_parameters_take_null_and_reject_wrong_types():
    run = next(t for t in TOOLS if t.name == "boruna_run")
    validator = jsonschema.Draft202012Validator(input_schema(run.params))
    source = REQUIRED_VALUES["source"]
    for arguments in ({"source": source, "max_steps": None, "trace": None, "limits": None},
                      {"source": source, "limits": {"max_wall_ms": None}},
                      {"source": source, "max_steps": 5, "trace": True}):
        assert validator.is_valid(arguments) and _server_accepts(run, arguments)
    for arguments in ({"source": source, "max_steps": -1}, {"source": source, "trace": "yes"},
                      {"source": None}, {"source": source, "limits": {"max_wall_ms": "10"}}):
        assert not validator.is_valid(arguments) and not _server_accepts(run, arguments)
