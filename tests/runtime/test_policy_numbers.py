"""Policy numbers too large for any field (issue 19, item 9): a policy error naming the
field, never `internal error: ValueError` (Python's int() refuses more than 4,300 digits) or
an OverflowError (an integer beyond the float range)."""
from __future__ import annotations

import pytest

from boruna import service
from boruna.core.jsonread import OutOfRange, loads
from boruna.runtime.policy import PolicyError, parse_policy, parse_policy_text

LIMIT = "(counts, sizes and times are integers up to 18446744073709551615)"


def budget_policy(number: str) -> str:
    return '{"rules": {"net.fetch": {"allow": true, "budget": ' + number + '}}}'


@pytest.mark.parametrize("number,shown", [
    ("1" + "0" * 5000, "a 5001-digit number"),
    ("1" + "0" * 400, "a 401-digit number"),
    ("1e400", "`1e400`"),
])
def test_a_policy_file_number_out_of_range_names_its_field(number, shown):
    text = budget_policy(number)
    with pytest.raises(PolicyError) as info:
        parse_policy_text(text)
    column = len(text) - len("}}}")        # serde's column: just after the number
    assert info.value.message == (f"policy.parse_error: number out of range at "
                                  f"rules.net.fetch.budget (line 1 column {column}): {shown} "
                                  f"does not fit any policy field {LIMIT}")


def test_boruna_policy_validate_reports_it_as_a_policy_error():
    text = '{"net_policy": {"timeout_ms": 9' + "9" * 6000 + '}}'
    response = service.policy_validate_tool(text)
    assert response["ok"] is False
    (error,) = response["errors"]
    assert error["error_kind"] == "policy.parse_error"
    assert error["message"] == (f"policy.parse_error: number out of range at "
                                f"net_policy.timeout_ms (line 1 column {len(text) - 2}): a 6001-digit "
                                f"number does not fit any policy field {LIMIT}")


def test_a_policy_object_with_a_huge_integer_names_its_field():
    with pytest.raises(PolicyError) as info:
        parse_policy({"rules": {"fs.read": {"allow": True, "budget": 10 ** 5000}}})
    assert info.value.message == (f"policy.parse_error: number out of range at "
                                  f"rules.fs.read.budget: a 5001-digit number does not fit any "
                                  f"policy field {LIMIT}")
    # within the float range it is what serde makes of it: a float, wrong for a count
    with pytest.raises(PolicyError) as info:
        parse_policy({"rules": {"fs.read": {"allow": True, "budget": 10 ** 300}}})
    assert info.value.message == ("policy.parse_error: invalid type: floating point `1"
                                  + "0" * 300 + ".0`, expected u64")


def test_the_reader_keeps_serde_typing_for_long_numbers():
    assert loads("18446744073709551615") == 18446744073709551615
    assert loads("123456789012345678901") == 1.2345678901234568e+20
    assert loads("[-0]") == [-0.0]
    kept = loads("[" + "7" * 5000 + "]", keep_out_of_range=True)[0]
    assert type(kept) is OutOfRange and kept.digits == 5000 and (kept.line, kept.column) == (1, 5001)
