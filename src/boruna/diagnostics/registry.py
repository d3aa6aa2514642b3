"""The registry of diagnostic codes (docs/spec/tooling.md §1.2): code → name, category, summary.

`CODES` holds exactly the nine stable `E0NN` codes, in code order; `boruna lang codes` prints
them. `ADVISORY_CODES` holds ids beyond the reference (`MISSING_MAIN`); `ALL_CODES` is both.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CodeInfo:
    """Documentation for one diagnostic id."""

    code: str
    name: str
    category: str
    summary: str

    def to_dict(self) -> dict:
        """The `lang codes --json` entry: code, name, summary, category (in that order)."""
        return {"code": self.code, "name": self.name, "summary": self.summary,
                "category": self.category}


E001_LEXER = "E001"
E002_PARSE = "E002"
E003_UNDEFINED_VAR = "E003"
E004_UNDEFINED_FN = "E004"
E005_NON_EXHAUSTIVE_MATCH = "E005"
E006_UNKNOWN_FIELD = "E006"
E007_CAPABILITY_VIOLATION = "E007"
E008_CODEGEN = "E008"
E009_TYPE_ERROR = "E009"
MISSING_MAIN = "MISSING_MAIN"
EAGER_AND_OR = "EAGER_AND_OR"

CODES: dict[str, CodeInfo] = {info.code: info for info in (
    CodeInfo(E001_LEXER, "lexer-error", "lexical",
             "The source could not be tokenized (invalid character or token)."),
    CodeInfo(E002_PARSE, "parse-error", "syntax",
             "The token stream did not form a valid syntax tree."),
    CodeInfo(E003_UNDEFINED_VAR, "undefined-variable", "name-resolution",
             "A referenced variable is not defined in scope."),
    CodeInfo(E004_UNDEFINED_FN, "undefined-function", "name-resolution",
             "A called function is not defined in the module."),
    CodeInfo(E005_NON_EXHAUSTIVE_MATCH, "non-exhaustive-match", "pattern-matching",
             "A match expression does not cover all possible cases."),
    CodeInfo(E006_UNKNOWN_FIELD, "unknown-field", "type",
             "A record field access or construction references an unknown field."),
    CodeInfo(E007_CAPABILITY_VIOLATION, "capability-violation", "capability",
             "A function performs an effect it does not declare in its capability set."),
    CodeInfo(E008_CODEGEN, "codegen-error", "codegen",
             "The typechecked program could not be lowered to bytecode."),
    CodeInfo(E009_TYPE_ERROR, "type-error", "type",
             "An expression's type does not match the type required by its context."),
)}

ADVISORY_CODES: dict[str, CodeInfo] = {info.code: info for info in (
    CodeInfo(MISSING_MAIN, "missing-main", "entry-point",
             "The file defines functions but neither `main` nor the App protocol "
             "(`init`/`update`/`view`), so the entry point is implicit."),
    CodeInfo(EAGER_AND_OR, "eager-and-or", "evaluation",
             "`&&`/`||` evaluate both sides, and the right side can fail at run time "
             "even when the left side already decides the result."),
)}

ALL_CODES: dict[str, CodeInfo] = {**CODES, **ADVISORY_CODES}


def codes_document() -> dict:
    """The `boruna lang codes --json` document: `{"version": 1, "codes": [...]}`."""
    return {"version": 1, "codes": [info.to_dict() for info in CODES.values()]}
