"""Capabilities reachable from source (issue 13): each capability builtin under the mock,
deny-all, undeclared calls, budgets in loops and recursion, live runs against a loopback
server, record and replay, sealed runs with live handlers."""
from __future__ import annotations

import json

import pytest

from boruna import service
from boruna.compiler import compile_source
from boruna.core.capabilities import by_wire_name
from boruna.runtime.live import HandlerConfig
from boruna.runtime.handlers import MockHandler

# one program per capability builtin, and what it gives under the deterministic mock (docs/spec/vm.md
# §5.5: the mock shows a String argument with its quotes, as the reference does)
PROGRAMS = {
    "net.fetch": ('fn main() -> String !{net.fetch} { net_fetch("http://example.com/a") }',
                  '{"mock": true, "url": ""http://example.com/a""}', 4),
    "fs.read": ('fn main() -> String !{fs.read} { fs_read("notes.txt") }',
                'mock file content for "notes.txt"', 4),
    "fs.write": ('fn main() -> Bool !{fs.write} { fs_write("out.txt", "hi") }', True, 5),
    "db.query": ('fn main() -> Int !{db.query} { list_len(db_query("select 1")) }', 0, 5),
    "time.now": ("fn main() -> Int !{time.now} { time_now() }", 1700000000, 3),
    "random": ("fn main() -> Float !{random} { random() }", 0.42, 3),
    "llm.call": ('fn main() -> String !{llm.call} { llm_call("hi") }',
                 '{"mock": true, "status": "ok"}', 4),
}


def undeclared(source: str) -> str:
    """The program with its `!{...}` annotation removed."""
    head, rest = source.split(" !{", 1)
    return head + rest.split("}", 1)[1]


class Spy(MockHandler):
    """The mock, remembering every call that reached it."""

    def __init__(self):
        self.calls = []

    def handle(self, cap, args):
        self.calls.append(cap.wire_name)
        return super().handle(cap, args)


class SpyConfig(HandlerConfig):
    def __init__(self, spy):
        object.__setattr__(self, "spy", spy)

    def handler(self, policy=None):
        return self.spy


def run(source, policy=None, **kw):
    return service.run(service.RunRequest.of(source, policy, **kw))


@pytest.mark.parametrize("cap", sorted(PROGRAMS))
def test_each_builtin_reaches_its_capability_under_the_mock(cap):
    source, value, steps = PROGRAMS[cap]
    assert service.run_tool(source) == {"success": True, "protocol_version": 1,
                                        "result": value, "steps": steps, "ui_output": []}


@pytest.mark.parametrize("cap", sorted(PROGRAMS))
def test_deny_all_denies_every_capability(cap):
    response = service.run_tool(PROGRAMS[cap][0], policy="deny-all")
    assert (response["success"], response["error_kind"], response["message"]) == \
        (False, "runtime_error", f"capability denied: {cap}")


@pytest.mark.parametrize("cap", sorted(PROGRAMS))
def test_an_undeclared_call_never_reaches_a_handler(cap):
    spy = Spy()
    result = run(undeclared(PROGRAMS[cap][0]), handlers=SpyConfig(spy))
    assert result.to_json()["message"] == f"capability denied: {cap}"
    assert spy.calls == []


def test_a_declaration_on_the_caller_does_not_cover_the_callee():
    source = ("fn now() -> Int { time_now() }\n"
              "fn main() -> Int !{time.now} { now() }")
    assert service.run_tool(source)["message"] == "capability denied: time.now"


def test_codegen_does_not_declare_the_capability():
    module = compile_source("fn main() -> Int { time_now() }")
    assert module.functions[0].capabilities == []


def test_a_user_function_of_the_same_name_wins():
    source = ('fn random() -> Int { 7 }\nfn fs_read(p: String) -> String { p ++ "!" }\n'
              'fn main() -> String { fs_read(__builtin_int_to_string(random())) }')
    assert service.run_tool(source)["result"] == "7!"


def test_map_new_builds_an_empty_map():
    source = ('fn main() -> Int { let m = __builtin_map_set(map_new(), "k", 2)\n'
              '__builtin_map_len(m) + __builtin_map_len(map_new()) }')
    assert service.run_tool(source)["result"] == 1


BUDGET = {"default_allow": False, "rules": {"time.now": {"allow": True, "budget": 3}}}


def test_budget_holds_in_a_loop():
    source = ("fn main() -> Int !{time.now} {\n let mut i = 0\n while i < 10 {\n"
              "  let t = time_now()\n  i = i + 1\n }\n i\n}")
    assert service.run_tool(source, policy=BUDGET)["message"] == \
        "capability budget exceeded: time.now"
    assert service.run_tool(source.replace("10", "3"), policy=BUDGET)["result"] == 3


def test_budget_holds_under_recursion():
    source = ("fn tick(n: Int) -> Int !{time.now} {\n"
              " if n == 0 { 0 } else { time_now() - time_now() + tick(n - 1) }\n}\n"
              "fn main() -> Int !{time.now} { tick(5) }")
    spy = Spy()
    result = run(source, BUDGET, handlers=SpyConfig(spy))
    assert result.to_json()["message"] == "capability budget exceeded: time.now"
    assert spy.calls == ["time.now"] * 3


def test_a_policy_rule_denies_one_capability_and_allows_another():
    policy = {"default_allow": True, "rules": {"net.fetch": {"allow": False, "budget": 0}}}
    assert service.run_tool(PROGRAMS["net.fetch"][0], policy=policy)["message"] == \
        "capability denied: net.fetch"
    assert service.run_tool(PROGRAMS["random"][0], policy=policy)["result"] == 0.42


def test_progress_names_the_capability():
    source = ("fn main() -> Int !{time.now} {\n let mut i = 0\n let mut t = 0\n"
              " while i < 40000 {\n  t = time_now()\n  i = i + 1\n }\n i\n}")
    messages = []
    service.run_tool(source, on_progress=lambda steps, message: messages.append(message))
    assert messages and messages[0].startswith("caps: time.now, time.now")


# ---------------------------------------------------------------- live, record, replay

def live_policy(*hosts):
    return {"default_allow": True, "net_policy": {"allowed_domains": list(hosts)}}


def fetch_program(url: str) -> str:
    return (f'fn main() -> String !{{net.fetch, time.now}} {{\n'
            f'  let body = net_fetch("{url}")\n'
            f'  emit body\n'
            f'  body ++ " @" ++ __builtin_int_to_string(time_now())\n}}')


def test_no_network_without_live(loopback):
    base, paths = loopback
    response = service.run_tool(fetch_program(base + "/hello"), policy=live_policy("127.0.0.1"))
    assert response["result"] == '{"mock": true, "url": ""' + base + '/hello""} @1700000000'
    assert paths == []


def test_live_needs_a_policy_that_allows_the_host(loopback):
    base, paths = loopback
    live = HandlerConfig(live=True)
    denied = service.run_tool(fetch_program(base + "/hello"), policy="deny-all", handlers=live)
    assert denied["message"] == "capability denied: net.fetch"
    other = service.run_tool(fetch_program(base + "/hello"), policy=live_policy("example.com"),
                             handlers=live)
    assert other["message"] == ("assertion failed: capability error: domain '127.0.0.1' not "
                                "in allowlist: [example.com]")
    assert paths == []


def test_live_record_then_replay_is_identical(loopback):
    base, paths = loopback
    source = fetch_program(base + "/hello")
    recorded = run(source, live_policy("127.0.0.1"), handlers=HandlerConfig(live=True),
                   record=True)
    assert recorded.success and recorded.result_json.startswith("hello from loopback @")
    assert paths == ["/hello"]
    tape = service.read_tape(recorded.tape())
    assert [c["capability"] for c in tape["calls"]] == ["net.fetch", "time.now"]
    assert tape["calls"][0] == {"capability": "net.fetch", "args": [base + "/hello"],
                                "result": "hello from loopback"}
    replayed = run(source, live_policy("127.0.0.1"), replay=tape)
    assert paths == ["/hello"]                    # the replay made no request
    assert replayed.to_json() == recorded.to_json()
    assert replayed.event_log_sha256 == recorded.event_log_sha256 == \
        tape["outcome"]["event_log_sha256"]
    assert replayed.tape_outcome() == tape["outcome"]


def test_a_replay_asking_for_another_call_fails_with_the_first_difference():
    source = PROGRAMS["fs.read"][0]
    tape = service.read_tape(run(source, record=True).tape())
    other = run(source.replace("notes.txt", "other.txt"), replay=tape)
    assert (other.error_kind, other.message) == (
        "replay_mismatch", 'replay mismatch at capability call 1: the tape has '
        'fs.read("notes.txt"), the program asked for fs.read("other.txt")')
    extra = run('fn main() -> String !{fs.read} { fs_read("notes.txt") ++ fs_read("b") }',
                replay=tape)
    assert extra.message == ('replay mismatch at capability call 2: the program asked for '
                             'fs.read("b"), the tape holds only 1 call(s)')
    fewer = run('fn main() -> String !{fs.read} { "none" }', replay=tape)
    assert fewer.message == ("replay mismatch: the program made 0 capability call(s), the "
                             "tape holds 1")


def test_a_replay_that_changes_the_outcome_fails():
    source = PROGRAMS["time.now"][0]
    tape = service.read_tape(run(source, record=True).tape())
    changed = run(source.replace("time_now()", "time_now() + 1"), replay=tape)
    assert changed.message == "replay mismatch: result differs: recorded 1700000000, replay 1700000001"


def test_db_rows_replay_with_the_same_event_log(tmp_path):
    import sqlite3

    db = tmp_path / "d.sqlite"
    conn = sqlite3.connect(db)
    conn.executescript("create table t (id integer, name text); insert into t values (1, 'a');"
                       "insert into t values (2, 'b');")
    conn.close()
    source = ('fn main() -> Int !{db.query} {\n let rows = db_query("select * from t")\n'
              ' emit rows\n list_len(rows)\n}')
    recorded = run(source, handlers=HandlerConfig(live=True, db=str(db)), record=True)
    assert recorded.to_json()["ui_output"] == [[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]]
    replayed = run(source, replay=service.read_tape(recorded.tape()))
    assert replayed.to_json() == recorded.to_json()
    assert replayed.event_log_sha256 == recorded.event_log_sha256


def test_a_handler_failure_is_recorded_and_replayed(tmp_path):
    live = HandlerConfig(live=True, fs_root=str(tmp_path))
    source = PROGRAMS["fs.read"][0]
    recorded = run(source, handlers=live, record=True)
    message = ("assertion failed: capability error: fs.read: cannot open notes.txt: "
               "No such file or directory")
    assert recorded.to_json()["message"] == message
    replayed = run(source, replay=service.read_tape(recorded.tape()))
    assert replayed.to_json() == recorded.to_json()


@pytest.mark.parametrize("text,message", [
    ("nope", "not a tape (invalid JSON: expected ident at line 1 column 2)"),
    ('{"format": "x"}', "not a tape (expected format 'boruna-capability-tape', version 2)"),
    ('{"format": "boruna-capability-tape", "version": 2, "calls": [1], "outcome": {}}',
     "not a tape (`calls` must be a list of {capability, args, result})"),
    ('{"format": "boruna-capability-tape", "version": 1, "calls": [], "outcome": {}}',
     "a version 1 tape carries no content hash; record it again with this boruna"),
    ('{"format": "boruna-capability-tape", "version": 2, "calls": [], "outcome": {}}',
     "not a tape (`sha256`, the content hash, is missing)"),
])
def test_a_malformed_tape_is_refused(text, message):
    with pytest.raises(service.TapeError) as info:
        service.read_tape(text)
    assert str(info.value) == message


def test_sealed_runs_verify_live_runs(loopback):
    base, paths = loopback
    response = service.run_sealed_tool(fetch_program(base + "/hello"),
                                       policy=live_policy("127.0.0.1"),
                                       handlers=HandlerConfig(live=True))
    assert response["replay_verified"] is True
    assert response["capability_calls"][0] == {"capability": "net.fetch",
                                               "args": [base + "/hello"]}
    assert response["result"].startswith("hello from loopback @")
    assert paths == ["/hello"]


def test_the_capability_ids_of_the_builtins():
    module = compile_source(PROGRAMS["net.fetch"][0])
    assert module.functions[0].code[1] == ("CapCall", by_wire_name("net.fetch").id, 1)
