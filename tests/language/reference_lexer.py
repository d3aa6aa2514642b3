"""The test oracle for the C scanner (src/boruna/language/_scan.c): the `.ax` lexer as it was
written in Python before it moved to C, kept unchanged so that test_lexer_scan.py can compare
the two on every input (token streams and first errors alike). Not part of the package.

One compiled master regex scans the text; Python only dispatches on the matched group's
number, and one dict lookup tells keywords and punctuation from identifiers. ASCII text
(without comments kept) first takes a faster path that splits it into plain strings, one
per token with its trailing blanks; it hands anything unusual back to the master regex.
Deliberate differences from the reference (README rule 3, docs/compatibility.md):
`\\r` is whitespace, string escapes `\\\\ \\" \\n \\t \\r` are decoded, columns are true
byte columns (no multi-line-string quirk), and a lone surrogate (text that is not valid
UTF-8) is rejected even inside strings and comments.
"""
from __future__ import annotations

import re
from itertools import accumulate
from typing import Optional

from boruna.core.unicode import debug_str
from boruna.language.errors import CompileError
from boruna.language.lexer import TokenStream, source_text
from boruna.language.tokens import (COMMENT, EOF, FLOAT, IDENT, INT, KEYWORD_SET, NEWLINE,
                                    PUNCTUATION, STRING)

I64_MAX = 2**63 - 1

_NO_SURR = "\ud800-\udfff"
_STRING_BODY = (f'"[^"\\\\{_NO_SURR}]*'
                f'(?:\\\\[^\\n{_NO_SURR}][^"\\\\{_NO_SURR}]*)*')


def _punctuation_pattern() -> str:
    """The punctuation as one alternation, longest spelling first: the single characters that
    start no two-character token in one class, then per first character its optional second
    (`=[=>]?`, `&&`). A `/` followed by `/` starts a comment instead."""
    seconds: dict[str, str] = {}
    for op in PUNCTUATION:
        if op != "_":
            seconds[op[0]] = seconds.get(op[0], "") + op[1:]
    singles = "".join(re.escape(c) for c, tail in seconds.items() if not tail and c != "/")
    alternatives = ["[" + singles + "]"]
    for c, tail in seconds.items():
        if tail:
            nxt = re.escape(tail) if len(tail) == 1 else "[" + re.escape(tail) + "]"
            alternatives.append(re.escape(c) + nxt + ("?" if c in PUNCTUATION else ""))
    alternatives.append("/(?!/)")
    return "|".join(alternatives)


# Each match is one token (the one group that matched, `m.lastindex`) and the blanks after
# it, so a token starts where its match does; the blanks before the first token are skipped
# by where the scan starts. The commonest tokens' group comes first.
_MASTER = re.compile(
    "(?:"
    f"([A-Za-z_][A-Za-z0-9_]*|{_punctuation_pattern()})"   # 1 word: identifier, keyword,
    #                                                       punctuation
    "|(\\n)"                              # 2 newline
    "|([0-9]+\\.[0-9]+)"                  # 3 float
    "|([0-9]+)"                           # 4 int
    f"|({_STRING_BODY}\")"                # 5 string
    f"|(//[^\\n{_NO_SURR}]*)"               # 6 comment
    "|(\\Z)"                              # 7 end
    "|(.)"                                # 8 a character that starts no token
    ")[ \\t\\r]*",
    re.S,
)
_LEADING_BLANKS = re.compile("[ \\t\\r]*")
_WORD, _NEWLINE, _FLOAT, _INT, _STRING, _COMMENT, _END = range(1, 8)
# a word's kind when it is a keyword or punctuation (`_` included); any other is an identifier
_WORD_KINDS = {**{kw: kw for kw in KEYWORD_SET}, **PUNCTUATION}

# The fast path for ASCII text (`_lex_ascii`): every piece is one token and its trailing
# blanks, as a plain string (`findall`, no match objects); a token's offset is the running
# sum of the pieces' lengths. Strings with escapes or newlines, over-long integers and every
# bad character make it give up, and `lex` scans again with the master pattern.
_PIECES = re.compile(
    "(?:[A-Za-z_][A-Za-z0-9_]*|" + _punctuation_pattern() + "|\\n|[0-9]+\\.[0-9]+|[0-9]+"
    '|"[^"\\\\\\n]*"|//[^\\n]*|.)[ \\t\\r]*',
    re.S,
)
# a piece's kind when it is a keyword or punctuation alone or followed by one space
_PIECE_KINDS = {**_WORD_KINDS, **{text + " ": kind for text, kind in _WORD_KINDS.items()}}
# a piece's first character -> how `_lex_ascii` reads it; any other character: give up
_WORD_PIECE, _PUNCT_PIECE, _NUMBER_PIECE, _STRING_PIECE, _NEWLINE_PIECE, _SLASH_PIECE = range(6)
_PIECE_CLASS = {**{op[0]: _PUNCT_PIECE for op in PUNCTUATION},
                **{c: _WORD_PIECE for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_"},
                **{c: _NUMBER_PIECE for c in "0123456789"},
                '"': _STRING_PIECE, "\n": _NEWLINE_PIECE, "/": _SLASH_PIECE}
_SLASH = PUNCTUATION["/"]
_UNTERMINATED = re.compile(_STRING_BODY, re.S)
_ESCAPE = re.compile(r"\\(.)", re.S)
_ESCAPES = {"\\": "\\", '"': '"', "n": "\n", "t": "\t", "r": "\r"}


def _decode_escapes(raw: str) -> str:
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(0)), raw)


def _byte_col(src: str, line_start: int, pos: int) -> int:
    return len(src[line_start:pos].encode("utf-8", "surrogatepass")) + 1


def _lex_error(src: str, line: int, line_start: int, pos: int, span: str) -> CompileError:
    return CompileError("E001", "unexpected character: " + debug_str(span), line,
                        _byte_col(src, line_start, pos))


def _bad_character(src: str, pos: int, line: int, line_start: int) -> CompileError:
    """The E001 for a character that starts no token (or an unterminated string)."""
    ch = src[pos]
    if ch == '"':
        end = _UNTERMINATED.match(src, pos).end()
        if end < len(src):
            nxt = src[end]
            if nxt == "\\" and end + 1 < len(src) and "\ud800" <= src[end + 1] <= "\udfff":
                end += 1
                nxt = src[end]
            if "\ud800" <= nxt <= "\udfff":
                # text that is not UTF-8 inside the string: report that character itself
                line += src.count("\n", pos, end)
                nl = src.rfind("\n", pos, end)
                if nl >= 0:
                    line_start = nl + 1
                return _lex_error(src, line, line_start, end, nxt)
        return _lex_error(src, line, line_start, pos, src[pos:end])
    return _lex_error(src, line, line_start, pos, ch)


def lex(src: str, comments: bool = False) -> TokenStream:
    """Scan `src` into a `TokenStream`; raise `CompileError` E001 on the first bad span.

    With `comments=True` line comments are kept as `Comment` tokens (value: the text after
    `//`) for tools such as a formatter; the parser never sees them.
    """
    src = source_text(src)
    ascii_src = src.isascii()
    if ascii_src and not comments:
        stream = _lex_ascii(src)
        if stream is not None:
            return stream
    kinds: list = []
    values: list = []
    lines: list = []
    cols: list = []
    k_app, v_app, l_app, c_app = kinds.append, values.append, lines.append, cols.append
    word_kind = _WORD_KINDS.get
    line = 1
    line_start = 0
    # a token's byte column is its offset minus `base`: line_start - 1, less the extra UTF-8
    # bytes of the multi-byte characters earlier on its line
    base = -1
    # len(kinds) just after the last Newline pushed, moved past the comments pushed right
    # after it: equal to len(kinds) while no other token has followed that Newline
    nl_at = -1
    for m in _MASTER.finditer(src, _LEADING_BLANKS.match(src).end()):
        group = m.lastindex
        if group == _WORD:
            text = m[_WORD]
            kind = word_kind(text)
            if kind is None:
                k_app(IDENT)
                v_app(text)
            else:
                k_app(kind)
                v_app(None)
            l_app(line)
            c_app(m.start() - base)
        elif group == _NEWLINE:
            line += 1
            base = m.start()
            line_start = base + 1
            if len(kinds) != nl_at:
                k_app(NEWLINE)
                v_app(None)
                l_app(line)
                c_app(1)
                nl_at = len(kinds)
        elif group == _INT:
            start = m.start()
            text = m[_INT]
            if len(text) > 18:
                digits = text.lstrip("0")
                if len(digits) > 19 or (digits and int(digits) > I64_MAX):
                    raise _lex_error(src, line, line_start, start, text)
            k_app(INT)
            v_app(int(text))
            l_app(line)
            c_app(start - base)
        elif group == _STRING:
            start = m.start()
            text = m[_STRING]
            end = start + len(text)
            raw = text[1:-1]
            k_app(STRING)
            v_app(_decode_escapes(raw) if "\\" in raw else raw)
            l_app(line)
            c_app(start - base)
            if "\n" in text:
                line += text.count("\n")
                line_start = src.rfind("\n", start, end) + 1
                base = line_start - 1
                tail = src[line_start:end]
            else:
                tail = text
            if not ascii_src and not tail.isascii():
                base -= len(tail.encode("utf-8")) - len(tail)
        elif group == _COMMENT:
            if comments:    # trivia: never a parser token, never breaks a Newline run
                if nl_at == len(kinds):
                    nl_at += 1
                k_app(COMMENT)
                v_app(m[_COMMENT][2:])
                l_app(line)
                c_app(m.start() - base)
        elif group == _FLOAT:
            k_app(FLOAT)
            v_app(float(m[_FLOAT]))
            l_app(line)
            c_app(m.start() - base)
        elif group == _END:
            break
        else:   # a character that starts no token
            raise _bad_character(src, m.start(), line, line_start)
    return _finish(src, kinds, values, lines, cols, line, line_start)


def _lex_ascii(src: str) -> Optional[TokenStream]:
    """`lex(src)` of an ASCII `src` without comments kept, or None where `lex` must scan
    itself (an error, an escape or newline in a string, an integer of more than 18 digits)."""
    kinds: list = []
    values: list = []
    lines: list = []
    cols: list = []
    k_app, v_app, l_app, c_app = kinds.append, values.append, lines.append, cols.append
    piece_kind, word_kind, piece_class = _PIECE_KINDS.get, _WORD_KINDS.get, _PIECE_CLASS.get
    line = 1
    base = -1           # the offset of the last newline: a column is offset - base
    nl_at = -1          # len(kinds) just after the last Newline pushed
    identifiers: dict[str, str] = {}    # an identifier's piece or text -> its text
    start = _LEADING_BLANKS.match(src).end()
    pieces = _PIECES.findall(src, start)
    for piece, start in zip(pieces, accumulate(map(len, pieces), initial=start)):
        kind = piece_kind(piece)
        if kind is not None:
            k_app(kind)
            v_app(None)
            l_app(line)
            c_app(start - base)
            continue
        text = identifiers.get(piece)
        if text is not None:
            k_app(IDENT)
            v_app(text)
            l_app(line)
            c_app(start - base)
            continue
        cls = piece_class(piece[0])
        if cls == _WORD_PIECE:
            text = piece.rstrip()
            kind = word_kind(text)
            if kind is None:
                # one string per identifier, whatever blanks follow it: later lookups of
                # the name (scopes, function tables) find it by identity
                text = identifiers.setdefault(text, text)
                identifiers[piece] = text
                k_app(IDENT)
                v_app(text)
            else:
                k_app(kind)
                v_app(None)
        elif cls == _PUNCT_PIECE:
            kind = word_kind(piece.rstrip())
            if kind is None:
                return None     # `&` or `|` alone
            k_app(kind)
            v_app(None)
        elif cls == _NEWLINE_PIECE:
            line += 1
            base = start
            if len(kinds) != nl_at:
                k_app(NEWLINE)
                v_app(None)
                l_app(line)
                c_app(1)
                nl_at = len(kinds)
            continue
        elif cls == _NUMBER_PIECE:
            text = piece.rstrip()
            if "." in text:
                k_app(FLOAT)
                v_app(float(text))
            elif len(text) > 18:
                return None
            else:
                k_app(INT)
                v_app(int(text))
        elif cls == _STRING_PIECE:
            text = piece.rstrip()
            if len(text) < 2:
                return None     # a `"` that starts no simple string
            k_app(STRING)
            v_app(text[1:-1])
        elif cls == _SLASH_PIECE:
            if piece.startswith("//"):
                continue        # a comment
            k_app(_SLASH)       # `/` and blanks other than one space
            v_app(None)
        else:
            return None         # a character that starts no token
        l_app(line)
        c_app(start - base)
    return _finish(src, kinds, values, lines, cols, line, base + 1)


def _finish(src, kinds, values, lines, cols, line, line_start) -> TokenStream:
    eof_col = (len(src) - line_start + 1 if src.isascii()
               else _byte_col(src, line_start, len(src)))
    kinds.append(EOF)
    values.append(None)
    lines.append(lines[-1] if lines else 1)
    cols.append(cols[-1] if cols else 1)
    return TokenStream(kinds, values, lines, cols, line, eof_col)
