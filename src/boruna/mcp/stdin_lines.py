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
    from boruna.language.deep_stack import call_deep

    return call_deep(json.loads, text)


def _resanitized(line: str) -> str:
    return json.dumps(_replace_surrogates(json.loads(line)), ensure_ascii=False) + "\n"


def sanitize_line(line: str) -> str:
    """`line` with lone surrogate escapes neutralised (unchanged when there are none)."""
    if not _SURROGATE_ESCAPE.search(line):
        return line
    from boruna.language.deep_stack import call_deep

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


class SanitizedLines:
    """Async iteration over an anyio text file's JSON-RPC lines (see the module docstring).

    `reply` (set once the transport is open) is an async callable sending a JSONRPCError.
    """

    def __init__(self, async_file):
        self._file = async_file
        self.reply = None

    def __aiter__(self):
        return self

    async def __anext__(self) -> str:
        while True:
            line = await self._file.readline()
            if not line:
                raise StopAsyncIteration
            if not line.strip():
                continue
            try:
                line = sanitize_line(line)
                error = rejection(line)
            except Exception:  # never let the reader die: the SDK gets the raw line
                return line
            if error is None:
                return line
            if self.reply is not None:
                await self.reply(error)
