"""ActorSystem running compiled `.ax` programs on the real VM (vm.md §7)."""
import pytest

from boruna.compiler import compile_source
from boruna.runtime.actors import ActorSystem
from boruna.core.errors import VmError
from boruna.runtime.gateway import CapabilityGateway
from boruna.runtime.policy import Policy
from boruna.core.values import ActorId, Err


def _run(source, policy=None, **kw):
    module = compile_source(source)
    system = ActorSystem(**kw)
    system.spawn_root(module, CapabilityGateway(policy or Policy.allow_all()))
    return system, system.run()


def _kinds(system):
    return [e["event"] for e in system.event_log.events]


def test_message_reaches_a_spawned_worker():
    system, result = _run(
        "fn worker() -> Int {\n"
        "    let m = receive\n"
        "    m + 1\n"
        "}\n"
        "fn main() -> Int {\n"
        "    let w = spawn worker\n"
        "    send w 41\n"
        "    7\n"
        "}\n")
    assert result == 7
    assert system.actor_count == 2
    assert system.status_of(1) == "completed"
    assert system.result_of(1) == 42
    assert system.event_log.events[:4] == [
        {"event": "scheduler_tick", "round": 0, "active_actor": 0},
        {"event": "actor_spawn", "actor_id": 1, "function": "worker"},
        {"event": "message_send", "from": 0, "to": 1, "payload": 41},
        {"event": "message_receive", "actor_id": 1, "payload": 41},
    ]


def test_spawned_ids_are_sequential_and_forwarding_works():
    system, result = _run(
        "fn sink() -> Int {\n"
        "    let m = receive\n"
        "    m * 2\n"
        "}\n"
        "fn relay() -> Int {\n"
        "    let target = receive\n"
        "    send target 21\n"
        "    0\n"
        "}\n"
        "fn main() -> List<ActorId> {\n"
        "    let s = spawn sink\n"
        "    let r = spawn relay\n"
        "    send r s\n"
        "    [s, r]\n"
        "}\n")
    assert result == (ActorId(1), ActorId(2))
    assert system.result_of(1) == 42
    spawns = [(e["actor_id"], e["function"]) for e in system.event_log.events
              if e["event"] == "actor_spawn"]
    assert spawns == [(1, "sink"), (2, "relay")]


def test_a_failing_child_sends_err_to_its_parent():
    system, result = _run(
        "fn bad() -> Int {\n"
        "    let z = 0\n"
        "    10 / z\n"
        "}\n"
        "fn main() -> String {\n"
        "    let w = spawn bad\n"
        "    let r = receive\n"
        "    match r {\n"
        "        Err(e) => e,\n"
        "        _ => \"no error\",\n"
        "    }\n"
        "}\n")
    assert result == "division by zero"
    assert system.status_of(1) == "failed"
    sends = [e for e in system.event_log.events if e["event"] == "message_send"]
    assert sends == [{"event": "message_send", "from": 1, "to": 0,
                      "payload": Err("division by zero")}]


def test_child_capability_calls_use_the_root_policy():
    source = ("fn asker() -> String !{step.input} {\n"
              "    step_input(\"x\")\n"
              "}\n"
              "fn main() -> Int {\n"
              "    let w = spawn asker\n"
              "    1\n"
              "}\n")
    system, result = _run(source, Policy.allow_all())
    assert result == 1
    assert system.result_of(1) == ""
    child_log = system._by_id[1].gateway.log.events
    assert child_log == [
        {"event": "cap_call", "capability": "step.input", "args": ["x"]},
        {"event": "cap_result", "capability": "step.input", "result": ""},
    ]


def test_denied_capability_in_a_child_reports_the_denial_to_the_parent():
    system, result = _run(
        "fn asker() -> String !{step.input} {\n"
        "    step_input(\"x\")\n"
        "}\n"
        "fn main() -> String {\n"
        "    let w = spawn asker\n"
        "    let r = receive\n"
        "    match r {\n"
        "        Err(e) => e,\n"
        "        _ => \"ok\",\n"
        "    }\n"
        "}\n", Policy.deny_all())
    assert result == "capability denied: step.input"


def test_blocked_child_deadlocks_even_though_the_root_finished():
    with pytest.raises(VmError) as info:
        _run("fn waiter() -> Int {\n"
             "    receive\n"
             "}\n"
             "fn main() -> Int {\n"
             "    let w = spawn waiter\n"
             "    5\n"
             "}\n")
    assert info.value.message == "deadlock: all actors blocked with no pending messages"


def test_root_error_aborts_the_run():
    with pytest.raises(VmError) as info:
        _run("fn main() -> Int {\n"
             "    let z = 0\n"
             "    1 / z\n"
             "}\n")
    assert info.value.message == "division by zero"


def test_max_rounds():
    with pytest.raises(VmError) as info:
        _run("fn main() -> Int {\n"
             "    let mut i = 0\n"
             "    while true {\n"
             "        i = i + 1\n"
             "    }\n"
             "    i\n"
             "}\n", max_rounds=4, budget_per_round=50)
    assert info.value.message == "max scheduler rounds exceeded (4)"


def test_scheduling_is_deterministic():
    source = ("fn w() -> Int {\n"
              "    let a = receive\n"
              "    let b = receive\n"
              "    a + b\n"
              "}\n"
              "fn main() -> Int {\n"
              "    let x = spawn w\n"
              "    let y = spawn w\n"
              "    send x 1\n"
              "    send y 10\n"
              "    send x 2\n"
              "    send y 20\n"
              "    0\n"
              "}\n")
    first, _ = _run(source)
    second, _ = _run(source)
    assert first.event_log.events == second.event_log.events
    assert (first.result_of(1), first.result_of(2)) == (3, 30)
