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

_FLAT = 0
_BREAK = 1


class Group:
    __slots__ = ("contents",)

    def __init__(self, contents):
        self.contents = contents


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


def _fits(contents, rest, remaining: int) -> bool:
    """Whether `contents` printed flat, then the commands of `rest` (from its top) in their own
    modes, reach a possible line break before using more than `remaining` columns. A hard
    line or a forced break inside `contents` means it does not fit flat."""
    stack = [contents]
    modes = None            # None while measuring `contents` (all flat)
    ri = len(rest)
    while True:
        if not stack:
            if ri == 0:
                return True
            ri -= 1
            _, mode, d = rest[ri]
            stack.append(d)
            modes = mode
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
            if modes is None:
                if d.hard:
                    return False
                remaining -= len(d.flat)
                if remaining < 0:
                    return False
            elif modes == _BREAK or d.hard:
                return True
            else:
                remaining -= len(d.flat)
                if remaining < 0:
                    return False
        elif t is Group or t is Nest:
            stack.append(d.contents)
        elif t is IfBreak:
            stack.append(d.broken if modes == _BREAK else d.flat)
        elif t is _BreakParent:
            if modes is None:
                return False
        # LineSuffix: no width


def render(doc, width: int = 100) -> str:
    """Lay `doc` out in `width` columns (see the module docstring)."""
    out: list[str] = []
    emit = out.append
    cmds = [(0, _BREAK, doc)]
    push = cmds.append
    pop = cmds.pop
    pos = 0                 # the column after what has been printed (indentation included)
    pending = -1            # indentation owed before the next text (-1: none)
    suffixes: list = []     # line suffixes waiting for the end of the line
    while cmds:
        ind, mode, d = pop()
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
            for x in reversed(d):
                push((ind, mode, x))
        elif t is _Line:
            if mode == _FLAT and not d.hard:
                if d.flat:
                    if pending >= 0:
                        if pending:
                            emit(" " * pending)
                        pending = -1
                    emit(d.flat)
                    pos += len(d.flat)
            elif suffixes:
                push((ind, mode, d))
                for s in reversed(suffixes):
                    push((ind, mode, s))
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
            if mode == _FLAT:
                push((ind, _FLAT, d.contents))
            else:
                flat = _fits(d.contents, cmds, width - pos)
                push((ind, _FLAT if flat else _BREAK, d.contents))
        elif t is Nest:
            push((ind + d.width, mode, d.contents))
        elif t is IfBreak:
            push((ind, mode, d.broken if mode == _BREAK else d.flat))
        elif t is LineSuffix:
            suffixes.append(d.text)
        # BREAK_PARENT: only read by _fits
    if suffixes:
        if pending >= 0 and pending:
            emit(" " * pending)
        out.extend(suffixes)
    return "".join(out)
