"""Policies named by a caller (`PolicyFile`): parsed once, rejections kept with their kind."""
from boruna import service
from boruna.runtime.policy import Policy


def test_a_valid_file_is_parsed_into_a_policy():
    parsed = service.policy_file('{"schema_version": 1, "default_allow": false, "rules": {}}')
    assert (parsed.rejected, isinstance(parsed.policy, Policy)) == (False, True)
    assert parsed.policy.default_allow is False


def test_a_rejected_file_is_an_invalid_policy_failure():
    parsed = service.policy_file('{"schema_version": 1, "rules": {}, "extra": true}')
    assert parsed.rejected
    assert parsed.failure().to_json() == {
        "success": False, "protocol_version": 1, "error_kind": "invalid_policy",
        "message": "policy.unknown_field: unknown field \"extra\" at extra",
        "policy_error": "policy.unknown_field"}


def test_an_unreadable_file_is_policy_io_error():
    parsed = service.unreadable_policy("cannot read 'p.json': no such file or directory")
    assert (parsed.error_kind, parsed.message) == (
        "policy.io_error", "policy.io_error: cannot read 'p.json': no such file or directory")


def test_a_rejected_file_is_reported_before_compiling():
    parsed = service.policy_file("{")
    request = service.RunRequest.of("fn main( {", policy=parsed)
    assert service.run(request).error_kind == "invalid_policy"


def test_shorthands_are_policies():
    assert service.shorthand_policy("deny-all").policy.default_allow is False
    request = service.RunRequest.of("fn main() -> Int { 1 }",
                                    policy=service.shorthand_policy("deny-all"))
    assert service.run(request).outcome.result == 1
