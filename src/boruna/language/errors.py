"""Compile errors: the one exception type every stage of the frontend and codegen raises.

Codes (language.md §4.2): E001 lexer, E002 parser, E009 name/arity check ("typeck"),
E008 codegen. Unlike the reference, every error carries a 1-based line and column (an
additive change allowed by spec/README.md rule 4); 0 means "not known".
"""
from __future__ import annotations


class CompileError(Exception):
    """A compile failure: `code`, `message` (the bare reference message), `line`, `col`."""

    KIND_BY_CODE = {"E001": "lexer", "E002": "parse", "E009": "type", "E008": "codegen"}

    def __init__(self, code: str, message: str, line: int = 0, col: int = 0):
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = line
        self.col = col

    @property
    def kind(self) -> str:
        return self.KIND_BY_CODE.get(self.code, "compile")

    def display(self) -> str:
        """The reference's CLI display string (language.md §4.1)."""
        if self.code == "E001":
            return f"lexer error at line {self.line}, col {self.col}: {self.message}"
        if self.code == "E002":
            return f"parse error at line {self.line}: {self.message}"
        if self.code == "E009":
            return f"type error: {self.message}"
        return f"codegen error: {self.message}"

    def to_dict(self) -> dict:
        """One entry of the MCP `errors` array: severity, code, message, line, col."""
        return {"severity": "error", "code": self.code, "message": self.message,
                "line": self.line, "col": self.col}

    def __repr__(self) -> str:
        return f"CompileError({self.code!r}, {self.message!r}, line={self.line}, col={self.col})"
