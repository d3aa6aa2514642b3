"""Capability tapes: record a run's capability calls, replay them offline.

A tape is JSON: `{"format": "boruna-capability-tape", "version": 2, "calls": [...],
"outcome": {...}, "sha256": HEX[, "hmac_sha256": HEX]}`. Each call is `{"capability",
"args", "result"}` (or `"error"` for a handler failure, with `"vm_error": "memory_limit"`
when the handler stopped at a VM value limit); values are plain JSON (a List is
an array, a Map an object: exactly what `normalize_value` turns back into VM values), nested
at most TAPE_DEPTH deep. `outcome` holds what the recorded run gave (`success`, `result`,
`steps`, `ui_output`, `event_log_sha256`), so a replay can be checked against it.

`sha256` is the digest of the canonical JSON of `{"calls", "outcome"}` (keys sorted, no
spaces, UTF-8): every call, argument, result and the outcome. It is always checked when a
tape is read, so a tape changed by hand or by accident is refused before it answers
anything. It proves nothing about who wrote the tape (anyone can compute it again);
`hmac_sha256`, written when the recorder names a key file (`boruna run --record T
--tape-key K`), is an HMAC-SHA256 of the same bytes under that key, and a replay given the
key (`--replay T --tape-key K`) accepts only a tape signed with it. docs/capabilities.md says
what a tape does and does not prove.

`RecordingHandler` wraps the live (or mock) handler and writes down every call;
`TapeReplayHandler` answers from a tape and fails loudly when the program asks for a call
the tape does not hold next.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import math
import os

from boruna.core.errors import ErrorKind, VmError
from boruna.core.jsonread import JsonSyntaxError, loads
from boruna.core.regular_files import NotRegularFile, existing_kind, open_regular
from boruna.core.values import MapValue
from boruna.runtime.handlers import HandlerError

TAPE_FORMAT = "boruna-capability-tape"
TAPE_VERSION = 2
TAPE_DEPTH = 100
"""Containers a taped value may nest (the tape itself adds 4 levels; the JSON reader takes
127)."""
MAX_TAPE_BYTES = 64 * 1024 * 1024
"""Bytes of a tape file read at most."""
MIN_KEY_BYTES = 16
MAX_KEY_BYTES = 4096
_SIGNED_PREFIX = f"{TAPE_FORMAT}/{TAPE_VERSION}\n".encode("ascii")


class TapeError(ValueError):
    """A tape that cannot be read or does not fit the program."""


def _plain_args(args) -> list:
    try:
        return to_plain(list(args))
    except TapeError as err:
        raise HandlerError(f"cannot tape the call: {err}") from None


def to_plain(value, depth: int = 0):
    """A capability value as plain JSON data; TapeError for a value a tape cannot hold
    (a Record, a non-finite float, nesting deeper than TAPE_DEPTH)."""
    t = type(value)
    if value is None or t in (bool, int, str):
        return value
    if t is float:
        if not math.isfinite(value):
            raise TapeError(f"a tape cannot hold the float {value!r}")
        return value
    if depth >= TAPE_DEPTH and t in (tuple, list, MapValue, dict):
        raise TapeError(f"a tape cannot hold a value nested deeper than {TAPE_DEPTH}")
    if t in (tuple, list):
        return [to_plain(v, depth + 1) for v in value]
    if t is MapValue or t is dict:
        return {str(k): to_plain(v, depth + 1) for k, v in value.items()}
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

    def bind_clock(self, clock) -> None:
        """The run's clock goes on to the handler that does the I/O."""
        bind = getattr(self.inner, "bind_clock", None)
        if bind is not None:
            bind(clock)

    def handle(self, cap, args):
        entry = {"capability": cap.wire_name, "args": _plain_args(args)}
        self.calls.append(entry)
        try:
            result = self.inner.handle(cap, args)
        except HandlerError as err:
            entry["error"] = err.message
            raise
        except VmError as err:          # a VM limit the result would have passed
            entry["error"], entry["vm_error"] = err.message, err.kind.value
            raise
        try:
            entry["result"] = to_plain(result)
        except TapeError as err:
            entry["error"] = f"cannot tape the result: {err}"
            raise HandlerError(entry["error"]) from None
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
        if "vm_error" in entry:
            raise VmError(str(entry["error"]), ErrorKind.MEMORY_LIMIT)
        if "error" in entry:
            raise HandlerError(str(entry["error"]))
        return from_plain(entry.get("result"))

    def unused(self) -> int:
        return len(self.calls) - self.cursor


def _signed_bytes(calls: list, outcome: dict) -> bytes:
    """The canonical bytes `sha256` and `hmac_sha256` cover: every call and the outcome."""
    body = json.dumps({"calls": calls, "outcome": outcome}, sort_keys=True,
                      separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return body.encode("utf-8", "surrogatepass")


def _hmac(key: bytes, data: bytes) -> str:
    return hmac.new(key, _SIGNED_PREFIX + data, hashlib.sha256).hexdigest()


def tape_json(calls: list, outcome: dict, key: bytes | None = None) -> str:
    """The tape's text: its content hash always, its HMAC under `key` when one is given."""
    data = _signed_bytes(calls, outcome)
    tape = {"format": TAPE_FORMAT, "version": TAPE_VERSION, "calls": calls,
            "outcome": outcome, "sha256": hashlib.sha256(data).hexdigest()}
    if key is not None:
        tape["hmac_sha256"] = _hmac(key, data)
    return json.dumps(tape, indent=2, ensure_ascii=False) + "\n"


def _is_hex_digest(value) -> bool:
    return (type(value) is str and len(value) == 64
            and all(c in "0123456789abcdef" for c in value))


def _call_ok(c) -> bool:
    return (isinstance(c, dict) and isinstance(c.get("capability"), str)
            and isinstance(c.get("args"), list) and ("result" in c or "error" in c)
            and ("error" not in c or isinstance(c["error"], str))
            and c.get("vm_error", "memory_limit") == "memory_limit")


def read_tape(text: str, key: bytes | None = None) -> dict:
    """The tape in `text`, checked for shape and content hash (and, with `key`, for its
    HMAC under that key); TapeError otherwise."""
    try:
        tape = loads(text)
    except JsonSyntaxError as err:
        raise TapeError(f"not a tape (invalid JSON: {err.message})") from None
    if isinstance(tape, dict) and tape.get("format") == TAPE_FORMAT and tape.get("version") == 1:
        raise TapeError("a version 1 tape carries no content hash; record it again with this "
                        "boruna")
    if (not isinstance(tape, dict) or tape.get("format") != TAPE_FORMAT
            or tape.get("version") != TAPE_VERSION):
        raise TapeError(f"not a tape (expected format {TAPE_FORMAT!r}, version {TAPE_VERSION})")
    calls = tape.get("calls")
    if not isinstance(calls, list) or not all(_call_ok(c) for c in calls):
        raise TapeError("not a tape (`calls` must be a list of {capability, args, result})")
    if not isinstance(tape.get("outcome"), dict):
        raise TapeError("not a tape (`outcome` is missing)")
    if not _is_hex_digest(tape.get("sha256")):
        raise TapeError("not a tape (`sha256`, the content hash, is missing)")
    try:
        data = _signed_bytes(calls, tape["outcome"])
    except ValueError as err:
        raise TapeError(f"not a tape ({err})") from None
    if not hmac.compare_digest(hashlib.sha256(data).hexdigest(), tape["sha256"]):
        raise TapeError("the tape's content hash does not match its calls and outcome: it was "
                        "changed after it was recorded")
    if key is not None:
        signature = tape.get("hmac_sha256")
        if signature is None:
            raise TapeError("the tape is not signed, but a tape key was given: record it with "
                            "--tape-key")
        if not _is_hex_digest(signature) or not hmac.compare_digest(_hmac(key, data), signature):
            raise TapeError("the tape's signature does not match the tape key (another key "
                            "signed it, or it was changed after it was recorded)")
    return tape


def read_tape_file(path) -> str:
    """The text of the tape file `path`: a regular file (a FIFO or device is refused, never
    waited on) of at most MAX_TAPE_BYTES; TapeError otherwise."""
    return _read_regular(path, MAX_TAPE_BYTES, "tape").decode("utf-8", "replace")


def read_tape_key(path) -> bytes:
    """The key in the key file `path` (surrounding whitespace dropped): MIN_KEY_BYTES to
    MAX_KEY_BYTES bytes, from a regular file; TapeError otherwise."""
    key = _read_regular(path, MAX_KEY_BYTES, "tape key").strip()
    if len(key) < MIN_KEY_BYTES:
        raise TapeError(f"the tape key file {path} holds {len(key)} byte(s); a key needs at "
                        f"least {MIN_KEY_BYTES} (e.g. `head -c 32 /dev/urandom | base64`)")
    return key


def check_tape_target(path) -> None:
    """TapeError when `path` exists and is not a regular file (a tape is never written to a
    FIFO or device: the write would wait for a reader)."""
    kind = existing_kind(path)
    if kind is not None:
        raise TapeError(f"cannot write the tape to {path}: not a regular file (a {kind})")


def write_tape_file(path, text: str) -> None:
    """Write the tape `text` to `path` (a regular file, created or replaced); TapeError
    otherwise, never blocking."""
    check_tape_target(path)
    try:
        fd = open_regular(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    except NotRegularFile as err:
        raise TapeError(f"cannot write the tape to {path}: not a regular file (a {err.what})")
    except OSError as err:
        raise TapeError(f"cannot write the tape to {path}: {err.strerror or err}") from None
    with os.fdopen(fd, "wb") as fh:
        fh.write(text.encode("utf-8", "surrogatepass"))


def _read_regular(path, limit: int, what: str) -> bytes:
    try:
        fd = open_regular(path)
    except NotRegularFile as err:
        raise TapeError(f"cannot read the {what} {path}: not a regular file (a {err.what})")
    except OSError as err:
        raise TapeError(f"cannot read the {what} {path}: {err.strerror or err}") from None
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise TapeError(f"cannot read the {what} {path}: larger than {limit} bytes")
    return data


def first_outcome_difference(recorded: dict, replayed: dict) -> str | None:
    """The first field of the recorded outcome the replay does not reproduce, as text."""
    for key in ("success", "result", "steps", "ui_output", "error", "event_log_sha256"):
        a, b = recorded.get(key), replayed.get(key)
        if a != b:
            why = ""
            if key == "success" and isinstance(replayed.get("error"), str):
                why = f" ({replayed['error']})"
            return (f"{key} differs: recorded {json.dumps(a, sort_keys=True)}, replay "
                    f"{json.dumps(b, sort_keys=True)}{why}")
    return None
