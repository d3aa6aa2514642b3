"""Suspended runs (docs/snapshots.md): delegated capability calls, pause, seal, resume.

A run whose capability handler delegates some capabilities (`DelegatingHandler`) stops at
such a call with the call pending; a run may also stop after a number of steps
(`pause_after`). `start` and `resume` drive a machine until it finishes, fails, waits for an
answer or reaches its pause, and return a `Stop`: the finished run's `RunOutcome`, or the
`SuspendedRun` to continue from (the module, the machine's snapshot and the run's settings:
policy, delegated capabilities, trace, wall-clock and output limits, output schema).

`SuspendedRun.to_bytes()` is self-contained (the CLI's snapshot files); `Sealer` turns those
bytes into a resume token authenticated with the server's HMAC-SHA256 key and refuses a
token it did not seal. `answer_value` reads an answer (JSON) as the value the delegated
capability's builtin returns, checked against its result type (core/builtins.py).
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional

from boruna.bytecode.module import Module
from boruna.core.builtins import BUILTINS, Type, TypeCon, TypeVar
from boruna.core.capabilities import Capability, from_source_name
from boruna.core.limits import DEFAULT_MAX_STEPS, SLICE_STEPS, TRACE_LIMIT
from boruna.core.suspension import CapabilityDelegated, SnapshotError
from boruna.core.values import MapValue

RUN_MAGIC = b"BORUNA-RUN\x00"
RUN_FORMAT = 1
TOKEN_PREFIX = "bst1"
KEY_BYTES = 32


class SuspendError(ValueError):
    """A suspended run, token or answer that cannot be used; `kind` is the service error kind
    (`invalid_snapshot`, `invalid_resume_token`, `invalid_answer`)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind
        self.message = message


# ---------------------------------------------------------------- delegation


class DelegatingHandler:
    """Answers like `inner`, except calls of the capabilities named in `delegated` (wire
    names), which the run's caller answers (`CapabilityDelegated`)."""

    def __init__(self, inner, delegated: Iterable[str]):
        from boruna.runtime.handlers import MockHandler

        self.inner = inner if inner is not None else MockHandler()
        self.delegated = frozenset(delegated)

    def handle(self, cap: Capability, args):
        if cap.wire_name in self.delegated:
            raise CapabilityDelegated(cap.wire_name)
        return self.inner.handle(cap, args)


def delegated_names(handlers) -> tuple[str, ...]:
    """The wire names of a `{"<capability>": "client"}` mapping (aliases accepted), sorted;
    SuspendError for an unknown capability or another answerer than "client"."""
    if handlers is None:
        return ()
    if not isinstance(handlers, dict):
        raise SuspendError("invalid_args", 'handlers must be an object like {"llm.call": "client"}')
    names = set()
    for name, who in handlers.items():
        cap = from_source_name(name) if isinstance(name, str) else None
        if cap is None:
            raise SuspendError("invalid_args", f"handlers: unknown capability {name!r}")
        if who != "client":
            raise SuspendError("invalid_args", f'handlers: {name} can only be answered by '
                               f'"client" (got {who!r})')
        names.add(cap.wire_name)
    return tuple(sorted(names))


# ---------------------------------------------------------------- answers


def result_types() -> dict[str, Type]:
    """Capability wire name -> the result type of its builtin (core/builtins.py)."""
    return {b.capability: b.signature.result for b in BUILTINS if b.capability is not None}


def _describe(v) -> str:
    t = type(v)
    if v is None:
        return "null"
    if t is bool:
        return "a boolean"
    if t is int:
        return "an integer"
    if t is float:
        return "a number"
    if t is str:
        return "a string"
    if t is list:
        return "an array"
    return "an object"


def answer_value(capability: str, answer):
    """The VM value of `answer` (parsed JSON: null, bools, numbers, strings, arrays as Lists,
    objects as Maps) for a call of `capability`, checked against its builtin's result type;
    SuspendError(invalid_answer) naming the first mismatch by its JSON path."""
    want = result_types().get(capability, TypeVar("T"))
    # iterative: an answer may nest deeply
    work = [(answer, want, "$")]
    while work:
        v, ty, path = work.pop()
        t = type(v)
        if t is int and not -2 ** 63 <= v < 2 ** 63:
            raise SuspendError("invalid_answer", f"answer for {capability}: the integer at "
                               f"{path} does not fit in 64 bits")
        if t not in (type(None), bool, int, float, str, list, dict):
            raise SuspendError("invalid_answer", f"answer for {capability}: {path} is not JSON")
        if t is dict and any(type(k) is not str for k in v):
            raise SuspendError("invalid_answer", f"answer for {capability}: {path} has a "
                               "key that is not a string")
        if isinstance(ty, TypeVar):
            ty = None
        expected = _expected(ty, v)
        if expected is not None:
            raise SuspendError("invalid_answer", f"answer for {capability}: expected "
                               f"{expected} at {path}, got {_describe(v)} (the builtin "
                               f"returns {want})")
        item = ty.args[-1] if ty is not None and ty.args else None
        if t is list:
            work.extend((x, item, f"{path}[{k}]") for k, x in enumerate(v))
        elif t is dict:
            work.extend((x, item, f"{path}.{k}") for k, x in v.items())
    return _to_value(answer)


_SCALARS = {"Int": (int,), "Float": (float, int), "String": (str,), "Bool": (bool,),
            "Unit": (type(None),)}


def _expected(ty: Optional[TypeCon], v) -> Optional[str]:
    """The type `v` should have been (its name), or None when it fits `ty` (None: any)."""
    if ty is None:
        return None
    t = type(v)
    if ty.name in _SCALARS:
        ok = t in _SCALARS[ty.name] and not (ty.name != "Bool" and t is bool)
        return None if ok else ty.name
    if ty.name == "List":
        return None if t is list else str(ty)
    if ty.name == "Map":
        return None if t is dict else str(ty)
    return None


def _to_value(answer):
    """Parsed JSON as a VM value (iteratively: lists become Lists, objects sorted Maps)."""
    # post-order over the containers, so each is built from its built items
    out = {}
    order = []
    work = [answer]
    while work:
        v = work.pop()
        if type(v) in (list, dict) and id(v) not in out:
            out[id(v)] = None
            order.append(v)
            work.extend(v if type(v) is list else v.values())
    for v in reversed(order):
        if type(v) is list:
            out[id(v)] = tuple(out[id(x)] if type(x) in (list, dict) else x for x in v)
        else:
            out[id(v)] = MapValue({k: out[id(x)] if type(x) in (list, dict) else x
                                   for k, x in v.items()})
    return out[id(answer)] if type(answer) in (list, dict) else answer


# ---------------------------------------------------------------- suspended runs


@dataclass
class SuspendedRun:
    """What continues a stopped run: its module, the machine's snapshot, its settings."""

    module: Module
    snapshot: bytes
    settings: dict = field(default_factory=dict)   # JSON: policy, delegated, trace, limits

    def to_bytes(self) -> bytes:
        from boruna.bytecode.axbc import to_bytes

        header = json.dumps({"format": RUN_FORMAT, "settings": self.settings},
                            sort_keys=True, separators=(",", ":")).encode()
        image = to_bytes(self.module)
        body = b"".join([RUN_MAGIC, len(header).to_bytes(4, "little"), header,
                         len(image).to_bytes(4, "little"), image, self.snapshot])
        return body + hashlib.sha256(body).digest()

    @classmethod
    def from_bytes(cls, data: bytes) -> "SuspendedRun":
        from boruna.bytecode.axbc import from_bytes

        def bad(why):
            return SuspendError("invalid_snapshot", f"not a usable suspended run: {why}")

        if not isinstance(data, (bytes, bytearray)) or not data.startswith(RUN_MAGIC):
            raise bad("it does not start with the Boruna run header")
        data = bytes(data)
        if len(data) < len(RUN_MAGIC) + 8 + 32:
            raise bad("truncated")
        if hashlib.sha256(data[:-32]).digest() != data[-32:]:
            raise bad("corrupted (its SHA-256 does not match its content)")
        pos = len(RUN_MAGIC)
        hlen = int.from_bytes(data[pos:pos + 4], "little")
        header_end = pos + 4 + hlen
        try:
            header = json.loads(data[pos + 4:header_end])
            ilen = int.from_bytes(data[header_end:header_end + 4], "little")
            image = data[header_end + 4:header_end + 4 + ilen]
            module = from_bytes(image)
        except Exception as exc:    # any reader failure is the file's fault
            raise bad(f"unreadable ({getattr(exc, 'message', None) or exc})") from None
        if type(header) is not dict or header.get("format") != RUN_FORMAT:
            raise bad(f"format {header.get('format') if type(header) is dict else '?'} "
                      f"(this version reads {RUN_FORMAT})")
        settings = header.get("settings")
        if type(settings) is not dict:
            raise bad("no settings")
        return cls(module, data[header_end + 4 + ilen:-32], settings)

    def header(self) -> dict:
        """The snapshot's checked header (frames, steps, pending call, ...)."""
        from boruna import _vm

        try:
            return _vm.snapshot_header(self.snapshot)
        except SnapshotError as exc:
            raise SuspendError("invalid_snapshot", exc.message) from None


class Sealer:
    """Resume tokens: a suspended run's bytes, compressed, with an HMAC-SHA256 of this key."""

    def __init__(self, key: Optional[bytes] = None):
        self.key = key if key is not None else secrets.token_bytes(KEY_BYTES)

    @classmethod
    def from_file(cls, path) -> "Sealer":
        """The key in file `path` (its bytes, at least 16); OSError or SuspendError."""
        with open(path, "rb") as fh:
            key = fh.read()
        if len(key.strip()) < 16:
            raise SuspendError("invalid_args", f"snapshot key file {path} holds fewer than "
                               "16 bytes")
        return cls(key.strip())

    def seal(self, run: SuspendedRun) -> str:
        payload = zlib.compress(run.to_bytes(), 6)
        mac = hmac.new(self.key, payload, hashlib.sha256).digest()
        return ".".join([TOKEN_PREFIX, _b64(payload), _b64(mac)])

    def open(self, token) -> SuspendedRun:
        def bad(why):
            return SuspendError("invalid_resume_token", f"invalid resume token: {why}")

        if not isinstance(token, str):
            raise bad("not a string")
        parts = token.strip().split(".")
        if len(parts) != 3 or parts[0] != TOKEN_PREFIX:
            raise bad("not a Boruna resume token")
        try:
            payload, mac = _unb64(parts[1]), _unb64(parts[2])
        except ValueError:
            raise bad("not base64url") from None
        if not hmac.compare_digest(hmac.new(self.key, payload, hashlib.sha256).digest(), mac):
            raise bad("not sealed by this server (forged, altered, or from another server "
                      "or an earlier start without --snapshot-key-file)")
        try:
            data = zlib.decompress(payload)
        except zlib.error:
            raise bad("corrupted") from None
        try:
            return SuspendedRun.from_bytes(data)
        except SuspendError as exc:
            raise bad(exc.message) from None


def _b64(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def _unb64(s: str) -> bytes:
    import binascii

    try:
        return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("base64") from None


# ---------------------------------------------------------------- driving


@dataclass
class Stop:
    """Where a drive stopped: `outcome` (a RunOutcome) when the run ended, else `suspended`
    and `pending` ((capability, args) of the call it waits on, or None after `pause_after`)."""

    outcome: Any = None
    suspended: Optional[SuspendedRun] = None
    pending: Optional[tuple] = None
    steps: int = 0
    log: Any = None          # the run's EventLog (ended runs)
    at_limit: bool = False   # suspended at its step limit (`pause_at_limit`)


def _gateway(settings: dict, handler):
    from boruna.runtime.gateway import CapabilityGateway, EventLog
    from boruna.runtime.policy import parse_policy

    delegating = DelegatingHandler(handler, settings.get("delegated", ()))
    return CapabilityGateway(parse_policy(settings.get("policy")), delegating, EventLog())


def _drive(machine, gateway, module, settings, pause_at, on_progress, cancel_event) -> Stop:
    from boruna import _vm
    from boruna.runtime.execute import _outcome

    cancelled = False
    while True:
        if cancel_event is not None and cancel_event.is_set():
            cancelled = True
            break
        step = SLICE_STEPS
        if pause_at is not None:
            if machine.steps >= pause_at:
                break
            step = max(1, min(step, pause_at - machine.steps))
        status = machine.execute_bounded(step)
        if status != _vm.PAUSED:
            break
        if on_progress is not None:
            try:
                on_progress(machine.steps)
            except Exception:
                pass
    if not cancelled and not machine.finished:
        try:
            data = machine.snapshot()
        except SnapshotError as exc:
            raise SuspendError("invalid_snapshot", exc.message) from None
        return Stop(suspended=SuspendedRun(module, data, settings),
                    pending=machine.pending_call, steps=machine.steps, log=gateway.log,
                    at_limit=machine.steps >= machine.max_steps)
    return Stop(outcome=_outcome(machine, module, gateway, cancelled), steps=machine.steps,
                log=gateway.log)


def _pause_at(machine, pause_after, at_limit: bool):
    """The step a drive stops at (None: none): `pause_after` steps from now, and with
    `at_limit` the step limit, where the run is paused instead of failing."""
    at = None if pause_after is None else machine.steps + pause_after
    if at_limit:
        at = machine.max_steps if at is None else min(at, machine.max_steps)
    return at


def start(module: Module, settings: dict, *, handler=None, max_steps: int = DEFAULT_MAX_STEPS,
          pause_after: Optional[int] = None, on_progress: Optional[Callable] = None,
          cancel_event=None, pause_at_limit: bool = False) -> Stop:
    """Run `module`'s entry under `settings` (`policy`: a policy argument, `delegated`: wire
    names, `trace`, `max_wall_ms`) until it ends, waits on a delegated call, or has taken
    `pause_after` steps (with `pause_at_limit`, also when it reaches `max_steps`)."""
    from boruna import _vm

    gateway = _gateway(settings, handler)
    machine = _vm.Machine(module, gateway=gateway, max_steps=max_steps,
                          trace=bool(settings.get("trace")),
                          max_wall_ms=settings.get("max_wall_ms"), trace_limit=TRACE_LIMIT)
    machine.cancel_event = cancel_event
    machine.set_entry(module.entry)
    return _drive(machine, gateway, module, settings,
                  _pause_at(machine, pause_after, pause_at_limit), on_progress, cancel_event)


def resume(run: SuspendedRun, answer=None, *, answered: bool = False, handler=None,
           max_steps: Optional[int] = None, pause_after: Optional[int] = None,
           on_progress: Optional[Callable] = None, cancel_event=None,
           pause_at_limit: bool = False) -> Stop:
    """Continue `run` from its snapshot (a new machine: `run` itself stays usable, so one
    snapshot resumed twice gives two independent runs). A pending call needs `answered` and
    its `answer` (JSON; `answer_value` checks it, SuspendError(invalid_answer) leaves
    nothing changed); `max_steps` raises the run's step ceiling; `pause_after` stops again
    that many steps later."""
    from boruna import _vm

    gateway = _gateway(run.settings, handler)
    try:
        machine = _vm.Machine.restore(run.snapshot, run.module, gateway=gateway)
    except SnapshotError as exc:
        raise SuspendError("invalid_snapshot", exc.message) from None
    pending = machine.pending_call
    if pending is not None:
        if not answered:
            raise SuspendError("invalid_answer", f"the run waits for the result of "
                               f"{pending[0]}: give an answer")
        machine.answer(answer_value(pending[0], answer))
    elif answered:
        raise SuspendError("invalid_answer", "the run waits for no capability result: "
                           "resume it without an answer")
    if max_steps is not None:
        machine.max_steps = max(machine.max_steps, max_steps)
    machine.cancel_event = cancel_event
    return _drive(machine, gateway, run.module, run.settings,
                  _pause_at(machine, pause_after, pause_at_limit), on_progress, cancel_event)
