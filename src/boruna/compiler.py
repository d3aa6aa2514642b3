"""The whole compile pipeline: source -> checked AST -> bytecode `Module`."""
from __future__ import annotations

from typing import Optional

from boruna.bytecode.codegen import generate
from boruna.core.deep_stack import SHALLOW_INPUT, call_deep, call_shallow, paused_gc
from boruna.bytecode.module import Module
from boruna.language.errors import CompileError


def _generate(program, name: str) -> Module:
    try:
        with paused_gc():
            return call_deep(generate, program, name)
    except CompileError:
        raise
    except (RecursionError, MemoryError):
        raise CompileError("E008", "program nests too deeply to compile", 1, 1) from None
    except Exception as exc:    # a bug of ours: still a structured error, never a traceback
        raise CompileError("E008", f"internal codegen error: {type(exc).__name__}: {exc}",
                           1, 1) from None


def compile_program(program, name: str = "module") -> Module:
    """Generate code for an already checked `ast.Program`; raises CompileError E008."""
    return _generate(program, name)


def compile_source(source: str, name: str = "module", libs_dir: Optional[str] = None) -> Module:
    """Lex, parse, name-check (`language.frontend.check`) and generate code.

    Raises `boruna.language.errors.CompileError` (E001/E002/E009/E008) and nothing else.
    A small source without imports compiles on the caller's thread (`call_shallow`).
    """
    if type(source) is str and len(source) <= SHALLOW_INPUT \
            and (libs_dir is None or "import" not in source):
        return call_shallow(_compile_source, source, name, libs_dir)
    return _compile_source(source, name, libs_dir)


def _compile_source(source, name: str, libs_dir: Optional[str]) -> Module:
    from boruna.language.frontend import check_program_names, resolve

    with paused_gc():       # a compile builds no cycles: no collector passes over its nodes
        program = resolve(source, libs_dir)
        # the name checks ride along code generation, which stops (NameCheckNeeded or an
        # error of its own) wherever they could object; then the two run one after the other
        # as `check` and `compile_program` do, so every error is theirs
        try:
            module = call_deep(generate, program, name, names_checked=False)
        except Exception:
            module = None
        if module is None:
            check_program_names(program)
            module = _generate(program, name)
        # the AST is freed before the collector resumes, so its first pass sees only the module
        del program
    return module
