"""The deterministic actor scheduler (vm.md §7), driving one `Machine` per actor.

Rounds: every runnable actor (creation order) runs one `execute_bounded` slice;
then spawn requests become children, outgoing messages are queued, pending
messages are delivered sorted by (to, from), and blocked actors with mail wake
up. The scheduler's own events (ticks, spawns, message sends/receives) go to
`ActorSystem.event_log`; each actor's capability events stay in its gateway.

Machine actor-mode surface used beyond docs/architecture.md's `Machine` API:
attributes `in_actor`, `actor_id`, `next_spawn_id`, `spawn_requests` (list of
function indices), `outgoing` (list of `(to, payload)`), `mailbox` (sized), the
method `deliver(payload)`, and `error_obj` (the failing VmError).
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from boruna.core import errors
from boruna.core.errors import VmError
from boruna.runtime.gateway import CapabilityGateway, EventLog
from boruna.runtime.handlers import MockHandler
from boruna.core.values import Err

DEFAULT_MAX_ROUNDS = 10_000
DEFAULT_BUDGET_PER_ROUND = 1000
DEFAULT_MAX_STEPS = 10_000_000

RUNNABLE, BLOCKED, COMPLETED, FAILED = "runnable", "blocked", "completed", "failed"


def _vm_status(name: str, fallback: int) -> int:
    try:
        from boruna import _vm
    except ImportError:  # extension not built: statuses only matter to fake machines
        return fallback
    return getattr(_vm, name, fallback)


class _Actor:
    __slots__ = ("id", "machine", "gateway", "status", "parent", "children", "result")

    def __init__(self, actor_id: int, machine, gateway, parent: Optional[int]):
        self.id = actor_id
        self.machine = machine
        self.gateway = gateway
        self.status = RUNNABLE
        self.parent = parent
        self.children: list[int] = []
        self.result: Any = None


def _default_machine_factory(module, gateway, max_steps: int):
    from boruna._vm import Machine
    return Machine(module, gateway=gateway, max_steps=max_steps)


def _machine_error(machine) -> VmError:
    """The VmError a FAILED machine stopped with."""
    err = getattr(machine, "error_obj", None)
    if isinstance(err, VmError):
        return err
    message = getattr(machine, "error", None)
    return VmError(str(message) if message is not None else "unknown error")


def _take(machine, attr: str) -> list:
    """Return and clear one of the machine's per-slice request lists."""
    items = list(getattr(machine, attr))
    getattr(machine, attr).clear()
    return items


class ActorSystem:
    """Run a module's entry function as actor 0 plus every actor it spawns."""

    def __init__(self, *, max_rounds: int = DEFAULT_MAX_ROUNDS,
                 budget_per_round: int = DEFAULT_BUDGET_PER_ROUND,
                 max_steps: int = DEFAULT_MAX_STEPS,
                 machine_factory: Optional[Callable] = None):
        self.max_rounds = max_rounds
        self.budget_per_round = budget_per_round
        self.max_steps = max_steps
        self._factory = machine_factory or _default_machine_factory
        self._actors: list[_Actor] = []
        self._by_id: dict[int, _Actor] = {}
        self._next_id = 0
        self._pending: list[tuple[int, int, Any]] = []   # (from, to, payload)
        self._policy = None
        self._module = None
        self.event_log = EventLog()
        self.rounds = 0
        self._finished = _vm_status("FINISHED", 0)
        self._paused = _vm_status("PAUSED", 1)
        self._failed = _vm_status("FAILED", 2)
        self._blocked = _vm_status("BLOCKED", 3)

    # ─── setup ───

    def spawn_root(self, module, gateway: Optional[CapabilityGateway] = None) -> int:
        """Create actor 0 running `module.entry`; its gateway's policy is reused for
        every child (each child gets a fresh MockHandler gateway)."""
        if self._actors:
            raise ValueError("root actor already spawned")
        gateway = gateway if gateway is not None else CapabilityGateway()
        self._policy = gateway.policy
        self._module = module
        actor_id = self._next_id
        self._next_id += 1
        machine = self._factory(module, gateway, self.max_steps)
        machine.actor_id = actor_id
        machine.next_spawn_id = self._next_id
        self._add(_Actor(actor_id, machine, gateway, None))
        return actor_id

    def send(self, to: int, payload: Any, sender: int = 0) -> None:
        """Queue an external message; it is delivered at the end of the next round."""
        self._pending.append((sender, to, payload))

    def _add(self, actor: _Actor) -> None:
        self._actors.append(actor)
        self._by_id[actor.id] = actor

    # ─── inspection ───

    @property
    def actor_count(self) -> int:
        return len(self._actors)

    def root_machine(self):
        return self._actors[0].machine if self._actors else None

    def root_ui_output(self) -> list:
        return list(self._actors[0].machine.ui_output) if self._actors else []

    def status_of(self, actor_id: int) -> Optional[str]:
        actor = self._by_id.get(actor_id)
        return actor.status if actor is not None else None

    def result_of(self, actor_id: int) -> Any:
        actor = self._by_id.get(actor_id)
        return actor.result if actor is not None else None

    # ─── scheduling ───

    def run(self):
        """Schedule until every actor is done; returns the root's result.

        Raises VmError: the root's own error, `deadlock: ...` when actors stay
        blocked with nothing to deliver, or `max scheduler rounds exceeded (N)`.
        """
        if not self._actors:
            return None
        root = self._actors[0]
        root.machine.set_entry(self._module.entry)
        root.machine.in_actor = True

        for round_ in range(self.max_rounds):
            self.rounds = round_ + 1
            queue = [a for a in self._actors if a.status == RUNNABLE]
            if not queue:
                if not self._pending:
                    if any(a.status == BLOCKED for a in self._actors):
                        raise errors.deadlock()
                    return root.result
                self._deliver()
                self._wake()
                continue
            for actor in queue:
                if actor.status != RUNNABLE:   # failed by a cascade earlier this round
                    continue
                self._run_slice(round_, actor)
            self._deliver()
            self._wake()
        raise errors.max_rounds_exceeded(self.max_rounds)

    def _run_slice(self, round_: int, actor: _Actor) -> None:
        machine = actor.machine
        self.event_log.scheduler_tick(round_, actor.id)
        machine.next_spawn_id = self._next_id
        status = machine.execute_bounded(self.budget_per_round)
        if status == self._finished:
            actor.status = COMPLETED
            actor.result = machine.result
        elif status == self._blocked:
            actor.status = BLOCKED
        elif status == self._failed:
            self._fail(actor, _machine_error(machine))
        elif status != self._paused:
            self._fail(actor, VmError(f"unexpected machine status: {status!r}"))

        requests = _take(machine, "spawn_requests")
        outgoing = _take(machine, "outgoing")
        if actor.status == FAILED:
            return                        # a crashed actor's spawns and messages are dropped
        for fn_index in requests:
            if not self._spawn_child(actor, fn_index):
                return
        for target, payload in outgoing:
            self._pending.append((actor.id, target, payload))

    def _spawn_child(self, parent: _Actor, fn_index: int) -> bool:
        module = self._module
        child_id = self._next_id
        functions = module.functions
        name = functions[fn_index].name if 0 <= fn_index < len(functions) else "unknown"
        if not 0 <= fn_index < len(functions):
            self._fail(parent, errors.invalid_function(fn_index))
            return False
        gateway = CapabilityGateway(self._policy, MockHandler())
        machine = self._factory(module, gateway, self.max_steps)
        machine.actor_id = child_id
        machine.in_actor = True
        machine.set_entry(fn_index)
        self._next_id += 1
        self.event_log.actor_spawn(child_id, name)
        self._add(_Actor(child_id, machine, gateway, parent.id))
        parent.children.append(child_id)
        return True

    def _fail(self, actor: _Actor, error: VmError) -> None:
        """Mark `actor` and all its descendants failed, tell the parent, and abort
        the whole run if it is the root."""
        actor.status = FAILED
        work = list(actor.children)
        while work:
            child = self._by_id.get(work.pop())
            if child is not None:
                child.status = FAILED
                work.extend(child.children)
        if actor.parent is not None:
            self._pending.append((actor.id, actor.parent, Err(error.message)))
        if actor is self._actors[0]:
            raise error

    def _deliver(self) -> None:
        pending = sorted(self._pending, key=lambda m: (m[1], m[0]))
        self._pending = []
        for sender, to, payload in pending:
            self.event_log.message_send(sender, to, payload)
            target = self._by_id.get(to)
            if target is not None and target.status != FAILED:
                self.event_log.message_receive(to, payload)
                target.machine.deliver(payload)

    def _wake(self) -> None:
        for actor in self._actors:
            if actor.status == BLOCKED and len(actor.machine.mailbox):
                actor.status = RUNNABLE
