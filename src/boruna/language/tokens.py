"""Token kinds of the `.ax` lexer and how parse errors spell them (docs/spec/language.md §1.4, §4.3).

A token kind is a short string. Keywords use their own spelling as kind (`"fn"`, `"None"`);
identifiers and literals use `IDENT`, `INT`, `FLOAT`, `STRING` with the payload in `value`;
punctuation uses the reference's kind names (`"LBrace"`, `"GtEq"`, ...), which is also how
parse errors print them.
"""
from __future__ import annotations

from typing import NamedTuple, Union

# The 28 keywords, in the reference's order (also the keyword-suggestion candidates, §4.6).
KEYWORDS: tuple[str, ...] = (
    "fn", "let", "mut", "if", "else", "match", "return", "type", "enum", "module", "import",
    "export", "true", "false", "None", "Some", "Ok", "Err", "requires", "ensures", "intent",
    "spawn", "send", "receive", "emit", "while", "for", "in",
)
KEYWORD_SET = frozenset(KEYWORDS)

IDENT = "Ident"
INT = "IntLit"
FLOAT = "FloatLit"
STRING = "StringLit"
NEWLINE = "Newline"
EOF = "EOF"          # sentinel closing every token stream; never shown in a message
COMMENT = "Comment"  # only with lex(..., comments=True); never given to the parser

# Punctuation: source text -> kind name (longest spellings first matters only to the lexer).
PUNCTUATION: dict[str, str] = {
    "==": "EqEq", "!=": "BangEq", "<=": "LtEq", ">=": "GtEq", "&&": "AndAnd", "||": "OrOr",
    "->": "Arrow", "=>": "FatArrow", "..": "DotDot", "++": "PlusPlus", "::": "ColonColon",
    "+": "Plus", "-": "Minus", "*": "Star", "/": "Slash", "%": "Percent", "<": "Lt",
    ">": "Gt", "!": "Bang", "=": "Eq", ".": "Dot", "(": "LParen", ")": "RParen",
    "{": "LBrace", "}": "RBrace", "[": "LBracket", "]": "RBracket", ",": "Comma",
    ":": "Colon", ";": "Semi", "_": "Underscore",
}

_LITERAL_DISPLAY = {INT: "<integer literal>", FLOAT: "<float literal>",
                    STRING: "<string literal>"}


class Token(NamedTuple):
    """One token: kind, payload (identifier name, int, float, decoded string, or None),
    1-based line and 1-based byte column."""

    kind: str
    value: Union[str, int, float, None]
    line: int
    col: int


def display_token(kind: str, value=None) -> str:
    """How a parse error message spells a token (`'fn'`, `'name'`, `<integer literal>`, `Semi`)."""
    if kind in KEYWORD_SET:
        return f"'{kind}'"
    if kind == IDENT:
        return f"'{value}'"
    return _LITERAL_DISPLAY.get(kind, kind)
