"""Read JSON text the way the reference's serde_json does, error texts included.

`loads(text)` returns Python values (dict with last-duplicate-wins, list, str,
int, float, bool, None) and raises `JsonSyntaxError` whose message is serde's,
e.g. `EOF while parsing a value at line 1 column 0` or
`trailing characters at line 1 column 25`. Numbers follow serde_json's typing:
integers within u64/i64 stay `int`, larger magnitudes and `-0` become `float`; a
number beyond the float range (an integer of 310 digits or 5,000, `1e400`) is serde's
`number out of range`, or with `loads(text, keep_out_of_range=True)` an `OutOfRange` value
that records where it stood, so a caller can name the field holding it.
More than 127 nested containers is `recursion limit exceeded`.
"""
from __future__ import annotations

import json
import re

from boruna.core.limits import U64_MAX

I64_MIN = -(2 ** 63)
MAX_DEPTH = 127  # serde_json: remaining_depth 128, the 128th nested container fails
_WS = " \t\n\r"
_SURROGATE = re.compile("[\ud800-\udfff]")


class JsonSyntaxError(ValueError):
    """A serde_json syntax error; `message` includes ` at line L column C`."""

    def __init__(self, code: str, line: int, column: int):
        self.code = code
        self.line = line
        self.column = column
        self.message = f"{code} at line {line} column {column}"
        super().__init__(self.message)


MAX_INT_DIGITS = 20
"""Digits of the longest integer that can fit u64/i64; longer ones are read as floats (and
never handed to `int()`, which refuses more than 4,300 digits)."""


class OutOfRange:
    """A number beyond the float range, kept in place of serde's error (`keep_out_of_range`).
    `digits` is the length of its text; `line`/`column` where it ended (0: not from text)."""

    __slots__ = ("text", "line", "column", "digits")

    def __init__(self, text: str, line: int = 0, column: int = 0, digits: int = 0):
        self.text = text
        self.line = line
        self.column = column
        self.digits = digits or sum(c.isdigit() for c in text)

    def describe(self) -> str:
        """The number itself when short (`1e400`), else `a 5001-digit number`."""
        if self.text and len(self.text) <= 24:
            return f"`{self.text}`"
        return f"a {self.digits}-digit number"

    def __repr__(self) -> str:
        return f"OutOfRange({self.describe()})"


def number_value(n):
    """serde_json's typing of an already-decoded number (used for values that did
    not come through `loads`, e.g. MCP arguments); an integer beyond the float range is an
    `OutOfRange`."""
    if type(n) is int and (n > U64_MAX or n < I64_MIN):
        try:
            return float(n)
        except OverflowError:
            try:
                digits = len(str(abs(n)))
            except ValueError:      # more than 4,300 digits: str() refuses, estimate
                digits = int(abs(n).bit_length() * 0.30103) + 1
            return OutOfRange("", digits=digits)
    return n


class _Reader:
    def __init__(self, text: str, keep_out_of_range: bool = False):
        self.s = text
        self.n = len(text)
        self.i = 0
        self.depth = 0
        self.keep_out_of_range = keep_out_of_range

    # positions: serde reports 1-based line and the count of chars before `index`
    # on that line (so a peeked char at index i has column i+1, EOF has column len).
    def _pos(self, index: int) -> tuple[int, int]:
        s = self.s
        line = s.count("\n", 0, index) + 1
        last_nl = s.rfind("\n", 0, index)
        return line, index - (last_nl + 1)

    def error_at(self, code: str, index: int) -> JsonSyntaxError:
        line, col = self._pos(index)
        return JsonSyntaxError(code, line, col)

    def peek_error(self, code: str) -> JsonSyntaxError:
        return self.error_at(code, min(self.i + 1, self.n))

    def error(self, code: str) -> JsonSyntaxError:
        return self.error_at(code, self.i)

    def skip_ws(self) -> str | None:
        s, n, i = self.s, self.n, self.i
        while i < n and s[i] in _WS:
            i += 1
        self.i = i
        return s[i] if i < n else None

    def parse_value(self):
        c = self.skip_ws()
        if c is None:
            raise self.peek_error("EOF while parsing a value")
        if c == '"':
            self.i += 1
            return self.parse_string()
        if c == "{":
            return self.parse_object()
        if c == "[":
            return self.parse_array()
        if c == "-" or "0" <= c <= "9":
            return self.parse_number()
        if c == "t":
            return self.parse_ident("true", True)
        if c == "f":
            return self.parse_ident("false", False)
        if c == "n":
            return self.parse_ident("null", None)
        raise self.peek_error("expected value")

    def parse_ident(self, word: str, value):
        self.i += 1
        for expected in word[1:]:
            if self.i >= self.n:
                raise self.error("EOF while parsing a value")
            if self.s[self.i] != expected:
                self.i += 1
                raise self.error("expected ident")
            self.i += 1
        return value

    def parse_number(self):
        s, n = self.s, self.n
        start = self.i
        i = start
        if s[i] == "-":
            i += 1
            if i >= n:
                self.i = i
                raise self.error("EOF while parsing a value")
        if not ("0" <= s[i] <= "9"):
            self.i = i + 1
            raise self.error("invalid number")
        if s[i] == "0":
            i += 1
            if i < n and "0" <= s[i] <= "9":
                self.i = i + 1
                raise self.error("invalid number")
        else:
            while i < n and "0" <= s[i] <= "9":
                i += 1
        is_float = False
        if i < n and s[i] == ".":
            is_float = True
            i += 1
            if i >= n:
                self.i = i
                raise self.error("EOF while parsing a value")
            if not ("0" <= s[i] <= "9"):
                self.i = i + 1
                raise self.error("invalid number")
            while i < n and "0" <= s[i] <= "9":
                i += 1
        if i < n and s[i] in "eE":
            is_float = True
            i += 1
            if i < n and s[i] in "+-":
                i += 1
            if i >= n:
                self.i = i
                raise self.error("EOF while parsing a value")
            if not ("0" <= s[i] <= "9"):
                self.i = i + 1
                raise self.error("invalid number")
            while i < n and "0" <= s[i] <= "9":
                i += 1
        self.i = i
        text = s[start:i]
        if not is_float and len(text) - text.startswith("-") <= MAX_INT_DIGITS:
            value = int(text)
            if value == 0 and text.startswith("-"):
                return -0.0
            return number_value(value)
        value = float(text)
        if value in (float("inf"), float("-inf")):
            if self.keep_out_of_range:
                line, column = self._pos(i)
                return OutOfRange(text, line, column)
            raise self.error("number out of range")
        return value

    def parse_string(self) -> str:
        s, n = self.s, self.n
        out: list[str] = []
        i = self.i
        while True:
            j = i
            while j < n and s[j] != '"' and s[j] != "\\" and s[j] >= " ":
                j += 1
            out.append(s[i:j])
            if j >= n:
                self.i = j
                raise self.error("EOF while parsing a string")
            c = s[j]
            if c == '"':
                self.i = j + 1
                return "".join(out)
            if c < " ":
                self.i = j + 1
                raise self.error("control character (\\u0000-\\u001F) found while parsing a string")
            # backslash escape
            j += 1
            if j >= n:
                self.i = j
                raise self.error("EOF while parsing a string")
            e = s[j]
            j += 1
            simple = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f",
                      "n": "\n", "r": "\r", "t": "\t"}
            if e in simple:
                out.append(simple[e])
            elif e == "u":
                self.i = j
                code = self._hex4()
                if 0xD800 <= code <= 0xDBFF:
                    if self.s[self.i:self.i + 2] != "\\u":
                        if self.i + 2 > n and self.s[self.i:] in ("", "\\"):
                            self.i = n
                            raise self.error("EOF while parsing a string")
                        raise self.error("lone leading surrogate in hex escape")
                    self.i += 2
                    low = self._hex4()
                    if not 0xDC00 <= low <= 0xDFFF:
                        raise self.error("lone leading surrogate in hex escape")
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                elif 0xDC00 <= code <= 0xDFFF:
                    raise self.error("lone leading surrogate in hex escape")
                out.append(chr(code))
                j = self.i
            else:
                self.i = j
                raise self.error("invalid escape")
            i = j

    def _hex4(self) -> int:
        s = self.s
        value = 0
        for _ in range(4):
            if self.i >= self.n:
                raise self.error("EOF while parsing a string")
            c = s[self.i]
            self.i += 1
            d = "0123456789abcdef".find(c.lower()) if len(c) == 1 else -1
            if d < 0 or c not in "0123456789abcdefABCDEF":
                raise self.error("invalid escape")
            value = value * 16 + d
        return value

    def _enter(self):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.i += 1
            raise self.error("recursion limit exceeded")

    def parse_array(self) -> list:
        self._enter()
        self.i += 1
        items: list = []
        c = self.skip_ws()
        if c == "]":
            self.i += 1
            self.depth -= 1
            return items
        if c is None:
            raise self.peek_error("EOF while parsing a list")
        while True:
            items.append(self.parse_value())
            c = self.skip_ws()
            if c == ",":
                self.i += 1
                c = self.skip_ws()
                if c == "]":
                    raise self.peek_error("trailing comma")
                if c is None:
                    raise self.peek_error("EOF while parsing a value")
                continue
            if c == "]":
                self.i += 1
                self.depth -= 1
                return items
            if c is None:
                raise self.peek_error("EOF while parsing a list")
            raise self.peek_error("expected `,` or `]`")

    def parse_object(self) -> dict:
        self._enter()
        self.i += 1
        obj: dict = {}
        c = self.skip_ws()
        if c == "}":
            self.i += 1
            self.depth -= 1
            return obj
        while True:
            if c is None:
                raise self.peek_error("EOF while parsing an object" if not obj
                                      else "EOF while parsing a value")
            if c == "}":
                raise self.peek_error("trailing comma")
            if c != '"':
                raise self.peek_error("key must be a string")
            self.i += 1
            key = self.parse_string()
            c = self.skip_ws()
            if c != ":":
                if c is None:
                    raise self.peek_error("EOF while parsing an object")
                raise self.peek_error("expected `:`")
            self.i += 1
            value = self.parse_value()
            obj.pop(key, None)
            obj[key] = value
            c = self.skip_ws()
            if c == ",":
                self.i += 1
                c = self.skip_ws()
                if c is None:
                    raise self.peek_error("EOF while parsing a value")
                continue
            if c == "}":
                self.i += 1
                self.depth -= 1
                return obj
            if c is None:
                raise self.peek_error("EOF while parsing an object")
            raise self.peek_error("expected `,` or `}`")


class _NotSerde(Exception):
    """The fast path met something serde_json would treat differently."""


def _reject(_text):
    raise _NotSerde


def _parse_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _NotSerde
    return value


def _parse_int(text: str):
    if len(text) - text.startswith("-") > MAX_INT_DIGITS:
        return _parse_float(text)
    value = int(text)
    if value == 0 and text.startswith("-"):
        return -0.0
    return number_value(value)


def _serde_compatible(value) -> bool:
    """No nesting deeper than MAX_DEPTH and no lone surrogates in strings."""
    work = [(value, 0)]
    while work:
        v, depth = work.pop()
        t = type(v)
        if t is str:
            if _SURROGATE.search(v):
                return False
        elif t is list or t is dict:
            if depth + 1 > MAX_DEPTH:
                return False
            items = v if t is list else list(v.keys()) + list(v.values())
            work.extend((x, depth + 1) for x in items)
    return True


def loads(text: str, keep_out_of_range: bool = False):
    """Parse one JSON document; whitespace may follow, anything else is an error.
    `keep_out_of_range`: a number beyond the float range is an `OutOfRange` value instead
    of the error `number out of range`."""
    try:
        value = json.loads(text, parse_constant=_reject, parse_float=_parse_float,
                           parse_int=_parse_int)
    except (_NotSerde, ValueError, RecursionError):
        pass
    else:
        if _serde_compatible(value):
            return value
    reader = _Reader(text, keep_out_of_range)
    value = reader.parse_value()
    if reader.skip_ws() is not None:
        raise reader.peek_error("trailing characters")
    return value
