"""The server's stdin as an async iterator of JSON-RPC lines, made safe to decode.

The SDK silently drops a line it cannot decode, so its sender would wait forever. Here:
- lone UTF-16 surrogate escapes (`\\ud800`, legal JSON that the SDK's decoder rejects) are
  replaced by U+FFFD, so the request is answered like any other;
- a line that is not JSON is answered with JSON-RPC -32700 (id null), and a JSON value that
  is not a JSON-RPC message with -32600 (echoing its id when it has one); blank lines are
  skipped.
"""
from __future__ import annotations

import json
import re

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


def _deep_loads(text: str):
    """json.loads on a large C stack: nesting can never overflow the stack, only raise
    RecursionError (another thread may have raised the recursion limit meanwhile)."""
    from boruna.core.deep_stack import call_deep

    return call_deep(json.loads, text)


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


def rejection(line: str):
    """None for a decodable JSON-RPC line, else the JSONRPCError to answer it with."""
    import mcp_types as types

    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        return None
    except Exception:
        pass
    try:
        message = _deep_loads(line)
    except RecursionError:  # valid or not, too deep to decode: answer its id if visible
        return types.JSONRPCError(jsonrpc="2.0", id=_leading_id(line),
                                  error=types.ErrorData(code=-32600, message=TOO_DEEP))
    except ValueError:
        return types.JSONRPCError(jsonrpc="2.0", id=None,
                                  error=types.ErrorData(code=-32700, message="Parse error"))
    request_id = message.get("id") if isinstance(message, dict) else None
    if isinstance(request_id, bool) or not isinstance(request_id, (int, str)):
        request_id = None
    text = TOO_DEEP if _depth(message) > DECODABLE_DEPTH else "Invalid Request"
    return types.JSONRPCError(jsonrpc="2.0", id=request_id,
                              error=types.ErrorData(code=-32600, message=text))


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
    def _key(request_id) -> str:
        return str(request_id)

    def note_inbound(self, line: str) -> None:
        """Count a request line; a `notifications/cancelled` forgets its request."""
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            return
        if not isinstance(message, dict) or not isinstance(message.get("method"), str):
            return
        if "id" in message:
            key = self._key(message["id"])
            self._open[key] = self._open.get(key, 0) + 1
        elif message["method"] == "notifications/cancelled":
            params = message.get("params")
            if isinstance(params, dict) and "requestId" in params:
                self._forget(self._key(params["requestId"]))

    def note_outbound(self, message) -> None:
        """Count an answer (a JSON-RPC response or error) the server wrote."""
        import mcp_types as types

        if isinstance(message, (types.JSONRPCResponse, types.JSONRPCError)) \
                and message.id is not None:
            key = self._key(message.id)
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


class AnswerCountingStream:
    """The transport's write stream, reporting each outgoing message to an `InFlight`."""

    def __init__(self, stream, in_flight: InFlight):
        self._stream = stream
        self._in_flight = in_flight

    async def send(self, item) -> None:
        await self._stream.send(item)
        self._in_flight.note_outbound(getattr(item, "message", None))

    async def aclose(self) -> None:
        await self._stream.aclose()

    async def __aenter__(self):
        await self._stream.__aenter__()
        return self

    async def __aexit__(self, *exc_info):
        return await self._stream.__aexit__(*exc_info)


class SanitizedLines:
    """Async iteration over an anyio text file's JSON-RPC lines (see the module docstring).

    `reply` (set once the transport is open) is an async callable sending a JSONRPCError.
    At EOF the iteration ends only after `in_flight` reports every request answered.
    """

    def __init__(self, async_file):
        self._file = async_file
        self.reply = None
        self.in_flight = InFlight()

    def __aiter__(self):
        return self

    async def __anext__(self) -> str:
        while True:
            line = await self._file.readline()
            if not line:
                await self.in_flight.drained()
                raise StopAsyncIteration
            if not line.strip():
                continue
            try:
                line = sanitize_line(line)
                error = rejection(line)
            except Exception:  # never let the reader die: the SDK gets the raw line
                return line
            if error is None:
                self.in_flight.note_inbound(line)
                return line
            if self.reply is not None:
                await self.reply(error)
