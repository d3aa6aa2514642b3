"""The server's stdin as an async iterator of JSON-RPC lines, made safe to decode.

The SDK silently drops a line it cannot decode, so its sender would wait forever. Here:
- lone UTF-16 surrogate escapes (`\\ud800`, legal JSON that the SDK's decoder rejects) are
  replaced by U+FFFD, so the request is answered like any other;
- a line that is not JSON is answered with JSON-RPC -32700 (id null), and a JSON value that
  is not a JSON-RPC message with -32600 (echoing its id when it is a string or an integer);
  so is a message holding an integer of more than 4,300 digits (which the SDK cannot decode)
  and a request whose id is null, a boolean, a fraction, an object or an array (which the SDK
  would take for a notification and never answer: -32600 with id null); blank lines are
  skipped.

`screen_message(line)` does all of this, decoding each line once: on the event loop for a
well-formed line (`screen_on_loop`, when the transport reads stdin there), else on a
transport thread with a large stack; `SanitizedLines` is the async side that `wire.py` hands
to the SDK.
"""
from __future__ import annotations

import json
import logging
import re

log = logging.getLogger("boruna.mcp")

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _replace_surrogates(value):
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_replace_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {_replace_surrogates(k): _replace_surrogates(v) for k, v in value.items()}
    return value


MAX_INT_DIGITS = 4300
"""Digits of the longest integer a message may hold (Python's and the SDK decoder's limit)."""


class _HugeInt:
    """Stands for an integer literal longer than MAX_INT_DIGITS while a line is screened."""


def _deep_loads(text: str):
    """`(value, has_huge_int)`: json.loads on a large C stack, so nesting can never overflow
    the stack, only raise RecursionError (another thread may have raised the recursion limit
    meanwhile); an integer beyond MAX_INT_DIGITS digits decodes as a `_HugeInt`."""
    from boruna.core.deep_stack import call_deep

    huge = []

    def parse_int(digits: str):
        if len(digits.lstrip("-")) > MAX_INT_DIGITS:
            huge.append(digits)
            return _HugeInt()
        return int(digits)

    value = call_deep(json.loads, text, parse_int=parse_int)
    return value, bool(huge)


def _resanitized(line: str) -> str:
    return json.dumps(_replace_surrogates(json.loads(line)), ensure_ascii=False) + "\n"


def sanitize_line(line: str) -> str:
    """`line` with lone surrogate escapes neutralised (unchanged when there are none)."""
    if not _SURROGATE_ESCAPE.search(line):
        return line
    from boruna.core.deep_stack import call_deep

    try:
        return call_deep(_resanitized, line)
    except (ValueError, RecursionError):
        return line


TOO_DEEP = "Invalid Request: message nested too deeply"
BAD_ID = "Invalid Request: id must be a string or an integer"
HUGE_INT = f"Invalid Request: integer with more than {MAX_INT_DIGITS} digits"
_LEADING_ID = re.compile(r'^\s*\{[^{}\[\]]*?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")')


def _leading_id(line: str):
    """The request id when it appears at the top level before any nested value, else None."""
    match = _LEADING_ID.match(line)
    if match is None:
        return None
    try:
        return json.loads(match.group(1))
    except ValueError:
        return None


def _usable_id(request_id):
    """The id to answer with: a string or an integer, else None (JSON-RPC's null id)."""
    if isinstance(request_id, bool) or not isinstance(request_id, (int, str)):
        return None
    return request_id


def _invalid(request_id, text: str, code: int = -32600):
    import mcp_types as types

    return types.JSONRPCError(jsonrpc="2.0", id=request_id,
                              error=types.ErrorData(code=code, message=text))


def _undecodable(line: str):
    """The JSONRPCError for a line the SDK's decoder refused (None for a notification,
    which gets no answer even when it cannot be read)."""
    try:
        message, has_huge_int = _deep_loads(line)
    except RecursionError:  # valid or not, too deep to decode: answer its id if visible
        return _invalid(_leading_id(line), TOO_DEEP)
    except ValueError:
        return _invalid(None, "Parse error", -32700)
    request_id = _usable_id(message.get("id") if isinstance(message, dict) else None)
    if _depth(message) > DECODABLE_DEPTH:
        return _invalid(request_id, TOO_DEEP)
    if has_huge_int:
        if isinstance(message, dict) and isinstance(message.get("method"), str) \
                and "id" not in message:
            log.debug("dropped a notification holding an integer over %d digits",
                      MAX_INT_DIGITS)
            return None
        return _invalid(request_id, HUGE_INT)
    return _invalid(request_id, "Invalid Request")


def _has_id_member(line: str) -> bool:
    """Whether a line the SDK read as a notification has an `id` member after all (an id
    that is null, a boolean, a fraction, an object or an array: an invalid request)."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(message, dict) and "id" in message


def classify(line: str):
    """`(message, None)` for a decodable JSON-RPC line, else `(None, the JSONRPCError to
    answer it with)`, or `(None, None)` for a notification to drop. Every request line gets
    exactly one answer: the SDK's own, or this."""
    import mcp_types as types

    try:
        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except Exception:
        return None, _undecodable(line)
    return _accepted(line, message)


def _accepted(line: str, message):
    """`classify` of a line the SDK's decoder read as `message`."""
    import mcp_types as types

    if isinstance(message, types.JSONRPCNotification) and _has_id_member(line):
        return None, _invalid(None, BAD_ID)
    return message, None


def rejection(line: str):
    """The JSONRPCError to answer a line with; None when it is passed on (or dropped)."""
    return classify(line)[1]


def _in_flight_note(message):
    """What `InFlight` counts: ("request", id), ("cancel", requestId) or None."""
    import mcp_types as types

    if isinstance(message, types.JSONRPCRequest):
        return ("request", InFlight.key(message.id))
    if isinstance(message, types.JSONRPCNotification) \
            and message.method == "notifications/cancelled" \
            and isinstance(message.params, dict) and "requestId" in message.params:
        return ("cancel", InFlight.key(message.params["requestId"]))
    return None


def screen_message(line: str):
    """`(line, error, note, message)` for one non-blank stdin line: the sanitized line and
    its decoded JSON-RPC `message` to hand to the SDK, or the JSONRPCError answering it
    (message None); `note` is what `InFlight` counts. None for a line to drop."""
    line = sanitize_line(line)
    return _screened(line, *classify(line))


def _screened(line: str, message, error):
    if error is not None:
        return line, error, None, None
    if message is None:
        return None
    return line, None, _in_flight_note(message), message


def screen_on_loop(line: str):
    """`(True, screen_message(line))` when screening `line` needs no large stack: it holds
    no surrogate escape to replace and the SDK's decoder reads it (every well-formed
    message). Else `(False, None)`: a thread with a large stack of its own screens it, since
    `deep_stack.call_deep` from the event loop would wait behind compiles holding the pool."""
    import mcp_types as types

    if _SURROGATE_ESCAPE.search(line):
        return False, None
    try:
        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except Exception:
        return False, None
    return True, _screened(line, *_accepted(line, message))


def screen(line: str):
    """`(line, error, note)` of `screen_message(line)`; None for a line to drop."""
    item = screen_message(line)
    return None if item is None else item[:3]


DECODABLE_DEPTH = 200
"""Nesting the SDK's decoder is trusted to accept (it refuses a few hundred levels)."""


def _depth(value) -> int:
    """Nesting depth of a decoded JSON value, computed without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, level + 1) for child in children)
    return deepest


EOF_GRACE_SECONDS = 5.0
"""How long EOF on stdin waits for calls still running before the session ends."""


class InFlight:
    """Requests read from stdin and not yet answered, so EOF can wait for their answers.

    Without it, a client that writes its requests and then closes stdin (`printf ... |
    boruna-mcp`) gets `Connection closed` for every call still running at EOF. The wait is
    bounded by EOF_GRACE_SECONDS.
    """

    def __init__(self):
        self._open: dict[str, int] = {}
        self._drained = None

    @staticmethod
    def key(request_id) -> str:
        return str(request_id)

    def note_inbound(self, note) -> None:
        """Count a request (`("request", key)`); a cancel (`("cancel", key)`) forgets it."""
        if note is None:
            return
        kind, key = note
        if kind == "request":
            self._open[key] = self._open.get(key, 0) + 1
        elif kind == "cancel":
            self._forget(key)

    def note_outbound(self, message) -> None:
        """Count an answer (a JSON-RPC response or error) the server wrote."""
        import mcp_types as types

        if isinstance(message, (types.JSONRPCResponse, types.JSONRPCError)) \
                and message.id is not None:
            key = self.key(message.id)
            if self._open.get(key, 0) > 1:
                self._open[key] -= 1
            else:
                self._forget(key)

    def _forget(self, key: str) -> None:
        self._open.pop(key, None)
        if not self._open and self._drained is not None:
            self._drained.set()

    async def drained(self, grace_seconds: float = EOF_GRACE_SECONDS) -> None:
        """Return once every counted request has been answered (or cancelled), or after
        `grace_seconds`: a client closing stdin to shut the server down must not wait for
        an endless run (the SDK then answers what is left with `Connection closed`)."""
        import anyio

        with anyio.move_on_after(grace_seconds):
            while self._open:
                self._drained = anyio.Event()
                await self._drained.wait()


class SanitizedLines:
    """Async iteration over the screened stdin lines of a transport reader
    (`transport.start_stdin_reader`).

    `reply` (set once the transport is open) is an async callable sending a JSONRPCError.
    At EOF the iteration ends only after `in_flight` reports every request answered.
    """

    def __init__(self, reader):
        self._reader = reader
        self.reply = None
        self.in_flight = InFlight()

    def __aiter__(self):
        return self

    async def __anext__(self) -> str:
        return (await self.next_message())[0]

    async def next_message(self):
        """`(line, message)` of the next line to hand to the SDK (`message` is the decoded
        JSON-RPC message, or None when screening the line failed); StopAsyncIteration at
        EOF once every request is answered."""
        while True:
            item = await self._reader.receive()
            if item is None:
                await self.in_flight.drained()
                raise StopAsyncIteration
            line, error, note = item[:3]
            if error is None:
                self.in_flight.note_inbound(note)
                return line, (item[3] if len(item) > 3 else None)
            if self.reply is not None:
                await self.reply(error)
