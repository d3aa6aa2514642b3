"""The rename patch for an undefined name (E003/E004, docs/spec/tooling.md §1.5).

Candidates are scope-aware where possible: the names visible at the failing identifier
(parameters, `let`s, loop and pattern bindings in scope), every user function and the seven
short builtins. When the identifier cannot be found in the AST the reference's file-wide
candidate list is used instead.
"""
from __future__ import annotations

from typing import Optional

from boruna.language import ast as A
from boruna.language.walk import child_nodes, pattern_binding

from boruna.core.builtins import BUILTINS, SHORT_NAMES

from .context import CheckContext
from .model import Confidence, SuggestedPatch, TextEdit
from .naming import closest_name
from .source_text import word_positions

SHORT_BUILTINS = SHORT_NAMES


def _builtin_names() -> tuple[str, ...]:
    """The seven short builtins first (the reference's list), then every other builtin."""
    return SHORT_BUILTINS + tuple(b.name for b in BUILTINS if b.name not in SHORT_BUILTINS)


class _Found(Exception):
    def __init__(self, scope: list[str]):
        super().__init__()
        self.scope = scope


class _ScopeFinder:
    """Walks a function like the name checker and stops at the failing identifier."""

    def __init__(self, name: str, line: int, col: int):
        self.name, self.line, self.col = name, line, col

    def _hit(self, node, name: str) -> bool:
        return (name == self.name and node.line == self.line
                and (not self.col or node.col == self.col))

    def block(self, block: A.Block, scope: list[str]) -> None:
        scope = list(scope)
        for stmt in block.stmts:
            self.stmt(stmt, scope)

    def stmt(self, stmt, scope: list[str]) -> None:
        if isinstance(stmt, A.Let):
            self.expr(stmt.value, scope)
            scope.append(stmt.name)
        elif isinstance(stmt, A.Assign):
            if self._hit(stmt, stmt.target):
                raise _Found(list(scope))
            self.expr(stmt.value, scope)
        elif isinstance(stmt, A.ExprStmt):
            self.expr(stmt.expr, scope)
        elif isinstance(stmt, A.Return):
            if stmt.value is not None:
                self.expr(stmt.value, scope)
        elif isinstance(stmt, A.While):
            self.expr(stmt.condition, scope)
            self.block(stmt.body, scope)
        elif isinstance(stmt, A.For):
            self.expr(stmt.iter, scope)
            self.block(stmt.body, scope + [stmt.var])

    def expr(self, expr, scope: list[str]) -> None:
        if isinstance(expr, A.Ident):
            if self._hit(expr, expr.name):
                raise _Found(list(scope))
        elif isinstance(expr, A.If):
            self.expr(expr.condition, scope)
            self.block(expr.then_block, scope)
            if expr.else_block is not None:
                self.block(expr.else_block, scope)
        elif isinstance(expr, A.Match):
            self.expr(expr.value, scope)
            for arm in expr.arms:
                binding = pattern_binding(arm.pattern)
                self.expr(arm.body, scope if binding is None else scope + [binding])
        elif isinstance(expr, A.BlockExpr):
            self.block(expr.block, scope)
        else:
            for child in child_nodes(expr):
                if isinstance(child, A.Block):
                    self.block(child, scope)
                else:
                    self.expr(child, scope)


def scope_at(fn: A.FnDef, name: str, line: int, col: int) -> Optional[list[str]]:
    """Names in scope where `name` is used at (line, col) inside `fn`, or None if not found."""
    finder = _ScopeFinder(name, line, col)
    try:
        finder.block(fn.body, [p.name for p in fn.params])
    except _Found as found:
        return found.scope
    except RecursionError:
        return None
    return None


def _reference_locals(block: A.Block) -> list[str]:
    """The reference's "locals" of a block (docs/spec/tooling.md §1.5 E003), scope-blind."""
    out: list[str] = []
    for stmt in block.stmts:
        if isinstance(stmt, A.Let):
            out.append(stmt.name)
            out.extend(_reference_expr_locals(stmt.value))
        elif isinstance(stmt, (A.Assign,)):
            out.extend(_reference_expr_locals(stmt.value))
        elif isinstance(stmt, A.ExprStmt):
            out.extend(_reference_expr_locals(stmt.expr))
        elif isinstance(stmt, A.Return) and stmt.value is not None:
            out.extend(_reference_expr_locals(stmt.value))
        elif isinstance(stmt, A.While):
            out.extend(_reference_locals(stmt.body))
    return out


def _reference_expr_locals(expr) -> list[str]:
    if isinstance(expr, A.If):
        out = _reference_locals(expr.then_block)
        if expr.else_block is not None:
            out += _reference_locals(expr.else_block)
        return out
    if isinstance(expr, A.Match):
        out = []
        for arm in expr.arms:
            if isinstance(arm.pattern, A.IdentPat):
                out.append(arm.pattern.name)
            out += _reference_expr_locals(arm.body)
        return out
    if isinstance(expr, A.BlockExpr):
        return _reference_locals(expr.block)
    return []


def enclosing_function(program: A.Program, line: int) -> Optional[A.FnDef]:
    """The function whose definition starts last at or before `line`."""
    best = None
    for fn in program.functions():
        if fn.line and fn.line <= line:
            best = fn
    return best


def call_arity_at(ctx: CheckContext, name: str, line: int, col: int) -> Optional[int]:
    """The argument count when `name` at (line, col) is the callee of a call, else None."""
    fn = enclosing_function(ctx.program, line) if ctx.program is not None else None
    if fn is not None:
        for expr in ctx.nodes_of(fn, A.Call):
            if (isinstance(expr.func, A.Ident)
                    and expr.func.name == name and expr.func.line == line
                    and (not col or expr.func.col == col)):
                return len(expr.args)
    return None


def _arities(ctx: CheckContext) -> dict[str, int]:
    """Every callable name and its parameter count (user and library functions win)."""
    out = {b.name: b.arity for b in BUILTINS}
    out.update({fn.name: len(fn.params) for fn in ctx.library_functions})
    out.update({fn.name: len(fn.params) for fn in ctx.program.functions()})
    return out


def candidates(ctx: CheckContext, code: str, name: str, line: int, col: int) -> list[str]:
    """Rename candidates in priority order (ties go to the earliest). For a call, the
    functions taking that many arguments come first (an addition: among equally close
    names, the one the call fits)."""
    names = _candidates(ctx, code, name, line, col)
    arity = call_arity_at(ctx, name, line, col) if code == "E003" and line else None
    if arity is None:
        return names
    arities = _arities(ctx)
    return ([n for n in names if arities.get(n) == arity]
            + [n for n in names if arities.get(n) != arity])


def _candidates(ctx: CheckContext, code: str, name: str, line: int, col: int) -> list[str]:
    program = ctx.program
    if program is None:
        return list(SHORT_BUILTINS)
    if code == "E004":
        return [fn.name for fn in program.functions()] + list(SHORT_BUILTINS)
    enclosing = enclosing_function(program, line) if line else None
    scope = scope_at(enclosing, name, line, col) if enclosing is not None else None
    out: list[str] = []
    if scope is not None:
        for item in program.items:
            if isinstance(item, A.FnDef):
                out.append(item.name)
                if item is enclosing:
                    out.extend(scope)
        out.extend(fn.name for fn in ctx.library_functions)     # imported with a libs dir
        return out + list(_builtin_names())
    for item in program.items:
        if isinstance(item, A.FnDef):
            out.append(item.name)
            out.extend(p.name for p in item.params)
            out.extend(_reference_locals(item.body))
        elif isinstance(item, A.TypeDef):
            out.append(item.name)
    return out + list(SHORT_BUILTINS)


def _rename_positions(masked_line: str, name: str) -> list[int]:
    """Whole-word code occurrences of `name` that are variable uses: not a field access
    (`.name`), not an enum variant (`E::name`) and not a record field label (`name:`)."""
    out = []
    for pos in word_positions(masked_line, name):
        before = masked_line[:pos].rstrip()
        after = masked_line[pos + len(name):].lstrip()
        if before.endswith(".") or before.endswith("::"):
            continue
        if after.startswith(":") and not after.startswith("::"):
            continue
        out.append(pos)
    return out


def rename_patch(ctx: CheckContext, code: str, name: str, line: int, col: int
                 ) -> Optional[SuggestedPatch]:
    """`E003-rename-X`: rewrite the uses of X on its line to the closest known name."""
    if not line or not name:
        return None
    best = closest_name(name, candidates(ctx, code, name, line, col))
    alias = None
    if best is None:
        from .builtin_aliases import builtin_for
        alias = builtin_for(name, call_arity_at(ctx, name, line, col), _arities(ctx))
        if alias is None:
            return None
        best = (alias, 0)
    target, distance = best
    text = ctx.line_text(line)
    if text is None:
        return None
    positions = _rename_positions(ctx.masked_text(line), name)
    if not positions:
        return None
    new_line = text
    for pos in sorted(positions, reverse=True):
        new_line = new_line[:pos] + target + new_line[pos + len(name):]
    if alias is not None:
        return SuggestedPatch(
            id=f"{code}-rename-{name}",
            description=f"use the builtin '{target}' for '{name}'",
            confidence=Confidence.LOW,
            rationale=f"'{name}' is not defined; in .ax the builtin '{target}' does this",
            edits=[TextEdit(start_line=line, old_text=text, new_text=new_line, file=ctx.file)])
    return SuggestedPatch(
        id=f"{code}-rename-{name}",
        description=f"rename '{name}' to '{target}'",
        confidence=Confidence.MEDIUM,
        rationale=f"'{name}' is not defined; did you mean '{target}'? (edit distance: {distance})",
        edits=[TextEdit(start_line=line, old_text=text, new_text=new_line, file=ctx.file)])
