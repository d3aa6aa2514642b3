"""The parser and codegen methods that issue 25's second compile round replaced, as they were,
for tests/test_compiler_equivalence.py: patched into `_Parser` and `_FnGen` they give the
reference run ("before") that every program must still compile to, node for node and error
for error. Not used by the package."""
from __future__ import annotations

from typing import Optional

from boruna.bytecode.codegen import (VALUE, DISCARD, TAIL, NONE, MATCH_ANY, MATCH_ERR,
                                     MATCH_NONE, MATCH_OK, MATCH_SOME, MatchArm, _is_nested,
                                     _table_int, expr_leaves_value, match_tag_exact,
                                     match_tag_int)
from boruna.language import ast
from boruna.language.parser import (_BINARY_OR_NONE, _PATH_OR_RECORD, _POSTFIX, _PREFIX,
                                    EOF, IDENT, INT, MAX_DEPTH, NEWLINE,
                                    NESTING_MESSAGE)


# ---------------------------------------------------------------- parser (before)

def old_parse_block(self) -> ast.Block:
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
        if kinds[p] == "RBrace":
            break
        stmts.append(self.parse_stmt())
    self.pos += 1
    self.depth -= 1
    return ast.Block(stmts, self.lines[start], self.cols[start])


def old_parse_stmt(self):
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
    expr = self.parse_expr()
    p = self.pos
    if kinds[p] == NEWLINE:
        p += 1
    if kinds[p] == "Eq":
        self.pos = p + 1
        if type(expr) is not ast.Ident:
            raise self.error("invalid assignment target")
        return ast.Assign(expr.name, self.parse_expr(), line, col)
    return ast.ExprStmt(expr, line, col)

# ------------------------------------------------------------ expressions


def old_parse_expr(self, min_prec: int = 1):
    """An operand (prefix operators, a primary, postfix calls and field accesses), then
    binary operators binding at least `min_prec`. Each level of nesting counts once
    towards MAX_DEPTH: the expression, each prefix and postfix operator, each operator
    of the left spine."""
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
            left = ast.IntLit(self.values[p], self.lines[p], self.cols[p])
            p, kind = r, kinds[r]
        elif kinds[r] not in _PATH_OR_RECORD:
            self.pos = q
            left = ast.Ident(self.values[p], self.lines[p], self.cols[p])
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
            left = ast.Call(left, args, left.line, left.col)
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
    info = binary[kind]
    while info[0] >= min_prec:
        self.pos = p + 1
        depth += 1          # the left spine grows: count it as nesting too
        if depth > MAX_DEPTH:
            raise self.error(NESTING_MESSAGE)
        self.depth = depth
        right = self.parse_expr(info[0] + 1)
        left = ast.Binary(info[1], left, right, left.line, left.col)
        p = self.pos
        if kinds[p] == NEWLINE:
            p += 1
        info = binary[kinds[p]]
    self.depth = entry_depth
    return left


# ---------------------------------------------------------------- codegen (before)

def old_match_expr(self, e: ast.Match, ctx: int) -> bool:
    if expr_leaves_value(e, self.leaves_memo) or ctx == VALUE:
        arm_ctx, left = VALUE, True
    else:
        arm_ctx, left = (DISCARD if ctx == DISCARD else TAIL), False
    chain = False       # string arms or integer arms beyond the table: an Eq chain
    for arm in e.arms:
        pat = arm.pattern
        if isinstance(pat, ast.StringPat) or (isinstance(pat, ast.IntPat)
                                              and not _table_int(pat.value)):
            chain = True
            break
    self.expr(e.value, VALUE)
    self.mark(e)
    if chain:
        self.match_chain(e, arm_ctx)
    else:
        self.match_table(e, arm_ctx)
    return left


def old_match_chain(self, e: ast.Match, arm_ctx: int) -> None:
    scrut = self.alloc()
    self.emit("StoreLocal", scrut)
    end_jumps: list[int] = []
    pending_fail: Optional[int] = None
    has_catchall = False
    last = len(e.arms) - 1
    for i, arm in enumerate(e.arms):
        if pending_fail is not None:
            self.patch(pending_fail, len(self.code))
            pending_fail = None
        pat = arm.pattern
        saved = dict(self.names)
        if isinstance(pat, (ast.StringPat, ast.IntPat, ast.BoolPat, ast.NonePat)):
            # Bool/None literal arms: rule-3 fix (the reference treats them as catch-alls)
            self.emit("LoadLocal", scrut)
            self.emit("PushConst", self.const(NONE if isinstance(pat, ast.NonePat)
                                              else pat.value))
            self.emit("Eq")
            pending_fail = self.jump("JmpIfNot")
            self.arm_body(arm.body, arm_ctx)
            if i != last:
                end_jumps.append(self.jump("Jmp"))
        else:
            if isinstance(pat, ast.IdentPat):
                self.emit("LoadLocal", scrut)
                self.bind(pat.name)
            self.arm_body(arm.body, arm_ctx)
            # rule-3 fix: a catch-all ends the match instead of falling into later arms
            if i != last:
                end_jumps.append(self.jump("Jmp"))
            has_catchall = True
        self.names = saved
    if pending_fail is not None:
        if has_catchall:
            end_jumps.append(pending_fail)
        else:
            # rule-3 fix: no arm matched -> `no match found for value` (out of line)
            table = len(self.tables)
            self.tables.append([])
            self.stubs.append(([("jump", pending_fail, 0)],
                               [("LoadLocal", scrut), ("Match", table)], e))
    end = len(self.code)
    for j in end_jumps:
        self.patch(j, end)


def old_match_table(self, e: ast.Match, arm_ctx: int) -> None:
    for arm in e.arms:
        if _is_nested(arm.pattern):
            self.match_nested(e, arm_ctx)
            return
    table_index = len(self.tables)
    table: list[MatchArm] = []
    self.tables.append(table)
    self.emit("Match", table_index)
    end_jumps: list[int] = []
    last = len(e.arms) - 1
    for i, arm in enumerate(e.arms):
        start = len(self.code)
        for tag in self.pattern_tags(arm.pattern):
            table.append(MatchArm(tag, start))
        saved = dict(self.names)
        self.bind_or_pop(arm.pattern)
        self.arm_body(arm.body, arm_ctx)
        self.names = saved
        if i != last:
            end_jumps.append(self.jump("Jmp"))
    end = len(self.code)
    for j in end_jumps:
        self.patch(j, end)


def old_pattern_tags(self, p) -> list[int]:
    if isinstance(p, (ast.WildcardPat, ast.IdentPat, ast.StringPat)):
        return [MATCH_ANY]
    if isinstance(p, ast.BoolPat):
        return [1 if p.value else 0]
    if isinstance(p, ast.NonePat):
        return [MATCH_NONE]
    if isinstance(p, ast.SomePat):
        return [MATCH_SOME]
    if isinstance(p, ast.OkPat):
        return [MATCH_OK]
    if isinstance(p, ast.ErrPat):
        return [MATCH_ERR]
    if isinstance(p, ast.IntPat):
        # the reference's tag (hit by a Bool or an enum variant with that index) and the
        # exact Int tag (rule-3 fix: equal integers match)
        return [p.value, match_tag_int(p.value)]
    if isinstance(p, ast.VariantPat):
        sites = self.info.variant_sites.get(p.name)
        if not sites:
            return [MATCH_ANY]
        if all(idx == sites[0][1] for _, idx in sites):
            return [sites[0][1]]
        return [match_tag_exact(tid, idx) for tid, idx in sites]
    return [MATCH_ANY]
