"""Every name written in a file, resolved to what it names: the index behind definition,
references, rename and hover.

One scope-aware walk of a checked program (its functions' blocks, statements, expressions,
patterns and type annotations; the sub-expressions of everything else through
`language.walk.child_nodes`) records an `Occurrence` for each name token: its position (from
the token stream: AST nodes carry only their first token's position), the symbol it names
(`Key`) and whether it declares it. A symbol is

    ("fn", name)                 a function (the program's or an imported library's)
    ("builtin", name)            a builtin of `core.builtins`
    ("type", name)               a record or enum type
    ("field", type, name)        a record field
    ("variant", enum, name)      an enum variant
    ("local", file, line, col)   a parameter, `let`, `for` variable or pattern binding,
                                 by the position that declares it

A field read `p.x` belongs to the record type the checker inferred for `p` (`NodeTypes`);
without one, to the only record declaring a field `x`. A variant pattern belongs to the
matched value's enum, else to the only enum declaring the variant.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Optional

from boruna.core.builtins import BY_NAME
from boruna.diagnostics.types.spans import Spans
from boruna.language import ast as A
from boruna.language.walk import child_nodes

Key = tuple


@dataclass(frozen=True)
class Occurrence:
    """One name token: where it is (1-based line, byte column, byte length) in `file`, the
    symbol it names, whether it declares it, and the node it belongs to."""

    key: Key
    name: str
    file: str
    line: int
    col: int
    length: int
    definition: bool
    node: object = field(default=None, compare=False, hash=False)

    @property
    def end_col(self) -> int:
        return self.col + self.length

    def contains(self, line: int, col: int) -> bool:
        """Whether the byte column `col` of `line` is on this token (its end included, as an
        editor's cursor right after a name still means that name)."""
        return line == self.line and self.col <= col <= self.end_col


@dataclass
class Globals:
    """The top-level names a program can use: its own and its libraries'."""

    functions: dict            # name -> FnDef
    type_defs: dict            # name -> TypeDef

    def __post_init__(self):
        self.variant_owners: dict[str, list[str]] = {}
        self.field_owners: dict[str, list[str]] = {}
        for name, td in self.type_defs.items():
            if isinstance(td.kind, A.EnumKind):
                for variant, _ in td.kind.variants:
                    self.variant_owners.setdefault(variant, []).append(name)
            else:
                for fname, _ in td.kind.fields:
                    self.field_owners.setdefault(fname, []).append(name)

    def only(self, table: dict, name: str) -> Optional[str]:
        owners = table.get(name, [])
        return owners[0] if len(owners) == 1 else None


class FileIndex:
    """The occurrences of one file, in source order, with lookups by position and symbol."""

    def __init__(self, file: str, occurrences: list[Occurrence], scopes: list):
        self.file = file
        self.occurrences = sorted(occurrences, key=lambda o: (o.line, o.col))
        self._starts = [(o.line, o.col) for o in self.occurrences]
        self.by_key: dict[Key, list[Occurrence]] = {}
        for occ in self.occurrences:
            self.by_key.setdefault(occ.key, []).append(occ)
        self.scopes = scopes      # (function, [(local key, name, declaring node, visible from, visible to)])

    def at(self, line: int, col: int) -> Optional[Occurrence]:
        """The occurrence under (line, col): the token containing it, else the one ending
        right there."""
        i = bisect.bisect_right(self._starts, (line, col))
        best = None
        for occ in self.occurrences[max(0, i - 2):i + 1]:
            if occ.contains(line, col):
                if best is None or occ.col <= col < occ.end_col:
                    best = occ
        return best

    def of(self, key: Key) -> list[Occurrence]:
        return self.by_key.get(key, [])


class _Builder:
    def __init__(self, program: A.Program, spans: Spans, file: str, globals_: Globals,
                 types=None):
        self.program = program
        self.spans = spans
        self.file = file
        self.globals = globals_
        self.types = types
        self.out: list[Occurrence] = []
        self.scopes: list = []
        self.tokens = spans.tokens
        self._positions = [(t.line, t.col) for t in self.tokens]
        self.fn: Optional[A.FnDef] = None

    # ------------------------------------------------------------ tokens
    def token_at(self, line: int, col: int) -> Optional[int]:
        return self.spans.index.get((line, col))

    def ident_from(self, line: int, col: int, name: str, limit: int = 64) -> Optional[int]:
        """The first identifier token spelled `name` at or after (line, col)."""
        i = bisect.bisect_left(self._positions, (line, col))
        for j in range(i, min(i + limit, len(self.tokens))):
            tok = self.tokens[j]
            if tok.kind == "Ident" and tok.value == name:
                return j
        return None

    def add(self, key: Key, tok_index: Optional[int], definition: bool, node=None) -> None:
        if tok_index is None:
            return
        tok = self.tokens[tok_index]
        name = tok.value
        self.out.append(Occurrence(key, name, self.file, tok.line, tok.col,
                                   len(name.encode("utf-8", "surrogatepass")), definition, node))

    # ------------------------------------------------------------ items
    def build(self) -> FileIndex:
        for item in self.program.items:
            if isinstance(item, A.FnDef):
                self.function(item)
            elif isinstance(item, A.TypeDef):
                self.type_def(item)
        return FileIndex(self.file, self.out, self.scopes)

    def type_def(self, td: A.TypeDef) -> None:
        name_tok = self.ident_from(td.line, td.col, td.name)
        self.add(("type", td.name), name_tok, True, td)
        if name_tok is None:
            return
        tok = self.tokens[name_tok]
        line, col = tok.line, tok.col + 1
        if isinstance(td.kind, A.RecordKind):
            for fname, ty in td.kind.fields:
                j = self.ident_from(line, col, fname)
                self.add(("field", td.name, fname), j, True, td)
                self.annotation(ty)
                if ty is not None and ty.line:
                    line, col = ty.line, ty.col
        else:
            for variant, payload in td.kind.variants:
                j = self.ident_from(line, col, variant)
                self.add(("variant", td.name, variant), j, True, td)
                if j is not None:
                    line, col = self.tokens[j].line, self.tokens[j].col + 1
                if payload is not None:
                    self.annotation(payload)
                    line, col = payload.line, payload.col

    def annotation(self, te) -> None:
        stack = [te]
        while stack:
            t = stack.pop()
            if t is None:
                continue
            if isinstance(t, A.Named):
                if t.name in self.globals.type_defs:
                    self.add(("type", t.name), self.token_at(t.line, t.col), False, t)
            elif isinstance(t, (A.OptionType, A.ListType)):
                stack.append(t.inner)
            elif isinstance(t, A.ResultType):
                stack.extend((t.ok, t.err))
            elif isinstance(t, A.MapType):
                stack.extend((t.key, t.value))
            elif isinstance(t, A.FnType):
                stack.extend((*t.params, t.ret))

    def function(self, fn: A.FnDef) -> None:
        self.fn = fn
        self.add(("fn", fn.name), self.ident_from(fn.line, fn.col, fn.name), True, fn)
        scope: dict[str, Key] = {}
        visible: list = []
        self.scopes.append((fn, visible))
        self.visible = visible
        for p in fn.params:
            key = ("local", self.file, p.line, p.col)
            self.add(key, self.token_at(p.line, p.col), True, p)
            scope[p.name] = key
            self.annotation(p.ty)
            visible.append((key, p.name, p, (p.line, p.col), None))
        self.annotation(fn.return_type)
        for clause in [*fn.requires, *fn.ensures]:
            self.expr(clause, scope)
        self.block(fn.body, scope)

    # ------------------------------------------------------------ scopes
    def declare(self, scope: dict, name: str, tok: Optional[int], node, until) -> None:
        if tok is None:
            return
        t = self.tokens[tok]
        key = ("local", self.file, t.line, t.col)
        scope[name] = key
        self.add(key, tok, True, node)
        self.visible.append((key, name, node, (t.line, t.col), until))

    def block_end(self, block) -> Optional[tuple[int, int]]:
        i = self.token_at(block.line, block.col)
        if i is None or i not in self.spans.partner:
            return None
        t = self.tokens[self.spans.partner[i]]
        return t.line, t.col

    def block(self, block: A.Block, scope: dict) -> None:
        scope = dict(scope)
        until = self.block_end(block)
        for stmt in block.stmts:
            self.stmt(stmt, scope, until)

    def stmt(self, stmt, scope: dict, until) -> None:
        if isinstance(stmt, A.Let):
            self.expr(stmt.value, scope)
            self.annotation(stmt.ty)
            self.declare(scope, stmt.name, self.ident_from(stmt.line, stmt.col, stmt.name),
                         stmt, until)
        elif isinstance(stmt, A.Assign):
            key = scope.get(stmt.target)
            if key is not None:
                self.add(key, self.ident_from(stmt.line, stmt.col, stmt.target), False, stmt)
            self.expr(stmt.value, scope)
        elif isinstance(stmt, A.While):
            self.expr(stmt.condition, scope)
            self.block(stmt.body, scope)
        elif isinstance(stmt, A.For):
            self.expr(stmt.iter, scope)
            inner = dict(scope)
            self.declare(inner, stmt.var, self.ident_from(stmt.line, stmt.col, stmt.var), stmt,
                         self.block_end(stmt.body))
            self.block(stmt.body, inner)
        else:
            for child in child_nodes(stmt):
                self.expr(child, scope)

    # ------------------------------------------------------------ expressions
    def expr(self, root, scope: dict) -> None:
        stack = [root]
        while stack:
            e = stack.pop()
            if isinstance(e, A.Ident):
                self.ident(e, scope)
            elif isinstance(e, A.FieldAccess):
                self.field_read(e)
                stack.append(e.object)
            elif isinstance(e, A.RecordLit):
                self.record_lit(e)
                stack.extend(reversed([v for _, v in e.fields]))
                if e.spread is not None:
                    stack.append(e.spread)
            elif isinstance(e, A.EnumVariant):
                i = self.token_at(e.line, e.col)
                if e.enum_name in self.globals.type_defs:
                    self.add(("type", e.enum_name), i, False, e)
                if i is not None and i + 2 < len(self.tokens):
                    self.add(("variant", e.enum_name, e.variant), i + 2, False, e)
                if e.payload is not None:
                    stack.append(e.payload)
            elif isinstance(e, A.Match):
                self.expr(e.value, scope)
                self.match_arms(e, scope)
            elif isinstance(e, A.If):
                self.expr(e.condition, scope)
                self.block(e.then_block, scope)
                if e.else_block is not None:
                    self.block(e.else_block, scope)
            elif isinstance(e, A.BlockExpr):
                self.block(e.block, scope)
            elif isinstance(e, A.Block):
                self.block(e, scope)
            else:
                stack.extend(reversed(child_nodes(e)))

    def ident(self, e: A.Ident, scope: dict) -> None:
        key = scope.get(e.name)
        if key is None:
            if e.name in self.globals.functions:
                key = ("fn", e.name)
            elif e.name in BY_NAME:
                key = ("builtin", e.name)
            else:
                return
        self.add(key, self.token_at(e.line, e.col), False, e)

    def field_read(self, e: A.FieldAccess) -> None:
        owner = self.types.named(e.object) if self.types is not None else None
        if owner is None or e.field not in dict(self.records_of(owner)):
            owner = self.globals.only(self.globals.field_owners, e.field)
        if owner is None:
            return
        end = self.spans.end(e.object)
        if end is None:
            return
        i = bisect.bisect_left(self._positions, end)
        for j in range(i, min(i + 4, len(self.tokens) - 1)):
            if self.tokens[j].kind == "Dot":
                if self.tokens[j + 1].kind == "Ident" and self.tokens[j + 1].value == e.field:
                    self.add(("field", owner, e.field), j + 1, False, e)
                return

    def records_of(self, name: str) -> list:
        td = self.globals.type_defs.get(name)
        if td is None or not isinstance(td.kind, A.RecordKind):
            return []
        return td.kind.fields

    def record_lit(self, e: A.RecordLit) -> None:
        i = self.token_at(e.line, e.col)
        if i is None:
            return
        if e.type_name in self.globals.type_defs:
            self.add(("type", e.type_name), i, False, e)
        brace = i + 1
        if brace >= len(self.tokens) or brace not in self.spans.partner:
            return
        close = self.spans.partner[brace]
        names, depth, j = [], 0, brace + 1
        while j < close:
            kind = self.tokens[j].kind
            if kind in ("LParen", "LBracket", "LBrace"):
                depth += 1
            elif kind in ("RParen", "RBracket", "RBrace"):
                depth -= 1
            elif (depth == 0 and kind == "Ident" and self.tokens[j + 1].kind == "Colon"
                  and self.tokens[j - 1].kind in ("LBrace", "Comma")):
                names.append(j)
            j += 1
        declared = {f for f, _ in self.records_of(e.type_name)}
        for (fname, _), j in zip(e.fields, names):
            if fname in declared:
                self.add(("field", e.type_name, fname), j, False, e)

    def match_arms(self, e: A.Match, scope: dict) -> None:
        enum = self.types.named(e.value) if self.types is not None else None
        ends = [(arm.line, arm.col) for arm in e.arms[1:]]
        close = self.spans.closing_after((e.line, e.col))
        ends.append(close)
        for arm, until in zip(e.arms, ends):
            inner = dict(scope)
            self.pattern(arm.pattern, enum, inner, until)
            self.expr(arm.body, inner)

    def pattern(self, pat, enum: Optional[str], scope: dict, until) -> None:
        while pat is not None:
            if isinstance(pat, A.IdentPat):
                self.declare(scope, pat.name, self.token_at(pat.line, pat.col), pat, until)
                return
            if isinstance(pat, A.VariantPat):
                owner = enum
                td = self.globals.type_defs.get(owner) if owner else None
                if td is None or not isinstance(td.kind, A.EnumKind) or pat.name not in dict(
                        td.kind.variants):
                    owner = self.globals.only(self.globals.variant_owners, pat.name)
                if owner is not None:
                    self.add(("variant", owner, pat.name), self.token_at(pat.line, pat.col),
                             False, pat)
                enum = None
                pat = pat.inner
            elif isinstance(pat, (A.SomePat, A.OkPat, A.ErrPat)):
                enum = None
                pat = pat.inner
            else:
                return


def build_index(program: A.Program, spans: Spans, file: str, globals_: Globals,
                types=None) -> FileIndex:
    """The occurrences of `program` (parsed from `spans.source`, a file named `file`)."""
    return _Builder(program, spans, file, globals_, types).build()
