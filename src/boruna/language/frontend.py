"""The frontend's public entry points: `parse` (E001/E002) and `check` (+ imports, E009).

Whatever the input, the only exception that leaves these functions is `CompileError`.
"""
from __future__ import annotations

from typing import Optional, Union

from . import ast
from boruna.core.deep_stack import call_deep, paused_gc
from .errors import CompileError
from .lexer import lex
from .parser import NESTING_MESSAGE, parse_tokens


def _guarded(stage: str, fn, *args):
    try:
        with paused_gc():   # the nodes form no cycles: no collector passes while building
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


def _check(source_or_program, libs_dir, names: bool = True) -> ast.Program:
    from .imports import library_program, merge, resolve_imports, resolve_program_imports
    from .names import check_names
    if isinstance(source_or_program, ast.Program):
        program = resolve_program_imports(source_or_program, libs_dir)
    else:
        source = source_or_program
        if isinstance(source, (bytes, bytearray)):
            source = bytes(source).decode("utf-8", "surrogateescape")
        libraries = []
        if libs_dir is not None and isinstance(source, str):
            source, libraries = resolve_imports(source, libs_dir)
        program = _parse(source)
        if libraries:
            program = merge(program, [library_program(lib) for lib in libraries])
    if names:
        check_names(program)
    return program


def check(source_or_program: Union[str, bytes, ast.Program],
          libs_dir: Optional[str] = None) -> ast.Program:
    """Parse (unless given a Program), merge imported libraries when `libs_dir` is given,
    and run the name/arity checks. Returns the checked Program; raises `CompileError`
    E001, E002 (also `import error: library 'NAME' not found`) or E009."""
    return _guarded("checker", call_deep, _check, source_or_program, libs_dir)


def resolve(source_or_program: Union[str, bytes, ast.Program],
            libs_dir: Optional[str] = None) -> ast.Program:
    """`check` without its name/arity checks (`check_program_names` runs them), for the
    compiler, whose code generator sees every name anyway: it runs the checks only when its
    own pass objects. Raises what `check` raises but E009."""
    return _guarded("checker", call_deep, _check, source_or_program, libs_dir, False)


def check_program_names(program: ast.Program) -> None:
    """`check`'s last step on a `resolve`d program: raise its first E009 (or what `check`
    raises for that step)."""
    from .names import check_names
    _guarded("checker", call_deep, check_names, program)
