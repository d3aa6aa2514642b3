"""boruna-mcp at the byte level: malformed lines are answered, never dropped or fatal."""
import json

import pytest

from boruna.mcp.stdin_lines import rejection, sanitize_line


@pytest.fixture(scope="module")
def raw_server(raw_server_factory):
    server = raw_server_factory()
    init = server.request(1, "initialize", {"protocolVersion": "2025-03-26", "capabilities": {},
                                            "clientInfo": {"name": "raw", "version": "0"}})
    assert init["result"]["serverInfo"]["name"] == "boruna-mcp"
    assert init["result"]["protocolVersion"] == "2025-03-26"
    server.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
    yield server
    server.proc.stdin.close()
    assert server.proc.wait(timeout=30) == 0
    assert "Traceback" not in server.proc.stderr.read()


def test_a_line_that_is_not_json_gets_a_parse_error(raw_server):
    raw_server.send("this is not json {")
    assert raw_server.receive() == {"jsonrpc": "2.0", "id": None,
                                    "error": {"code": -32700, "message": "Parse error"}}


def test_json_that_is_not_a_message_gets_invalid_request_with_its_id(raw_server):
    raw_server.send('{"id": 9, "params": {}}')
    assert raw_server.receive() == {"jsonrpc": "2.0", "id": 9,
                                    "error": {"code": -32600, "message": "Invalid Request"}}


def test_lone_surrogate_escapes_are_answered(raw_server):
    raw_server.send('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":'
                    '"boruna_run","arguments":{"source":"fn main() -> String { \\"a\\ud800\\" }"}}}')
    reply = raw_server.receive()
    assert reply["id"] == 3
    payload = json.loads(reply["result"]["content"][0]["text"])
    assert payload["result"] == "a\ufffd"


def test_arguments_of_the_wrong_shape_are_invalid_params(raw_server):
    reply = raw_server.request(4, "tools/call", {"name": "boruna_run", "arguments": [1, 2]})
    assert reply["error"]["code"] == -32602


def test_missing_arguments_mean_an_empty_object(raw_server):
    reply = raw_server.request(5, "tools/call", {"name": "boruna_capability_list"})
    payload = json.loads(reply["result"]["content"][0]["text"])
    assert payload["success"] is True and reply["result"]["isError"] is False
    missing = raw_server.request(6, "tools/call", {"name": "boruna_compile"})
    assert missing["error"] == {"code": -32602, "message":
                                "failed to deserialize parameters: missing field `source`"}


def test_unknown_method_is_method_not_found(raw_server):
    assert raw_server.request(7, "tools/nonexistent", {"name": "x"})["error"]["code"] == -32601


def test_string_progress_tokens_are_echoed_verbatim(raw_server):
    source = "fn main() -> Int {\n    let mut i = 0\n    while i < 30000 {\n        i = i + 1\n    }\n    i\n}\n"
    raw_server.send(json.dumps({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {
        "name": "boruna_run", "arguments": {"source": source},
        "_meta": {"progressToken": "tok-ä"}}}))
    first, second, reply = raw_server.receive(), raw_server.receive(), raw_server.receive()
    assert first == {"jsonrpc": "2.0", "method": "notifications/progress",
                     "params": {"progressToken": "tok-ä", "progress": 100000.0}}
    assert second["params"] == {"progressToken": "tok-ä", "progress": 200000.0}
    assert reply["id"] == 8
    assert json.loads(reply["result"]["content"][0]["text"])["steps"] == 270009


def test_wire_shapes_of_tools_list_and_tools_call(raw_server):
    listing = raw_server.request(10, "tools/list", {})["result"]
    assert list(listing) == ["tools"] and len(listing["tools"]) == 20
    assert all(sorted(tool) == ["annotations", "description", "inputSchema", "name",
                                "outputSchema", "title"] for tool in listing["tools"])
    result = raw_server.request(11, "tools/call", {"name": "boruna_compile",
                                                   "arguments": {"source": ""}})["result"]
    assert sorted(result) == ["content", "isError", "structuredContent"]
    assert [item["type"] for item in result["content"]] == ["text"]
    assert result["structuredContent"] == json.loads(result["content"][0]["text"])
    assert result["isError"] is (result["structuredContent"]["success"] is False)


@pytest.mark.parametrize("depth", [400, 5000])
def test_messages_too_deep_to_decode_are_answered_with_their_id(raw_server, depth):
    schema = "{}"
    for _ in range(depth):
        schema = '{"not": ' + schema + "}"
    raw_server.send('{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"boruna_run",'
                    '"arguments":{"source":"fn main() -> Int { 1 }","output_schema":' + schema + "}}}")
    assert raw_server.receive() == {"jsonrpc": "2.0", "id": 12, "error": {
        "code": -32600, "message": "Invalid Request: message nested too deeply"}}


def test_leading_id_is_found_only_at_the_top_level():
    from boruna.mcp.stdin_lines import _leading_id

    assert _leading_id('{"jsonrpc":"2.0","id":42,"method":"x"}') == 42
    assert _leading_id('{"id": "a\\"b", "x": 1}') == 'a"b'
    assert _leading_id('{"params":{"id":3},"id":4}') is None
    assert _leading_id('[{"id": 1}]') is None


def test_sanitize_line_only_touches_lone_surrogates():
    pair = '{"s": "\\ud83d\\ude00"}'
    assert json.loads(sanitize_line(pair)) == {"s": "😀"}
    assert json.loads(sanitize_line('{"s": "x\\udc00y"}')) == {"s": "x\ufffdy"}
    plain = '{"s": "no escapes"}\n'
    assert sanitize_line(plain) is plain
    assert rejection('{"jsonrpc": "2.0", "method": "ping", "id": 1}') is None


def test_closing_stdin_ends_the_server_even_during_a_long_run(raw_server_factory):
    import time

    server = raw_server_factory()
    server.request(1, "initialize", {"protocolVersion": "2025-03-26", "capabilities": {},
                                     "clientInfo": {"name": "raw", "version": "0"}})
    server.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
    server.send(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "boruna_run", "arguments": {
            "source": "fn main() -> Int {\n    while true {\n    }\n    0\n}\n",
            "max_steps": 10**15}}}))
    time.sleep(0.5)
    started = time.monotonic()
    server.proc.stdin.close()
    assert server.proc.wait(timeout=30) == 0
    assert time.monotonic() - started < 10
    assert "Traceback" not in server.proc.stderr.read()
