"""boruna_run_sealed: run, replay against the recorded capability results, seal the log."""
import hashlib
import json

from boruna.service import render, run_sealed_tool
from boruna.service.sealed import canonical_log, first_divergence, log_digest

PURE = "fn main() -> Int {\n    1 + 2\n}\n"
WITH_INPUT = """fn main() -> Int !{step.input} {
    let _x: String = step_input("upstream")
    7
}
"""


def test_pure_program_is_verified_with_an_empty_log():
    response = run_sealed_tool(PURE)
    assert list(response) == ["success", "protocol_version", "result", "steps", "replay_verified",
                              "replay_divergence_reason", "event_count", "capability_calls",
                              "event_log", "event_log_sha256", "seal"]
    assert response["result"] == 3 and response["steps"] == 5
    assert response["replay_verified"] is True and response["replay_divergence_reason"] is None
    assert response["event_count"] == 0 and response["capability_calls"] == []
    assert response["event_log"] == {"version": 2, "events": [], "truncated": False}
    seal = response["seal"]
    assert (seal["kind"], seal["verified"], seal["digest_alg"]) == (
        "replay-verified-event-log", True, "sha256")
    assert seal["digest"] == response["event_log_sha256"]
    assert "not a signed evidence bundle" in seal["note"]


def test_digest_is_sha256_of_the_canonical_log():
    response = run_sealed_tool(WITH_INPUT)
    assert response["result"] == 7 and response["replay_verified"] is True
    events = [{"event": "cap_call", "capability": "step.input", "args": ["upstream"]},
              {"event": "cap_result", "capability": "step.input", "result": ""}]
    assert response["event_log"]["events"] == events
    assert response["capability_calls"] == [{"capability": "step.input", "args": ["upstream"]}]
    assert response["event_count"] == 2
    text = json.dumps({"version": 2, "events": events}, separators=(",", ":"), sort_keys=True)
    assert canonical_log(2, events) == text
    assert response["event_log_sha256"] == hashlib.sha256(text.encode()).hexdigest()


def test_denied_capability_is_capability_denied():
    response = run_sealed_tool(WITH_INPUT, policy="deny-all")
    assert response == {"success": False, "protocol_version": 1,
                        "error_kind": "capability_denied",
                        "message": "capability denied: step.input",
                        "capability": "step.input", "steps": 2, "location": {"line": 2, "col": 22, "function": "main"}, "stack": [{"function": "main", "line": 2, "col": 22}]}


def test_parse_and_compile_failures_have_their_own_kinds():
    parse = run_sealed_tool("fn main( {")
    assert parse["error_kind"] == "parse_error" and parse["error"] == parse["message"]
    assert parse["line"] == 1
    compile_ = run_sealed_tool("fn main() -> Int { x }")
    assert compile_["error_kind"] == "compile_error"
    assert compile_["message"] == "undefined variable: x"


def test_runtime_error_and_policy_error():
    assert run_sealed_tool("fn main() -> Int { 1 / 0 }") == {
        "success": False, "protocol_version": 1, "error_kind": "runtime_error",
        "message": "division by zero", "steps": 3, "location": {"line": 1, "col": 20, "function": "main"}, "stack": [{"function": "main", "line": 1, "col": 20}]}
    assert run_sealed_tool(PURE, policy="everything")["error_kind"] == "invalid_policy"


def test_first_divergence_names_the_event():
    a = [{"event": "cap_result", "result": 1}]
    b = [{"event": "cap_result", "result": 2}]
    assert first_divergence(a, a) is None
    assert first_divergence(a, b).startswith("event 0 differs: ")
    assert first_divergence(a, a + b) == "event count differs: original 1 vs replay 2"


NESTED_1000 = """fn main() -> Int {
    let mut l = [0]
    let mut i = 0
    while i < 1000 {
        l = [l]
        i = i + 1
    }
    emit l
    0
}
"""


def _nested(depth):
    value = [0]
    for _ in range(depth):
        value = [value]
    return value


def test_a_log_nested_1000_deep_is_sealed_like_boruna_run_handles_it():
    response = run_sealed_tool(NESTED_1000)
    assert response["success"] is True and response["result"] == 0
    assert response["replay_verified"] is True and response["replay_divergence_reason"] is None
    events = [{"event": "ui_emit", "tree": _nested(1000)}]
    text = canonical_log(2, events)          # compared as text: `==` on the lists recurses
    assert response["event_count"] == 1
    assert canonical_log(2, response["event_log"]["events"]) == text
    assert response["event_log_sha256"] == hashlib.sha256(text.encode()).hexdigest()
    assert render(response).startswith('{\n  "success": true,\n  "protocol_version": 1,')


def test_log_digest_equals_the_digest_of_the_canonical_log():
    events = [{"event": "cap_call", "capability": "c", "args": ["é", 1.5]},
              {"event": "ui_emit", "tree": {"b": [], "a": None}}]
    for log in ([], events[:1], events):
        assert log_digest(2, log) == hashlib.sha256(canonical_log(2, log).encode()).hexdigest()


def test_first_divergence_of_deep_events():
    a = [{"event": "ui_emit", "tree": _nested(5000)}]
    b = [{"event": "ui_emit", "tree": _nested(4999)}]
    assert first_divergence(a, [dict(a[0])]) is None
    assert first_divergence(a, b).startswith('event 0 differs: original {"event":"ui_emit"')


def test_sealed_runs_have_the_default_wall_clock(monkeypatch):
    import boruna.service.sealed as sealed

    monkeypatch.setattr(sealed, "DEFAULT_MAX_WALL_MS", 50)
    response = run_sealed_tool("fn main() -> Int {\n    while true {\n    }\n    0\n}\n",
                               max_steps=2**62)
    assert {k: v for k, v in response.items() if k != "steps"} == {
        "success": False, "protocol_version": 1, "error_kind": "limit_exceeded",
        "message": "wall-clock execution limit of 50 ms exceeded", "limit_kind": "wall_ms",
        "limit": 50, "phase": "execution"}
