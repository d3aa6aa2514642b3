"""The whole compile pipeline: source -> checked AST -> bytecode `Module`."""
from __future__ import annotations

from typing import Optional

from boruna.bytecode.codegen import generate
from boruna.bytecode.module import Module


def compile_source(source: str, name: str = "module", libs_dir: Optional[str] = None) -> Module:
    """Lex, parse, name-check (`language.frontend.check`) and generate code.

    Raises `boruna.language.errors.CompileError` (E001/E002/E009/E008).
    """
    from boruna.language.frontend import check

    program = check(source, libs_dir=libs_dir)
    return generate(program, name)
