"""Framework pieces that need no VM: message parsing, effects and the App policy
(docs/spec/tooling.md §3.4–§3.5, §7.4 T2)."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boruna.core.values import Record
from boruna.framework import (AppPolicy, FrameworkError, parse_effects, parse_message,
                              split_message_list)


def eff(kind, payload="p", cb="cb"):
    return Record(3, (kind, payload, cb))


@pytest.mark.parametrize("raw, tag, payload", [
    ("inc", "inc", 0), ("inc:", "inc", ""), ("  inc:7  ", "inc", 7), ("inc : 7", "inc ", 7),
    ("set:hello world", "set", "hello world"), ("a:b:c", "a", "b:c"), ("n:+3", "n", 3),
    ("n:007", "n", 7), ("n:-0", "n", 0), ("n:1.5", "n", "1.5"),
    ("n:99999999999999999999", "n", "99999999999999999999"), ("n:1_0", "n", "1_0"),
    ("n:-", "n", "-"), (":x", "", "x"),
    ("n:9223372036854775807", "n", 9223372036854775807),
    ("n:-9223372036854775808", "n", -9223372036854775808),
    ("n:9223372036854775808", "n", "9223372036854775808"),
    ("n:\u0661\u0662", "n", "\u0661\u0662"),       # Arabic-Indic digits stay text
    ("n:+-1", "n", "+-1"), ("n: 4 2", "n", "4 2"), ("", "", 0),
    ("\u3000go\u3000", "go", 0), ("\x1cgo", "\x1cgo", 0),
])
def test_t2_message_parsing(raw, tag, payload):
    got = parse_message(raw)
    assert got == (tag, payload)
    assert type(got[1]) is type(payload)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=-(2 ** 63), max_value=2 ** 63 - 1))
def test_every_i64_payload_round_trips(n):
    assert parse_message(f"t:{n}") == ("t", n)


def test_message_list_forms():
    assert split_message_list("a:1,b,c:x") == ["a:1", "b", "c:x"]
    assert split_message_list("") == []
    assert split_message_list(["x:1, 2"]) == ["x:1, 2"]
    with pytest.raises(TypeError):
        split_message_list([1])


def test_t4_effect_parsing_counts_known_kinds_and_reports_the_rest():
    value = (eff("http_request"), eff("storage_write"), eff("emit_ui"), eff("timer"),
             Record(3, ("db_query", "q")), "junk", Record(3, (7, "p", "cb")))
    effects, ignored = parse_effects(value)
    assert [e.kind.kind for e in effects] == ["http_request", "emit_ui", "timer"]
    assert [i.to_dict() for i in ignored] == [
        {"index": 1, "kind": "storage_write", "reason": "unknown effect kind"},
        {"index": 4, "kind": None, "reason": "not an effect record [kind, payload, callback_tag]"},
        {"index": 5, "kind": None, "reason": "not an effect record [kind, payload, callback_tag]"},
        {"index": 6, "kind": None, "reason": "not an effect record [kind, payload, callback_tag]"}]


def test_effect_fields_and_legacy_list_encoding():
    effects, _ = parse_effects(Record(0xFFFF, (Record(1, ("db_query", 5, 9)),)))
    assert effects[0].payload == 5 and effects[0].callback_tag == ""
    assert effects[0].kind.variant == "DbQuery" and effects[0].kind.capability == "db.query"
    assert parse_effects("not a list") == ([], [])
    assert parse_effects(Record(2, (eff("timer"),))) == ([], [])


def policy_of(caps, max_effects=0, max_steps=1000):
    return AppPolicy.from_value(Record(9, (tuple(caps), max_effects, max_steps)))


def check_message(policy, *kinds):
    effects, _ = parse_effects(tuple(eff(k) for k in kinds))
    with pytest.raises(FrameworkError) as info:
        policy.check(effects)
    return info.value.message


def test_t5_missing_capability():
    assert check_message(policy_of(["db.query"], 1), "http_request") == (
        "policy violation: effect HttpRequest requires capability 'net.fetch' which is not in "
        "the policy")


def test_t6_count_limit_checked_first():
    assert check_message(policy_of(["db.query"], 1), "db_query", "http_request") == (
        "policy violation: too many effects: 2 exceeds limit of 1")


def test_t7_empty_capability_list_fails_closed():
    assert check_message(policy_of([], 0), "db_query") == (
        "policy violation: effect DbQuery requires capability 'db.query' which is not in the "
        "policy")


def test_policy_reading_is_positional_and_lenient():
    p = AppPolicy.from_value(Record(4, (("net.fetch", 3, "db"), -1, "x")))
    assert p.capabilities == ("net.fetch", "db")
    assert p.max_effects == -1 and p.max_steps == 10_000_000
    effects, _ = parse_effects(tuple(eff("db_query") for _ in range(50)))
    p.check(effects)                      # negative limit = unlimited; `db` alias allowed
    empty = AppPolicy.from_value(5)
    assert empty.capabilities == () and empty.max_effects == 0
    assert AppPolicy.from_value(Record(1, ())).capabilities == ()
    allow = AppPolicy.allow_all()
    allow.check(parse_effects(tuple(eff(k) for k in (
        "http_request", "db_query", "fs_read", "fs_write", "timer", "random", "spawn_actor",
        "emit_ui", "llm_call", "send_to_actor")))[0])


def test_policy_override_mapping():
    p = AppPolicy.from_mapping({"capabilities": ["time.now"], "max_effects": 2})
    assert p.allows("time.now") and not p.allows("net.fetch") and p.max_steps == 10_000_000
    for bad in ({"capabilities": "x"}, {"capabilities": [], "max_effects": "2"}):
        with pytest.raises(ValueError):
            AppPolicy.from_mapping(bad)
