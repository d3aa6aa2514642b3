"""Every request line gets exactly one answer, carrying its id whenever the id is usable.

The attack (issue 15, item 11): an integer of more than 4,300 digits anywhere in a request
was answered -32700 with id null (the caller waited forever), and a request whose id was
null, true, 1.5, an object or an array got no answer at all.
"""
import json

import pytest

from boruna.mcp.stdin_lines import BAD_ID, HUGE_INT, rejection, screen

BIG = "9" * 5000


def _error(request_id, message, code=-32600):
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


CASES = [
    ('{"jsonrpc":"2.0","id":null,"method":"ping"}', _error(None, BAD_ID)),
    ('{"jsonrpc":"2.0","id":true,"method":"ping"}', _error(None, BAD_ID)),
    ('{"jsonrpc":"2.0","id":1.5,"method":"ping"}', _error(None, BAD_ID)),
    ('{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', _error(None, BAD_ID)),
    ('{"jsonrpc":"2.0","id":[1],"method":"ping"}', _error(None, BAD_ID)),
    ('{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"boruna_run","arguments":'
     '{"source":"fn main() -> Int { 1 }","max_steps":' + BIG + '}}}', _error(77, HUGE_INT)),
    ('{"jsonrpc":"2.0","id":"s","method":"ping","params":{"x":-' + BIG + '}}',
     _error("s", HUGE_INT)),
    ('{"jsonrpc":"2.0","id":' + BIG + ',"method":"ping"}', _error(None, HUGE_INT)),
]


@pytest.mark.parametrize("line, answer", CASES)
def test_the_error_each_line_gets(line, answer):
    assert json.loads(rejection(line).model_dump_json(by_alias=True, exclude_unset=True)) == answer


def test_lines_that_pass_or_are_dropped():
    assert rejection('{"jsonrpc":"2.0","id":1,"method":"ping"}') is None
    assert rejection('{"jsonrpc":"2.0","method":"notifications/initialized"}') is None
    notification = '{"jsonrpc":"2.0","method":"notifications/initialized","params":{"n":%s}}'
    assert screen(notification % BIG) is None     # a notification is never answered
    line = '{"jsonrpc":"2.0","id":"x","method":"ping"}'
    assert screen(line) == (line, None, ("request", "x"))
    cancel = '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}'
    assert screen(cancel) == (cancel, None, ("cancel", "3"))


def test_each_line_is_answered_once_by_the_server(raw_server_factory):
    server = raw_server_factory()
    server.initialize()
    for line, _answer in CASES:
        server.send(line)
    server.send('{"jsonrpc":"2.0","id":"last","method":"ping"}')
    received = []
    while not received or received[-1].get("id") != "last":
        received.append(server.receive())
    assert received == [answer for _line, answer in CASES] + [
        {"jsonrpc": "2.0", "id": "last", "result": {}}]
    status, stderr = server.close()
    assert status == 0 and "Traceback" not in stderr


def test_screen_on_loop_screens_well_formed_lines_as_screen_message_does():
    from boruna.mcp.stdin_lines import screen_message, screen_on_loop

    request = '{"jsonrpc": "2.0", "id": 7, "method": "tools/list"}\n'
    notification = '{"jsonrpc": "2.0", "method": "notifications/initialized"}\n'
    bad_id = '{"jsonrpc": "2.0", "id": null, "method": "tools/list"}\n'
    for line in (request, notification, bad_id):
        screened, item = screen_on_loop(line)
        assert screened is True
        assert item == screen_message(line)
    assert screen_on_loop(request)[1][2] == ("request", "7")
    assert screen_on_loop(bad_id)[1][1].error.message == \
        "Invalid Request: id must be a string or an integer"


def test_screen_on_loop_declines_what_needs_a_large_stack():
    from boruna.mcp.stdin_lines import screen_on_loop

    surrogate = '{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"x": "\\ud800"}}'
    for line in ("not json {", surrogate, "[" * 5000 + "]" * 5000,
                 '{"id": 9, "params": {}}'):
        assert screen_on_loop(line) == (False, None)
