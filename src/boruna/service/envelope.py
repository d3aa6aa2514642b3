"""The response envelope every tool shares: `success` first, `protocol_version: 1` second.

`ok(...)`/`fail(...)` build insertion-ordered dicts; `render(response)` turns one into the
pretty-printed JSON text that MCP and `boruna ... --json` print, within the output budget
(DEFAULT_MAX_OUTPUT_BYTES): a larger response is replaced by the `limit_exceeded` response.
"""
from __future__ import annotations

import json
import math
import re
import secrets
from typing import Any

from boruna.core.errors import ErrorKind
from boruna.core.limits import DEFAULT_MAX_OUTPUT_BYTES
from boruna.core.json_text import deeper_than, is_small_json, json_size, pretty_small

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
        response["error_kind"] = (error_kind.value if isinstance(error_kind, ErrorKind)
                                  else error_kind)
    if message is not None:
        response["message"] = message
    response.update(fields)
    return response


def output_limit_failure(limit: int, steps=None) -> dict:
    """The `limit_exceeded` response for output over `limit` bytes (`steps` when known)."""
    fields = {} if steps is None else {"steps": steps}
    return fail(ErrorKind.LIMIT_EXCEEDED, f"serialized output exceeded {limit} bytes",
                limit_kind="output_bytes", limit=limit, phase="serialization", **fields)


PRETTY_DEPTH = 64
SMALL_TEXT_BOUND = 64 * 1024
"""More than the pretty text of any `is_small_json` value can take (64 values, 4,096
characters of strings at most 6 bytes each, indentation): a budget this large needs no
measuring for such a response."""
"""Below this nesting depth a (deeply nested) response is printed compactly, so indentation
cannot grow quadratically (a 20,000-deep list would otherwise need ~400 MB of spaces)."""


def _compact(value: Any) -> str:
    from boruna.core.json_text import compact_json

    return compact_json(value)


def _shallow(value: Any, depth: int, nonce: str, raw: list) -> Any:
    """`value` down to PRETTY_DEPTH, deeper containers replaced by markers into `raw`."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if not isinstance(value, (dict, list, tuple)):
        return value
    if depth >= PRETTY_DEPTH:
        raw.append(_compact(value))
        return f"{nonce}:{len(raw) - 1}"
    if isinstance(value, dict):
        return {k: _shallow(v, depth + 1, nonce, raw) for k, v in value.items()}
    return [_shallow(v, depth + 1, nonce, raw) for v in value]


def _render_carefully(response: Any) -> str:
    """`render` for responses holding non-finite floats or nesting deeper than the encoder."""
    nonce = "\x00" + secrets.token_hex(12)
    raw: list[str] = []
    text = json.dumps(_shallow(response, 0, nonce, raw), indent=2, ensure_ascii=False,
                      allow_nan=False)
    if not raw:
        return text
    marker = re.compile(re.escape(json.dumps(nonce)[:-1]) + r':(\d+)"')
    return marker.sub(lambda m: raw[int(m.group(1))], text)


def render(response: Any, max_bytes: int = DEFAULT_MAX_OUTPUT_BYTES, small=None) -> str:
    """Pretty JSON (indent 2, raw non-ASCII, insertion key order); non-finite floats -> null.

    When the text would exceed `max_bytes` bytes it is not built: the answer is then the
    `limit_exceeded` / `output_bytes` response (carrying the response's `steps`, if any).
    The size is measured first, without building anything, and the measuring stops at the
    budget, so shared or repeated parts cost no more than the budget allows.

    Never raises for JSON-shaped input: very deep values are printed compactly below
    PRETTY_DEPTH levels. The depth is measured first, so the recursive encoder never meets
    a deep value (another thread may have raised the recursion limit meanwhile). The text
    is always valid UTF-8: a lone surrogate (from decoded input such as `"\\ud800"` inside
    a JSON argument) is written as the escape `\\ud800`, never as raw text no transport
    could encode.

    `small` is `is_small_json(response)` when the caller has already computed it (None:
    computed here when it matters).
    """
    if max_bytes >= SMALL_TEXT_BOUND and (is_small_json(response) if small is None else small):
        # a few nodes, short strings: far below the budget and PRETTY_DEPTH, nothing to measure
        try:
            text = pretty_small(response)
        except ValueError:
            text = _render_carefully(response)
        return _escape_lone_surrogates(text)
    if json_size(response, max_bytes, PRETTY_DEPTH) is None:
        steps = response.get("steps") if isinstance(response, dict) else None
        response = output_limit_failure(max_bytes, steps if type(steps) is int else None)
    if deeper_than(response, PRETTY_DEPTH):
        text = _render_carefully(response)
    else:
        try:
            text = json.dumps(response, indent=2, ensure_ascii=False, allow_nan=False)
        except ValueError:
            text = _render_carefully(response)
    return _escape_lone_surrogates(text)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape_lone_surrogates(text: str) -> str:
    """JSON text with every lone surrogate code point spelled as a `\\uXXXX` escape (they
    can only occur inside JSON strings, where the escape means the same code point)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub(lambda m: "\\u%04x" % ord(m.group(0)), text)
    return text
