"""Capability tapes: record a run's capability calls, replay them offline.

A tape is JSON: `{"format": "boruna-capability-tape", "version": 1, "calls": [...],
"outcome": {...}}`. Each call is `{"capability", "args", "result"}` (or `"error"` for a
handler failure); values are plain JSON (a List is an array, a Map an object: exactly what
`normalize_value` turns back into VM values). `outcome` holds what the recorded run gave
(`success`, `result`, `steps`, `ui_output`, `event_log_sha256`), so a replay can be checked
against it.

`RecordingHandler` wraps the live (or mock) handler and writes down every call;
`TapeReplayHandler` answers from a tape and fails loudly when the program asks for a call
the tape does not hold next.
"""
from __future__ import annotations

import json
import math

from boruna.core.values import MapValue
from boruna.runtime.handlers import HandlerError

TAPE_FORMAT = "boruna-capability-tape"
TAPE_VERSION = 1


class TapeError(ValueError):
    """A tape that cannot be read or does not fit the program."""


def _plain_args(args) -> list:
    try:
        return to_plain(list(args))
    except TapeError as err:
        raise HandlerError(f"cannot tape the call: {err}") from None


def to_plain(value):
    """A capability value as plain JSON data; TapeError for a value a tape cannot hold."""
    t = type(value)
    if value is None or t in (bool, int, str):
        return value
    if t is float:
        if not math.isfinite(value):
            raise TapeError(f"a tape cannot hold the float {value!r}")
        return value
    if t in (tuple, list):
        return [to_plain(v) for v in value]
    if t is MapValue or t is dict:
        return {str(k): to_plain(v) for k, v in value.items()}
    raise TapeError(f"a tape cannot hold a value of type {t.__name__}")


def from_plain(value):
    """A tape value as a VM value: an array a List, an object a Map."""
    t = type(value)
    if t is list:
        return tuple(from_plain(v) for v in value)
    if t is dict:
        return MapValue({k: from_plain(v) for k, v in value.items()})
    return value


def _same(a, b) -> bool:
    """Equal plain values, with `true` never equal to `1` (nor `1` to `1.0`)."""
    if type(a) is not type(b):
        return False
    if type(a) is list:
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if type(a) is dict:
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


def call_text(capability: str, args) -> str:
    return f"{capability}({json.dumps(args, ensure_ascii=False)[1:-1]})"


class RecordingHandler:
    """Delegates to `inner`, keeping each call (capability, args, result or error)."""

    def __init__(self, inner):
        self.inner = inner
        self.calls: list[dict] = []

    def handle(self, cap, args):
        entry = {"capability": cap.wire_name, "args": _plain_args(args)}
        self.calls.append(entry)
        try:
            result = self.inner.handle(cap, args)
        except HandlerError as err:
            entry["error"] = err.message
            raise
        try:
            entry["result"] = to_plain(result)
        except TapeError as err:
            raise HandlerError(f"cannot tape the result: {err}") from None
        return result


class TapeReplayHandler:
    """Answers the calls of a tape in order; a different call is a `replay mismatch`."""

    def __init__(self, calls: list):
        self.calls = calls
        self.cursor = 0
        self.mismatch: str | None = None      # the first mismatch, once one happened

    def _mismatch(self, message: str):
        self.mismatch = message
        return HandlerError(message)

    def handle(self, cap, args):
        index = self.cursor
        asked = _plain_args(args)
        if index >= len(self.calls):
            asked = call_text(cap.wire_name, asked)
            raise self._mismatch(f"replay mismatch at capability call {index + 1}: the "
                                 f"program asked for {asked}, the tape holds only "
                                 f"{len(self.calls)} call(s)")
        entry = self.calls[index]
        if entry.get("capability") != cap.wire_name or not _same(entry.get("args"), asked):
            recorded = call_text(entry.get("capability"), entry.get("args", []))
            asked = call_text(cap.wire_name, asked)
            raise self._mismatch(f"replay mismatch at capability call {index + 1}: the tape "
                                 f"has {recorded}, the program asked for {asked}")
        self.cursor += 1
        if "error" in entry:
            raise HandlerError(str(entry["error"]))
        return from_plain(entry.get("result"))

    def unused(self) -> int:
        return len(self.calls) - self.cursor


def tape_json(calls: list, outcome: dict) -> str:
    return json.dumps({"format": TAPE_FORMAT, "version": TAPE_VERSION, "calls": calls,
                       "outcome": outcome}, indent=2, ensure_ascii=False) + "\n"


def read_tape(text: str) -> dict:
    """The tape in `text`, checked for shape; TapeError otherwise."""
    try:
        tape = json.loads(text)
    except ValueError as err:
        raise TapeError(f"not a tape (invalid JSON: {err})")
    if (not isinstance(tape, dict) or tape.get("format") != TAPE_FORMAT
            or tape.get("version") != TAPE_VERSION):
        raise TapeError(f"not a tape (expected format {TAPE_FORMAT!r}, version {TAPE_VERSION})")
    calls = tape.get("calls")
    if not isinstance(calls, list) or not all(
            isinstance(c, dict) and isinstance(c.get("capability"), str)
            and isinstance(c.get("args"), list) and ("result" in c or "error" in c)
            for c in calls):
        raise TapeError("not a tape (`calls` must be a list of {capability, args, result})")
    if not isinstance(tape.get("outcome"), dict):
        raise TapeError("not a tape (`outcome` is missing)")
    return tape


def first_outcome_difference(recorded: dict, replayed: dict) -> str | None:
    """The first field of the recorded outcome the replay does not reproduce, as text."""
    for key in ("success", "result", "steps", "ui_output", "error", "event_log_sha256"):
        a, b = recorded.get(key), replayed.get(key)
        if a != b:
            return (f"{key} differs: recorded {json.dumps(a, sort_keys=True)}, replay "
                    f"{json.dumps(b, sort_keys=True)}")
    return None
