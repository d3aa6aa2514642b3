"""The `.ax` parser (docs/spec/language.md §2): token stream -> `ast.Program`, or the first E002.

Recursive descent over a token list that still contains (collapsed) Newline tokens, with the
reference's primitives (§2.1): `peek`/`check` look past one Newline without moving, `advance`
and `expect*` skip it and consume. An error reports the line of the token at the parser's
current index, which may be a Newline token (§4.4); that keeps every message and line equal
to the reference. The column is the offending token's when it sits on that line, else 1.

Binary operators use precedence climbing (same trees as the reference's one-function-per-level
descent, fewer calls); prefix operators are collected in a loop. `parse_program` (through
`_c_items`, the C core's loop over items), `parse_block` and `parse_expr` (through `c_core`)
first hand the token lists to the parser's core in C (`_exprs.c`), which builds the same nodes
for every item, block, statement and expression but the actor forms (`spawn`, `send`, `emit`,
`receive`) and otherwise says where it stopped; from there on the descent here parses that
part. Nesting is capped at
`MAX_DEPTH` with a clean E002; `parse_program` runs the descent on a deep stack.
"""
from __future__ import annotations

import sys
from typing import Optional

from . import _exprs, ast
from boruna.core.deep_stack import call_deep, shallow_exhausted
from .errors import CompileError
from .lexer import TokenStream, lex
from .suggest import did_you_mean, keyword_suggestion
from .tokens import (COMMENT, EOF, FLOAT, IDENT, INT, KEYWORD_SET, KEYWORDS, NEWLINE,
                     PUNCTUATION, STRING, display_token)

MAX_DEPTH = 20_000
NESTING_MESSAGE = (f"nesting too deep: expressions, blocks, patterns and types may nest at "
                   f"most {MAX_DEPTH} levels")

# kind -> (precedence, AST op); higher binds tighter (docs/spec/language.md §2.8)
_BINARY = {
    "OrOr": (1, "Or"), "AndAnd": (2, "And"),
    "EqEq": (3, "Eq"), "BangEq": (3, "Neq"),
    "Lt": (4, "Lt"), "LtEq": (4, "Lte"), "Gt": (4, "Gt"), "GtEq": (4, "Gte"),
    "PlusPlus": (5, "Concat"),
    "Plus": (6, "Add"), "Minus": (6, "Sub"),
    "Star": (7, "Mul"), "Slash": (7, "Div"), "Percent": (7, "Mod"),
}
# every token kind -> its binary operator entry, (0, None) for the kinds that are none: one
# dict subscript per operand end, never a miss
_BINARY_OR_NONE = {kind: (0, None) for kind in (
    *KEYWORDS, *PUNCTUATION.values(), IDENT, INT, FLOAT, STRING, NEWLINE, EOF, COMMENT)}
_BINARY_OR_NONE.update(_BINARY)
_PREFIX = {"Minus": "Neg", "Bang": "Not"}
_POSTFIX = frozenset(("LParen", "Dot"))
# after an identifier: a variant path or a record literal (parse_primary decides)
_PATH_OR_RECORD = frozenset(("ColonColon", "LBrace"))
_SPECIAL_TYPES = frozenset(("Option", "Result", "List", "Map", "Fn"))
# the commonest nodes are built inline as `_new(cls)` and their slots (every field set):
# the same objects as `cls(...)`, without a call of the dataclass __init__
_new = object.__new__
_Binary, _Ident, _IntLit, _Call = ast.Binary, ast.Ident, ast.IntLit, ast.Call
_Block, _ExprStmt, _Named, _MatchArm = ast.Block, ast.ExprStmt, ast.Named, ast.MatchArm
_IdentPat, _VariantPat, _If = ast.IdentPat, ast.VariantPat, ast.If
_WildcardPat, _IntPat = ast.WildcardPat, ast.IntPat
# the parser's core in C (`_exprs.c`): handed this file's operator tables, the token kinds
# and the node classes, it parses items, blocks and expressions and hands back what it does
# not cover (parse_program, parse_block, parse_expr)
_exprs.configure(
    _BINARY, _PREFIX,
    {"Ident": IDENT, "Int": INT, "Float": FLOAT, "String": STRING, "Newline": NEWLINE,
     "Eof": EOF, **{kind: kind for kind in PUNCTUATION.values()},
     **{kind: kind for kind in KEYWORDS}},
    {name: getattr(ast, name) for name in (
        "Binary", "Unary", "Ident", "IntLit", "FloatLit", "StringLit", "BoolLit", "NoneLit",
        "Call", "FieldAccess", "ListLit", "SomeExpr", "OkExpr", "ErrExpr", "EnumVariant",
        "RecordLit", "If", "Match", "BlockExpr", "Block", "Let", "Assign", "ExprStmt",
        "Return", "While", "For", "MatchArm", "WildcardPat", "IdentPat", "IntPat",
        "StringPat", "BoolPat", "NonePat", "SomePat", "OkPat", "ErrPat", "VariantPat",
        "Named", "OptionType", "ResultType", "ListType", "MapType", "FnType", "Param",
        "FnDef", "RecordKind", "EnumKind", "TypeDef", "ImportDef")},
    MAX_DEPTH)
_c_expr = _exprs.parse
_c_block = _exprs.parse_block
_c_items = _exprs.parse_items
_STATEMENT_KEYWORDS = frozenset(("let", "return", "while", "for"))
_CLAUSES = frozenset(("intent", "requires", "ensures"))


class _Parser:
    __slots__ = ("kinds", "values", "lines", "cols", "pos", "depth", "eof_line", "eof_col",
                 "c_from")

    def __init__(self, stream: TokenStream):
        self.kinds = stream.kinds
        self.values = stream.values
        self.lines = stream.lines
        self.cols = stream.cols
        self.eof_line = stream.eof_line
        self.eof_col = stream.eof_col
        self.pos = 0
        self.depth = 0
        # parse_program, parse_block and parse_expr try the C core from this token on: past
        # where it last handed back (`c_core`). It reads lists only (what `lex` makes); a stream of
        # other sequences is parsed here throughout
        lists = all(type(part) is list for part in (self.kinds, self.values, self.lines,
                                                     self.cols))
        self.c_from = 0 if lists else sys.maxsize

    # ------------------------------------------------------------ primitives

    def peek(self) -> int:
        """Index of the first non-Newline token at or after `pos` (Newlines never repeat)."""
        p = self.pos
        if self.kinds[p] == NEWLINE:
            p += 1
        return p

    def check(self, kind: str) -> bool:
        p = self.pos
        kinds = self.kinds
        if kinds[p] == NEWLINE:
            p += 1
        return kinds[p] == kind

    def skip_newlines(self) -> None:
        if self.kinds[self.pos] == NEWLINE:
            self.pos += 1

    def advance(self) -> int:
        p = self.pos
        if self.kinds[p] == NEWLINE:
            p += 1
        self.pos = p + 1
        return p

    def error(self, message: str, **details) -> CompileError:
        """E002 at the reference's line (the token at `pos`) and the best column on it;
        `details` are the CompileError's attributes (`expected`, `found`, ...)."""
        pos = self.pos
        line = self.lines[pos]
        j = pos + 1 if self.kinds[pos] == NEWLINE else pos
        if self.kinds[j] == EOF:
            col = self.eof_col if self.eof_line == line else 1
        else:
            col = self.cols[j] if self.lines[j] == line else 1
        return CompileError("E002", message, line, col, **details)

    def found(self, p: int) -> str:
        return display_token(self.kinds[p], self.values[p])

    def unexpected(self, expected: str, p: int, suggestion: Optional[str] = None) -> CompileError:
        """`expected {expected}, found {token p}` (plus "did you mean" for `suggestion`)."""
        if self.kinds[p] == EOF:
            return self.error(f"expected {expected}, found end of input", expected=expected,
                              found="end of input")
        found = self.found(p)
        return self.error(f"expected {expected}, found {found}{did_you_mean(suggestion)}",
                          expected=expected, found=found, suggestion=suggestion,
                          found_name=self.values[p] if self.kinds[p] == IDENT else None)

    def expect(self, kind: str) -> int:
        p = self.pos
        kinds = self.kinds
        if kinds[p] == NEWLINE:
            p += 1
            self.pos = p
        actual = kinds[p]
        if actual == kind:
            self.pos = p + 1
            return p
        suggestion = None
        if actual == IDENT and kind in KEYWORD_SET:
            if keyword_suggestion(self.values[p]) == kind:
                suggestion = kind
        raise self.unexpected(display_token(kind), p, suggestion)

    def expect_ident(self) -> int:
        p = self.pos
        kinds = self.kinds
        if kinds[p] == NEWLINE:
            p += 1
            self.pos = p
        if kinds[p] == IDENT:
            self.pos = p + 1
            return p
        raise self.unexpected("identifier", p)

    def expect_string(self) -> int:
        self.skip_newlines()
        p = self.pos
        if self.kinds[p] == STRING:
            self.pos = p + 1
            return p
        raise self.unexpected("string literal", p)

    def _close_paren(self) -> None:
        """`self.expect("RParen")`, its commonest case inline."""
        q = self.pos
        kinds = self.kinds
        if kinds[q] == NEWLINE:
            q += 1
        if kinds[q] != "RParen":
            self.expect("RParen")           # raises
        self.pos = q + 1

    def c_core(self, parse, *args):
        """`parse` (an entry of the C core: `_c_block`, `_c_expr`) at `pos`: the node it
        built, moving `pos` past it; or None where it handed back, and then the C core is not
        asked again before the token after the one it stopped at (`c_from`), so no token is
        read by it twice and its work stays linear in the input (`parse_program` keeps the
        same rule for `_c_items`)."""
        got = parse(self.kinds, self.values, self.lines, self.cols, self.pos, *args)
        if type(got) is tuple:
            self.pos = got[1]
            return got[0]
        self.c_from = got + 1      # `got`: where it stopped, never before `pos`
        return None

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(NESTING_MESSAGE)

    # ------------------------------------------------------------ items

    def parse_program(self) -> ast.Program:
        self.skip_newlines()
        kinds = self.kinds
        module_name = None
        line, col = self.lines[self.pos], self.cols[self.pos]
        if kinds[self.pos] == "module":
            self.advance()
            module_name = self.values[self.expect_ident()]
        items = []
        while True:
            p = self.pos
            if kinds[p] == NEWLINE:
                p += 1
                self.pos = p
            if kinds[p] == EOF:
                break
            if p >= self.c_from:
                # the C core's loop over items (`_c_items`) appends every item it parses as
                # parse_item() would; at an item it hands back, parse_item() parses that one
                self.pos, stop = _c_items(kinds, self.values, self.lines, self.cols, p,
                                          self.depth, items)
                if stop < 0:
                    continue        # at the end of input
                self.c_from = stop + 1
            items.append(self.parse_item())
        return ast.Program(module_name, items, line, col)

    def parse_item(self):
        """A function, type or import (one the C core's loop over items handed back)."""
        kinds = self.kinds
        p = self.pos
        if kinds[p] == NEWLINE:
            p += 1
        kind = kinds[p]
        exported = kind == "export"
        if exported:
            self.pos = p = p + 1
            if kinds[p] == NEWLINE:
                p += 1
            kind = kinds[p]
        if kind == "fn":
            fn = self.parse_fn_def()
            fn.exported = exported
            return fn
        if kind == "type" or kind == "enum":
            td = self.parse_type_def()
            td.exported = exported
            return td
        if kind == "import":
            self.advance()
            name = self.values[self.expect_ident()]
            return ast.ImportDef(name, [], self.lines[p], self.cols[p])
        raise self.unexpected("item", p,
                              keyword_suggestion(self.values[p]) if kind == IDENT else None)

    def parse_fn_def(self) -> ast.FnDef:
        # `fn NAME(NAME: TYPE, ...) -> TYPE` read inline: `q` is the position before the
        # optional Newline, `p` the token after it; a token that is not the expected one is
        # left to `expect*` at `q`, which raises the error
        kinds, values = self.kinds, self.values
        q = self.pos
        p = q + 1 if kinds[q] == NEWLINE else q
        if kinds[p] != "fn":
            self.expect("fn")               # raises
        start = p
        q = p + 1
        p = q + 1 if kinds[q] == NEWLINE else q
        if kinds[p] != IDENT:
            self.pos = q
            self.expect_ident()             # raises
        name = values[p]
        q = p + 1
        p = q + 1 if kinds[q] == NEWLINE else q
        if kinds[p] != "LParen":
            self.pos = q
            self.expect("LParen")           # raises
        q = p + 1
        params = []
        while True:
            p = q + 1 if kinds[q] == NEWLINE else q
            if kinds[p] == "RParen":
                break
            if params:
                if kinds[p] != "Comma":
                    self.pos = q
                    self.expect("Comma")    # raises
                q = p + 1
                p = q + 1 if kinds[q] == NEWLINE else q
            if kinds[p] != IDENT:
                self.pos = q
                self.expect_ident()         # raises
            param = p
            q = p + 1
            p = q + 1 if kinds[q] == NEWLINE else q
            if kinds[p] != "Colon":
                self.pos = q
                self.expect("Colon")        # raises
            self.pos = p + 1
            params.append(ast.Param(values[param], self.parse_type(),
                                    self.lines[param], self.cols[param]))
            q = self.pos
        q = p + 1       # past the `)`
        p = q + 1 if kinds[q] == NEWLINE else q
        return_type = None
        if kinds[p] == "Arrow":
            self.pos = p + 1
            return_type = self.parse_type(returned=True)
        else:
            self.pos = q
        # `p`/`kind`: the next token past a Newline, read after each part
        p = self.pos
        if kinds[p] == NEWLINE:
            p += 1
        kind = kinds[p]
        capabilities = []
        caps_line = caps_col = 0
        if kind == "Bang":
            caps_line, caps_col = self.lines[p], self.cols[p]
            capabilities = self.parse_capability_set()
            p = self.pos
            if kinds[p] == NEWLINE:
                p += 1
            kind = kinds[p]
        intent = None
        requires = []
        ensures = []
        while kind in _CLAUSES:
            self.pos = p + 1
            if kind == "intent":
                if intent is not None:
                    raise self.error("duplicate 'intent' clause: a function may declare at "
                                     "most one intent")
                intent = values[self.expect_string()]
            elif kind == "requires":
                requires.append(self.parse_expr())
            else:
                ensures.append(self.parse_expr())
            p = self.pos
            if kinds[p] == NEWLINE:
                p += 1
            kind = kinds[p]
        body = self.parse_block()
        return ast.FnDef(name, params, return_type, capabilities, intent, requires, ensures,
                         body, False, self.lines[start], self.cols[start], caps_line, caps_col)

    def parse_type_def(self) -> ast.TypeDef:
        values = self.values
        start = self.advance()
        is_record = self.kinds[start] == "type"
        name = values[self.expect_ident()]
        brace = self.expect("LBrace")
        # read inline as in `parse_record`: `p` is the token past a Newline at `self.pos`
        kinds = self.kinds
        entries = []
        p = self.pos
        if kinds[p] == NEWLINE:
            p += 1
        while kinds[p] != "RBrace":
            if entries:
                if kinds[p] != "Comma":
                    self.expect("Comma")        # raises
                self.pos = p = p + 1
                if kinds[p] == NEWLINE:
                    p += 1
                if kinds[p] == "RBrace":
                    break
            if kinds[p] != IDENT:
                self.expect_ident()             # raises
            entry_name = values[p]
            self.pos = p = p + 1
            if kinds[p] == NEWLINE:
                p += 1
            if is_record:
                if kinds[p] != "Colon":
                    self.expect("Colon")        # raises
                self.pos = p + 1
                entries.append((entry_name, self.parse_type()))
            elif kinds[p] == "LParen":
                self.pos = p + 1
                payload = self.parse_type()
                self._close_paren()
                entries.append((entry_name, payload))
            else:
                entries.append((entry_name, None))
                continue            # `p` is already the next token
            p = self.pos
            if kinds[p] == NEWLINE:
                p += 1
        self.pos = p + 1
        kind_cls = ast.RecordKind if is_record else ast.EnumKind
        kind = kind_cls(entries, self.lines[brace], self.cols[brace])
        return ast.TypeDef(name, kind, False, self.lines[start], self.cols[start])

    def parse_capability_set(self) -> list[str]:
        """`!{a, b.c}` (at a `!`): the capability names as written."""
        values = self.values
        self.expect("Bang")
        self.expect("LBrace")
        capabilities = []
        while not self.check("RBrace"):
            if capabilities:
                self.expect("Comma")
            cap = values[self.expect_ident()]
            if self.check("Dot"):
                self.advance()
                cap = cap + "." + values[self.expect_ident()]
            capabilities.append(cap)
        self.expect("RBrace")
        return capabilities

    def _set_follows_set(self) -> bool:
        """At a `!{...}`: whether another `!` comes right after its `}` (in a function's
        return type `-> Fn(A) -> R !{x} !{y}`, the first set is the `Fn` type's, the last
        the function's own, so `-> Fn(A) -> R !{y}` keeps the reference's meaning)."""
        kinds = self.kinds
        p = self.peek() + 1
        limit = len(kinds) - 1
        while p < limit and kinds[p] not in ("RBrace", EOF):
            p += 1
        p += 1
        if p < limit and kinds[p] == NEWLINE:
            p += 1
        return p <= limit and kinds[p] == "Bang"

    def parse_type(self, returned: bool = False):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(NESTING_MESSAGE)
        p = self.pos
        if self.kinds[p] == NEWLINE:
            p += 1
        if self.kinds[p] != IDENT:
            self.expect_ident()         # raises
        self.pos = p + 1
        name = self.values[p]
        line, col = self.lines[p], self.cols[p]
        if name not in _SPECIAL_TYPES:
            self.depth -= 1
            named = _new(_Named)            # ast.Named(name, line, col)
            named.name = name
            named.line = line
            named.col = col
            return named
        if name == "Fn":
            self.expect("LParen")
            params = []
            while not self.check("RParen"):
                if params:
                    self.expect("Comma")
                params.append(self.parse_type())
            self.expect("RParen")
            self.expect("Arrow")
            ret = self.parse_type(returned)
            capabilities = []
            if self.check("Bang") and (not returned or self._set_follows_set()):
                capabilities = self.parse_capability_set()
            result = ast.FnType(params, ret, capabilities, line, col)
        else:
            self.expect("Lt")
            first = self.parse_type()
            if name == "Result" or name == "Map":
                self.expect("Comma")
                second = self.parse_type()
                self.expect("Gt")
                cls = ast.ResultType if name == "Result" else ast.MapType
                result = cls(first, second, line, col)
            else:
                self.expect("Gt")
                cls = ast.OptionType if name == "Option" else ast.ListType
                result = cls(first, line, col)
        self.depth -= 1
        return result

    # ------------------------------------------------------------ blocks and statements

    def parse_block(self) -> ast.Block:
        """A block; the C core (`_exprs.parse_block`) is tried first, as in `parse_expr`."""
        if self.pos >= self.c_from:
            block = self.c_core(_c_block, self.depth)
            if block is not None:
                return block
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(NESTING_MESSAGE)
        kinds = self.kinds
        start = self.pos
        if kinds[start] == NEWLINE:
            start += 1
        if kinds[start] != "LBrace":
            self.expect("LBrace")       # raises
        self.pos = start + 1
        stmts = []
        while True:
            p = self.pos
            if kinds[p] == NEWLINE:
                p += 1
                self.pos = p
            kind = kinds[p]
            if kind == "RBrace":
                break
            if kind in _STATEMENT_KEYWORDS:
                stmts.append(self.parse_stmt())
                continue
            # an expression statement or an assignment
            expr = self.parse_expr()
            q = self.pos
            if kinds[q] == NEWLINE:
                q += 1
            if kinds[q] == "Eq":
                self.pos = q + 1
                if type(expr) is not ast.Ident:
                    raise self.error("invalid assignment target")
                stmts.append(ast.Assign(expr.name, self.parse_expr(), self.lines[p],
                                        self.cols[p]))
            else:
                stmt = _new(_ExprStmt)      # ast.ExprStmt(expr, line, col)
                stmt.expr = expr
                stmt.line = self.lines[p]
                stmt.col = self.cols[p]
                stmts.append(stmt)
        self.pos += 1
        self.depth -= 1
        block = _new(_Block)                # ast.Block(stmts, line, col)
        block.stmts = stmts
        block.line = self.lines[start]
        block.col = self.cols[start]
        return block

    def parse_stmt(self):
        """A statement that starts with one of `_STATEMENT_KEYWORDS` (`parse_block` reads
        expression statements and assignments itself)."""
        kinds = self.kinds
        p = self.pos
        if kinds[p] == NEWLINE:
            p += 1
        kind = kinds[p]
        line, col = self.lines[p], self.cols[p]
        if kind == "let":       # the tokens up to `=` read inline, `expect*` for the errors
            p += 1
            if kinds[p] == NEWLINE:
                p += 1
            mutable = kinds[p] == "mut"
            if mutable:
                p += 1
                if kinds[p] == NEWLINE:
                    p += 1
            self.pos = p
            if kinds[p] != IDENT:
                self.expect_ident()     # raises
            name = self.values[p]
            p += 1
            ty = None
            if kinds[p] == "Colon" or (kinds[p] == NEWLINE and kinds[p + 1] == "Colon"):
                self.pos = p
                self.advance()
                ty = self.parse_type()
                p = self.pos
            if kinds[p] == NEWLINE:
                p += 1
            self.pos = p
            if kinds[p] != "Eq":
                self.expect("Eq")       # raises
            self.pos = p + 1
            return ast.Let(name, mutable, ty, self.parse_expr(), line, col)
        if kind == "return":
            self.pos = p + 1
            nxt = self.kinds[self.peek()]
            value = None if nxt == "RBrace" or nxt == EOF else self.parse_expr()
            return ast.Return(value, line, col)
        if kind == "while":
            self.pos = p + 1
            condition = self.parse_expr()
            return ast.While(condition, self.parse_block(), line, col)
        if kind == "for":
            self.pos = p + 1
            var = self.values[self.expect_ident()]
            self.expect("in")
            iterable = self.parse_expr()
            return ast.For(var, iterable, self.parse_block(), line, col)
        raise AssertionError(f"parse_stmt at {kind}")

    # ------------------------------------------------------------ expressions

    def parse_expr(self, min_prec: int = 1):
        """An operand (prefix operators, a primary, postfix calls and field accesses), then
        binary operators binding at least `min_prec`. Each level of nesting counts once
        towards MAX_DEPTH: the expression, each prefix and postfix operator, each operator
        of the left spine.

        The C core (`_exprs.parse`) builds the same tree when the expression is made of
        operators and simple primaries; otherwise it returns where it stopped, and this
        function parses the expression (the C core is tried again for its parts after that
        token)."""
        if self.pos >= self.c_from:
            expr = self.c_core(_c_expr, min_prec, self.depth)
            if expr is not None:
                return expr
        entry_depth = self.depth
        depth = entry_depth + 1     # self.depth follows before each call that reads it
        if depth > MAX_DEPTH:
            raise self.error(NESTING_MESSAGE)
        kinds = self.kinds
        p = self.pos
        if kinds[p] == NEWLINE:
            p += 1
        prefix = None
        while kinds[p] in _PREFIX:
            if prefix is None:
                prefix = []
            prefix.append(p)
            self.pos = p = p + 1
            if kinds[p] == NEWLINE:
                p += 1
        operand_depth = depth
        if prefix is not None:
            operand_depth += len(prefix)
            if operand_depth > MAX_DEPTH:
                raise self.error(NESTING_MESSAGE)
            self.depth = operand_depth
        kind = kinds[p]
        # the commonest primaries inline (parse_primary has the rest); then `p`/`kind` are the
        # token after the primary, past a Newline
        left = None
        if kind == IDENT or kind == INT:
            q = p + 1
            r = q + 1 if kinds[q] == NEWLINE else q
            if kind == INT:
                self.pos = q
                left = _new(_IntLit)        # ast.IntLit(value, line, col), built inline
                left.value = self.values[p]
                left.line = self.lines[p]
                left.col = self.cols[p]
                p, kind = r, kinds[r]
            elif kinds[r] not in _PATH_OR_RECORD:
                self.pos = q
                left = _new(_Ident)         # ast.Ident(name, line, col)
                left.name = self.values[p]
                left.line = self.lines[p]
                left.col = self.cols[p]
                p, kind = r, kinds[r]
        if left is None:
            self.depth = operand_depth
            left = self.parse_primary()
            p = self.pos
            if kinds[p] == NEWLINE:
                p += 1
            kind = kinds[p]
        while kind in _POSTFIX:     # calls and field accesses
            self.pos = p + 1
            operand_depth += 1
            if operand_depth > MAX_DEPTH:
                raise self.error(NESTING_MESSAGE)
            self.depth = operand_depth
            if kind == "LParen":
                args = []
                while True:
                    p = self.pos
                    if kinds[p] == NEWLINE:
                        p += 1
                    if kinds[p] == "RParen":
                        break
                    if args:
                        self.expect("Comma")
                    args.append(self.parse_expr())
                self.pos = p + 1
                call = _new(_Call)          # ast.Call(left, args, line, col)
                call.func = left
                call.args = args
                call.line = left.line
                call.col = left.col
                left = call
            else:
                field = self.values[self.expect_ident()]
                left = ast.FieldAccess(left, field, left.line, left.col)
            p = self.pos
            if kinds[p] == NEWLINE:
                p += 1
            kind = kinds[p]
        if prefix is not None:
            lines, cols = self.lines, self.cols
            for q in reversed(prefix):
                left = ast.Unary(_PREFIX[kinds[q]], left, lines[q], cols[q])
        binary = _BINARY_OR_NONE
        prec, op = binary[kind]
        while prec >= min_prec:
            q = p + 1
            self.pos = q
            depth += 1          # the left spine grows: count it as nesting too
            if depth > MAX_DEPTH:
                raise self.error(NESTING_MESSAGE)
            self.depth = depth
            # a right operand that is one identifier or integer followed by nothing binding
            # tighter is built here: what `parse_expr(prec + 1)` would build, one call less
            if kinds[q] == NEWLINE:
                q += 1
            right_kind = kinds[q]
            right = None
            if (right_kind == IDENT or right_kind == INT) and depth < MAX_DEPTH:
                r = q + 2 if kinds[q + 1] == NEWLINE else q + 1
                after = kinds[r]
                if binary[after][0] <= prec and after not in _POSTFIX and (
                        right_kind == INT or after not in _PATH_OR_RECORD):
                    right = _new(_IntLit if right_kind == INT else _Ident)
                    if right_kind == INT:
                        right.value = self.values[q]
                    else:
                        right.name = self.values[q]
                    right.line = self.lines[q]
                    right.col = self.cols[q]
                    self.pos = q + 1
                    p = r
            if right is None:
                right = self.parse_expr(prec + 1)
                p = self.pos
                if kinds[p] == NEWLINE:
                    p += 1
            binary_node = _new(_Binary)     # ast.Binary(op, left, right, line, col)
            binary_node.op = op
            binary_node.left = left
            binary_node.right = right
            binary_node.line = left.line
            binary_node.col = left.col
            left = binary_node
            prec, op = binary[kinds[p]]
        self.depth = entry_depth
        return left

    def parse_primary(self):
        kinds = self.kinds
        p = self.pos
        if kinds[p] == NEWLINE:
            p += 1
        kind = kinds[p]
        line, col = self.lines[p], self.cols[p]
        if kind == IDENT:
            self.pos = q = p + 1
            name = self.values[p]
            after = kinds[q] if kinds[q] != NEWLINE else kinds[q + 1]
            if after == "ColonColon":
                self.advance()
                variant = self.values[self.expect_ident()]
                payload = None
                if self.check("LParen"):
                    self.advance()
                    payload = self.parse_expr()
                    self.expect("RParen")
                return ast.EnumVariant(name, variant, payload, line, col)
            if after == "LBrace" and "A" <= name[0] <= "Z":
                return self.parse_record(name, line, col)
            return ast.Ident(name, line, col)
        if kind == INT:
            self.pos = p + 1
            return ast.IntLit(self.values[p], line, col)
        if kind == STRING:
            self.pos = p + 1
            return ast.StringLit(self.values[p], line, col)
        if kind == FLOAT:
            self.pos = p + 1
            return ast.FloatLit(self.values[p], line, col)
        if kind == "LParen":
            self.pos = p + 1
            expr = self.parse_expr()
            self.expect("RParen")
            return expr
        if kind == "true" or kind == "false":
            self.pos = p + 1
            return ast.BoolLit(kind == "true", line, col)
        if kind == "None":
            self.pos = p + 1
            return ast.NoneLit(line, col)
        if kind == "Some" or kind == "Ok" or kind == "Err":
            q = p + 1
            self.pos = q
            if kinds[q] == NEWLINE:
                q += 1
            if kinds[q] != "LParen":
                self.expect("LParen")       # raises
            self.pos = q + 1
            node = _new(ast.SomeExpr if kind == "Some" else ast.OkExpr if kind == "Ok"
                        else ast.ErrExpr)   # cls(inner, line, col)
            node.expr = self.parse_expr()
            q = self.pos
            if kinds[q] == NEWLINE:
                q += 1
            if kinds[q] != "RParen":
                self.expect("RParen")       # raises
            self.pos = q + 1
            node.line = line
            node.col = col
            return node
        if kind == "if":
            self.pos = p + 1
            node = _new(_If)                # ast.If(condition, then, else, line, col)
            node.condition = self.parse_expr()
            node.then_block = self.parse_block()
            q = self.pos
            if kinds[q] == NEWLINE:
                q += 1
            if kinds[q] == "else":
                self.pos = q + 1
                node.else_block = self.parse_block()
            else:
                node.else_block = None
            node.line = line
            node.col = col
            return node
        if kind == "LBrace":
            return ast.BlockExpr(self.parse_block(), line, col)
        if kind == "LBracket":
            q = p + 1       # where the next item starts; r: the token there, past a Newline
            items = []
            while True:
                r = q + 1 if kinds[q] == NEWLINE else q
                if kinds[r] == "RBracket":
                    break
                if items:
                    if kinds[r] != "Comma":
                        self.pos = q
                        self.expect("Comma")    # raises
                    q = r + 1
                    r = q + 1 if kinds[q] == NEWLINE else q
                    if kinds[r] == "RBracket":
                        break
                self.pos = q
                items.append(self.parse_expr())
                q = self.pos
            self.pos = r + 1
            return ast.ListLit(items, line, col)
        if kind == "match":
            return self.parse_match(p)
        if kind == "spawn" or kind == "emit":
            self.pos = p + 1
            self.enter()
            operand = self.parse_primary()
            self.depth -= 1
            cls = ast.Spawn if kind == "spawn" else ast.Emit
            return cls(operand, line, col)
        if kind == "send":
            self.pos = p + 1
            self.enter()
            target = self.parse_primary()
            message = self.parse_primary()
            self.depth -= 1
            return ast.Send(target, message, line, col)
        if kind == "receive":
            self.pos = p + 1
            return ast.Receive(line, col)
        raise self.unexpected("expression", p)

    def parse_record(self, type_name: str, line: int, col: int) -> ast.RecordLit:
        # read inline: `p` is always the token past a Newline at `self.pos`, so a token that
        # is not the expected one is left to `expect*` at `self.pos`, which raises the error
        kinds = self.kinds
        self.advance()      # {
        fields = []
        spread = None
        p = self.pos
        if kinds[p] == NEWLINE:
            p += 1
        if kinds[p] == "DotDot":
            self.pos = p + 1
            spread = self.parse_expr()
            p = self.pos
            if kinds[p] == NEWLINE:
                p += 1
            if kinds[p] == "Comma":
                self.pos = p = p + 1
                if kinds[p] == NEWLINE:
                    p += 1
        while kinds[p] != "RBrace":
            if fields:
                if kinds[p] != "Comma":
                    self.expect("Comma")        # raises
                self.pos = p = p + 1
                if kinds[p] == NEWLINE:
                    p += 1
                if kinds[p] == "RBrace":
                    break
            if kinds[p] != IDENT:
                self.expect_ident()             # raises
            name = self.values[p]
            self.pos = p = p + 1
            if kinds[p] == NEWLINE:
                p += 1
            if kinds[p] != "Colon":
                self.expect("Colon")            # raises
            self.pos = p + 1
            fields.append((name, self.parse_expr()))
            p = self.pos
            if kinds[p] == NEWLINE:
                p += 1
        self.pos = p + 1
        return ast.RecordLit(type_name, fields, spread, line, col)

    def parse_match(self, start: int) -> ast.Match:
        self.pos = start + 1
        value = self.parse_expr()
        self.expect("LBrace")
        arms = []
        kinds = self.kinds
        while True:
            p = self.pos
            if kinds[p] == NEWLINE:
                p += 1
                self.pos = p
            if kinds[p] == "RBrace":
                break
            pattern = self.parse_pattern()
            p = self.pos
            if kinds[p] == NEWLINE:
                p += 1
            if kinds[p] != "FatArrow":
                self.expect("FatArrow")     # raises
            self.pos = p + 1
            arm = _new(_MatchArm)           # ast.MatchArm(pattern, body, line, col)
            arm.pattern = pattern
            arm.body = self.parse_expr()
            arm.line = pattern.line
            arm.col = pattern.col
            arms.append(arm)
            p = self.pos
            if kinds[p] == NEWLINE:
                p += 1
            if kinds[p] == "Comma":
                self.pos = p + 1
        self.pos += 1
        return ast.Match(value, arms, self.lines[start], self.cols[start])

    def parse_pattern(self):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(NESTING_MESSAGE)
        kinds = self.kinds
        p = self.pos
        if kinds[p] == NEWLINE:
            p += 1
        kind = kinds[p]
        line, col = self.lines[p], self.cols[p]
        if kind == IDENT:
            self.pos = q = p + 1
            name = self.values[p]
            if "A" <= name[0] <= "Z":
                inner = None
                if kinds[q] == NEWLINE:
                    q += 1
                if kinds[q] == "LParen":
                    self.pos = q + 1
                    inner = self.parse_pattern()
                    self._close_paren()
                result = _new(_VariantPat)  # ast.VariantPat(name, inner, line, col)
                result.name = name
                result.inner = inner
            else:
                result = _new(_IdentPat)    # ast.IdentPat(name, line, col)
                result.name = name
            result.line = line
            result.col = col
        elif kind == "Underscore":
            self.pos = p + 1
            result = _new(_WildcardPat)     # ast.WildcardPat(line, col)
            result.line = line
            result.col = col
        elif kind == INT:
            self.pos = p + 1
            result = _new(_IntPat)          # ast.IntPat(value, line, col)
            result.value = self.values[p]
            result.line = line
            result.col = col
        elif kind == STRING:
            self.pos = p + 1
            result = ast.StringPat(self.values[p], line, col)
        elif kind == "true" or kind == "false":
            self.pos = p + 1
            result = ast.BoolPat(kind == "true", line, col)
        elif kind == "None":
            self.pos = p + 1
            result = ast.NonePat(line, col)
        elif kind == "Some" or kind == "Ok" or kind == "Err":
            q = p + 1
            self.pos = q
            if kinds[q] == NEWLINE:
                q += 1
            if kinds[q] != "LParen":
                self.expect("LParen")       # raises
            self.pos = q + 1
            # cls(inner, line, col), built inline
            result = _new(ast.SomePat if kind == "Some" else ast.OkPat if kind == "Ok"
                          else ast.ErrPat)
            result.inner = self.parse_pattern()
            self._close_paren()
            result.line = line
            result.col = col
        else:
            raise self.unexpected("pattern", p)
        self.depth -= 1
        return result


def parse_tokens(stream: TokenStream) -> ast.Program:
    """Parse an already lexed stream (on the caller's stack: call through `call_deep`)."""
    try:
        return _Parser(stream).parse_program()
    except RecursionError:
        shallow_exhausted()     # inside call_shallow: start over on a deep stack
        raise CompileError("E002", NESTING_MESSAGE, stream.lines[-1], 1) from None


def parse_program(source: str) -> ast.Program:
    """Lex and parse `source`; raises `CompileError` E001 (lexer) or E002 (parser)."""
    stream = lex(source)
    return call_deep(parse_tokens, stream)
