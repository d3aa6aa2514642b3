"""The comments of a source text and where the printer puts them back.

The lexer keeps line comments as `Comment` tokens (`lex(src, comments=True)`). The printer
emits the program's tokens in source order (it drops redundant parentheses and commas, and
adds trailing commas), so a cursor over the token stream follows it: `token(kind, text)`
moves the cursor to the printed token and hands back the comments that came before it.

Where a comment goes:
- leading: an own-line comment before a statement, match arm, list element, field or item is
  printed on its own line before it (`leading`), with one blank line kept where the source
  had one or more (`blank_before`);
- trailing: a comment after code on its line stays at the end of that line: it is taken by
  the element or statement it ends (`trailing`), or, inside an expression, by the operator or
  opening bracket before it (a `LineSuffix` that breaks the groups around it);
- dangling: the own-line comments before a closing `}`, `]` or `)` stay inside the brackets
  (`dangling`);
- any other comment is printed on its own line before the next token, and whatever is left at
  the end goes after the last item: none is ever dropped, and they keep their order.

A comment's text is kept as written, less trailing blanks.
"""
from __future__ import annotations

from boruna.language.lexer import lex
from boruna.language.tokens import COMMENT, EOF, NEWLINE

from .doc import BREAK_PARENT, FRESHLINE, HARDLINE, LineSuffix

# tokens the printer may drop (grouping parentheses, optional commas) or emit where the
# source has none: the cursor steps over them
_SKIPPABLE = frozenset((NEWLINE, COMMENT, "Comma", "LParen", "RParen"))
# what the search for the next element's first token steps over: commas, parentheses (an
# element's comments include those inside its parentheses, which the printer may drop);
# inside a call's parentheses a ")" ends the search
_NOT_A_START = frozenset((NEWLINE, COMMENT, "Comma", "RParen", "LParen"))
_NOT_A_START_IN_PARENS = frozenset((NEWLINE, COMMENT, "Comma", "LParen"))
_OPENERS = frozenset(("LParen", "LBracket", "LBrace"))
_CLOSERS = frozenset(("RParen", "RBracket", "RBrace"))


class Comments:
    """The comment tokens of a source and the cursor that places them (see the module doc)."""

    __slots__ = ("kinds", "lines", "cols", "texts", "order", "next", "cursor", "active",
                 "blank_keys", "misses", "last", "_closers")

    def __init__(self, source: str):
        stream = lex(source, comments=True)
        kinds, lines, cols = stream.kinds, stream.lines, stream.cols
        self.kinds = kinds
        self.lines = lines
        self.cols = cols
        values = stream.values
        self.order = [i for i, k in enumerate(kinds) if k == COMMENT]
        self.texts = {i: "//" + values[i].rstrip() for i in self.order}
        self.next = 0           # index into `order` of the first comment not yet printed
        self.cursor = 0         # stream index just past the last token printed
        self.active = bool(self.order)
        self.misses = 0         # printed tokens the cursor could not find (synthetic ones)
        self.last = -1          # stream index of the last token printed, -1 if synthetic
        self._closers = None    # opening bracket's index -> its closing bracket's
        # (line, col) of every code token with a blank line before it
        keys = set()
        n = len(kinds) - 1
        for j, k in enumerate(kinds):
            if (k == NEWLINE or k == COMMENT) and j < n:
                nk = kinds[j + 1]
                if nk != COMMENT and nk != NEWLINE and nk != EOF:
                    if lines[j + 1] - lines[j] > (0 if k == NEWLINE else 1):
                        keys.add((lines[j + 1], cols[j + 1]))
        self.blank_keys = keys

    # ---------------------------------------------------------------- queries

    def blank_before(self, line: int, col: int) -> bool:
        """Whether the source has a blank line just before the code token at (line, col)."""
        return (line, col) in self.blank_keys

    def _blank_before_comment(self, i: int) -> bool:
        if i == 0:
            return False
        prev = self.kinds[i - 1]
        if prev == NEWLINE:
            return self.lines[i] > self.lines[i - 1]
        return prev == COMMENT and self.lines[i] - self.lines[i - 1] > 1

    def _is_trailing(self, i: int) -> bool:
        """A comment after code on its line (not an own-line comment)."""
        return i > 0 and self.kinds[i - 1] != NEWLINE and self.kinds[i - 1] != COMMENT

    def closer_of_last(self):
        """The stream index of the bracket closing the last token printed (an opening
        bracket of the source), or None."""
        if not self.active or self.last < 0:
            return None
        if self._closers is None:
            closers = {}
            stack = []
            for j, k in enumerate(self.kinds):
                if k in _OPENERS:
                    stack.append(j)
                elif k in _CLOSERS and stack:
                    closers[stack.pop()] = j
            self._closers = closers
        return self._closers.get(self.last)

    def _peek_start(self, in_parens: bool = False) -> int:
        kinds = self.kinds
        skip = _NOT_A_START_IN_PARENS if in_parens else _NOT_A_START
        j = self.cursor
        while kinds[j] in skip:
            j += 1
        return j

    # ---------------------------------------------------------------- the printer's calls

    def token(self, kind: str, text: str, breaks: bool = False):
        """`text`, the printed token of `kind`, with the comments the source has before it on
        their own lines; when `breaks` (a line break may follow it in the layout), also the
        trailing comment after it on its line."""
        if not self.active:
            return text
        kinds = self.kinds
        j = self.cursor
        while kinds[j] != kind:
            if kinds[j] not in _SKIPPABLE:
                self.misses += 1
                self.last = -1
                return text     # not in the source here: a token the printer adds
            j += 1
        self.cursor = j + 1
        self.last = j
        order = self.order
        parts = None
        if order[self.next] < j:
            parts = [FRESHLINE]
            while self.next < len(order) and order[self.next] < j:
                parts.append(self.texts[order[self.next]])
                parts.append(HARDLINE)
                self.next += 1
            parts.append(text)
        if breaks and self.next < len(order):
            k = j + 1
            while kinds[k] == "Comma":
                k += 1
            if k == order[self.next]:
                if parts is None:
                    parts = [text]
                parts.append(LineSuffix(" " + self.texts[k]))
                parts.append(BREAK_PARENT)
                self.next += 1
        if self.next >= len(order):
            self.active = False
        return text if parts is None else parts

    def leading(self, keep_blank: bool = True, in_parens: bool = False) -> list:
        """The own-line comments before the next element, each followed by a line break (a
        blank line kept between them, and before the element, where the source has one)."""
        if not self.active:
            return []
        limit = self._peek_start(in_parens)
        order = self.order
        out = []
        while self.next < len(order) and order[self.next] < limit:
            i = order[self.next]
            if out and keep_blank and self._blank_before_comment(i):
                out.append(HARDLINE)
            out.append(self.texts[i])
            out.append(HARDLINE)
            self.next += 1
        if out and keep_blank:
            last = order[self.next - 1]
            m = last + 1
            while self.kinds[m] == NEWLINE:
                m += 1
            if self.kinds[m] != COMMENT and self.lines[m] - self.lines[last] > 1:
                out.append(HARDLINE)
        if self.next >= len(order):
            self.active = False
        return out

    def paragraph(self, line: int, col: int) -> tuple[bool, list]:
        """For the entry of a block or match starting at (line, col): whether the source has a
        blank line before it (before its first leading comment, if any), and its leading
        comments (`leading`)."""
        if self.active:
            limit = self._peek_start()
            i = self.order[self.next]
            if i < limit:
                return self._blank_before_comment(i), self.leading()
        return (line, col) in self.blank_keys, []

    def trailing(self, in_parens: bool = False, limit=None) -> list:
        """The comment after the element just printed, on its line: a line suffix (`limit`:
        the stream index of the closing bracket, where known)."""
        if not self.active:
            return []
        if limit is None:
            limit = self._peek_start(in_parens)
        i = self.order[self.next]
        if i < limit and self._is_trailing(i):
            self.next += 1
            if self.next >= len(self.order):
                self.active = False
            return [LineSuffix(" " + self.texts[i]), BREAK_PARENT]
        return []

    def dangling(self, keep_blank: bool = True, in_parens: bool = False,
                 trail: bool = True, limit=None) -> list:
        """The comments before the closing bracket that comes next, each after a line
        break (for the inside of an indented, broken list or block); first, with `trail`,
        the trailing comment of the last element (callers that took it pass False)."""
        if not self.active:
            return []
        out = []
        if trail:
            out.extend(self.trailing(in_parens, limit))
        if limit is None:
            limit = self._peek_start(in_parens)
        order = self.order
        while self.next < len(order) and order[self.next] < limit:
            i = order[self.next]
            out.append(HARDLINE)
            if keep_blank and self._blank_before_comment(i):
                out.append(HARDLINE)
            out.append(self.texts[i])
            self.next += 1
        if self.next >= len(order):
            self.active = False
        return out

    def rest(self) -> list:
        """Every comment not yet printed, one per line (the end of the file)."""
        out = []
        order = self.order
        while self.next < len(order):
            i = order[self.next]
            out.append(HARDLINE)
            if self._blank_before_comment(i):
                out.append(HARDLINE)
            out.append(self.texts[i])
            self.next += 1
        self.active = False
        return out
