"""JSON text, written once for the whole package.

Two layouts: serde_json's (`dumps`, `dumps_pretty`, `pretty_limited`: floats in serde's zmij
text, docs/spec/language.md §5.4 — the AST JSON and `.axbc` conventions), and Python's
compact one for responses (`compact_json`, `json_size`, `deeper_than`) described below.

Compact JSON text of a response value at any nesting depth:

`compact_json(value, sort_keys=False)` is `json.dumps(value, separators=(",", ":"),
ensure_ascii=False)` with NaN/±Infinity written as `null`, except that it never recurses: a VM
value can nest hundreds of thousands of levels (`l = [l]` in a loop), deeper than the
recursive standard encoder (and the interpreter's recursion limit) allows.
"""
from __future__ import annotations

import json
import math
from decimal import Decimal
from json.encoder import encode_basestring as _encode_str
from typing import Any

from boruna.core.deep_stack import call_deep

_FAST_DEPTH = 200
"""Values nesting at most this deep go through the standard (C) encoder."""


def deeper_than(value: Any, limit: int) -> bool:
    """Whether containers (dicts, lists, tuples) nest more than `limit` levels (iterative)."""
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if level > limit:
            return True
        stack.extend((child, level + 1) for child in children
                     if isinstance(child, (dict, list, tuple)))
    return False


SMALL_NODES = 64
SMALL_CHARS = 4096
_SMALL_INT = 10 ** 20


def is_small_json(value: Any) -> bool:
    """Whether `value` is plain JSON data (dicts with string keys, lists, tuples, strings,
    ints of at most 20 digits, floats, bools, None) of at most SMALL_NODES values holding at most SMALL_CHARS
    characters of strings and keys in all. Its text is then at most ~60 KB in any layout and
    it nests at most SMALL_NODES levels, so measuring its size or depth first can be skipped
    (a tool's usual response). The walk stops at the first value over the bounds."""
    nodes = chars = 0
    stack = [value]
    pop, push = stack.pop, stack.append
    while stack:
        item = pop()
        nodes += 1
        if nodes > SMALL_NODES:
            return False
        t = type(item)
        if t is str:
            chars += len(item)
        elif t is dict:
            for key, child in item.items():
                if type(key) is not str:
                    return False
                chars += len(key)
                push(child)
        elif t is list or t is tuple:
            stack.extend(item)
        elif t is int:
            if not -_SMALL_INT < item < _SMALL_INT:
                return False
        elif not (t is bool or t is float or item is None):
            return False
        if chars > SMALL_CHARS:
            return False
    return True


_INDENT = "  "
_INF = float("inf")


def pretty_small(value: Any, level: int = 0) -> str:
    """`json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)` for a value
    `is_small_json` accepts, built without the json module's pure-Python indenting encoder
    (strings through its C `encode_basestring`): the same text, ValueError for a NaN or an
    infinity as json.dumps raises. Recursive: such a value nests at most SMALL_NODES levels."""
    t = type(value)
    if t is str:
        return _encode_str(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if t is int:
        return int.__repr__(value)
    if t is float:
        if value != value or value == _INF or value == -_INF:
            raise ValueError("Out of range float values are not JSON compliant: " + repr(value))
        return float.__repr__(value)
    inner = "\n" + _INDENT * (level + 1)
    if t is dict:
        if not value:
            return "{}"
        return ("{" + inner + ("," + inner).join(
            [_encode_str(k) + ": " + pretty_small(v, level + 1) for k, v in value.items()])
            + "\n" + _INDENT * level + "}")
    if t is list or t is tuple:
        if not value:
            return "[]"
        return ("[" + inner + ("," + inner).join([pretty_small(v, level + 1) for v in value])
                + "\n" + _INDENT * level + "]")
    raise TypeError(f"Object of type {t.__name__} is not JSON serializable")


def _scalar(item: Any) -> str:
    if isinstance(item, float) and not math.isfinite(item):
        return "null"
    return json.dumps(item, ensure_ascii=False)


def _key(key: Any) -> str:
    return json.dumps(key if isinstance(key, str) else _scalar(key), ensure_ascii=False)


def _iterative(value: Any, sort_keys: bool) -> str:
    out: list[str] = []
    stack: list[tuple[bool, Any]] = [(False, value)]   # (is literal text, item)
    while stack:
        literal, item = stack.pop()
        if literal:
            out.append(item)
        elif isinstance(item, dict):
            keys = sorted(item) if sort_keys else list(item)
            if not keys:
                out.append("{}")
                continue
            out.append("{")
            stack.append((True, "}"))
            for i in range(len(keys) - 1, -1, -1):
                stack.append((False, item[keys[i]]))
                stack.append((True, ("," if i else "") + _key(keys[i]) + ":"))
        elif isinstance(item, (list, tuple)):
            if not item:
                out.append("[]")
                continue
            out.append("[")
            stack.append((True, "]"))
            for i in range(len(item) - 1, -1, -1):
                stack.append((False, item[i]))
                if i:
                    stack.append((True, ","))
        else:
            out.append(_scalar(item))
    return "".join(out)


def compact_json(value: Any, sort_keys: bool = False) -> str:
    """Compact JSON text of `value` (raw UTF-8, non-finite floats as null), at any depth."""
    if not deeper_than(value, _FAST_DEPTH):
        try:
            return json.dumps(value, separators=(",", ":"), sort_keys=sort_keys,
                              ensure_ascii=False, allow_nan=False)
        except ValueError:       # a non-finite float: the iterative path writes null
            pass
    return _iterative(value, sort_keys)


def _scalar_size(item: Any) -> int:
    """Bytes of a non-container value's JSON text as `render`/`compact_json` write it."""
    if item is None or item is True:
        return 4
    if item is False:
        return 5
    if type(item) is str:
        # lone surrogates are written as 6-character `\uXXXX` escapes, like backslashreplace
        return len(json.dumps(item, ensure_ascii=False).encode("utf-8", "backslashreplace"))
    if type(item) is int:
        return len(repr(item))
    if type(item) is float:
        return len(float.__repr__(item)) if math.isfinite(item) else 4
    return len(_scalar(item).encode("utf-8", "backslashreplace"))


_END = object()


def json_size(value: Any, limit: int, indent_depth: int = 0) -> int | None:
    """Bytes of `value`'s JSON text, or None as soon as they exceed `limit`. The text is
    never built and the walk stops there, so a value sharing one large string or list in
    many places costs at most about `limit` bytes of work.

    `indent_depth=0` measures `compact_json(value)`; a positive depth measures the pretty
    form `render` writes: indent 2 down to that depth, compact below it.
    """
    total = 0
    iterators = [iter((value,))]
    levels = [0]                     # the nesting level of what each iterator yields
    while iterators:
        item = next(iterators[-1], _END)
        if item is _END:
            iterators.pop()
            levels.pop()
            continue
        level = levels[-1]
        if isinstance(item, dict):
            count = len(item)
            total += sum(len(_key(k).encode("utf-8", "backslashreplace")) for k in item)
            total += count * (2 if level < indent_depth else 1)    # ": " or ":"
            children = item.values()
        elif isinstance(item, (list, tuple)):
            count = len(item)
            children = item
        else:
            if type(item) is str and len(item) + 2 > limit - total:
                return None             # longer than what is left: no need to encode it
            total += _scalar_size(item)
            if total > limit:
                return None
            continue
        total += 2 + max(count - 1, 0)                              # brackets and commas
        if count and level < indent_depth:
            total += count * (1 + 2 * (level + 1)) + 1 + 2 * level  # newlines, indentation
        if total > limit:
            return None
        iterators.append(iter(children))
        levels.append(level + 1)
    return total


# ------------------------------------------------------------------ JSON text (serde style)

def format_float(value: float) -> str:
    """serde_json's text for a finite f64 (zmij layout, docs/spec/language.md §5.4); `null` otherwise."""
    if not math.isfinite(value):
        return "null"
    if value == 0.0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    sign, digit_tuple, exponent = Decimal(repr(value)).normalize().as_tuple()
    digits = "".join(map(str, digit_tuple))
    e = len(digits) - 1 + exponent          # scientific exponent: d.ddd x 10^e
    prefix = "-" if sign else ""
    if -5 <= e <= 15:
        if e >= len(digits) - 1:
            text = digits + "0" * (e - len(digits) + 1) + ".0"
        elif e < 0:
            text = "0." + "0" * (-e - 1) + digits
        else:
            text = digits[:e + 1] + "." + digits[e + 1:]
        return prefix + text
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return f"{prefix}{mantissa}e{'+' if e > 0 else '-'}{abs(e)}"


_SERDE_KEYS: dict[str, str] = {}


def _serde_key(key) -> str:
    text = _SERDE_KEYS.get(key)
    if text is None:
        text = json.dumps(str(key), ensure_ascii=False)
        if len(_SERDE_KEYS) < 4096:
            _SERDE_KEYS[key] = text
    return text


def _encode(obj, out: list, indent, level: int, sort_keys: bool) -> None:
    if obj is None:
        out.append("null")
    elif obj is True:
        out.append("true")
    elif obj is False:
        out.append("false")
    elif isinstance(obj, str):
        out.append(json.dumps(obj, ensure_ascii=False))
    elif isinstance(obj, int):
        out.append(int.__repr__(obj))
    elif isinstance(obj, float):
        out.append(format_float(obj))
    elif isinstance(obj, dict):
        if not obj:
            out.append("{}")
            return
        keys = sorted(obj) if sort_keys else list(obj)
        if indent is None:
            out.append("{")
            for i, key in enumerate(keys):
                if i:
                    out.append(",")
                out.append(_serde_key(key))
                out.append(":")
                _encode(obj[key], out, None, 0, sort_keys)
            out.append("}")
        else:
            inner = "\n" + indent * (level + 1)
            out.append("{")
            for i, key in enumerate(keys):
                out.append("," + inner if i else inner)
                out.append(_serde_key(key))
                out.append(": ")
                _encode(obj[key], out, indent, level + 1, sort_keys)
            out.append("\n" + indent * level + "}")
    elif isinstance(obj, (list, tuple)):
        if not obj:
            out.append("[]")
            return
        if indent is None:
            out.append("[")
            for i, item in enumerate(obj):
                if i:
                    out.append(",")
                _encode(item, out, None, 0, sort_keys)
            out.append("]")
        else:
            inner = "\n" + indent * (level + 1)
            out.append("[")
            for i, item in enumerate(obj):
                out.append("," + inner if i else inner)
                _encode(item, out, indent, level + 1, sort_keys)
            out.append("\n" + indent * level + "]")
    else:
        raise TypeError(f"not JSON-serializable: {type(obj).__name__}")


def dumps(obj, *, indent: int | None = None, sort_keys: bool = False) -> str:
    """JSON text with serde_json's conventions: compact `{"a":1}` without indent, else the
    pretty layout; non-ASCII kept raw; floats per `format_float`."""
    out: list[str] = []
    call_deep(_encode, obj, out, None if indent is None else " " * indent, 0, sort_keys)
    return "".join(out)


def dumps_pretty(obj) -> str:
    """serde_json's `to_string_pretty`: two-space indent, `": "`, declaration order."""
    return dumps(obj, indent=2)


class _BoundedSink:
    """Collects text up to `limit` UTF-8 bytes and only counts the rest."""

    __slots__ = ("parts", "size", "limit")

    def __init__(self, limit: int):
        self.parts: list[str] = []
        self.size = 0
        self.limit = limit

    def write(self, text: str) -> None:
        n = len(text) if text.isascii() else len(text.encode("utf-8"))
        if self.size < self.limit:
            self.parts.append(text)
        self.size += n

    def newline(self, width: int) -> None:
        """A line break followed by `width` spaces, materialized only below the limit."""
        if self.size < self.limit:
            self.parts.append("\n" + " " * width)
        self.size += 1 + width


def _measure(obj, sink: _BoundedSink, level: int) -> None:
    write = sink.write
    if obj is None:
        write("null")
    elif obj is True:
        write("true")
    elif obj is False:
        write("false")
    elif isinstance(obj, str):
        write(json.dumps(obj, ensure_ascii=False))
    elif isinstance(obj, int):
        write(int.__repr__(obj))
    elif isinstance(obj, float):
        write(format_float(obj))
    elif isinstance(obj, dict):
        if not obj:
            write("{}")
            return
        write("{")
        first = True
        for key, value in obj.items():
            if not first:
                write(",")
            first = False
            sink.newline(2 * (level + 1))
            write(_serde_key(key))
            write(": ")
            _measure(value, sink, level + 1)
        sink.newline(2 * level)
        write("}")
    elif isinstance(obj, (list, tuple)):
        if not obj:
            write("[]")
            return
        write("[")
        first = True
        for item in obj:
            if not first:
                write(",")
            first = False
            sink.newline(2 * (level + 1))
            _measure(item, sink, level + 1)
        sink.newline(2 * level)
        write("]")
    else:
        raise TypeError(f"not JSON-serializable: {type(obj).__name__}")


def pretty_limited(obj, limit_bytes: int) -> tuple[str, int]:
    """`(prefix, size)`: `dumps_pretty(obj)`'s first `limit_bytes` UTF-8 bytes, never cutting a
    character, and the full text's byte size. Memory stays bounded by the limit even when
    the full text would be huge (deep nesting makes pretty JSON quadratic in size)."""
    sink = _BoundedSink(limit_bytes)
    call_deep(_measure, obj, sink, 0)
    text = "".join(sink.parts)
    if sink.size <= limit_bytes:
        return text, sink.size
    prefix = text.encode("utf-8")[:limit_bytes].decode("utf-8", "ignore")
    return prefix, sink.size
