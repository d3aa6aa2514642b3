"""End positions of expressions, for diagnostics' end columns.

AST nodes carry only their first token's position; the end of an expression is found from
the token stream: the end of its last token, where a bracketed form (`f(...)`, `[...]`,
`T {...}`, blocks) ends at the bracket that closes it. Unknown ends are None.
"""
from __future__ import annotations

from typing import Optional

from boruna.language import ast as A
from boruna.language.lexer import lex
from boruna.language.errors import CompileError

_OPEN = {"LParen": "RParen", "LBracket": "RBracket", "LBrace": "RBrace"}
# generic type annotations -> the field holding their last type argument
_GENERIC = {A.OptionType: "inner", A.ListType: "inner", A.ResultType: "err", A.MapType: "value"}


class Spans:
    def __init__(self, source: str):
        self.source = source
        try:
            self.tokens = [t for t in lex(source, comments=True).tokens()
                           if t.kind not in ("Newline", "EOF")]
        except (CompileError, RecursionError, MemoryError):
            self.tokens = []
        self.index = {(t.line, t.col): i for i, t in enumerate(self.tokens)}
        self.partner: dict[int, int] = {}
        stack: list[int] = []
        for i, t in enumerate(self.tokens):
            if t.kind in _OPEN:
                stack.append(i)
            elif t.kind in ("RParen", "RBracket", "RBrace") and stack:
                self.partner[stack.pop()] = i
        self.lines = source.split("\n")

    # ------------------------------------------------------------ tokens
    def _token_end(self, i: int) -> tuple[int, int]:
        """(line, exclusive end byte column) of token `i`."""
        tok = self.tokens[i]
        nxt = self.tokens[i + 1] if i + 1 < len(self.tokens) else None
        text = self.lines[tok.line - 1].encode("utf-8", "surrogatepass") \
            if tok.line - 1 < len(self.lines) else b""
        stop = nxt.col - 1 if nxt is not None and nxt.line == tok.line else len(text)
        piece = text[tok.col - 1:stop]
        return tok.line, tok.col + len(piece.rstrip())

    def _closing(self, i: Optional[int]) -> Optional[tuple[int, int]]:
        if i is None or i not in self.partner:
            return None
        return self._token_end(self.partner[i])

    def _after(self, pos: Optional[tuple[int, int]], kind: str) -> Optional[int]:
        """Index of the first token of `kind` starting at or after `pos`."""
        if pos is None:
            return None
        for i in range(self._at_or_after(pos), len(self.tokens)):
            if self.tokens[i].kind == kind:
                return i
        return None

    def closing_after(self, pos: tuple[int, int], kind: str = "LBrace"
                      ) -> Optional[tuple[int, int]]:
        """(line, exclusive end column) of the bracket closing the first `kind` bracket at or
        after `pos`, or None."""
        return self._closing(self._after(pos, kind))

    def token_end(self, i: int) -> tuple[int, int]:
        """(line, exclusive end byte column) of token `i`."""
        return self._token_end(i)

    def _at_or_after(self, pos: tuple[int, int]) -> int:
        lo, hi = 0, len(self.tokens)
        while lo < hi:
            mid = (lo + hi) // 2
            t = self.tokens[mid]
            if (t.line, t.col) < pos:
                lo = mid + 1
            else:
                hi = mid
        return lo

    # ------------------------------------------------------------ expressions
    def end(self, node) -> Optional[tuple[int, int]]:
        """(line, exclusive end byte column) of an expression, or None when unknown."""
        if isinstance(node, A.FnType) and node.capabilities:     # to the `}` of its set
            close = self._after(self.end(node.ret), "RBrace")
            return self._token_end(close) if close is not None else None
        for _ in range(10_000):
            nxt = self._last_child(node)
            if nxt is None:
                return self._own_end(node)
            if nxt is True:
                return self._own_end(node)
            node = nxt
        return None

    def _last_child(self, node):
        """The sub-expression an expression (or a type annotation) ends with, True when it
        ends with a bracket or token of its own, None when it is a single token."""
        if isinstance(node, (A.Binary,)):
            return node.right
        if isinstance(node, A.FnType) and node.ret is not None:
            return node.ret
        if isinstance(node, (A.Unary, A.Spawn, A.Emit)):
            return node.expr
        if isinstance(node, A.Send):
            return node.message
        return True

    def _own_end(self, node) -> Optional[tuple[int, int]]:
        start = self.index.get((node.line, node.col))
        if start is None:
            return None
        if isinstance(node, A.EnumVariant) and node.payload is None:
            return self._token_end(start + 2) if start + 2 < len(self.tokens) else None
        if isinstance(node, (A.Call, A.SomeExpr, A.OkExpr, A.ErrExpr, A.EnumVariant)):
            return self._closing(self._after((node.line, node.col), "LParen")) \
                if not isinstance(node, A.Call) else self._call_end(node)
        if isinstance(node, (A.SomePat, A.OkPat, A.ErrPat, A.VariantPat)) and getattr(
                node, "inner", None) is not None:           # `Some(v)`: to its `)`
            return self._closing(self._after((node.line, node.col), "LParen"))
        if isinstance(node, (A.ListLit, A.BlockExpr)):
            return self._closing(start)
        if isinstance(node, (A.RecordLit, A.Match)):
            return self._closing(self._after((node.line, node.col), "LBrace"))
        if isinstance(node, A.If):
            block = node.else_block if node.else_block is not None else node.then_block
            return self._closing(self.index.get((block.line, block.col)))
        if type(node) in _GENERIC:      # `List<T>`: the `>` after its last argument
            inner = self.end(getattr(node, _GENERIC[type(node)]))
            close = self._after(inner, "Gt")
            return self._token_end(close) if close is not None else None
        if isinstance(node, A.FieldAccess):
            obj_end = self.end(node.object)
            dot = self._after(obj_end, "Dot")
            return self._token_end(dot + 1) if dot is not None and dot + 1 < len(
                self.tokens) else None
        return self._token_end(start)

    def _call_end(self, node: A.Call):
        func_end = self.end(node.func)
        return self._closing(self._after(func_end, "LParen"))
