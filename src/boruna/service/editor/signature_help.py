"""Signature help: the function or builtin whose call's parentheses hold the cursor, its
parameters, and which one the cursor is at (counted on the text, so it works while the
call is still being typed)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from . import describe as D
from .analysis import Analysis

_WINDOW = 4000      # characters before the cursor searched for the open `(`


@dataclass(frozen=True)
class SignatureInfo:
    label: str
    parameters: list[str]
    active_parameter: int
    documentation: str = ""


def offset_of(source: str, line: int, col: int) -> int:
    """The character offset in `source` of 1-based line `line`, byte column `col`."""
    lines = source.split("\n")
    line = max(1, min(line, len(lines)))
    before = sum(len(text) + 1 for text in lines[:line - 1])
    raw = lines[line - 1].encode("utf-8", "surrogatepass")[:max(col - 1, 0)]
    return before + len(raw.decode("utf-8", "replace"))


def open_bracket(source: str, line: int, col: int) -> Optional[tuple[str, str, int, int]]:
    """The innermost bracket still open before (line, col): (the bracket, the identifier
    right before it or "", the commas at its level so far, the offset after the last comma
    or the bracket); strings and `//` comments are skipped."""
    end = offset_of(source, line, col)
    start = max(0, end - _WINDOW)
    start = source.rfind("\n", 0, start) + 1 if start else 0
    stack: list[list] = []          # [bracket, position, commas, after the last comma]
    i, text = start, source
    while i < end:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < end and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c == "/" and text.startswith("//", i):
            nl = text.find("\n", i)
            i = end if nl < 0 or nl > end else nl
            continue
        if c in "([{":
            stack.append([c, i, 0, i + 1])
        elif c in ")]}":
            if stack:
                stack.pop()
        elif c == "," and stack:
            stack[-1][2] += 1
            stack[-1][3] = i + 1
        i += 1
    if not stack:
        return None
    bracket, pos, commas, after = stack[-1]
    j = pos
    while j > 0 and text[j - 1] in " \t":
        j -= 1
    k = j
    while k > 0 and (text[k - 1].isalnum() or text[k - 1] == "_"):
        k -= 1
    name = text[k:j]
    return bracket, (name if name and not name[0].isdigit() else ""), commas, after


def open_call(source: str, line: int, col: int) -> Optional[tuple[str, int]]:
    """(callee name, index of the argument at the cursor) of the innermost unclosed call
    before (line, col), None inside any other bracket."""
    found = open_bracket(source, line, col)
    if found is None or found[0] != "(" or not found[1]:
        return None
    return found[1], found[2]


def signature_help(analysis: Analysis, line: int, col: int,
                   fallback: Optional[Analysis] = None) -> Optional[SignatureInfo]:
    """The signature of the call around (line, col), or None."""
    found = open_call(analysis.source, line, col)
    if found is None:
        return None
    name, active = found
    known = analysis if analysis.ctx is not None else fallback
    fn = known.globals.functions.get(name) if known is not None and known.ctx else None
    if fn is not None:
        _, source = known.declaring_file(fn)
        return SignatureInfo(D.function_signature(fn), D.parameter_labels(fn), active,
                             D.function_doc(fn, source))
    builtin = D.builtin(name)
    if builtin is None:
        return None
    return SignatureInfo(D.builtin_signature(builtin),
                         [str(p) for p in builtin.signature.params], active,
                         D.builtin_doc(builtin))
