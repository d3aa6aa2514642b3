"""Boruna in Python: the `.ax` language, its compiler, a Cython bytecode VM and tooling.

The public API (names resolve lazily so that `import boruna` stays cheap):

    boruna.parse(source)                      -> language.ast.Program      (E001/E002)
    boruna.check(source, libs_dir=None)       -> Program, names/arity checked (E009)
    boruna.compile(source, name="module", libs_dir=None) -> bytecode.module.Module
    boruna.run(source_or_module, policy="allow-all", max_steps=10_000_000, trace=False, ...)
                                              -> runtime.execute.RunOutcome
    boruna.CompileError                        code, message, line, col
    boruna.RunOutcome                          ok, result, steps, error, ui_output, trace, ...
    boruna.Module                              the compiled module (bytecode.module)

See docs/architecture.md for the map of the package.
"""
from __future__ import annotations

__version__ = "0.1.0"

_LAZY = {
    "CompileError": ("boruna.language.errors", "CompileError"),
    "parse": ("boruna.language.frontend", "parse"),
    "check": ("boruna.language.frontend", "check"),
    "compile": ("boruna.compiler", "compile_source"),
    "run": ("boruna.api", "run"),
    "RunOutcome": ("boruna.runtime.execute", "RunOutcome"),
    "Module": ("boruna.bytecode.module", "Module"),
}

__all__ = sorted(_LAZY) + ["__version__"]


from boruna.core.lazy_names import lazy_names  # noqa: E402

__getattr__, __dir__ = lazy_names(__name__, globals(), _LAZY)
