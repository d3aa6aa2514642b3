"""Compact JSON text of a response value at any nesting depth.

`compact_json(value, sort_keys=False)` is `json.dumps(value, separators=(",", ":"),
ensure_ascii=False)` with NaN/±Infinity written as `null`, except that it never recurses: a VM
value can nest hundreds of thousands of levels (`l = [l]` in a loop), deeper than the
recursive standard encoder (and the interpreter's recursion limit) allows.
"""
from __future__ import annotations

import json
import math
from typing import Any

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
