"""The document algebra of the formatter (Wadler's "prettier printer", in Prettier's shape).

A document is one of:
  str              text without a newline
  list             the concatenation of its items
  Group(doc)       printed flat (every `LINE` a space, every `SOFTLINE` nothing) when it fits
                   in the rest of the line, else broken (every line break of its own a newline)
  Nest(n, doc)     `doc` with its newlines indented `n` more columns (`indent(doc)`: 4)
  LINE, SOFTLINE   a line break, or in a flat group a space / nothing
  HARDLINE         always a newline; the groups around it never print flat
  FRESHLINE        a newline unless the line is still empty (an own-line comment's start)
  IfBreak(b, f)    `b` when the enclosing group is broken, else `f` (trailing commas)
  LineSuffix(text) text deferred to the end of the line (a trailing comment)
  BREAK_PARENT     forces the groups around it to break (a trailing comment inside them)

`render(doc, width)` lays it out: a group is flat when its contents, and what follows them up
to the next possible line break, fit in `width` columns. Blank lines carry no indentation.
"""
from __future__ import annotations

__all__ = ["Group", "Nest", "IfBreak", "LineSuffix", "LINE", "SOFTLINE", "HARDLINE", "FRESHLINE",
           "BREAK_PARENT", "INDENT_WIDTH", "group", "indent", "join", "render"]

INDENT_WIDTH = 4


class Group:
    __slots__ = ("contents", "flat", "budget")

    def __init__(self, contents):
        self.contents = contents
        self.flat = None        # the flat text, measured once per budget (see _flat_text)
        self.budget = -1


class Nest:
    __slots__ = ("width", "contents")

    def __init__(self, width: int, contents):
        self.width = width
        self.contents = contents


class IfBreak:
    __slots__ = ("broken", "flat")

    def __init__(self, broken, flat=""):
        self.broken = broken
        self.flat = flat


class LineSuffix:
    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


class _Line:
    __slots__ = ("flat", "hard", "fresh")

    def __init__(self, flat: str, hard: bool, fresh: bool = False):
        self.flat = flat
        self.hard = hard
        self.fresh = fresh


class _BreakParent:
    __slots__ = ()


LINE = _Line(" ", False)
SOFTLINE = _Line("", False)
HARDLINE = _Line("", True)
FRESHLINE = _Line("", True, True)
BREAK_PARENT = _BreakParent()


def group(*parts) -> Group:
    return Group(list(parts))


def indent(*parts) -> Nest:
    return Nest(INDENT_WIDTH, list(parts))


def join(separator, docs) -> list:
    """`docs` with `separator` between each two."""
    out = []
    for i, d in enumerate(docs):
        if i:
            out.append(separator)
        out.append(d)
    return out


_MEASURE_DEPTH = 100
"""Groups nested deeper than this inside the one being measured are walked, not measured
(and kept) on their own: the measure never recurses without bound."""


def _flat_text(group: Group, budget: int, depth: int = 0):
    """The text of `group` printed flat, or None when it has a hard line, a forced break or
    a line suffix, or is longer than `budget` (then it never prints flat). Measured once: a
    group's text is kept for the groups around it."""
    if group.budget == budget:
        return group.flat
    text: list = []
    keep = text.append
    stack = [group.contents]
    left = budget
    flat = None
    while True:
        if not stack:
            flat = "".join(text)
            break
        d = stack.pop()
        t = type(d)
        if t is str:
            left -= len(d)
            if left < 0:
                break
            keep(d)
        elif t is list:
            stack.extend(reversed(d))
        elif t is _Line:
            if d.hard:
                break
            left -= len(d.flat)
            if left < 0:
                break
            keep(d.flat)
        elif t is Group:
            if depth >= _MEASURE_DEPTH and d.budget != budget:
                stack.append(d.contents)
                continue
            inner = _flat_text(d, budget, depth + 1)
            if inner is None:
                break
            left -= len(inner)
            if left < 0:
                break
            keep(inner)
        elif t is Nest:
            stack.append(d.contents)
        elif t is IfBreak:
            stack.append(d.flat)
        else:                   # a forced break or a line suffix
            break
    group.flat = flat
    group.budget = budget
    return flat


def _rest_fits(cmds, remaining: int) -> bool:
    """Whether the commands still to print (all in broken groups) reach a line break before
    using more than `remaining` columns."""
    ri = len(cmds)
    stack: list = []
    while True:
        if not stack:
            if ri == 0:
                return True
            ri -= 1
            stack.append(cmds[ri][1])
            continue
        d = stack.pop()
        t = type(d)
        if t is str:
            remaining -= len(d)
            if remaining < 0:
                return False
        elif t is list:
            stack.extend(reversed(d))
        elif t is _Line:
            return True
        elif t is Group or t is Nest:
            stack.append(d.contents)
        elif t is IfBreak:
            stack.append(d.broken)


def render(doc, width: int = 100) -> str:
    """Lay `doc` out in `width` columns (see the module docstring)."""
    out: list[str] = []
    emit = out.append
    cmds = [(0, doc)]       # (indentation, document) still to print, in broken groups
    push = cmds.append
    pop = cmds.pop
    pos = 0                 # the column after what has been printed (indentation included)
    pending = -1            # indentation owed before the next text (-1: none)
    suffixes: list = []     # line suffixes waiting for the end of the line
    while cmds:
        ind, d = pop()
        t = type(d)
        if t is str:
            if d:
                if pending >= 0:
                    if pending:
                        emit(" " * pending)
                    pending = -1
                emit(d)
                pos += len(d)
        elif t is list:
            # the leading texts at once, the rest as commands
            i = 0
            n = len(d)
            while i < n and type(d[i]) is str:
                x = d[i]
                if x:
                    if pending >= 0:
                        if pending:
                            emit(" " * pending)
                        pending = -1
                    emit(x)
                    pos += len(x)
                i += 1
            if i < n:
                cmds.extend([(ind, d[k]) for k in range(n - 1, i - 1, -1)])
        elif t is _Line:
            if suffixes:
                push((ind, d))
                for s in reversed(suffixes):
                    push((ind, s))
                suffixes = []
            elif d.fresh and pending >= 0:
                pending = ind       # the line is still empty: no newline, this indentation
                pos = ind
            else:
                if out and out[-1].endswith(" "):
                    out[-1] = out[-1].rstrip(" ")
                emit("\n")
                pending = ind
                pos = ind
        elif t is Group:
            flat = _flat_text(d, width)
            if (flat is not None and len(flat) <= width - pos
                    and _rest_fits(cmds, width - pos - len(flat))):
                if flat:
                    if pending >= 0:
                        if pending:
                            emit(" " * pending)
                        pending = -1
                    emit(flat)
                    pos += len(flat)
            else:
                push((ind, d.contents))
        elif t is Nest:
            push((ind + d.width, d.contents))
        elif t is IfBreak:
            push((ind, d.broken))
        elif t is LineSuffix:
            suffixes.append(d.text)
        # BREAK_PARENT: only read by _flat_text
    if suffixes:
        if pending >= 0 and pending:
            emit(" " * pending)
        out.extend(suffixes)
    return "".join(out)
