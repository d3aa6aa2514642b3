"""Compile errors: the one exception type every stage of the frontend and codegen raises.

Codes (docs/spec/language.md §4.2): E001 lexer, E002 parser, E009 name/arity check ("typeck"),
E008 codegen. Unlike the reference, every error carries a 1-based line and column (an
additive change allowed by docs/spec/README.md rule 4); 0 means "not known".
"""
from __future__ import annotations

from typing import Optional

from boruna.core.errors import ErrorKind


class CompileError(Exception):
    """A compile failure: `code`, `message` (the bare reference message), `line`, `col`.

    What the message says in words is also kept as attributes, so tools never read the text:
    a parse error's `expected` and `found` (how the message spells them, `found` is
    `"end of input"` at the end) and `suggestion` (the keyword of its "did you mean");
    `found_name` (the identifier found, if one was); `reason` (an `ErrorKind`: undefined
    variable or value, unknown function, over 255) with the `name` it is about; `library`
    (the library the error is in; its message then starts `in library 'NAME': `)."""

    def __init__(self, code: str, message: str, line: int = 0, col: int = 0, *,
                 expected: Optional[str] = None, found: Optional[str] = None,
                 found_name: Optional[str] = None, suggestion: Optional[str] = None,
                 reason: Optional[ErrorKind] = None, name: Optional[str] = None,
                 library: Optional[str] = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = line
        self.col = col
        self.expected = expected
        self.found = found
        self.found_name = found_name
        self.suggestion = suggestion
        self.reason = reason
        self.name = name
        self.library = library

    def in_library(self, library: str) -> "CompileError":
        """This error as raised from inside library `library` (same position, attributes)."""
        return CompileError(self.code, f"in library '{library}': {self.message}", self.line,
                            self.col, expected=self.expected, found=self.found,
                            found_name=self.found_name, suggestion=self.suggestion,
                            reason=self.reason, name=self.name, library=library)

    @property
    def error_kind(self) -> ErrorKind:
        """`parse_error` for the lexer and parser (E001, E002), else `compile_error`."""
        return ErrorKind.PARSE_ERROR if self.code in ("E001", "E002") else ErrorKind.COMPILE_ERROR

    def display(self) -> str:
        """The reference's CLI display string (docs/spec/language.md §4.1)."""
        if self.code == "E001":
            return f"lexer error at line {self.line}, col {self.col}: {self.message}"
        if self.code == "E002":
            return f"parse error at line {self.line}: {self.message}"
        if self.code == "E009":
            return f"type error: {self.message}"
        return f"codegen error: {self.message}"

    @property
    def diagnostic_code(self) -> str:
        """The code users see for this mistake, the same in `check`, `run` and `compile`:
        an undefined variable of the user's own code is E003 (undefined-variable; the
        reference's compiler calls it E009), everything else keeps `code`."""
        if (self.code == "E009" and self.reason == ErrorKind.UNDEFINED_VARIABLE
                and self.library is None):
            return "E003"
        return self.code

    def to_dict(self) -> dict:
        """One entry of the MCP `errors` array: severity, code, message, line, col."""
        return {"severity": "error", "code": self.diagnostic_code, "message": self.message,
                "line": self.line, "col": self.col}

    def __repr__(self) -> str:
        return f"CompileError({self.code!r}, {self.message!r}, line={self.line}, col={self.col})"
