"""The frontend's public entry points: `parse` (E001/E002) and `check` (+ imports, E009).

Whatever the input, the only exception that leaves these functions is `CompileError`.
"""
from __future__ import annotations

from typing import Optional, Union

from . import ast
from .deep_stack import call_deep
from .errors import CompileError
from .lexer import lex
from .parser import NESTING_MESSAGE, parse_tokens


def _guarded(stage: str, fn, *args):
    try:
        return fn(*args)
    except CompileError:
        raise
    except (RecursionError, MemoryError):
        raise CompileError("E002", NESTING_MESSAGE, 1, 1) from None
    except Exception as exc:    # a bug of ours: still a structured error, never a traceback
        raise CompileError("E002", f"internal {stage} error: {type(exc).__name__}: {exc}",
                           1, 1) from None


def _parse(source) -> ast.Program:
    return parse_tokens(lex(source))


def parse(source: Union[str, bytes]) -> ast.Program:
    """Lex and parse `source` into an `ast.Program`; raises `CompileError` E001 or E002."""
    return _guarded("parser", call_deep, _parse, source)


def _check(source_or_program, libs_dir) -> ast.Program:
    from .imports import resolve_program_imports
    from .names import check_names
    program = (source_or_program if isinstance(source_or_program, ast.Program)
               else _parse(source_or_program))
    program = resolve_program_imports(program, libs_dir)
    check_names(program)
    return program


def check(source_or_program: Union[str, bytes, ast.Program],
          libs_dir: Optional[str] = None) -> ast.Program:
    """Parse (unless given a Program), merge imported libraries when `libs_dir` is given,
    and run the name/arity checks. Returns the checked Program; raises `CompileError`
    E001, E002 or E009 (or E010 for an import that cannot be resolved)."""
    return _guarded("checker", call_deep, _check, source_or_program, libs_dir)
