"""The strict Policy parser: every example and message of docs/spec/policy.md §2–§10."""
import json

import pytest

from boruna.runtime.policy import (
    Policy, PolicyError, load_policy_file, parse_policy, parse_policy_text,
    validate_policy_value,
)
from boruna.service.policy_validation import policy_text as show_policy

ALLOW_ALL = '{"schema_version":1,"rules":{},"default_allow":true,"net_policy":null}'
DENY_ALL = '{"schema_version":1,"rules":{},"default_allow":false,"net_policy":null}'


def _error(text):
    with pytest.raises(PolicyError) as info:
        parse_policy_text(text)
    return info.value


def _compact(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


# ─── valid examples (§10 V1–V6 and the upstream fixtures) ───

@pytest.mark.parametrize("body, normalized", [
    ("{}", DENY_ALL),
    ('{"schema_version":1,"default_allow":false,"rules":{"fs.read":{"allow":true,"budget":0},'
     '"db.query":{"allow":true,"budget":25}}}',
     '{"schema_version":1,"rules":{"db.query":{"allow":true,"budget":25},'
     '"fs.read":{"allow":true,"budget":0}},"default_allow":false,"net_policy":null}'),
    ('{"default_allow":true,"rules":{"time.now":{"allow":false,"budget":0},'
     '"random":{"allow":false,"budget":0}}}',
     '{"schema_version":1,"rules":{"random":{"allow":false,"budget":0},'
     '"time.now":{"allow":false,"budget":0}},"default_allow":true,"net_policy":null}'),
    ('{"default_allow":false,"rules":{"net.fetch":{"allow":true,"budget":3}},"net_policy":'
     '{"allowed_domains":["*.internal.example"],"allowed_methods":["GET","HEAD"],'
     '"max_response_bytes":65536,"timeout_ms":2500,"allow_redirects":false}}',
     '{"schema_version":1,"rules":{"net.fetch":{"allow":true,"budget":3}},"default_allow":false,'
     '"net_policy":{"allowed_domains":["*.internal.example"],"allowed_methods":["GET","HEAD"],'
     '"max_response_bytes":65536,"timeout_ms":2500,"allow_redirects":false}}'),
    ('{"schema_version":null,"net_policy":null,"default_allow":true}', ALLOW_ALL),
    ('{"rules":{"step.input":{"allow":true,"budget":1}}}',
     '{"schema_version":1,"rules":{"step.input":{"allow":true,"budget":1}},'
     '"default_allow":false,"net_policy":null}'),
    ("[1, {}, true]", ALLOW_ALL),
    ("[]", DENY_ALL),
    ("[null, {}, false, []]", None),
    ('{"net_policy":{}}',
     '{"schema_version":1,"rules":{},"default_allow":false,"net_policy":{"allowed_domains":[],'
     '"allowed_methods":[],"max_response_bytes":10485760,"timeout_ms":30000,'
     '"allow_redirects":true}}'),
    ('{"default_allow":false,"default_allow":true}', ALLOW_ALL),   # last duplicate wins
])
def test_valid_bodies_normalize(body, normalized):
    policy = parse_policy_text(body)
    if normalized is not None:
        assert policy.normalized_json() == normalized


def test_positional_rules_inside_an_array_body():
    policy = parse_policy_text('[1, {"random": [true, 2]}]')
    assert policy.normalized()["rules"] == {"random": {"allow": True, "budget": 2}}
    assert _error('[1, {"random": [true]}]').message == (
        "policy.parse_error: invalid length 1, expected struct PolicyRule with 2 elements")
    assert _error('[1, {"random": [true, 1, 2]}]').message == (
        "policy.parse_error: invalid length 3, expected fewer elements in array")
    assert _error("[1, {}, true, null, 5]").message == (
        "policy.parse_error: invalid length 5, expected fewer elements in array")
    assert parse_policy_text("[1, {}, false, []]").normalized()["net_policy"]["timeout_ms"] == 30000


def test_array_form_rejects_unknown_keys_inside_nested_objects():
    assert _error('[1, {"random": {"allow": true, "budget": 0, "x": 1}}]').message == (
        "policy.parse_error: unknown field `x`, expected `allow` or `budget`")
    assert _error('[1, {}, true, {"foo": 1}]').message == (
        "policy.parse_error: unknown field `foo`, expected one of `allowed_domains`, "
        "`allowed_methods`, `max_response_bytes`, `timeout_ms`, `allow_redirects`")


def test_equivalent_inputs_normalize_identically():
    a = parse_policy_text("{}")
    b = parse_policy_text('{"schema_version":1,"default_allow":false,"rules":{}}')
    assert a.normalized_json() == b.normalized_json() == DENY_ALL
    c = parse_policy_text('{"net_policy":{}}')
    d = parse_policy_text('{"net_policy":{"timeout_ms":30000}}')
    assert c.normalized_json() == d.normalized_json()
    assert c.normalized_json() != parse_policy_text('{"net_policy":null}').normalized_json()


# ─── invalid examples (§10 I1–I16) with their exact E objects ───

@pytest.mark.parametrize("body, expected", [
    ('{"default_allow":true,"rule":{}}',
     '{"error_kind":"policy.unknown_field","message":"policy.unknown_field: unknown field '
     '\\"rule\\" at rule","path":"rule"}'),
    ('{"rules":{"llm.call":{"allow":true,"budget":2,"max_tokens":100}}}',
     '{"error_kind":"policy.unknown_field","message":"policy.unknown_field: unknown field '
     '\\"max_tokens\\" at rules.llm.call.max_tokens","path":"rules.llm.call.max_tokens"}'),
    ('{"net_policy":{"allowed_hosts":["a.example"]}}',
     '{"error_kind":"policy.unknown_field","message":"policy.unknown_field: unknown field '
     '\\"allowed_hosts\\" at net_policy.allowed_hosts","path":"net_policy.allowed_hosts"}'),
    ('{"rules":{"time":{"allow":false,"budget":0}}}',
     '{"error_kind":"policy.invalid_capability","found":"time","hint":"time.now","message":'
     '"policy.invalid_capability: unknown capability \\"time\\" — did you mean \\"time.now\\"?"}'),
    ('{"rules":{"fs":{"allow":false,"budget":0}}}',
     '{"error_kind":"policy.invalid_capability","found":"fs","message":'
     '"policy.invalid_capability: unknown capability \\"fs\\""}'),
    ('{"rules":{"random":{"allow":false,"budget":0},"ui":{"allow":true,"budget":0},'
     '"db":{"allow":true,"budget":0}}}',
     '{"error_kind":"policy.invalid_capability","found":"db","hint":"db.query","message":'
     '"policy.invalid_capability: unknown capability \\"db\\" — did you mean \\"db.query\\"?"}'),
    ('{"schema_version":3}',
     '{"error_kind":"policy.unknown_schema_version","found":3,"message":'
     '"policy.unknown_schema_version: schema_version 3 not supported by this binary '
     '(expected 1)"}'),
    ('{"schema_version":0}',
     '{"error_kind":"policy.unknown_schema_version","found":0,"message":'
     '"policy.unknown_schema_version: schema_version 0 not supported by this binary '
     '(expected 1)"}'),
    ('{"default_allow":1}',
     '{"error_kind":"policy.parse_error","message":"policy.parse_error: invalid type: '
     'integer `1`, expected a boolean"}'),
    ('{"rules":{"db.query":{"allow":true}}}',
     '{"error_kind":"policy.parse_error","message":"policy.parse_error: missing field '
     '`budget`"}'),
    ('{"net_policy":{"allowed_methods":["post"]}}',
     '{"error_kind":"policy.invalid_net_policy","field":"allowed_methods","message":'
     '"policy.invalid_net_policy: net_policy.allowed_methods: method \\"post\\" must be '
     'upper-case (\\"POST\\")"}'),
    ('{"net_policy":{"timeout_ms":0}}',
     '{"error_kind":"policy.invalid_net_policy","field":"timeout_ms","message":'
     '"policy.invalid_net_policy: net_policy.timeout_ms: must be > 0"}'),
    ('{"net_policy":{"timeout_ms":0,"max_response_bytes":0}}',
     '{"error_kind":"policy.invalid_net_policy","field":"max_response_bytes","message":'
     '"policy.invalid_net_policy: net_policy.max_response_bytes: must be > 0"}'),
    ('{"schema_version":2,"extra":true}',
     '{"error_kind":"policy.unknown_field","message":"policy.unknown_field: unknown field '
     '\\"extra\\" at extra","path":"extra"}'),
    ('{"schema_version":2,"rules":{"net":{"allow":true,"budget":0}},'
     '"net_policy":{"timeout_ms":0}}',
     '{"error_kind":"policy.unknown_schema_version","found":2,"message":'
     '"policy.unknown_schema_version: schema_version 2 not supported by this binary '
     '(expected 1)"}'),
    ('{"default_allow":true,"rules":{"nope":{"allow":"yes","budget":0}}}',
     '{"error_kind":"policy.parse_error","message":"policy.parse_error: invalid type: string '
     '\\"yes\\", expected a boolean"}'),
    ('{"default_allow": true,',
     '{"error_kind":"policy.parse_error","message":"policy.parse_error: EOF while parsing a '
     'value at line 1 column 23"}'),
    ('"allow-all"',
     '{"error_kind":"policy.parse_error","message":"policy.parse_error: invalid type: string '
     '\\"allow-all\\", expected struct PolicyFileV1"}'),
])
def test_error_objects(body, expected):
    assert _compact(_error(body).error_object()) == expected


@pytest.mark.parametrize("body, message", [
    ("", "policy.parse_error: EOF while parsing a value at line 1 column 0"),
    ('{"default_allow":true}  }', "policy.parse_error: trailing characters at line 1 column 25"),
    ("null", "policy.parse_error: invalid type: null, expected struct PolicyFileV1"),
    ("5", "policy.parse_error: invalid type: integer `5`, expected struct PolicyFileV1"),
    ("true", "policy.parse_error: invalid type: boolean `true`, expected struct PolicyFileV1"),
    ('{"rules":{"a":{"allow":true,"budget":-5}}}',
     "policy.parse_error: invalid value: integer `-5`, expected u64"),
    ('{"rules":{"a":{"allow":true,"budget":1.5}}}',
     "policy.parse_error: invalid type: floating point `1.5`, expected u64"),
    ('{"rules":{"a":{"allow":true,"budget":18446744073709551616}}}',
     "policy.parse_error: invalid type: floating point `18446744073709552000.0`, expected u64"),
    ('{"rules":{"a":{"allow":true,"budget":18446744073709551615}}}',
     "policy.invalid_capability: unknown capability \"a\""),
    ('{"rules":null}', "policy.parse_error: invalid type: null, expected a map"),
    ('{"rules":[]}', "policy.parse_error: invalid type: sequence, expected a map"),
    ('{"rules":{"net.fetch":true}}',
     "policy.parse_error: invalid type: boolean `true`, expected struct PolicyRule"),
    ('{"rules":{"net.fetch":{}}}', "policy.parse_error: missing field `allow`"),
    ('{"default_allow":null}', "policy.parse_error: invalid type: null, expected a boolean"),
    ('{"schema_version":"1"}', 'policy.parse_error: invalid type: string "1", expected u64'),
    ('{"schema_version":1.0}', "policy.parse_error: invalid type: floating point `1.0`, expected u64"),
    ('{"schema_version":-1}', "policy.parse_error: invalid value: integer `-1`, expected u64"),
    ('{"net_policy":"x"}',
     'policy.parse_error: invalid type: string "x", expected struct NetPolicyFileV1'),
    ('{"net_policy":{"allowed_domains":null}}',
     "policy.parse_error: invalid type: null, expected a sequence"),
    ('{"net_policy":{"allowed_domains":[1]}}',
     "policy.parse_error: invalid type: integer `1`, expected a string"),
    ('{"net_policy":{"max_response_bytes":-1}}',
     "policy.parse_error: invalid value: integer `-1`, expected usize"),
    ('{"net_policy":{"allow_redirects":"no"}}',
     'policy.parse_error: invalid type: string "no", expected a boolean'),
    ('{"net_policy":{"allowed_methods":["FETCH"]}}',
     'policy.invalid_net_policy: net_policy.allowed_methods: unknown HTTP method "FETCH"; '
     "allowed: GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS"),
    ('{"net_policy":{"allowed_methods":["GET","Delete","nope"]}}',
     'policy.invalid_net_policy: net_policy.allowed_methods: method "Delete" must be '
     'upper-case ("DELETE")'),
    ('{"zzz":1,"net_policy":{"foo":1}}',
     'policy.unknown_field: unknown field "foo" at net_policy.foo'),
    ('{"default_alow":1,"Default_allow":1}',
     'policy.unknown_field: unknown field "Default_allow" at Default_allow'),
    ('{"rules":{"bogus":{"x":1}}}', 'policy.unknown_field: unknown field "x" at rules.bogus.x'),
    ('{"rules":{"Net.Fetch":{"allow":true,"budget":0}}}',
     'policy.invalid_capability: unknown capability "Net.Fetch"'),
    ('{"rules":{"net.fetch ":{"allow":true,"budget":0}}}',
     'policy.invalid_capability: unknown capability "net.fetch "'),
    ('{"rules":{"actor_spawn":{"allow":true,"budget":0}}}',
     'policy.invalid_capability: unknown capability "actor_spawn" — did you mean '
     '"actor.spawn"?'),
    ('{"rules":{"a\\"b\\n":{"allow":true,"budget":0}}}',
     'policy.invalid_capability: unknown capability "a\\"b\\n"'),
    ('{"default_allow":1,"rules":{"x":{"allow":true}}}',
     "policy.parse_error: invalid type: integer `1`, expected a boolean"),
])
def test_messages(body, message):
    assert _error(body).message == message


def test_parse_error_kinds_have_only_kind_and_message():
    assert set(_error("[").error_object()) == {"error_kind", "message"}


# ─── the MCP `policy` argument (§2, I16, I17, V6) ───

def test_mcp_absent_and_shorthands():
    assert parse_policy(None).normalized_json() == ALLOW_ALL
    assert parse_policy("allow-all").normalized_json() == ALLOW_ALL
    assert parse_policy("deny-all").normalized_json() == DENY_ALL
    assert parse_policy({}).normalized_json() == DENY_ALL
    assert parse_policy(None, default=Policy.deny_all()).normalized_json() == DENY_ALL


@pytest.mark.parametrize("value", ["allow_all", "Allow-All", " allow-all", '{"default_allow":true}'])
def test_mcp_bad_strings(value):
    with pytest.raises(PolicyError) as info:
        parse_policy(value)
    assert info.value.kind == "invalid_policy"
    assert info.value.message == (
        f"policy string must be 'allow-all' or 'deny-all' (got '{value}'); pass an object for "
        "fine-grained policy — see docs/reference/policy-schema.md")
    assert info.value.policy_error is None
    assert info.value.error_object() == {"error_kind": "invalid_policy",
                                         "message": info.value.message}


@pytest.mark.parametrize("value, got", [(True, "boolean"), (False, "boolean"), (3, "number"),
                                        (1.5, "number"), ([1, {}, True], "array"), ([], "array")])
def test_mcp_non_object_values(value, got):
    with pytest.raises(PolicyError) as info:
        parse_policy(value)
    assert info.value.kind == "invalid_policy"
    assert info.value.message == (
        f"policy must be a string ('allow-all'/'deny-all') or an object; got {got}")


def test_mcp_objects_are_validated_strictly_and_report_invalid_policy_for_runs():
    with pytest.raises(PolicyError) as info:
        parse_policy({"default_allow": True, "rule": {}})
    err = info.value
    assert err.kind == "policy.unknown_field"
    assert err.message == 'policy.unknown_field: unknown field "rule" at rule'
    assert err.run_error_kind == "invalid_policy"
    assert err.policy_error == "policy.unknown_field"
    with pytest.raises(PolicyError) as info:
        parse_policy({"rules": {"r": {"allow": True, "budget": 2 ** 64}}})
    assert info.value.message == (
        "policy.parse_error: invalid type: floating point `18446744073709552000.0`, expected u64")


def test_policy_queries():
    p = parse_policy({"default_allow": True, "rules": {"random": {"allow": False, "budget": 0},
                                                       "llm.call": {"allow": True, "budget": 4}}})
    assert p.allows("net.fetch") and not p.allows("random") and p.allows("llm.call")
    assert p.budget("llm.call") == 4 and p.budget("random") is None and p.budget("fs.read") is None


# ─── CLI forms ───

def test_cli_files_and_shorthands(tmp_path):
    good = tmp_path / "p.json"
    good.write_text('{ "default_allow": true, "foo": 1 }')
    with pytest.raises(PolicyError) as info:
        load_policy_file(str(good))
    assert info.value.kind == "policy.unknown_field" and info.value.path == "foo"
    good.write_text('{"rules":{"net.fetch":{"allow":true,"budget":10}}}')
    assert load_policy_file(good).budget("net.fetch") == 10
    missing = tmp_path / "missing.json"
    with pytest.raises(PolicyError) as info:
        load_policy_file(str(missing))
    assert info.value.kind == "policy.io_error"
    assert info.value.message == (
        f"policy.io_error: {missing}: No such file or directory (os error 2)")
    assert info.value.error_object() == {"error_kind": "policy.io_error",
                                         "message": info.value.message}


def test_policy_show_text():
    assert show_policy(parse_policy_text("{}")) == (
        "Schema version: 1\nDefault behavior: deny\nRules: (none)\nNet policy: (default)")
    p = parse_policy_text('{"default_allow":true,"rules":{"net.fetch":{"allow":true,"budget":10},'
                          '"fs.read":{"allow":false,"budget":0}},"net_policy":{"allowed_methods":'
                          '["GET","HEAD"]}}')
    assert show_policy(p) == (
        "Schema version: 1\n"
        "Default behavior: allow\n"
        "Rules:\n"
        "  fs.read        deny   budget=unlimited\n"
        "  net.fetch      allow  budget=10\n"
        "Net policy:\n"
        "  allowed_domains:    (any)\n"
        "  allowed_methods:    GET, HEAD\n"
        "  max_response_bytes: 10485760\n"
        "  timeout_ms:         30000\n"
        "  allow_redirects:    true")


def test_validate_policy_value_accepts_decoded_documents():
    assert validate_policy_value({"default_allow": True}).normalized_json() == ALLOW_ALL


def test_deeply_nested_mcp_objects_are_rejected_cleanly():
    doc = {"default_allow": True}
    inner = doc
    for _ in range(5000):
        inner["x"] = {}
        inner = inner["x"]
    with pytest.raises(PolicyError) as info:
        parse_policy(doc)
    assert info.value.message == 'policy.unknown_field: unknown field "x" at x'
    deep = {"net_policy": {"allowed_domains": [[[]]]}}
    with pytest.raises(PolicyError) as info:
        parse_policy(deep)
    assert info.value.message == "policy.parse_error: invalid type: sequence, expected a string"


def test_policies_compare_by_their_normalized_content():
    assert parse_policy("allow-all") == parse_policy_text('{"default_allow":true}')
    assert parse_policy("deny-all") == parse_policy_text("[]")
    assert parse_policy_text('{"net_policy":{}}') == parse_policy_text(
        '{"net_policy":{"timeout_ms":30000}}')
    assert parse_policy_text('{"net_policy":{}}') != parse_policy_text("{}")
    assert parse_policy_text('{"rules":{"random":{"allow":true,"budget":1}}}') == parse_policy(
        {"rules": {"random": {"allow": True, "budget": 1}}})


def test_rust_debug_quoting_of_found_names():
    from boruna.core.unicode import debug_str
    assert debug_str('a"b\\c\n\t\r\0\x01\x7f é\u0301\u00a0日本') == (
        '"a\\"b\\\\c\\n\\t\\r\\0\\u{1}\\u{7f} é\\u{301}\\u{a0}日本"')
    assert _error('{"rules":{"caf\u00e9\\u0007":{"allow":true,"budget":0}}}').message == (
        'policy.invalid_capability: unknown capability "café\\u{7}"')
