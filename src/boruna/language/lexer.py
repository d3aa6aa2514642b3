"""The `.ax` lexer (docs/spec/language.md §1): source text -> token stream, or the first E001.

The scan itself is C (`_scan.c`, built as `boruna.language._scan`): one pass over the
`str`'s code units, about ten times faster than the master regex it replaced (kept as the
test oracle, tests/language/reference_lexer.py; docs/performance.md). The keyword and
punctuation tables stay in `tokens.py` and are handed to the scanner at import; its token
kinds are those very strings, and each distinct identifier is one str object per stream.
Deliberate differences from the reference (README rule 3, docs/compatibility.md):
`\\r` is whitespace, string escapes `\\\\ \\" \\n \\t \\r` are decoded, columns are true
byte columns (no multi-line-string quirk), and a lone surrogate (text that is not valid
UTF-8) is rejected even inside strings and comments.
"""
from __future__ import annotations

from boruna.core.unicode import debug_str

from . import _scan
from .errors import CompileError
from .tokens import COMMENT, EOF, FLOAT, IDENT, INT, KEYWORDS, NEWLINE, PUNCTUATION, STRING, Token

_scan.configure(KEYWORDS, PUNCTUATION, (IDENT, INT, FLOAT, STRING, NEWLINE, EOF, COMMENT))
_SCAN = _scan.scan


class TokenStream:
    """Parallel lists of token kinds, values, lines and columns, closed by an EOF sentinel.

    `eof_line`/`eof_col` give the true position just past the last character. The sentinel
    carries the line of the last real token (or 1), which is the line the reference reports
    for errors at end of input (docs/spec/language.md §4.4).
    """

    __slots__ = ("kinds", "values", "lines", "cols", "eof_line", "eof_col")

    def __init__(self, kinds, values, lines, cols, eof_line, eof_col):
        self.kinds = kinds
        self.values = values
        self.lines = lines
        self.cols = cols
        self.eof_line = eof_line
        self.eof_col = eof_col

    def tokens(self) -> list[Token]:
        """The tokens (Newline tokens included, EOF sentinel excluded) as `Token` tuples."""
        n = len(self.kinds) - 1
        return [Token(self.kinds[i], self.values[i], self.lines[i], self.cols[i])
                for i in range(n)]


def source_text(src) -> str:
    """`src` as the `str` the lexer reads: bytes that are not UTF-8 become lone surrogates
    (reported as E001 by the scan); anything but text or bytes is E001 at once."""
    if isinstance(src, (bytes, bytearray)):
        return bytes(src).decode("utf-8", "surrogateescape")
    if not isinstance(src, str):
        raise CompileError("E001", "source must be text", 1, 1)
    return src


def lex(src: str, comments: bool = False) -> TokenStream:
    """Scan `src` into a `TokenStream`; raise `CompileError` E001 on the first bad span.

    With `comments=True` line comments are kept as `Comment` tokens (value: the text after
    `//`) for tools such as a formatter; the parser never sees them.
    """
    scanned = _SCAN(source_text(src), bool(comments))
    if len(scanned) == 3:
        line, col, span = scanned
        raise CompileError("E001", "unexpected character: " + debug_str(span), line, col)
    return TokenStream(*scanned)


def tokenize(src: str, comments: bool = False) -> list[Token]:
    """The architecture's token API: `lex(src)` as a list of `Token` (Newlines included;
    `Comment` tokens too when `comments` is true)."""
    return lex(src, comments).tokens()
