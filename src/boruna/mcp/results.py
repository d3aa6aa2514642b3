"""A tool response as an MCP `CallToolResult`: the seed's JSON text item, the same JSON as
`structuredContent`, and `isError` exactly when `success` is false.

A response nesting deeper than STRUCTURED_DEPTH levels (a run result such as `l = [l]` in a
loop) comes as the text item only: the SDK cannot serialize, and clients cannot parse,
structured content that deep (pydantic stops near 200 levels).
"""
from __future__ import annotations

import json

import mcp_types as types

from boruna.service import render
from boruna.service.json_text import deeper_than

STRUCTURED_DEPTH = 128


def tool_result(response: dict) -> types.CallToolResult:
    """The result of one tools/call for a service response."""
    text = render(response)
    fields = {}
    if not deeper_than(response, STRUCTURED_DEPTH):
        fields["structured_content"] = json.loads(text)
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                is_error=response.get("success") is False, **fields)
