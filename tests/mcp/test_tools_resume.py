"""boruna_run with `handlers` and boruna_resume through a real MCP client session: the agent
answers llm.call itself, possibly many times in a run; tokens are sealed by the server and
stay usable after a wrong answer; one token resumed twice forks (docs/snapshots.md)."""
import jsonschema
import pytest

from boruna.mcp.responses import output_schema

LLM = """fn main() -> String !{llm.call} {
    let mut out = ""
    let mut i = 0
    while i < 3 {
        let a: String = llm_call("turn " ++ __builtin_int_to_string(i) ++ out)
        out = out ++ a
        i = i + 1
    }
    out
}
"""
DELEGATE = {"llm.call": "client"}


def _valid(name, payload):
    jsonschema.Draft202012Validator(output_schema(name)).validate(payload)


def test_the_agent_answers_every_llm_call_of_a_run(mcp_server):
    payload, _ = mcp_server.call("boruna_run", {"source": LLM, "handlers": DELEGATE})
    _valid("boruna_run", payload)
    assert list(payload) == ["success", "protocol_version", "status", "request",
                             "resume_token", "steps"]
    assert payload["status"] == "input_required"
    assert payload["request"] == {"capability": "llm.call", "args": ["turn 0"]}
    seen = []
    for answer in ("a", "b", "c"):
        payload, _ = mcp_server.call("boruna_resume", {"resume_token": payload["resume_token"],
                                                       "result": answer})
        _valid("boruna_resume", payload)
        seen.append(payload.get("request"))
    assert seen[:2] == [{"capability": "llm.call", "args": ["turn 1a"]},
                        {"capability": "llm.call", "args": ["turn 2ab"]}]
    assert payload == {"success": True, "protocol_version": 1, "result": "abc",
                       "steps": payload["steps"], "ui_output": []}


def test_a_wrong_answer_is_a_clean_error_and_the_token_stays_usable(mcp_server):
    src = 'fn main() -> String !{net.fetch} { net_fetch("https://x.test/") }'
    first, _ = mcp_server.call("boruna_run", {"source": src, "handlers": {"net.fetch": "client"}})
    token = first["resume_token"]
    wrong, _ = mcp_server.call("boruna_resume", {"resume_token": token, "result": 42})
    _valid("boruna_resume", wrong)
    assert wrong["success"] is False and wrong["error_kind"] == "invalid_answer"
    assert wrong["message"] == ("answer for net.fetch: expected String at $, got an integer "
                                "(the builtin returns String)")
    right, _ = mcp_server.call("boruna_resume", {"resume_token": token, "result": "<html>"})
    assert (right["success"], right["result"]) == (True, "<html>")
    again, _ = mcp_server.call("boruna_resume", {"resume_token": token, "result": "other"})
    assert (again["result"], again["steps"]) == ("other", right["steps"])


def test_forged_and_unsealed_tokens_are_refused(mcp_server):
    first, _ = mcp_server.call("boruna_run", {"source": LLM, "handlers": DELEGATE})
    token = first["resume_token"]
    prefix, payload, mac = token.split(".")
    for bad in (f"{prefix}.{payload}.{mac[:-2]}AA", f"{prefix}.{payload[:-8]}.{mac}", "hello"):
        answer, _ = mcp_server.call("boruna_resume", {"resume_token": bad, "result": "x"})
        _valid("boruna_resume", answer)
        assert answer["success"] is False and answer["error_kind"] == "invalid_resume_token"


def test_handlers_are_checked(mcp_server):
    answer, _ = mcp_server.call("boruna_run", {"source": LLM, "handlers": {"gpu": "client"}})
    assert (answer["error_kind"], answer["message"]) == ("invalid_args",
                                                         "handlers: unknown capability 'gpu'")


def test_the_key_file_lets_tokens_outlive_a_restart(call_fresh_server, tmp_path):
    from boruna.runtime.suspend import Sealer
    from boruna.service import resume_tool

    key = tmp_path / "key"
    key.write_bytes(b"k" * 32)
    [first] = call_fresh_server([("boruna_run", {"source": LLM, "handlers": DELEGATE})],
                                "--snapshot-key-file", str(key))
    # the server sealed with the file's key: any server (here: this process) holding it opens
    # the token, one with another key does not
    same_key = resume_tool(first["resume_token"], "z", Sealer.from_file(key))
    new_key = resume_tool(first["resume_token"], "z", Sealer())
    assert same_key["request"] == {"capability": "llm.call", "args": ["turn 1z"]}
    assert new_key["error_kind"] == "invalid_resume_token"


@pytest.mark.parametrize("flags, message", [
    (("--snapshot-key-file", "/nonexistent/key"), "cannot read --snapshot-key-file"),
])
def test_a_bad_key_file_stops_the_server(flags, message):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "boruna.mcp", *flags], capture_output=True,
                          text=True, input="", timeout=60)
    assert done.returncode == 2 and message in done.stderr
