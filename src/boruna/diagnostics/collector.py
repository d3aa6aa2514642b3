"""The check pipeline (docs/spec/tooling.md §1.3): lex → parse (a failure stops here) → name/arity
check (one error, converted and kept) → the analyzers, appended in a fixed order."""
from __future__ import annotations

from boruna.core.builtins import by_opcode
from boruna.core.deep_stack import paused_gc
from boruna.core.errors import ErrorKind
from boruna.language.errors import CompileError

from .capabilities import check_capabilities
from .compiler_errors import compiler_diagnostic, parse_diagnostic
from .context import CheckContext
from .eager_logic import check_eager_logic
from .habits import indexing_diagnostics
from .entry_point import check_entry_point
from .exhaustiveness import check_exhaustiveness
from .field_access import check_field_reads
from .missing_fields import check_missing_fields
from .model import Diagnostic, DiagnosticSet
from .record_fields import check_record_fields
from .type_names import check_type_names
from .types.effects import check_effects
from .types.infer import check_types

# Tests set this to True so that an analyzer bug surfaces instead of being contained.
STRICT = False

# Run in this order; each appends its findings in AST order.
ANALYZERS = (check_exhaustiveness, check_record_fields, check_missing_fields, check_field_reads,
             check_capabilities, check_effects, check_type_names, check_types, check_entry_point,
             check_eager_logic, indexing_diagnostics)


def _parse(source: str):
    from boruna.language.frontend import parse
    return parse(source)


def _name_errors(program, libraries=()) -> list:
    """The compiler's name/arity errors (an addition: all of them, not just its first), over
    the user's program merged with the libraries it imports (none unless a libs dir was
    given). An undefined name is reported once per line: its rename patch fixes that line."""
    from boruna.language.imports import merge
    from boruna.language.names import name_errors
    found = _deep(name_errors, merge(program, list(libraries)) if libraries else program)
    out, seen = [], set()
    for err in found:
        key = (err.message.split("\n", 1)[0], err.line)
        if key not in seen:
            seen.add(key)
            out.append(err)
    return out


def _parse_with_imports(source: str, libs_dir, kept: dict | None = None):
    """The user's program and its imported libraries' programs. Import lines are blanked,
    not removed, so every position in the user's code stays where it was written."""
    if libs_dir is None:
        return _parse(source), []
    from boruna.language.imports import library_program, resolve_imports
    text, libraries = resolve_imports(source, str(libs_dir))
    programs = [_deep(library_program, lib) for lib in libraries]
    if kept is not None:
        kept["libraries"], kept["library_programs"] = libraries, programs
    return _parse(text), programs


def check_source(source: str, file: str = "<source>", libs_dir=None) -> DiagnosticSet:
    """All diagnostics for `source`. Never raises on any input text.

    With `libs_dir`, `import` lines are resolved against that directory (as `compile` and
    `run` do) and the analyzers see the user's own code; without it the file is analysed
    as written (docs/spec/tooling.md §7.7 L10)."""
    if not isinstance(source, str):
        raise TypeError("source must be a str")
    with paused_gc():       # no collector passes over the AST and the checker's terms
        return _check_source(source, file, libs_dir)


def check_source_context(source: str, file: str = "<source>", libs_dir=None):
    """`check_source` for tools that go on asking about the program (the language server):
    (the diagnostic set, the `CheckContext` the analyzers used or None when the source did
    not parse, the imported libraries as (`language.imports.Library`, its parsed program)
    pairs, in import order)."""
    if not isinstance(source, str):
        raise TypeError("source must be a str")
    kept: dict = {}
    with paused_gc():
        found = _check_source(source, file, libs_dir, kept)
    return found, kept.get("ctx"), list(zip(kept.get("libraries", []),
                                            kept.get("library_programs", [])))


def _check_source(source: str, file: str, libs_dir, kept: dict | None = None) -> DiagnosticSet:
    result = DiagnosticSet(file=file)
    ctx = CheckContext.build(source, file)
    try:
        program, libraries = _parse_with_imports(source, libs_dir, kept)
    except CompileError as err:
        result.diagnostics.append(compiler_diagnostic(err, ctx))
        return result
    except (RecursionError, MemoryError):
        result.diagnostics.append(parse_diagnostic(
            CompileError("E002", "program is nested too deeply to analyse", 1, 0), ctx))
        return result
    ctx.attach(program)
    for library in libraries:
        ctx.attach_library(library)
    if kept is not None:
        from .types.node_types import RecordingChecker
        kept["ctx"] = ctx
        ctx.cache["checker_class"] = RecordingChecker
    name_errors = []
    compiled = _compiles(program, libraries)
    if not compiled:
        try:
            name_errors = _name_errors(program, libraries)
        except Exception:   # the checker's own failure must not hide the analyzers' findings
            if STRICT:
                raise
    result.diagnostics.extend(_deep(_analyze, ctx, name_errors))
    if not compiled and not result.has_errors():
        codegen_error = _codegen_error(program, libraries)
        if codegen_error is not None:
            diag = compiler_diagnostic(codegen_error, ctx)
            diag.help = _codegen_help(codegen_error)
            result.diagnostics.append(diag)
    if kept is None:
        # the type checker in the cache refers back to the context: without this cycle the
        # program, its walks and the checker's terms are freed here by reference counting,
        # not by a collector pass over all of them once `paused_gc` turns it on again
        ctx.cache.clear()
    return result


def _compiles(program, libraries) -> bool:
    """Whether code generation with the name checks riding along (as `compile_source` runs
    it) gives a module: the name checker then finds nothing and `_codegen_error` would be
    None, so neither needs to run. False when it stops anywhere, for whatever reason: the
    two then run as before, one after the other."""
    from boruna.bytecode.codegen import generate
    from boruna.language.imports import merge
    try:
        _deep(generate, merge(program, list(libraries)) if libraries else program, "check",
              False)
    except Exception:
        return False
    return True


def _codegen_error(program, libraries):
    """The code generator's first error for a program that passed every other check (an
    addition: the reference never runs codegen here, so `check` passed programs that then
    failed to compile, e.g. a list literal of 300 items or a builtin used as a value)."""
    from boruna.compiler import compile_program
    from boruna.language.imports import merge
    try:
        compile_program(merge(program, list(libraries)) if libraries else program, "check")
    except CompileError as err:
        return err
    except Exception:
        if STRICT:
            raise
    return None


def _codegen_help(err: CompileError):
    """What to do about the code generator's terser errors (None: nothing to add)."""
    reason = err.reason
    if reason == ErrorKind.UNDEFINED_VALUE:
        return ("only a local variable or a user function can be used as a value here; "
                f"call a builtin directly, e.g. `{by_opcode('ListLen').name}(xs)`")
    if reason == ErrorKind.UNDEFINED_VARIABLE:
        return ("only a variable declared with `let` can be assigned; use "
                "`let NAME = ...` for a new one")
    if reason == ErrorKind.UNKNOWN_FUNCTION:
        return "`spawn` takes the name of a function declared in this file"
    if reason == ErrorKind.OVER_255:
        return "split it into smaller pieces (at most 255 each)"
    return None


def _analyze(ctx: CheckContext, name_errors: list) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for name_error in name_errors:
        out.append(_safe(lambda: compiler_diagnostic(name_error, ctx),
                         Diagnostic("E009", "error", name_error.message)))
    for analyzer in ANALYZERS:
        out.extend(_safe(lambda: analyzer(ctx), []))
    return out


def _deep(fn, *args):
    """Run the recursive AST walks where deeply nested programs cannot overflow the stack."""
    try:
        from boruna.core.deep_stack import call_deep
    except ImportError:
        return fn(*args)
    return call_deep(fn, *args)


def _safe(thunk, fallback):
    """Run one analysis step; an internal failure on odd input must not crash the check
    (the step's findings are dropped instead)."""
    try:
        return thunk()
    except (RecursionError, MemoryError):
        return fallback
    except Exception:
        if STRICT:
            raise
        return fallback
