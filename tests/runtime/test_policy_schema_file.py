"""docs/policy.schema.json is generated from the Policy model and agrees with the parser."""
import json
from pathlib import Path

import jsonschema
import pytest

from boruna.runtime.policy import PolicyError, parse_policy_text, policy_json_schema, \
    policy_json_schema_text

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "policy.schema.json"


def test_committed_file_equals_the_generated_schema():
    assert SCHEMA_FILE.read_text(encoding="utf-8") == policy_json_schema_text()


def test_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(policy_json_schema())


@pytest.mark.parametrize("body", [
    "{}",
    '{"schema_version":1,"default_allow":false,"rules":{"fs.read":{"allow":true,"budget":0}}}',
    '{"schema_version":null,"net_policy":null,"default_allow":true}',
    '{"rules":{"step.input":{"allow":true,"budget":1}},"net_policy":{"allowed_methods":["GET"],'
    '"timeout_ms":1}}',
])
def test_valid_objects_pass_both(body):
    parse_policy_text(body)
    jsonschema.validate(json.loads(body), policy_json_schema())


@pytest.mark.parametrize("body", [
    '{"default_allow":true,"rule":{}}',
    '{"rules":{"time":{"allow":false,"budget":0}}}',
    '{"schema_version":2}',
    '{"net_policy":{"timeout_ms":0}}',
    '{"net_policy":{"allowed_methods":["post"]}}',
    '{"rules":{"db.query":{"allow":true}}}',
    '{"rules":{"db.query":{"allow":true,"budget":-1}}}',
])
def test_invalid_objects_fail_both(body):
    with pytest.raises(PolicyError):
        parse_policy_text(body)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(json.loads(body), policy_json_schema())


def test_schema_lists_all_eleven_capabilities():
    names = policy_json_schema()["properties"]["rules"]["propertyNames"]["enum"]
    assert len(names) == 11 and "step.input" in names
