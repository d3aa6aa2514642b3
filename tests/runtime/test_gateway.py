"""CapabilityGateway: check order, messages, budgets, event log (docs/spec/vm.md §5.3, docs/spec/policy.md §7)."""
import pytest

from boruna.core.capabilities import STEP_INPUT, TIME_NOW, by_wire_name
from boruna.core.errors import VmError
from boruna.runtime.gateway import CapabilityGateway, EventLog
from boruna.service.running import progress_message
from boruna.runtime.handlers import HandlerError, ReplayHandler
from boruna.runtime.policy import Policy, parse_policy


def _fail(gateway, declared, cap_id, args=()):
    with pytest.raises(VmError) as info:
        gateway.call(declared, cap_id, list(args))
    return info.value


def test_allow_all_returns_the_mock_value_and_logs_two_events():
    gw = CapabilityGateway(Policy.allow_all())
    assert gw.call([STEP_INPUT], STEP_INPUT, ["x"]) == ""
    assert gw.log.events == [
        {"event": "cap_call", "capability": "step.input", "args": ["x"]},
        {"event": "cap_result", "capability": "step.input", "result": ""},
    ]
    assert gw.usage == {"step.input": 1}
    assert gw.called == ["step.input"]


def test_default_policy_is_allow_all_with_the_mock_handler():
    gw = CapabilityGateway()
    assert gw.call([TIME_NOW], TIME_NOW, []) == 1700000000


def test_deny_all_denies_and_does_not_count():
    gw = CapabilityGateway(Policy.deny_all())
    err = _fail(gw, [STEP_INPUT], STEP_INPUT, ["x"])
    assert err.message == "capability denied: step.input"
    assert err.kind == "capability_denied" and err.capability == "step.input"
    assert gw.usage == {} and gw.log.events == [] and gw.called == []


def test_undeclared_capability_is_denied_whatever_the_policy():
    gw = CapabilityGateway(Policy.allow_all())
    assert _fail(gw, [], STEP_INPUT).message == "capability denied: step.input"
    assert _fail(gw, [TIME_NOW], STEP_INPUT).message == "capability denied: step.input"
    assert gw.usage == {}


def test_unknown_id_is_checked_before_the_declaration():
    gw = CapabilityGateway(Policy.deny_all())
    assert _fail(gw, [], 11).message == "unknown capability id: 11"
    assert _fail(gw, [], 4294967295).message == "unknown capability id: 4294967295"


def test_declared_lists_may_use_names_or_variants():
    gw = CapabilityGateway(Policy.allow_all())
    assert gw.call(["step_input"], STEP_INPUT, ["a"]) == ""
    assert gw.call(["StepInput"], STEP_INPUT, ["a"]) == ""
    assert gw.call([by_wire_name("time.now")], TIME_NOW, []) == 1700000000


@pytest.mark.parametrize("budget, allowed_calls", [(1, 1), (2, 2), (3, 3)])
def test_budget_of_n_allows_exactly_n_calls(budget, allowed_calls):
    policy = parse_policy({"rules": {"step.input": {"allow": True, "budget": budget}}})
    gw = CapabilityGateway(policy)
    for _ in range(allowed_calls):
        assert gw.call([STEP_INPUT], STEP_INPUT, ["x"]) == ""
    err = _fail(gw, [STEP_INPUT], STEP_INPUT, ["x"])
    assert err.message == "capability budget exceeded: step.input"
    assert err.kind == "capability_budget_exceeded"
    assert gw.usage["step.input"] == allowed_calls + 1
    assert len(gw.log.events) == 2 * allowed_calls


def test_budget_zero_is_unlimited():
    policy = parse_policy({"rules": {"step.input": {"allow": True, "budget": 0}}})
    gw = CapabilityGateway(policy)
    for _ in range(50):
        gw.call([STEP_INPUT], STEP_INPUT, ["x"])
    assert gw.usage == {"step.input": 50}


def test_rule_overrides_default_allow_both_ways():
    allow_list = parse_policy({"rules": {"time.now": {"allow": True, "budget": 0}}})
    gw = CapabilityGateway(allow_list)
    assert gw.call([TIME_NOW, STEP_INPUT], TIME_NOW, []) == 1700000000
    assert _fail(gw, [TIME_NOW, STEP_INPUT], STEP_INPUT).message == "capability denied: step.input"
    deny_list = parse_policy({"default_allow": True,
                              "rules": {"time.now": {"allow": False, "budget": 0}}})
    gw = CapabilityGateway(deny_list)
    assert _fail(gw, [TIME_NOW], TIME_NOW).message == "capability denied: time.now"
    assert gw.call([STEP_INPUT], STEP_INPUT, ["x"]) == ""


def test_denied_rule_with_budget_still_denies_first():
    policy = parse_policy({"rules": {"step.input": {"allow": False, "budget": 1}}})
    gw = CapabilityGateway(policy)
    assert _fail(gw, [STEP_INPUT], STEP_INPUT).message == "capability denied: step.input"


def test_handler_failure_becomes_an_assertion_error_after_the_call_is_logged():
    gw = CapabilityGateway(Policy.allow_all(), ReplayHandler([]))
    err = _fail(gw, [STEP_INPUT], STEP_INPUT, ["x"])
    assert err.message == "assertion failed: capability error: replay log exhausted"
    assert gw.log.events == [{"event": "cap_call", "capability": "step.input", "args": ["x"]}]
    assert gw.called == []


class _Boom:
    def handle(self, cap, args):
        raise HandlerError(f"no {cap.wire_name}")


def test_custom_handler_errors():
    gw = CapabilityGateway(Policy.allow_all(), _Boom())
    assert _fail(gw, [TIME_NOW], TIME_NOW).message == (
        "assertion failed: capability error: no time.now")


def test_drain_called_and_progress_messages():
    gw = CapabilityGateway(Policy.allow_all())
    assert gw.drain_called() == []
    gw.call([STEP_INPUT], STEP_INPUT, ["a"])
    gw.call([STEP_INPUT, TIME_NOW], TIME_NOW, [])
    gw.call([STEP_INPUT], STEP_INPUT, ["b"])
    names = gw.drain_called()
    assert names == ["step.input", "time.now", "step.input"]
    assert progress_message(names) == "caps: step.input, time.now, step.input"
    assert gw.drain_called() == []
    gw.call([STEP_INPUT], STEP_INPUT, ["c"])
    assert progress_message(gw.drain_called()) == "cap: step.input"
    assert progress_message([]) is None


def test_event_log_records_every_kind_and_replays_results():
    log = EventLog()
    log.cap_call("random", [1])
    log.cap_result("random", 0.42)
    log.ui_emit((1,))
    log.contract_check("half", "requires", 0, True)
    assert [e["event"] for e in log.events] == [
        "cap_call", "cap_result", "ui_emit", "contract_check"]
    assert log.events[2] == {"event": "ui_emit", "tree": (1,)}
    assert log.capability_results() == [0.42]
    assert log.capabilities_called() == ["random"]
    assert log.version == 2 and len(log) == 4
