"""A tool response as an MCP `CallToolResult`: the seed's JSON text item, the same JSON as
`structuredContent`, and `isError` exactly when `success` is false.

Both are taken from the rendered text, which may differ from the response given (`render`
replaces a response over the output budget by the `limit_exceeded` one). A response nesting
deeper than STRUCTURED_DEPTH levels (a run result such as `l = [l]` in a loop) comes as the
text item only: the SDK cannot serialize, and clients cannot parse, structured content that
deep (pydantic stops near 200 levels).
"""
from __future__ import annotations

import json

import mcp_types as types

from boruna.service import render
from boruna.core.json_text import deeper_than, is_small_json
from boruna.service.boundary import internal_error
from boruna.service.errors import InvalidParams

STRUCTURED_DEPTH = 128
SMALL_TEXT = 4096
"""Text this short is parsed even when the response was deep (it was replaced)."""

SUCCESS_PREFIX = '{\n  "success": true,'
"""How every successful response's text starts (`success` first, pretty-printed)."""


def tool_result(response: dict, small=None) -> types.CallToolResult:
    """The result of one tools/call for a service response; `small` is
    `is_small_json(response)` when the caller knows it (None: measured here, once)."""
    if small is None:
        small = is_small_json(response)
    text = render(response, small=small)
    fields = {}
    if small:                       # as shallow as its text: no depth to measure
        fields["structured_content"] = json.loads(text)
    elif not deeper_than(response, STRUCTURED_DEPTH) or len(text) <= SMALL_TEXT:
        try:
            parsed = json.loads(text)
        except RecursionError:
            parsed = None
        if parsed is not None and not deeper_than(parsed, STRUCTURED_DEPTH):
            fields["structured_content"] = parsed
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                is_error=not text.startswith(SUCCESS_PREFIX), **fields)


def call_result(fn, *args):
    """Worker side: `tool_result(fn(*args))`, every failure a value: InvalidParams comes back
    as it is (the server makes it the MCP error), any other exception as the internal_error
    response, so the worker and the server keep serving."""
    try:
        return tool_result(fn(*args))
    except InvalidParams as exc:
        return exc
    except BaseException as exc:  # noqa: BLE001 - the server must keep serving
        return tool_result(internal_error(exc))
