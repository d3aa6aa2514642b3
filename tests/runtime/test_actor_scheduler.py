"""ActorSystem scheduling (vm.md §7) on a scripted stand-in for the VM's Machine.

Each fake function is a generator: `yield PAUSE` ends a slice, `yield from
ctx.receive()` blocks until mail arrives, `return v` finishes, raising VmError fails.
"""
from types import SimpleNamespace

import pytest

from boruna.runtime import actors
from boruna.runtime.actors import ActorSystem
from boruna.core.errors import VmError
from boruna.runtime.gateway import CapabilityGateway
from boruna.runtime.policy import Policy
from boruna.core.values import ActorId, Err

FINISHED, PAUSED, FAILED, BLOCKED = (actors._vm_status(n, i) for i, n in
                                     enumerate(("FINISHED", "PAUSED", "FAILED", "BLOCKED")))
PAUSE = "pause"


class Ctx:
    def __init__(self, machine):
        self.m = machine

    def spawn(self, fn_index):
        aid = ActorId(self.m.next_spawn_id)
        self.m.next_spawn_id += 1
        self.m.spawn_requests.append(fn_index)
        return aid

    def send(self, target, payload):
        self.m.outgoing.append((target.id if isinstance(target, ActorId) else target, payload))

    def receive(self):
        while not self.m.mailbox:
            yield "block"
        return self.m.mailbox.pop(0)


class FakeMachine:
    def __init__(self, module, gateway, max_steps):
        self.module, self.gateway = module, gateway
        self.actor_id = 0
        self.in_actor = False
        self.next_spawn_id = 0
        self.spawn_requests, self.outgoing, self.mailbox = [], [], []
        self.result = self.error = self.error_obj = None
        self.ui_output = []
        self.gen = None
        self.slices = 0

    def set_entry(self, fn_index, args=()):
        if self.gen is None:
            self.gen = self.module.functions[fn_index].script(Ctx(self))

    def execute_bounded(self, budget):
        self.slices += 1
        try:
            signal = next(self.gen)
        except StopIteration as stop:
            self.result = stop.value
            return FINISHED
        except VmError as exc:
            self.error, self.error_obj = exc.message, exc
            return FAILED
        return BLOCKED if signal == "block" else PAUSED

    def deliver(self, payload):
        self.mailbox.append(payload)


def _module(*scripts, entry=0):
    fns = [SimpleNamespace(name=s.__name__, script=s) for s in scripts]
    return SimpleNamespace(functions=fns, entry=entry)


def _system(module, **kw):
    system = ActorSystem(machine_factory=FakeMachine, **kw)
    system.spawn_root(module, CapabilityGateway(Policy.allow_all()))
    return system


def _events(system):
    return [tuple(v for k, v in e.items()) for e in system.event_log.events]


def test_single_actor_returns_its_result():
    def main(ctx):
        yield PAUSE
        return 7
    system = _system(_module(main))
    assert system.run() == 7
    assert _events(system) == [("scheduler_tick", 0, 0), ("scheduler_tick", 1, 0)]
    assert system.rounds == 3


def test_no_root_means_unit():
    assert ActorSystem(machine_factory=FakeMachine).run() is None


def test_ping_pong_ids_order_and_event_log():
    def main(ctx):
        w = ctx.spawn(1)
        ctx.send(w, "ping")
        reply = yield from ctx.receive()
        return reply

    def worker(ctx):
        msg = yield from ctx.receive()
        ctx.send(0, msg + "/pong")
        return 1

    system = _system(_module(main, worker))
    assert system.run() == "ping/pong"
    assert _events(system) == [
        ("scheduler_tick", 0, 0),
        ("actor_spawn", 1, "worker"),
        ("message_send", 0, 1, "ping"),
        ("message_receive", 1, "ping"),
        ("scheduler_tick", 1, 1),
        ("message_send", 1, 0, "ping/pong"),
        ("message_receive", 0, "ping/pong"),
        ("scheduler_tick", 2, 0),
    ]
    assert system.status_of(1) == "completed" and system.result_of(1) == 1
    assert system.actor_count == 2


def test_delivery_is_sorted_by_target_then_sender():
    def main(ctx):
        a = ctx.spawn(1)
        b = ctx.spawn(1)
        ctx.send(b, "m->b")
        ctx.send(a, "m->a")
        yield PAUSE
        return None

    def child(ctx):
        me = ctx.m.actor_id
        ctx.send(1, f"{me}->1")
        ctx.send(2, f"{me}->2")
        got = []
        while len(got) < 3:
            got.append((yield from ctx.receive()))
        return tuple(got)

    system = _system(_module(main, child))
    system.run()
    sends = [e[1:] for e in _events(system) if e[0] == "message_send"]
    assert sends == [(0, 1, "m->a"), (0, 2, "m->b"),
                     (1, 1, "1->1"), (2, 1, "2->1"), (1, 2, "1->2"), (2, 2, "2->2")]
    assert system.result_of(1) == ("m->a", "1->1", "2->1")
    assert system.result_of(2) == ("m->b", "1->2", "2->2")


def test_spawned_ids_continue_across_actors():
    def main(ctx):
        ctx.spawn(1)
        yield PAUSE
        ctx.spawn(2)
        return None

    def mid(ctx):
        ctx.spawn(2)
        return None
        yield

    def leaf(ctx):
        return ctx.m.actor_id
        yield

    system = _system(_module(main, mid, leaf))
    system.run()
    spawns = [e[1:] for e in _events(system) if e[0] == "actor_spawn"]
    assert spawns == [(1, "mid"), (2, "leaf"), (3, "leaf")]
    assert system.result_of(3) == 3


def test_blocked_child_deadlocks_even_after_the_root_finished():
    def main(ctx):
        ctx.spawn(1)
        return 5
        yield

    def waiter(ctx):
        yield from ctx.receive()

    system = _system(_module(main, waiter))
    with pytest.raises(VmError) as info:
        system.run()
    assert info.value.message == "deadlock: all actors blocked with no pending messages"


def test_max_rounds():
    def spin(ctx):
        while True:
            yield PAUSE

    system = _system(_module(spin), max_rounds=5)
    with pytest.raises(VmError) as info:
        system.run()
    assert info.value.message == "max scheduler rounds exceeded (5)"
    assert system.root_machine().slices == 5


def test_child_failure_notifies_parent_and_cascades():
    def main(ctx):
        ctx.spawn(1)
        note = yield from ctx.receive()
        return note

    def child(ctx):
        ctx.spawn(2)
        yield PAUSE
        raise VmError("division by zero")

    def grandchild(ctx):
        while True:
            yield PAUSE

    system = _system(_module(main, child, grandchild))
    result = system.run()
    assert result == Err("division by zero")
    assert system.status_of(1) == "failed" and system.status_of(2) == "failed"


def test_failed_actor_spawns_and_messages_are_dropped():
    def main(ctx):
        ctx.spawn(1)
        return (yield from ctx.receive())

    def child(ctx):
        ctx.spawn(1)
        ctx.send(0, "lost")
        raise VmError("boom")
        yield

    system = _system(_module(main, child))
    assert system.run() == Err("boom")
    assert system.actor_count == 2
    assert [e for e in _events(system) if e[0] == "message_send"] == [
        ("message_send", 1, 0, Err("boom"))]


def test_root_failure_aborts_the_run():
    def main(ctx):
        ctx.spawn(1)
        yield PAUSE
        raise VmError("type error: expected Int, got String")

    def child(ctx):
        while True:
            yield PAUSE

    system = _system(_module(main, child))
    with pytest.raises(VmError) as info:
        system.run()
    assert info.value.message == "type error: expected Int, got String"
    assert system.status_of(1) == "failed"


def test_invalid_spawn_target_fails_the_requester():
    def main(ctx):
        ctx.spawn(1)
        return (yield from ctx.receive())

    def child(ctx):
        ctx.spawn(9)
        ctx.send(0, "not delivered")
        yield PAUSE

    system = _system(_module(main, child))
    assert system.run() == Err("invalid function index: 9")
    assert system.actor_count == 2
    assert [e for e in _events(system) if e[0] == "message_send"] == [
        ("message_send", 1, 0, Err("invalid function index: 9"))]


def test_invalid_spawn_target_from_root_is_the_run_error():
    def main(ctx):
        ctx.spawn(4)
        return 1
        yield

    with pytest.raises(VmError) as info:
        _system(_module(main)).run()
    assert info.value.message == "invalid function index: 4"


def test_actor_failed_by_a_cascade_does_not_run_later_in_the_same_round():
    def main(ctx):
        ctx.spawn(1)
        yield PAUSE
        return (yield from ctx.receive())

    def parent(ctx):
        ctx.spawn(2)
        yield PAUSE
        raise VmError("parent died")

    def late(ctx):
        while True:
            ctx.m.result = "still running"
            yield PAUSE

    system = _system(_module(main, parent, late))
    assert system.run() == Err("parent died")
    machine = system._by_id[2].machine
    # actor 2 was queued for round 2, but its parent failed first in that round: skipped
    assert machine.slices == 0
    assert system.status_of(2) == "failed"


def test_external_send_and_child_gateways():
    def main(ctx):
        return (yield from ctx.receive())

    policy = Policy.deny_all()
    system = ActorSystem(machine_factory=FakeMachine)
    system.spawn_root(_module(main), CapabilityGateway(policy))
    system.send(0, "hello", sender=99)
    assert system.run() == "hello"
    assert system.root_machine().in_actor is True


def test_children_get_fresh_gateways_with_the_root_policy():
    def main(ctx):
        ctx.spawn(1)
        return None
        yield

    def child(ctx):
        return None
        yield

    policy = Policy.deny_all()
    system = ActorSystem(machine_factory=FakeMachine)
    root_gw = CapabilityGateway(policy)
    system.spawn_root(_module(main, child), root_gw)
    system.run()
    child_gw = system._by_id[1].gateway
    assert child_gw is not root_gw and child_gw.policy is policy
