"""Transport-level failures: problems with the request itself, not with the `.ax` program.

These are the only failures a tool function raises; everything else is a `success: false`
response. The MCP server maps `InvalidParams` to JSON-RPC -32602 with `message` as the text.
"""
from __future__ import annotations

from boruna.core.limits import MAX_SOURCE_BYTES

SOURCE_TOO_LARGE = "source exceeds 1 MB limit"


class InvalidParams(Exception):
    """A request that cannot be served as given (oversized source, mistyped argument)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def guard_source(source: str, limit: int | None = MAX_SOURCE_BYTES) -> None:
    """Raise InvalidParams when `source` is longer than `limit` (1,048,576) UTF-8 bytes.

    `limit=None` is for a caller that bounded the source itself (the CLI's input limit)."""
    # A str of n code points takes at least n and at most 4n UTF-8 bytes.
    if limit is None or len(source) * 4 <= limit:
        return
    if len(source) > limit or len(source.encode("utf-8", "surrogatepass")) > limit:
        raise InvalidParams(SOURCE_TOO_LARGE)
