"""core.errors.ErrorKind: one vocabulary whose values are the wire strings."""
import json

import pytest

from boruna.core import errors
from boruna.core.errors import CAPABILITY_REFUSALS, ErrorKind, VmError
from boruna.service.envelope import fail


def test_kinds_are_their_wire_strings():
    assert ErrorKind.RUNTIME_ERROR == "runtime_error"
    assert str(ErrorKind.LIMIT_EXCEEDED) == "limit_exceeded"
    assert f"{ErrorKind.POLICY_UNKNOWN_FIELD}: x" == "policy.unknown_field: x"
    assert json.dumps({"k": ErrorKind.CANCELLED}) == '{"k": "cancelled"}'
    assert {ErrorKind.WALL_TIME: 1}["wall_time"] == 1
    assert ErrorKind("type_error") is ErrorKind.TYPE_ERROR


def test_vm_errors_carry_a_kind_and_reject_unknown_ones():
    err = VmError("memory limit exceeded: x", "memory_limit")
    assert err.kind is ErrorKind.MEMORY_LIMIT
    assert repr(err) == "VmError('memory_limit', 'memory limit exceeded: x')"
    assert VmError("boom").kind is ErrorKind.RUNTIME
    with pytest.raises(ValueError):
        VmError("boom", "no_such_kind")


def test_attributes_replace_reading_the_message():
    err = errors.type_error("numeric", "String")
    assert (err.kind, err.expected, err.got) == (ErrorKind.TYPE_ERROR, "numeric", "String")
    denied = errors.capability_denied("net.fetch")
    assert denied.kind in CAPABILITY_REFUSALS and denied.capability == "net.fetch"
    assert errors.capability_budget_exceeded("random").kind in CAPABILITY_REFUSALS
    assert errors.step_limit(7).kind is ErrorKind.STEP_LIMIT


def test_responses_hold_the_plain_string():
    response = fail(ErrorKind.RUNTIME_ERROR, "m")
    assert response == {"success": False, "protocol_version": 1,
                        "error_kind": "runtime_error", "message": "m"}
    assert type(response["error_kind"]) is str


def test_no_kind_is_spelled_as_a_literal_in_the_package():
    """Every failure names an ErrorKind member; none writes the wire string itself."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2] / "src" / "boruna"
    spelled = [f"{path.relative_to(root)}: {line.strip()}"
               for path in root.rglob("*.py") for line in path.read_text().splitlines()
               if re.search(r'\b(fail|Failure|failure)\("[a-z_.]+"', line)]
    assert spelled == []
