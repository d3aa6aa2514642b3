"""Turn the frontend's CompileError into a diagnostic (docs/spec/tooling.md §1.4) and attach the
enhancer's patches (E002 parse fixes, E003 rename). Errors are read by their attributes
(`found`, `reason`, `name`, ...), never by their text."""
from __future__ import annotations

from boruna.core.errors import ErrorKind
from boruna.language.errors import CompileError

import boruna.diagnostics.registry as R
from .context import CheckContext
from .model import Diagnostic
from .habits import habit_advice
from .parse_fixes import gets_past, parse_error_patches
from .source_text import find_identifier_line
from .undefined_names import rename_patch
from .variant_values import qualify_variant_patch

PARSE_HELP = "check for mismatched braces or a missing expression"


def lexer_diagnostic(err: CompileError, ctx: CheckContext) -> Diagnostic:
    """E001 with the offending line and a caret under the column as its notes."""
    diag = Diagnostic(R.E001_LEXER, "error", err.message, ctx.location(err.line, err.col))
    text = ctx.line_text(err.line)
    if text is not None:
        # the column counts bytes; the caret lines up under the character (tabs kept as
        # tabs), which for ASCII without tabs is the reference's `col - 1` spaces
        index = ctx.index_of(err.line, err.col) or 0
        caret_pad = "".join("\t" if ch == "\t" else " " for ch in text[:index])
        diag.notes.extend([text, f"{caret_pad}^"])
    help_text, _ = habit_advice(err, ctx)
    if help_text is not None:
        diag.help = help_text
    return diag


def parse_diagnostic(err: CompileError, ctx: CheckContext) -> Diagnostic:
    """E002 with the parser's line (and column, an addition) and the brace hint as help
    (unless the parser's message already advises)."""
    diag = Diagnostic(R.E002_PARSE, "error", err.message, ctx.location(err.line or 1, err.col))
    help_text, fixes = habit_advice(err, ctx)
    if help_text is not None:
        diag.help = help_text
    elif err.reason == ErrorKind.IMPORT_NOT_FOUND:
        diag.help = ("the libraries this server has are listed in `boruna://libs` "
                     "(`boruna guide libs`); import one by its folder name, e.g. "
                     "`import \"std-json\"`")
    elif "check" not in err.message and "hint" not in err.message:
        diag.help = PARSE_HELP
    diag.fixes.extend(f for f in fixes if gets_past(f, err.line, err.col, ctx))
    diag.fixes.extend(parse_error_patches(err, ctx))
    return diag


def type_diagnostic(err: CompileError, ctx: CheckContext) -> Diagnostic:
    """E003 for an undefined variable (placed at the name itself), otherwise E009."""
    if err.diagnostic_code == R.E003_UNDEFINED_VAR:
        name, code = err.name, R.E003_UNDEFINED_VAR
        line, col = err.line, err.col
        if not line:
            line = find_identifier_line(ctx.lines, name) or 0
            col = 0
        location = ctx.span_location(line, col, len(name.encode("utf-8", "surrogatepass")))
        diag = Diagnostic(code, "error", err.message, location)
        for patch in (qualify_variant_patch(ctx, code, name, line),
                      rename_patch(ctx, code, name, line, col)):
            if patch is not None:
                diag.fixes.append(patch)
        return diag
    return Diagnostic(R.E009_TYPE_ERROR, "error", err.message, ctx.location(err.line, err.col))


def compiler_diagnostic(err: CompileError, ctx: CheckContext) -> Diagnostic:
    if err.code == "E001":
        return lexer_diagnostic(err, ctx)
    if err.code == "E002":
        return parse_diagnostic(err, ctx)
    if err.code == "E008":
        return Diagnostic(R.E008_CODEGEN, "error", err.message, ctx.location(err.line, err.col))
    return type_diagnostic(err, ctx)
