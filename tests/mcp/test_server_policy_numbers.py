"""Policy numbers too large for any field sent over the wire (issue 19, item 9):
boruna_run and boruna_policy_validate answer with a policy error naming the field, never
internal_error. (A JSON-RPC message holding an integer of more than 4,300 digits is refused
by the transport as an Invalid Request before any tool sees it.)"""
from __future__ import annotations

LIMIT = "(counts, sizes and times are integers up to 18446744073709551615)"


def _policy(number: str) -> str:
    return '{"rules": {"net.fetch": {"allow": true, "budget": ' + number + '}}}'


def _run_line(request_id: int, policy: str) -> str:
    return ('{"jsonrpc": "2.0", "id": ' + str(request_id) + ', "method": "tools/call", '
            '"params": {"name": "boruna_run", "arguments": {"source": "fn main() -> Int { 1 }", '
            '"policy": ' + policy + '}}}')


def test_huge_policy_numbers_are_policy_errors_on_the_wire(raw_server_factory, tool_payload):
    server = raw_server_factory()
    server.initialize()
    server.send(_run_line(7, _policy("1" + "0" * 400)))
    server.send(_run_line(8, _policy("1" + "0" * 5000)))
    huge = _policy("1" + "0" * 5000)
    server.call(9, "boruna_policy_validate", {"policy_json": huge})
    answers = server.answers([7, 8, 9])
    message = ("policy.parse_error: number out of range at rules.net.fetch.budget{where}: "
               "a {n}-digit number does not fit any policy field " + LIMIT)
    assert tool_payload(answers[7]) == {
        "success": False, "protocol_version": 1, "error_kind": "invalid_policy",
        "message": message.format(where="", n=401), "policy_error": "policy.parse_error"}
    assert answers[8]["error"] == {"code": -32600,
                                   "message": "Invalid Request: integer with more than 4300 digits"}
    assert tool_payload(answers[9])["errors"] == [{
        "error_kind": "policy.parse_error",
        "message": message.format(where=f" (line 1 column {len(huge) - 3})", n=5001)}]
    status, stderr = server.close()
    assert status == 0 and "Traceback" not in stderr
