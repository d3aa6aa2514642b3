"""The Display form of values (docs/spec/vm.md §3.2) and Rust-style float formatting (§3.6).

Display is what error messages, contract counterexamples, `Debug` ops, the CLI
and the mock handler print. It is iterative, so arbitrarily deep values never
hit Python's recursion limit.
"""
from __future__ import annotations

import math

from boruna.core.values import (
    ActorId, Enum, Err, FnRef, MapValue, Ok, OptNone, Record, Some,
)


def float_to_string(x: float) -> str:
    """Rust `{}` of an f64: shortest round-trip digits, positional, no exponent,
    no trailing `.0`; `inf`, `-inf`, `NaN`, `-0`."""
    if x != x:
        return "NaN"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    negative = math.copysign(1.0, x) < 0
    text = repr(abs(x))
    mantissa, _, exp_text = text.partition("e")
    exponent = int(exp_text) if exp_text else 0
    int_part, _, frac_part = mantissa.partition(".")
    digits = int_part + frac_part
    point = len(int_part) + exponent
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    digits = stripped.rstrip("0")
    if not digits:
        body = "0"
    elif point <= 0:
        body = "0." + "0" * (-point) + digits
    elif point >= len(digits):
        body = digits + "0" * (point - len(digits))
    else:
        body = digits[:point] + "." + digits[point:]
    return "-" + body if negative else body


def _scalar(v) -> str | None:
    """Display of a leaf value, or None if `v` is a container."""
    t = type(v)
    if t is str:
        return '"' + v + '"'
    if t is int:
        return str(v)
    if t is bool:
        return "true" if v else "false"
    if t is float:
        return float_to_string(v)
    if v is None:
        return "()"
    if t is OptNone:
        return "None"
    if t is ActorId:
        return f"Actor#{v.id}"
    if t is FnRef:
        return f"Fn#{v.index}"
    return None


_RECURSION_DEPTH = 200   # deeper values continue on the iterative path


def display(value) -> str:
    """Display(value) exactly as the reference's `impl Display for Value`."""
    return _display(value, 0)


def _display(v, depth: int) -> str:
    """Recursive fast path; hands subtrees deeper than _RECURSION_DEPTH to the iterative one."""
    t = type(v)
    if t is str:
        return '"' + v + '"'
    if t is int:
        return str(v)
    if t is bool:
        return "true" if v else "false"
    if t is float:
        return float_to_string(v)
    if depth >= _RECURSION_DEPTH:
        return _display_iterative(v)
    d = depth + 1
    if t is tuple:
        return "[" + ", ".join([_display(x, d) for x in v]) + "]"
    if t is Record:
        return f"Record#{v.type_id}{{" + ", ".join([_display(x, d) for x in v.fields]) + "}"
    if t is Some or t is Ok or t is Err:
        return t.TAG + "(" + _display(v.value, d) + ")"
    if t is Enum:
        return f"Enum#{v.type_id}::{v.variant}(" + _display(v.payload, d) + ")"
    if t is MapValue or isinstance(v, dict):
        return "{" + ", ".join([f"{k}: {_display(x, d)}" for k, x in sorted(v.items())]) + "}"
    leaf = _scalar(v)
    return leaf if leaf is not None else repr(v)


def _display_iterative(value) -> str:
    leaf = _scalar(value)
    if leaf is not None:
        return leaf
    out: list[str] = []
    # Work stack of items: either a literal string to emit, or a value to render.
    work: list = [(False, value)]
    while work:
        is_text, item = work.pop()
        if is_text:
            out.append(item)
            continue
        leaf = _scalar(item)
        if leaf is not None:
            out.append(leaf)
            continue
        t = type(item)
        if t is tuple:
            _push_seq(work, "[", item, "]")
        elif t is Some or t is Ok or t is Err:
            out.append(t.TAG + "(")
            work.append((True, ")"))
            work.append((False, item.value))
        elif t is Record:
            _push_seq(work, f"Record#{item.type_id}{{", item.fields, "}")
        elif t is Enum:
            out.append(f"Enum#{item.type_id}::{item.variant}(")
            work.append((True, ")"))
            work.append((False, item.payload))
        elif t is MapValue or isinstance(item, dict):
            parts: list = [(True, "{")]
            for i, (k, v) in enumerate(sorted(item.items())):
                if i:
                    parts.append((True, ", "))
                parts.append((True, f"{k}: "))
                parts.append((False, v))
            parts.append((True, "}"))
            work.extend(reversed(parts))
        else:
            out.append(repr(item))
    return "".join(out)


def _push_seq(work: list, opener: str, items, closer: str) -> None:
    parts: list = [(True, opener)]
    for i, v in enumerate(items):
        if i:
            parts.append((True, ", "))
        parts.append((False, v))
    parts.append((True, closer))
    work.extend(reversed(parts))
