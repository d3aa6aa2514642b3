"""Patches for E002 parse errors (an addition): a keyword typo the parser already recognised
(`fnn` → `fn`), blocks left open at the end of the file, a stray `}` at item level,
statement-ending semicolons (the language has none), `x += 1` (no compound assignment) and
`else if` (written `else { if ... }`).
Repair re-parses the result, so a wrong guess is never applied."""
from __future__ import annotations

import re
from typing import Optional

from .apply import PatchFailed, apply_fix
from .context import CheckContext
from .fix import Applicability, Edit, Fix
from .source_text import matching_close_brace



def parse_error_patches(err, ctx: CheckContext) -> list[Fix]:
    """Patches for the parser's CompileError `err` (read by its attributes, at its line and
    column); empty when no safe guess exists.

    A patch is offered only when the patched source parses or fails further down, the test
    repair applies, so `check` never advertises a fix that `repair` would then skip."""
    out = []
    line, col = err.line, err.col
    for build in (_keyword_typo, _close_open_blocks, _drop_stray_brace, _drop_semicolons,
                  _compound_assign, _else_if):
        patch = build(err, line, col, ctx)
        if patch is not None and gets_past(patch, line, col, ctx):
            out.append(patch)
    return out


def gets_past(patch: Fix, line: int, col: int, ctx: CheckContext) -> bool:
    """Whether the patched source parses, or fails only after (line, col)."""
    from boruna.language.errors import CompileError
    from boruna.language.frontend import parse
    try:
        parse(apply_fix(ctx.source, patch))
    except PatchFailed:
        return False
    except CompileError as err:
        return (err.line or 0, err.col or 0) > (line or 0, col or 0)
    return True


def _brace_balance(ctx: CheckContext) -> int:
    """`{` minus `}` over code (strings and comments excluded)."""
    return sum(text.count("{") - text.count("}") for text in ctx.masked)


def _keyword_typo(err, line: int, col: int, ctx: CheckContext) -> Optional[Fix]:
    word, kw = err.found_name, err.suggestion
    text = ctx.line_text(line)
    index = ctx.index_of(line, col)
    if kw is None or word is None or text is None or index is None:
        return None
    if text[index:index + len(word)] != word:
        return None
    return Fix(
        id=f"E002-keyword-{word}",
        description=f"replace '{word}' with the keyword '{kw}'",
        applicability=Applicability.UNSAFE,
        rationale=f"'{word}' is one edit away from the keyword '{kw}' the parser expected here",
        edits=[Edit(line, text, text[:index] + kw + text[index + len(word):], ctx.file)])


def _close_open_blocks(err, line: int, col: int, ctx: CheckContext) -> Optional[Fix]:
    missing = _brace_balance(ctx)
    if err.found != "end of input" or missing <= 0 or not ctx.lines or missing > 64:
        return None
    closing = "\n".join("    " * depth + "}" for depth in range(missing - 1, -1, -1))
    last = ctx.lines[-1]
    noun = "block" if missing == 1 else "blocks"
    return Fix(
        id="E002-close-blocks",
        description=f"close {missing} open {noun} at the end of the file",
        applicability=Applicability.UNSAFE,
        rationale=(f"the file ends with {missing} unclosed '{{'; appending the missing '}}' "
                   "completes it"),
        edits=[Edit(len(ctx.lines), last, f"{last}\n{closing}", ctx.file)])


def _drop_stray_brace(err, line: int, col: int, ctx: CheckContext) -> Optional[Fix]:
    if ((err.expected, err.found, err.library) != ("item", "RBrace", None)
            or _brace_balance(ctx) >= 0):
        return None
    text = ctx.line_text(line)
    index = ctx.index_of(line, col)
    if text is None or index is None or text[index:index + 1] != "}":
        return None
    rest = text[:index] + text[index + 1:]
    return Fix(
        id="E002-remove-stray-brace",
        description=f"remove the unmatched '}}' on line {line}",
        applicability=Applicability.UNSAFE,
        rationale="this '}' closes nothing: every block before it is already closed",
        edits=[Edit(line, text, rest if rest.strip() else "", ctx.file)])


def unfinished_before_semicolon(code: str) -> bool:
    """Whether the code before a `;` cannot end a statement (`let x = ;`, `a + ;`)."""
    stripped = code.rstrip()
    return not stripped or stripped[-1] in "=+-*/%<>!&|,([{:"


def _drop_semicolons(err, line: int, col: int, ctx: CheckContext) -> Optional[Fix]:
    """`let x = 1;`: remove every `;` that ends a line of code (strings and comments kept),
    when the parser stopped at one of them."""
    if err.found != "Semi":
        return None
    edits = []
    for number, (text, masked) in enumerate(zip(ctx.lines, ctx.masked), start=1):
        code = masked.rstrip()
        if code.endswith(";") and not unfinished_before_semicolon(text[:len(code) - 1]):
            cut = len(code) - 1
            edits.append(Edit(number, text, text[:cut].rstrip() + text[cut + 1:], ctx.file))
    if not any(edit.start_line == line for edit in edits):
        return None
    count = len(edits)
    return Fix(
        id="E002-remove-semicolons",
        description=(f"remove the {count} semicolons that end lines" if count > 1
                     else f"remove the semicolon at the end of line {line}"),
        applicability=Applicability.UNSAFE,
        rationale="statements end at the end of their line; the language has no ';'",
        edits=edits)


COMPOUND = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*([-+*/%])=$")


def _compound_assign(err, line: int, col: int, ctx: CheckContext) -> Optional[Fix]:
    """`x += e` -> `x = x + e` (likewise -= *= /= %=) when the parser stopped at its `=`."""
    if err.found != "Eq":
        return None
    text, index = ctx.line_text(line), ctx.index_of(line, col)
    if text is None or index is None or ctx.masked_text(line)[index:index + 1] != "=":
        return None
    found = COMPOUND.search(ctx.masked_text(line)[:index + 1])
    if found is None:
        return None
    name, op = found.group(1), found.group(2)
    new_text = f"{text[:found.start()]}{name} = {name} {op}{text[index + 1:]}"
    return Fix(
        id=f"E002-compound-assign-{name}",
        description=f"write '{name} = {name} {op} ...'",
        applicability=Applicability.UNSAFE,
        rationale=f"there is no '{op}=': assign the new value with '='",
        edits=[Edit(line, text, new_text, ctx.file)])


def _else_if(err, line: int, col: int, ctx: CheckContext) -> Optional[Fix]:
    """`else if C { A } else { B }` -> `else { if C { A } else { B } }`."""
    if err.found != "'if'":
        return None
    index = ctx.index_of(line, col)
    masked = ctx.masked
    if index is None or not masked[line - 1][:index].rstrip().endswith("else"):
        return None
    end = _if_chain_end(masked, line - 1, index)
    if end is None:
        return None
    end_line, end_index = end
    changed = {line - 1: ctx.lines[line - 1]}
    changed[end_line] = ctx.lines[end_line]
    changed[end_line] = changed[end_line][:end_index + 1] + " }" + changed[end_line][end_index + 1:]
    changed[line - 1] = changed[line - 1][:index] + "{ " + changed[line - 1][index:]
    edits = [Edit(number + 1, ctx.lines[number], new_text, ctx.file)
             for number, new_text in sorted(changed.items())]
    return Fix(
        id="E002-else-if",
        description="write 'else { if ... }'",
        applicability=Applicability.UNSAFE,
        rationale="there is no 'else if': the else branch is a block holding the next 'if'",
        edits=edits)


def _if_chain_end(masked: list[str], line_idx: int, char_idx: int):
    """(line, index) of the `}` that ends the `if` chain starting at (line_idx, char_idx)."""
    while True:
        close = matching_close_brace(masked, line_idx, char_idx)
        if close is None:
            return None
        line_idx, char_idx = close
        nxt = _next_word(masked, line_idx, char_idx + 1)
        if nxt is None or nxt[2] != "else":
            return close
        after = _next_word(masked, nxt[0], nxt[1] + 4)
        if after is None:
            return None
        if after[2] == "{":
            return matching_close_brace(masked, after[0], after[1])
        if after[2] != "if":
            return None
        line_idx, char_idx = after[0], after[1]


def _next_word(masked: list[str], line_idx: int, char_idx: int):
    """The next token start after (line_idx, char_idx): (line, index, '{' or the word)."""
    for li in range(line_idx, len(masked)):
        text = masked[li]
        for ci in range(char_idx if li == line_idx else 0, len(text)):
            ch = text[ci]
            if ch.isspace():
                continue
            if ch == "{":
                return li, ci, "{"
            word = re.match(r"[A-Za-z_][A-Za-z0-9_]*", text[ci:])
            return li, ci, word.group() if word else ch
    return None
