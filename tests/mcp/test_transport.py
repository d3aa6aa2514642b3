"""The transport's threads are started before serving, so nothing a client sends can make
the server fail to read or write.

The attack (issue 15, item 10): every compile started a thread with a 256 MiB stack; under
an address-space limit, 1,000 pipelined tiny compiles made thread creation fail, the stdin
reader died and the server exited.
"""
import json
import resource

ADDRESS_SPACE = 3 * 2**29          # 1.5 GiB: room for the server, not for 40 x 256 MiB stacks


def _limit_address_space():
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def test_pipelined_compiles_under_an_address_space_limit(raw_server_factory, tool_payload):
    server = raw_server_factory(preexec_fn=_limit_address_space)
    server.initialize()
    lines = [json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
        "name": "boruna_compile", "arguments": {"source": f"fn main() -> Int {{ {i} }}"}}})
        for i in range(1000)]
    server.send("\n".join(lines))
    answers = server.answers(range(1000), timeout=120)
    kinds = {tool_payload(a).get("error_kind", "compiled") for a in answers.values()}
    assert kinds <= {"compiled", "server_busy"} and "compiled" in kinds
    deep = "fn main() -> Int { " + "(" * 20000 + "1" + ")" * 20000 + " }"
    server.call(2000, "boruna_compile", {"source": deep})
    assert tool_payload(server.answers([2000])[2000])["errors"][0]["code"] == "E002"
    server.call(2001, "boruna_run", {"source": "fn main() -> Int { 6 * 7 }"})
    assert tool_payload(server.answers([2001])[2001])["result"] == 42
    status, stderr = server.close()
    assert status == 0 and "Traceback" not in stderr
