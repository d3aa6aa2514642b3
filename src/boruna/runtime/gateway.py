"""The capability gateway: every side effect goes through here (vm.md §5.3, policy.md §7).

Check order for one `CapCall`: unknown id → declared by the calling function →
policy allow → budget → log `CapCall` → handler → log `CapResult`. The gateway
also owns the run's event log and remembers which capabilities were called
(for `boruna_run` progress messages).
"""
from __future__ import annotations

from typing import Iterable, Optional, Sequence

from boruna.core import errors
from boruna.core.capabilities import Capability, by_id, by_variant, from_source_name
from boruna.runtime.handlers import HandlerError, MockHandler

EVENT_LOG_VERSION = 2


class EventLog:
    """The run's event log (vm.md §5.6). Each event is a dict whose `"event"` key is
    the snake_case kind; value-carrying fields hold raw runtime values."""

    __slots__ = ("events",)

    version = EVENT_LOG_VERSION

    def __init__(self):
        self.events: list[dict] = []

    def __len__(self) -> int:
        return len(self.events)

    def cap_call(self, capability: str, args: Sequence) -> None:
        self.events.append({"event": "cap_call", "capability": capability, "args": list(args)})

    def cap_result(self, capability: str, result) -> None:
        self.events.append({"event": "cap_result", "capability": capability, "result": result})

    def actor_spawn(self, actor_id: int, function: str) -> None:
        self.events.append({"event": "actor_spawn", "actor_id": actor_id, "function": function})

    def message_send(self, sender: int, to: int, payload) -> None:
        self.events.append({"event": "message_send", "from": sender, "to": to,
                            "payload": payload})

    def message_receive(self, actor_id: int, payload) -> None:
        self.events.append({"event": "message_receive", "actor_id": actor_id,
                            "payload": payload})

    def ui_emit(self, tree) -> None:
        self.events.append({"event": "ui_emit", "tree": tree})

    def scheduler_tick(self, round_: int, active_actor: int) -> None:
        self.events.append({"event": "scheduler_tick", "round": round_,
                            "active_actor": active_actor})

    def contract_check(self, function: str, kind: str, index: int, passed: bool) -> None:
        """`kind` is `"requires"`, `"ensures"` or `"output"`."""
        self.events.append({"event": "contract_check", "function": function, "kind": kind,
                            "index": index, "passed": passed})

    def capability_results(self) -> list:
        """The recorded `CapResult` values in order (what a ReplayHandler serves)."""
        return [e["result"] for e in self.events if e["event"] == "cap_result"]


def _declared_ids(declared: Iterable) -> set[int]:
    """Normalise a function's declared capabilities (ids, Capability objects,
    wire/alias names or Rust variant names) to a set of ids."""
    ids: set[int] = set()
    for item in declared:
        if type(item) is int:
            ids.add(item)
        elif isinstance(item, Capability):
            ids.add(item.id)
        elif isinstance(item, str):
            cap = from_source_name(item) or by_variant(item)
            if cap is not None:
                ids.add(cap.id)
    return ids


def progress_message(names: Sequence[str]) -> Optional[str]:
    """`None`, `"cap: {name}"` or `"caps: {a}, {b}, ..."` (duplicates kept, in call order)."""
    if not names:
        return None
    if len(names) == 1:
        return f"cap: {names[0]}"
    return "caps: " + ", ".join(names)


class CapabilityGateway:
    """Policy enforcement in front of a handler.

    `policy` is a `boruna.runtime.policy.Policy` (None means allow-all);
    `handler` defaults to `MockHandler()`. `usage` counts calls per wire name
    (denied calls are not counted); `called` lists the names of successful calls.
    """

    def __init__(self, policy=None, handler=None, event_log: Optional[EventLog] = None):
        if policy is None:
            from boruna.runtime.policy import Policy
            policy = Policy.allow_all()
        self.policy = policy
        self.handler = handler if handler is not None else MockHandler()
        self.log = event_log if event_log is not None else EventLog()
        self.usage: dict[str, int] = {}
        self.called: list[str] = []
        self._called_mark = 0

    def call(self, declared_caps: Iterable, cap_id: int, args: Sequence):
        """Run one capability call for a function declaring `declared_caps`.

        Returns the handler's value or raises `VmError` with the reference texts.
        """
        cap = by_id(cap_id)
        if cap is None:
            raise errors.unknown_capability(cap_id)
        if not self.is_declared(declared_caps, cap):
            raise errors.capability_denied(cap.wire_name)
        return self.invoke(cap, args)

    @staticmethod
    def is_declared(declared_caps: Iterable, cap: Capability) -> bool:
        """Step 1 of policy.md §7: the calling function's own `!{...}` list."""
        if declared_caps is None:
            return False
        try:
            if cap.id in declared_caps:
                return True
        except TypeError:
            pass
        return cap.id in _declared_ids(declared_caps)

    def invoke(self, cap: Capability, args: Sequence):
        """Policy allow, budget, logging and the handler (steps 2–4 of policy.md §7)."""
        name = cap.wire_name
        policy = self.policy
        rule = policy.rules.get(name)
        allowed = rule.allow if rule is not None else policy.default_allow
        if not allowed:
            raise errors.capability_denied(name)
        count = self.usage.get(name, 0) + 1
        self.usage[name] = count
        if rule is not None and rule.budget > 0 and count > rule.budget:
            raise errors.capability_budget_exceeded(name)
        args = list(args)
        self.log.cap_call(name, args)
        try:
            result = self.handler.handle(cap, args)
        except HandlerError as exc:
            raise errors.capability_error(exc.message) from None
        self.log.cap_result(name, result)
        self.called.append(name)
        return result

    def drain_called(self) -> list[str]:
        """Names of capabilities successfully called since the previous drain."""
        names = self.called[self._called_mark:]
        self._called_mark = len(self.called)
        return names

    def child(self) -> "CapabilityGateway":
        """A fresh gateway for a spawned actor: same policy, a new MockHandler,
        its own usage counters and event log (as the reference's ActorSystem)."""
        return CapabilityGateway(self.policy, MockHandler())
