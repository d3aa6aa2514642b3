"""Test-runner messages: `"tag:payload"` strings → (tag, payload) (docs/spec/tooling.md §3.5)."""
from __future__ import annotations

import re
from typing import Union

from boruna.core.unicode import trim

I64_MIN, I64_MAX = -(2 ** 63), 2 ** 63 - 1
_DECIMAL = re.compile(r"[+-]?[0-9]+", re.ASCII)


def parse_payload(text: str) -> Union[int, str]:
    """An Int when `text` is a signed 64-bit decimal (optional sign, ASCII digits), else text."""
    if _DECIMAL.fullmatch(text):
        value = int(text)
        if I64_MIN <= value <= I64_MAX:
            return value
    return text


def parse_message(message: str) -> tuple[str, Union[int, str]]:
    """Trim; split at the first `:` (tag not re-trimmed, payload trimmed); no `:` → payload 0."""
    text = trim(message)
    tag, colon, rest = text.partition(":")
    if not colon:
        return text, 0
    return tag, parse_payload(trim(rest))


def split_message_list(messages: Union[str, list, tuple]) -> list[str]:
    """A list is taken as is; a string is the CLI's comma-separated form (`"a:1,b,c:x"`)."""
    if isinstance(messages, str):
        return [] if messages == "" else messages.split(",")
    items = list(messages)
    for item in items:
        if not isinstance(item, str):
            raise TypeError(f"messages must be strings, got {type(item).__name__}")
    return items
