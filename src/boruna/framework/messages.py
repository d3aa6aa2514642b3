"""Test-runner messages: `"tag:payload"` strings → (tag, payload) (tooling.md §3.5)."""
from __future__ import annotations

import re
from typing import Union

I64_MIN, I64_MAX = -(2 ** 63), 2 ** 63 - 1
_DECIMAL = re.compile(r"[+-]?[0-9]+", re.ASCII)
# Unicode White_Space (Rust `str::trim`); Python's `str.strip()` would also drop \x1c-\x1f.
WHITESPACE = ("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
              "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


def parse_payload(text: str) -> Union[int, str]:
    """An Int when `text` is a signed 64-bit decimal (optional sign, ASCII digits), else text."""
    if _DECIMAL.fullmatch(text):
        value = int(text)
        if I64_MIN <= value <= I64_MAX:
            return value
    return text


def parse_message(message: str) -> tuple[str, Union[int, str]]:
    """Trim; split at the first `:` (tag not re-trimmed, payload trimmed); no `:` → payload 0."""
    text = message.strip(WHITESPACE)
    tag, colon, rest = text.partition(":")
    if not colon:
        return text, 0
    return tag, parse_payload(rest.strip(WHITESPACE))


def split_message_list(messages: Union[str, list, tuple]) -> list[str]:
    """A list is taken as is; a string is the CLI's comma-separated form (`"a:1,b,c:x"`)."""
    if isinstance(messages, str):
        return [] if messages == "" else messages.split(",")
    items = list(messages)
    for item in items:
        if not isinstance(item, str):
            raise TypeError(f"messages must be strings, got {type(item).__name__}")
    return items
