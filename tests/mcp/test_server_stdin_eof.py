"""Requests written before stdin closes are all answered (`printf ... | boruna-mcp`).

The SDK ends the session at EOF and answers every still-running call with -32000
`Connection closed`; the server now waits for its in-flight calls first. A request the
client cancelled is not waited for.
"""
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

LOOP = "fn main() -> Int { let mut i = 0\n while i < 300000 { i = i + 1 }\n i }"
FOREVER = "fn main() -> Int { let mut i = 0\n while true { i = i + 1 }\n i }"


def _pipe(messages, tmp_path):
    text = "".join(json.dumps(m) + "\n" for m in messages)
    done = subprocess.run([sys.executable, "-m", "boruna.mcp"], input=text, capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0
    return {json.dumps(m["id"]): m for m in map(json.loads, done.stdout.splitlines())}


def _call(request_id, name, arguments):
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}


INIT = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "pipe", "version": "0"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
]


def test_calls_running_at_eof_are_answered(tmp_path):
    answers = _pipe(INIT + [_call(2, "boruna_run", {"source": LOOP}),
                            _call("three", "boruna_compile", {"source": "fn main() -> Int { 1 }"}),
                            _call(4, "boruna_run", {"source": LOOP, "max_steps": 10})], tmp_path)
    assert set(answers) == {"1", "2", '"three"', "4"}
    run = json.loads(answers["2"]["result"]["content"][0]["text"])
    assert run == {"success": True, "protocol_version": 1, "result": 300000, "steps": 2700009,
                   "ui_output": []}
    compiled = json.loads(answers['"three"']["result"]["content"][0]["text"])
    assert compiled["success"] is True and compiled["module"]["functions"] == 1
    limited = json.loads(answers["4"]["result"]["content"][0]["text"])
    assert limited["message"] == "max execution steps exceeded (10)"


def test_a_cancelled_call_is_not_waited_for(tmp_path):
    answers = _pipe(INIT + [_call(2, "boruna_run", {"source": FOREVER,
                                                    "max_steps": 10 ** 15}),
                            {"jsonrpc": "2.0", "method": "notifications/cancelled",
                             "params": {"requestId": 2}},
                            _call(3, "boruna_compile", {"source": "fn main() -> Int { 1 }"})],
                    tmp_path)
    assert set(answers) == {"1", "3"}


def test_eof_waits_for_an_endless_call_only_for_the_grace_period(tmp_path):
    import time

    from boruna.mcp.stdin_lines import EOF_GRACE_SECONDS

    started = time.monotonic()
    answers = _pipe(INIT + [_call(2, "boruna_run", {"source": FOREVER, "max_steps": 10 ** 15})],
                    tmp_path)
    elapsed = time.monotonic() - started
    # the upper bound leaves room for a loaded machine's process start and stays under the
    # run's default 30 s wall clock, which would end a call EOF did not stop
    assert EOF_GRACE_SECONDS <= elapsed < EOF_GRACE_SECONDS + 20
    assert answers["2"]["error"]["message"] == "Connection closed"
