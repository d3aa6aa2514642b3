"""`validate_app`: does a program follow the App protocol? (docs/spec/tooling.md §3.2)

Works on the parsed AST only (no name check, no codegen). Protocol violations are data —
`AppValidation.errors` — never exceptions; only source that does not lex or parse raises
`CompileError`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

from boruna.language import ast

REQUIRED = ("init", "update", "view")


@dataclass
class AppValidation:
    """Which App functions exist, the detected State/Msg type names, and every violation."""

    has_init: bool = False
    has_update: bool = False
    has_view: bool = False
    has_policies: bool = False
    state_type: Optional[str] = None
    message_type: Optional[str] = None
    errors: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.errors and self.has_init and self.has_update and self.has_view

    def to_dict(self) -> dict:
        """The seed's fields in the seed's order."""
        return {"has_init": self.has_init, "has_update": self.has_update,
                "has_view": self.has_view, "has_policies": self.has_policies,
                "state_type": self.state_type, "message_type": self.message_type,
                "errors": list(self.errors), "valid": self.valid}

    def failure_message(self) -> str:
        """The reference's single-string form: `validation: e1; e2`."""
        return "validation: " + "; ".join(self.errors)


def _check_function(fn: ast.FnDef, report: AppValidation) -> None:
    arity = len(fn.params)
    pure_message = f"{fn.name}() must be pure — no capability annotations allowed"
    if fn.name == "init":
        report.has_init = True
        if arity:
            report.errors.append("init() must take 0 parameters")
    elif fn.name == "update":
        report.has_update = True
        if arity != 2:
            report.errors.append(f"update() must take 2 parameters (state, msg), got {arity}")
        if fn.capabilities:
            report.errors.append(pure_message)
    elif fn.name == "view":
        report.has_view = True
        if arity != 1:
            report.errors.append(f"view() must take 1 parameter (state), got {arity}")
        if fn.capabilities:
            report.errors.append(pure_message)
    elif fn.name == "policies":
        report.has_policies = True
        if arity:
            report.errors.append("policies() must take 0 parameters")
        if fn.capabilities:
            report.errors.append(pure_message)


def validate_program(program: ast.Program) -> AppValidation:
    """Validate a parsed program (items in source order; duplicates each checked)."""
    report = AppValidation()
    for item in program.items:
        if isinstance(item, ast.FnDef):
            _check_function(item, report)
        elif isinstance(item, ast.TypeDef):
            if item.name.endswith("State"):
                report.state_type = item.name
            if item.name.endswith("Msg") or item.name == "Message":
                report.message_type = item.name
    for name in REQUIRED:
        if not getattr(report, f"has_{name}"):
            report.errors.append(f"missing required function: {name}()")
    return report


def validate_app(source_or_program: Union[str, bytes, ast.Program],
                 libs_dir=None) -> AppValidation:
    """Validate App source (parsed here; raises `CompileError` E001/E002) or a parsed Program.

    With `libs_dir`, the source's `import` lines are resolved against it first (a missing
    library is the E002 `import error`), so an App that imports a library validates as it
    compiles; only the App's own declarations are validated, not the libraries'.
    """
    if isinstance(source_or_program, ast.Program):
        return validate_program(source_or_program)
    from boruna.language.frontend import parse
    source = source_or_program
    if libs_dir is not None and isinstance(source, str):
        from boruna.language.imports import resolve_imports
        source, _libraries = resolve_imports(source, libs_dir)
    return validate_program(parse(source))
