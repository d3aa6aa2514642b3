"""Turn the frontend's CompileError into a diagnostic (tooling.md §1.4) and attach the
enhancer's patches (E003 rename, E009 conversion hints)."""
from __future__ import annotations

from boruna.core.builtins import by_opcode
from boruna.language.errors import CompileError

import boruna.diagnostics.registry as R
from .context import CheckContext
from .fix import Applicability, Fix
from .model import Diagnostic
from .parse_fixes import parse_error_patches
from .source_text import find_identifier_line
from .undefined_names import rename_patch
from .variant_values import qualify_variant_patch

PARSE_HELP = "check for mismatched braces or a missing expression"
UNDEFINED_VARIABLE = "undefined variable: "
UNDEFINED_FUNCTION = "undefined function: "


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
    return diag


def parse_diagnostic(err: CompileError, ctx: CheckContext) -> Diagnostic:
    """E002 with the parser's line (and column, an addition) and the brace hint as help
    (unless the parser's message already advises)."""
    diag = Diagnostic(R.E002_PARSE, "error", err.message, ctx.location(err.line or 1, err.col))
    if "check" not in err.message and "hint" not in err.message:
        diag.help = PARSE_HELP
    diag.fixes.extend(parse_error_patches(err.message, err.line, err.col, ctx))
    return diag


def type_diagnostic(err: CompileError, ctx: CheckContext) -> Diagnostic:
    """E003/E004 for undefined names (placed at the name itself), otherwise E009."""
    first_line = err.message.split("\n", 1)[0]
    for prefix, code in ((UNDEFINED_VARIABLE, R.E003_UNDEFINED_VAR),
                         (UNDEFINED_FUNCTION, R.E004_UNDEFINED_FN)):
        if first_line.startswith(prefix):
            name = first_line[len(prefix):]
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
    diag = Diagnostic(R.E009_TYPE_ERROR, "error", err.message,
                      ctx.location(err.line, err.col))
    hint = conversion_hint(err.message)
    if hint is not None:
        diag.fixes.append(Fix(
            "E009-conversion-hint", hint, Applicability.DISPLAY_ONLY,
            "type conversion hint (no automatic edit available)", []))
    return diag


def conversion_hint(message: str):
    """The enhancer's text-only hint for Int/String/Bool mismatches, or None."""
    def has(kind: str, name: str) -> bool:
        return f"{kind} {name}" in message or f"{kind} `{name}`" in message

    if has("expected", "Int") and has("found", "String"):
        return f"hint: use `{by_opcode('ParseInt').name}(value)` to convert a String to Int"
    if has("expected", "String") and has("found", "Int"):
        return "hint: use `to_string(value)` to convert an Int to String"
    if has("expected", "Bool") and has("found", "Int"):
        return "hint: use `value != 0` to convert an Int to Bool"
    return None


def compiler_diagnostic(err: CompileError, ctx: CheckContext) -> Diagnostic:
    if err.code == "E001":
        return lexer_diagnostic(err, ctx)
    if err.code == "E002":
        return parse_diagnostic(err, ctx)
    if err.code == "E008":
        return Diagnostic(R.E008_CODEGEN, "error", err.message, ctx.location(err.line, err.col))
    return type_diagnostic(err, ctx)
