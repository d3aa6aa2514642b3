"""The comments of a source text and where the printer puts them back.

The comments are found by one scan of the text (the lexer's rule: `//` outside a string, to
the end of the line) and placed in the parser's token stream: comment k sits just before
token `at[k]`. The printer emits the program's tokens in source order (it drops redundant
parentheses and commas, and adds trailing commas), so a cursor over the stream follows it:
`token(kind, text)` moves the cursor to the printed token and hands back the comments that
came before it.

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

import re
from bisect import bisect_right

from boruna.language.lexer import TokenStream, lex
from boruna.language.tokens import NEWLINE

from .doc import BREAK_PARENT, FRESHLINE, HARDLINE, LineSuffix

# tokens the printer may drop (grouping parentheses, optional commas) or emit where the
# source has none: the cursor steps over them
_SKIPPABLE = frozenset((NEWLINE, "Comma", "LParen", "RParen"))
# what the search for the next element's first token steps over: commas, parentheses (an
# element's comments include those inside its parentheses, which the printer may drop);
# inside a call's parentheses a ")" ends the search
_NOT_A_START = frozenset((NEWLINE, "Comma", "RParen", "LParen"))
_NOT_A_START_IN_PARENS = frozenset((NEWLINE, "Comma", "LParen"))
_OPENERS = frozenset(("LParen", "LBracket", "LBrace"))
_CLOSERS = frozenset(("RParen", "RBracket", "RBrace"))
# a string literal (skipped) or a line comment, as the lexer reads them
_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\]|\\.)*"|//[^\n]*', re.S)


def _find_comments(source: str):
    """(line, byte column, text) of every line comment of a source that lexes."""
    found = []
    line = 1
    line_start = 0
    last = 0
    for m in _STRING_OR_COMMENT.finditer(source):
        pos = m.start()
        if source[pos] == '"':
            continue
        line += source.count("\n", last, pos)
        if line > 1:
            line_start = source.rfind("\n", 0, pos) + 1
        last = pos
        head = source[line_start:pos]
        col = (len(head) if head.isascii() else len(head.encode("utf-8", "surrogatepass"))) + 1
        found.append((line, col, "//" + m.group()[2:].rstrip()))
    return found


class Comments:
    """The comments of a source and the cursor that places them (see the module doc)."""

    __slots__ = ("kinds", "lines", "cols", "stream", "at", "comment_lines", "texts",
                 "trailing_kind", "next", "count", "cursor", "active", "source_lines",
                 "misses", "last", "_closers", "_keywords")

    def __init__(self, source: str):
        stream = lex(source)
        self.stream = stream
        kinds, lines, cols = stream.kinds, stream.lines, stream.cols
        self.kinds = kinds
        self.lines = lines
        self.cols = cols
        found = _find_comments(source) if "//" in source else []
        self.count = len(found)
        self.at = []                # comment k sits just before token at[k]
        self.comment_lines = []
        self.texts = []
        self.trailing_kind = []     # comment k follows code on its line
        if found:
            width = max(max(cols), max(c for _, c, _ in found)) + 1
            keys = [ln * width + c for ln, c in zip(lines, cols)]
            keys[-1] = keys[-2] + 1 if len(keys) > 1 else 0     # EOF sorts last
            prev_at = -1
            for ln, c, text in found:
                t = bisect_right(keys, ln * width + c, 0, len(keys) - 1)
                self.at.append(t)
                self.comment_lines.append(ln)
                self.texts.append(text)
                self.trailing_kind.append(t > 0 and t != prev_at and kinds[t - 1] != NEWLINE)
                prev_at = t
        self.next = 0           # the first comment not yet printed
        self.cursor = 0         # stream index just past the last token printed
        self.active = bool(found)
        self.misses = 0         # printed tokens the cursor could not find (synthetic ones)
        self.last = -1          # stream index of the last token printed, -1 if synthetic
        self._closers = None    # opening bracket's index -> its closing bracket's
        self._keywords = {}     # a keyword -> the positions of its tokens
        self.source_lines = source.split("\n")

    def code_tokens(self) -> TokenStream:
        """The token stream the parser reads (the comments are not in it)."""
        return self.stream

    # ---------------------------------------------------------------- queries

    def blank_before(self, line: int, col: int) -> bool:
        """Whether the source has a blank line just before the code token at (line, col): the
        token starts its line and the line above holds only blanks. (A line inside a
        multi-line string is never the one above: the string's end would be on it.)"""
        if line < 2:
            return False
        lines = self.source_lines
        if lines[line - 2].strip(" \t\r"):
            return False
        text = lines[line - 1]
        head = text[:col - 1]
        if not head.isascii():
            head = text.encode("utf-8", "surrogatepass")[:col - 1].decode("utf-8", "replace")
        return not head.strip(" \t\r")

    def _blank_before_comment(self, k: int) -> bool:
        t = self.at[k]
        line = self.comment_lines[k]
        if k and self.at[k - 1] == t:
            return line - self.comment_lines[k - 1] > 1
        return t > 0 and self.kinds[t - 1] == NEWLINE and line > self.lines[t - 1]

    def _blank_after_comment(self, k: int) -> bool:
        m = self.at[k]
        kinds = self.kinds
        while kinds[m] == NEWLINE:
            m += 1
        if k + 1 < self.count and self.at[k + 1] <= m:
            return False
        return self.lines[m] - self.comment_lines[k] > 1

    def keyword_position(self, kind: str, after: tuple, before: tuple) -> tuple:
        """The (line, col) of the first `kind` token between the positions `after` and
        `before` (the intent clause of a function: the AST keeps no position for it)."""
        found = self._keywords.get(kind)
        if found is None:
            lines, cols = self.lines, self.cols
            found = [(lines[j], cols[j]) for j, k in enumerate(self.kinds) if k == kind]
            self._keywords[kind] = found
        i = bisect_right(found, after)
        return found[i] if i < len(found) and found[i] < before else before

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

    def _take(self) -> int:
        k = self.next
        self.next = k + 1
        if self.next >= self.count:
            self.active = False
        return k

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
        at = self.at
        parts = None
        if at[self.next] <= j:
            parts = [FRESHLINE]
            while self.active and at[self.next] <= j:
                parts.append(self.texts[self._take()])
                parts.append(HARDLINE)
            parts.append(text)
        if breaks and self.active:
            k = j + 1
            while kinds[k] == "Comma":
                k += 1
            n = self.next
            if at[n] <= k and self.trailing_kind[n]:
                if parts is None:
                    parts = [text]
                parts.append(LineSuffix(" " + self.texts[self._take()]))
                parts.append(BREAK_PARENT)
        return text if parts is None else parts

    def leading(self, keep_blank: bool = True, in_parens: bool = False) -> list:
        """The own-line comments before the next element, each followed by a line break (a
        blank line kept between them, and before the element, where the source has one)."""
        if not self.active:
            return []
        limit = self._peek_start(in_parens)
        out = []
        k = -1
        while self.active and self.at[self.next] <= limit:
            k = self._take()
            if out and keep_blank and self._blank_before_comment(k):
                out.append(HARDLINE)
            out.append(self.texts[k])
            out.append(HARDLINE)
        if k >= 0 and keep_blank and self._blank_after_comment(k):
            out.append(HARDLINE)
        return out

    def paragraph(self, line: int, col: int) -> tuple[bool, list]:
        """For the entry of a block or match starting at (line, col): whether the source has a
        blank line before it (before its first leading comment, if any), and its leading
        comments (`leading`)."""
        if self.active and self.at[self.next] <= self._peek_start():
            return self._blank_before_comment(self.next), self.leading()
        return self.blank_before(line, col), []

    def trailing(self, in_parens: bool = False, limit=None) -> list:
        """The comment after the element just printed, on its line: a line suffix (`limit`:
        the stream index of the closing bracket, where known)."""
        if not self.active:
            return []
        if limit is None:
            limit = self._peek_start(in_parens)
        n = self.next
        if self.at[n] <= limit and self.trailing_kind[n]:
            return [LineSuffix(" " + self.texts[self._take()]), BREAK_PARENT]
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
        while self.active and self.at[self.next] <= limit:
            k = self._take()
            out.append(HARDLINE)
            if keep_blank and self._blank_before_comment(k):
                out.append(HARDLINE)
            out.append(self.texts[k])
        return out

    def rest(self, at_start: bool = False) -> list:
        """Every comment not yet printed, one per line (the end of the file; `at_start`: when
        nothing was printed before them)."""
        out = []
        while self.active:
            k = self._take()
            if out or not at_start:
                out.append(HARDLINE)
                if self._blank_before_comment(k):
                    out.append(HARDLINE)
            out.append(self.texts[k])
        return out
