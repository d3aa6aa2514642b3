"""The response envelope every tool shares: `success` first, `protocol_version: 1` second.

`ok(...)`/`fail(...)` build insertion-ordered dicts; `render(response)` turns one into the
pretty-printed JSON text that MCP and `boruna ... --json` print.
"""
from __future__ import annotations

import json
import math
from typing import Any

PROTOCOL_VERSION = 1
"""Wire-format version of the envelope (bumped only on a breaking shape change)."""


def ok(**fields: Any) -> dict:
    """A success response: `success: true`, `protocol_version`, then `fields` in order."""
    response = {"success": True, "protocol_version": PROTOCOL_VERSION}
    response.update(fields)
    return response


def fail(error_kind: str | None = None, message: str | None = None, **fields: Any) -> dict:
    """A failure response: `success: false`, `protocol_version`, `error_kind`, `message`, extras.

    `error_kind`/`message` are left out when None (compile failures carry only `errors`).
    """
    response: dict = {"success": False, "protocol_version": PROTOCOL_VERSION}
    if error_kind is not None:
        response["error_kind"] = error_kind
    if message is not None:
        response["message"] = message
    response.update(fields)
    return response


def _finite(value: Any) -> Any:
    """A copy of `value` with every NaN/±Infinity float replaced by None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def render(response: Any) -> str:
    """Pretty JSON (indent 2, raw non-ASCII, insertion key order); non-finite floats -> null."""
    try:
        return json.dumps(response, indent=2, ensure_ascii=False, allow_nan=False)
    except ValueError:
        return json.dumps(_finite(response), indent=2, ensure_ascii=False, allow_nan=False)
