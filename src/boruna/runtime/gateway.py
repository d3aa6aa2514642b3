"""The capability gateway: every side effect goes through here (docs/spec/vm.md §5.3, docs/spec/policy.md §7).

Check order for one `CapCall`: unknown id → declared by the calling function →
policy allow → budget → the run's clock → log `CapCall` → handler → the run's clock again →
the VM's value limits on the result → log `CapResult`. The gateway owns the run's event log,
the one record of its capability calls: which capabilities were called (`called`,
`drain_called`) is read from the log's `CapResult` events.

The run's clock (`deadline.RunClock`: the wall-clock deadline and the cancel event) is handed
to the handler once (`handler.bind_clock(clock)`, when the handler has it), so every blocking
handler stops at the run's deadline; a call that comes back past it (or after a cancel) ends
the run with the VM's own `wall_time_exceeded` (or `execution cancelled`) error, not with its
result, just as the VM's next checkpoint would have.
"""
from __future__ import annotations

from typing import Iterable, Optional, Sequence

from boruna.core import errors
from boruna.core.capabilities import Capability, by_id, by_variant, from_source_name
from boruna.runtime.deadline import UNBOUNDED, RunClock
from boruna.runtime.handlers import HandlerError, MockHandler
from boruna.runtime.result_limits import check_result

EVENT_LOG_VERSION = 2
_SCALARS = (type(None), bool, int, float)


class EventLog:
    """The run's event log (docs/spec/vm.md §5.6). Each event is a dict whose `"event"` key is
    the snake_case kind; value-carrying fields hold raw runtime values."""

    __slots__ = ("events", "_drained")

    version = EVENT_LOG_VERSION

    def __init__(self):
        self.events: list[dict] = []
        self._drained = 0

    def __len__(self) -> int:
        return len(self.events)

    def cap_call(self, capability: str, args: Sequence) -> None:
        self.events.append({"event": "cap_call", "capability": capability, "args": list(args)})

    def cap_result(self, capability: str, result) -> None:
        self.events.append({"event": "cap_result", "capability": capability, "result": result})

    def ui_emit(self, tree) -> None:
        self.events.append({"event": "ui_emit", "tree": tree})

    def contract_check(self, function: str, kind: str, index: int, passed: bool) -> None:
        """`kind` is `"requires"`, `"ensures"` or `"output"`."""
        self.events.append({"event": "contract_check", "function": function, "kind": kind,
                            "index": index, "passed": passed})

    def capability_results(self) -> list:
        """The recorded `CapResult` values in order (what a ReplayHandler serves)."""
        return [e["result"] for e in self.events if e["event"] == "cap_result"]

    def capabilities_called(self, start: int = 0) -> list[str]:
        """Wire names of the capabilities that answered, in order, from event `start` on."""
        events = self.events
        return [events[i]["capability"] for i in range(start, len(events))
                if events[i]["event"] == "cap_result"]

    def drain_called(self) -> list[str]:
        """`capabilities_called` since the previous drain (progress messages)."""
        start, self._drained = self._drained, len(self.events)
        return self.capabilities_called(start)


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


class CapabilityGateway:
    """Policy enforcement in front of a handler.

    `policy` is a `boruna.runtime.policy.Policy` (None means allow-all);
    `handler` defaults to `MockHandler()`. `usage` counts calls per wire name
    (denied calls are not counted); `called` lists the names of successful calls.
    `clock` is the run's `RunClock` (default: no deadline, no cancellation).
    """

    def __init__(self, policy=None, handler=None, event_log: Optional[EventLog] = None,
                 clock: Optional[RunClock] = None):
        if policy is None:
            from boruna.runtime.policy import Policy
            policy = Policy.allow_all()
        self.policy = policy
        self.handler = handler if handler is not None else MockHandler()
        self.log = event_log if event_log is not None else EventLog()
        self.usage: dict[str, int] = {}
        self.clock = UNBOUNDED if clock is None else clock
        bind = getattr(self.handler, "bind_clock", None)
        if bind is not None:
            bind(self.clock)

    @property
    def called(self) -> list[str]:
        """Names of the capabilities successfully called, in call order."""
        return self.log.capabilities_called()

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
        """Step 1 of docs/spec/policy.md §7: the calling function's own `!{...}` list."""
        if declared_caps is None:
            return False
        try:
            if cap.id in declared_caps:
                return True
        except TypeError:
            pass
        return cap.id in _declared_ids(declared_caps)

    def invoke(self, cap: Capability, args: Sequence):
        """Policy allow, budget, logging and the handler (steps 2–4 of docs/spec/policy.md §7)."""
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
        clock = self.clock
        bounded = clock.bounded
        if bounded:
            stop = clock.vm_error()
            if stop is not None:
                raise stop
        self.log.cap_call(name, args)
        try:
            result = self.handler.handle(cap, args)
        except HandlerError as exc:
            stop = clock.vm_error() if bounded else None
            if stop is not None:      # the handler gave up at the run's deadline (or cancel)
                raise stop from None
            raise errors.capability_error(exc.message) from None
        if bounded:
            stop = clock.vm_error()
            if stop is not None:
                raise stop
        if type(result) not in _SCALARS:
            check_result(result)
        self.log.cap_result(name, result)
        return result

    def drain_called(self) -> list[str]:
        """Names of capabilities successfully called since the previous drain."""
        return self.log.drain_called()

    def complete(self, cap: Capability, result):
        """The result of a call its handler delegated (`core.suspension.CapabilityDelegated`,
        raised after the call was allowed, counted and logged): logged as the handler's
        result would have been, and returned."""
        self.log.cap_result(cap.wire_name, result)
        return result
