"""Text edits of a function's `!{...}` capability set: where the set sits on its line, and
the edit that removes the whole set or one name of it (E007's fixes)."""
from __future__ import annotations

import re
from typing import Optional

from boruna.language import ast as A

from .context import CheckContext
from .fix import Edit


def annotation_span(ctx: CheckContext, fn: A.FnDef) -> Optional[tuple[int, int, int]]:
    """(line, index of `!`, index of the closing `}`) when the annotation sits on one line."""
    line = fn.caps_line
    if not line:
        return None
    masked = ctx.masked_text(line)
    start = ctx.index_of(line, fn.caps_col)
    if start is None or start >= len(masked) or masked[start] != "!":
        bang = masked.find("!", start or 0)
        if bang == -1:
            return None
        start = bang
    end = masked.find("}", start)
    if end == -1:
        return None
    return line, start, end


def remove_annotation_edit(ctx: CheckContext, span: tuple[int, int, int]) -> Edit:
    line, start, end = span
    text = ctx.line_text(line) or ""
    return Edit(start_line=line, old_text=text,
                new_text=text[:start].rstrip() + text[end + 1:], file=ctx.file)


def name_pattern(name: str) -> re.Pattern:
    segments = [re.escape(part) for part in name.split(".")]
    return re.compile(r"(?<![A-Za-z0-9_])" + r"\s*\.\s*".join(segments) + r"(?![A-Za-z0-9_])")


def remove_name_edit(ctx: CheckContext, span: tuple[int, int, int], match: re.Match,
                     text: str) -> Edit:
    line, start, end = span
    masked = ctx.masked_text(line)
    inner = masked[masked.index("{", start) + 1:end]
    if len([part for part in inner.split(",") if part.strip()]) <= 1:
        return remove_annotation_edit(ctx, span)
    lo, hi = match.start(), match.end()
    after = masked[hi:end]
    comma_after = after.find(",")
    if comma_after != -1 and after[:comma_after].strip() == "":
        hi = hi + comma_after + 1
        while hi < end and masked[hi] in " \t":
            hi += 1
    else:
        before = masked[start:lo]
        comma_before = before.rfind(",")
        lo = start + comma_before
    return Edit(line, text, text[:lo] + text[hi:], ctx.file)


def drop_name_edit(ctx: CheckContext, fn: A.FnDef, name: str) -> Optional[Edit]:
    """The edit removing capability `name` (as written) from `fn`'s `!{...}` set (the whole
    set when it is the only name), or None when the set is not on one line."""
    span = annotation_span(ctx, fn)
    if span is None:
        return None
    line, start, end = span
    match = name_pattern(name).search(ctx.masked_text(line), start, end)
    if match is None:
        return None
    return remove_name_edit(ctx, span, match, ctx.line_text(line) or "")
