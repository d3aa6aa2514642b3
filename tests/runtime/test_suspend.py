"""runtime/suspend.py: delegated calls, answers checked against the builtin's result type,
resume tokens sealed and opened, suspended runs that continue exactly (docs/snapshots.md)."""
import pytest

from boruna.compiler import compile_source
from boruna.core.values import MapValue
from boruna.runtime import suspend
from boruna.runtime.execute import run as execute
from boruna.runtime.gateway import EventLog
from boruna.runtime.handlers import MockHandler
from boruna.service.event_log import event_log_sha256

SRC = """fn main() -> String !{llm.call, net.fetch, time.now} {
    let t = time_now()
    let page = net_fetch("https://example.com/" ++ __builtin_int_to_string(t))
    let a: String = llm_call("summarise " ++ page)
    let mut i = 0
    while i < 300 { i = i + 1 }
    let b: String = llm_call("again " ++ a)
    a ++ "|" ++ b
}
"""
SETTINGS = {"policy": "allow-all", "delegated": ["llm.call"]}


class Answering(MockHandler):
    def __init__(self, answers):
        self.answers = list(answers)

    def handle(self, cap, args):
        if cap.wire_name == "llm.call":
            return self.answers.pop(0)
        return super().handle(cap, args)


def test_a_delegated_run_answered_twice_equals_a_run_whose_handler_answered():
    module = compile_source(SRC)
    log = EventLog()
    direct = execute(module, handler=Answering(["one", "two"]), event_log=log)
    stop = suspend.start(module, SETTINGS)
    assert stop.outcome is None and stop.pending[0] == "llm.call"
    assert stop.pending[1] == ['summarise {"mock": true, "url": ""https://example.com/1700000000""}']
    stop = suspend.resume(stop.suspended, "one", answered=True)
    assert stop.pending == ("llm.call", ["again one"])
    stop = suspend.resume(stop.suspended, "two", answered=True)
    out = stop.outcome
    assert (out.ok, out.result, out.steps) == (True, "one|two", direct.steps)
    assert out.capabilities_called == direct.capabilities_called == [
        "time.now", "net.fetch", "llm.call", "llm.call"]
    assert event_log_sha256(stop.log, module) == event_log_sha256(log, module)


def test_one_suspended_run_resumed_with_two_answers_forks():
    module = compile_source(SRC)
    first = suspend.start(module, SETTINGS).suspended
    a = suspend.resume(suspend.resume(first, "x", answered=True).suspended, "y", answered=True)
    b = suspend.resume(suspend.resume(first, "p", answered=True).suspended, "q", answered=True)
    assert (a.outcome.result, b.outcome.result) == ("x|y", "p|q")


def test_budgets_count_delegated_calls():
    module = compile_source(SRC)
    policy = {"default_allow": True, "rules": {"llm.call": {"allow": True, "budget": 1}}}
    stop = suspend.start(module, {"policy": policy, "delegated": ["llm.call"]})
    stop = suspend.resume(stop.suspended, "one", answered=True)
    assert stop.outcome.ok is False
    assert stop.outcome.error == "capability budget exceeded: llm.call"


def test_a_denied_capability_is_denied_before_it_is_delegated():
    module = compile_source(SRC)
    policy = {"default_allow": True, "rules": {"llm.call": {"allow": False, "budget": 0}}}
    stop = suspend.start(module, {"policy": policy, "delegated": ["llm.call"]})
    assert stop.outcome is not None and "llm.call" in stop.outcome.error


@pytest.mark.parametrize("cap, answer, message", [
    ("net.fetch", 5, "expected String at $, got an integer"),
    ("fs.write", "yes", "expected Bool at $, got a string"),
    ("time.now", 1.5, "expected Int at $, got a number"),
    ("time.now", True, "expected Int at $, got a boolean"),
    ("time.now", 2 ** 64, "does not fit in 64 bits"),
    ("db.query", {"a": 1}, "expected List<Map<String, Dynamic>> at $, got an object"),
    ("db.query", [{"a": 1}, 3], "expected Map<String, Dynamic> at $[1], got an integer"),
])
def test_answers_of_the_wrong_type_are_refused_with_their_path(cap, answer, message):
    with pytest.raises(suspend.SuspendError, match=message.replace("$", r"\$").replace(
            "[", r"\[").replace("]", r"\]")) as err:
        suspend.answer_value(cap, answer)
    assert err.value.kind == "invalid_answer"


def test_answers_become_vm_values():
    assert suspend.answer_value("random", 1) == 1
    assert suspend.answer_value("db.query", [{"n": 1, "s": [True, None]}]) == (
        MapValue({"n": 1, "s": (True, None)}),)
    deep = []
    for _ in range(5000):
        deep = [deep]
    value = suspend.answer_value("llm.call", deep)
    for _ in range(5000):
        value = value[0]
    assert value == ()


def test_a_wrong_answer_leaves_the_suspended_run_usable():
    module = compile_source('fn main() -> Bool !{fs.write} { fs_write("f", "text") }')
    stop = suspend.start(module, {"policy": "allow-all", "delegated": ["fs.write"]})
    with pytest.raises(suspend.SuspendError, match="expected Bool"):
        suspend.resume(stop.suspended, "nope", answered=True)
    again = suspend.resume(stop.suspended, True, answered=True)
    assert (again.outcome.ok, again.outcome.result) == (True, True)


def test_tokens_open_only_with_their_key():
    module = compile_source(SRC)
    run = suspend.start(module, SETTINGS).suspended
    sealer = suspend.Sealer()
    token = sealer.seal(run)
    opened = sealer.open(token)
    assert opened.snapshot == run.snapshot and opened.settings == run.settings
    for bad in (token[:-4] + "AAAA", token.replace("bst1", "bst2"), "x", token + ".x",
                token[:40] + token[41:]):
        with pytest.raises(suspend.SuspendError, match="invalid resume token") as err:
            sealer.open(bad)
        assert err.value.kind == "invalid_resume_token"
    with pytest.raises(suspend.SuspendError, match="not sealed by this server"):
        suspend.Sealer().open(token)
    assert suspend.Sealer(sealer.key).open(token).snapshot == run.snapshot


def test_suspended_run_files_check_their_digest():
    module = compile_source(SRC)
    data = suspend.start(module, SETTINGS).suspended.to_bytes()
    assert suspend.SuspendedRun.from_bytes(data).snapshot
    for k in range(0, len(data), max(1, len(data) // 300)):
        bad = bytearray(data)
        bad[k] ^= 1
        with pytest.raises(suspend.SuspendError):
            suspend.SuspendedRun.from_bytes(bytes(bad))


def test_delegated_names_read_aliases_and_refuse_the_rest():
    assert suspend.delegated_names({"llm": "client", "net.fetch": "client"}) == (
        "llm.call", "net.fetch")
    with pytest.raises(suspend.SuspendError, match="unknown capability 'nope'"):
        suspend.delegated_names({"nope": "client"})
    with pytest.raises(suspend.SuspendError, match='can only be answered by "client"'):
        suspend.delegated_names({"llm.call": "server"})


def test_pause_after_stops_and_continues_to_the_same_end():
    module = compile_source(SRC)
    whole = execute(module)
    stop = suspend.start(module, {"policy": "allow-all"}, pause_after=50)
    assert stop.steps == 50 and stop.pending is None
    done = suspend.resume(stop.suspended)
    assert (done.outcome.error, done.outcome.steps) == (whole.error, whole.steps)
