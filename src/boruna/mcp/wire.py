"""The SDK's read and write streams over the server's own transport threads, in place of
the SDK's `stdio_server` (which would decode every line a second time and pass each message
through two more tasks of its own).

`InboundMessages` hands the SDK each screened stdin line as the `SessionMessage` of the
message the reader thread already decoded (`stdin_lines.screen_message`): the SDK's own
decoder, `jsonrpc_message_adapter.validate_json`, run once. A line whose screening failed is
decoded here as the SDK would (its decoding error handed on as the SDK's stdio does).
`OutboundMessages.send` writes each message as the SDK's stdio writes it
(`model_dump_json(by_alias=True, exclude_unset=True)` and a newline) straight to the
`transport.StdoutWriter`, then counts the answer for `stdin_lines.InFlight`; so a client
sees exactly the bytes the SDK's stdio would have written, in the same order.
"""
from __future__ import annotations

import anyio
import mcp_types as types

from mcp.shared.message import SessionMessage


class _Stream:
    """What the SDK asks of either stream beyond reading or writing: closing, and use as an
    async context manager (closing on exit)."""
    _closed = False

    def close(self) -> None:
        self._closed = True

    async def aclose(self) -> None:
        self._closed = True

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc_info):
        self._closed = True
        return None


class InboundMessages(_Stream):
    """The read stream the SDK iterates: a SessionMessage (or the decoding exception) per
    line of a `stdin_lines.SanitizedLines`; the iteration ends at its EOF."""

    def __init__(self, lines):
        self._lines = lines
        self._closed = False

    def __aiter__(self):
        return self

    async def __anext__(self):
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def receive(self):
        if self._closed:
            raise anyio.ClosedResourceError
        try:
            line, message = await self._lines.next_message()
        except StopAsyncIteration:
            raise anyio.EndOfStream from None
        if message is None:
            try:
                message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
            except Exception as exc:
                return exc
        return SessionMessage(message)


class OutboundMessages(_Stream):
    """The write stream the SDK sends to: each message's JSON line written by `writer`
    (a `transport.StdoutWriter`) before `send` returns, then reported to `in_flight`."""

    def __init__(self, writer, in_flight):
        self._writer = writer
        self._in_flight = in_flight
        self._closed = False

    async def _write(self, message) -> None:
        if self._closed:
            raise anyio.ClosedResourceError
        await self._writer.write(message.model_dump_json(by_alias=True, exclude_unset=True)
                                 + "\n")

    async def send(self, item) -> None:
        await self._write(item.message)
        self._in_flight.note_outbound(item.message)

    async def send_error(self, error) -> None:
        """Write a JSONRPCError the screening produced (`stdin_lines.SanitizedLines.reply`;
        its line was never counted as a request)."""
        await self._write(error)

