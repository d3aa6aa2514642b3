"""Name and arity checks, the reference's "typeck" (docs/spec/language.md §3): the first error is E009.

Two checks only: every identifier expression and assignment target resolves to a local in
scope, a function of the file or a builtin; a direct call of a known function (not shadowed
by a local) passes the declared number of arguments. Scopes follow §3.3, the order of checks
§3.4, suggestions §4.6. Each error carries the position of the offending identifier, call
or assignment (the reference gives none).
"""
from __future__ import annotations

from typing import Optional

from boruna.core.builtins import BUILTINS

from . import ast
from boruna.core.errors import ErrorKind

from .errors import CompileError
from .suggest import did_you_mean, unique_within_one
from .walk import child_nodes, pattern_binding

# The 42 builtins the compiler knows (docs/spec/language.md §3.8): name -> arity, from the builtin
# table. Public: codegen, diagnostics and `boruna_symbols` read it.
BUILTIN_ARITIES: dict[str, int] = {b.name: b.arity for b in BUILTINS}

BUILTIN_TYPES = ("Int", "Float", "String", "Bool", "Unit")


def arity_message(name: str, expected: int, got: int) -> str:
    plural = "" if expected == 1 else "s"
    return f"function '{name}' expects {expected} argument{plural}, got {got}"


# expressions without sub-expressions or names
_LITERALS = frozenset((ast.IntLit, ast.FloatLit, ast.StringLit, ast.BoolLit, ast.NoneLit,
                       ast.Receive))


class _Checker:
    def __init__(self, program: ast.Program):
        self.functions = dict(BUILTIN_ARITIES)
        for item in program.items:
            if isinstance(item, ast.FnDef):
                self.functions[item.name] = len(item.params)
        self.program = program
        self.found: Optional[list] = None     # a list when collecting every error
        self.limit = 0

    def undefined(self, name: str, locals_: set, node) -> CompileError:
        candidates = list(locals_)
        candidates.extend(self.functions)
        suggestion = did_you_mean(unique_within_one(name, candidates))
        return CompileError("E009", f"undefined variable: {name}{suggestion}",
                            node.line, node.col, reason=ErrorKind.UNDEFINED_VARIABLE, name=name)

    def report(self, err: CompileError) -> None:
        """An error found: raised (the compiler stops at its first) unless collecting."""
        if self.found is None:
            raise err
        self.found.append(err)
        if len(self.found) >= self.limit:
            raise _Enough()

    def run(self) -> None:
        for item in self.program.items:
            if isinstance(item, ast.FnDef):
                self.block(item.body.stmts, {p.name for p in item.params})

    def block(self, stmts, locals_: set) -> None:
        """Check statements in order; `let` adds to `locals_` (the caller passes a copy)."""
        expr = self.expr
        for stmt in stmts:
            t = type(stmt)
            if t is ast.ExprStmt:
                expr(stmt.expr, locals_)
            elif t is ast.Let:
                expr(stmt.value, locals_)
                locals_.add(stmt.name)
            elif t is ast.Assign:
                target = stmt.target
                if target not in locals_ and target not in self.functions:
                    self.report(self.undefined(target, locals_, stmt))
                expr(stmt.value, locals_)
            elif t is ast.Return:
                if stmt.value is not None:
                    expr(stmt.value, locals_)
            elif t is ast.While:
                expr(stmt.condition, locals_)
                self.block(stmt.body.stmts, set(locals_))
            elif t is ast.For:
                expr(stmt.iter, locals_)
                inner = set(locals_)
                inner.add(stmt.var)
                self.block(stmt.body.stmts, inner)

    def expr(self, e, locals_: set) -> None:
        t = type(e)
        if t is ast.Ident:
            if e.name not in locals_ and e.name not in self.functions:
                self.report(self.undefined(e.name, locals_, e))
        elif t in _LITERALS:
            pass
        elif t is ast.Binary:
            self.expr(e.left, locals_)
            self.expr(e.right, locals_)
        elif t is ast.Call:
            func = e.func
            self.expr(func, locals_)
            for arg in e.args:
                self.expr(arg, locals_)
            if type(func) is ast.Ident and func.name not in locals_:
                arity = self.functions.get(func.name)
                if arity is not None and arity != len(e.args):
                    self.report(CompileError(
                        "E009", arity_message(func.name, arity, len(e.args)), e.line, e.col))
        elif t is ast.If:
            self.expr(e.condition, locals_)
            self.block(e.then_block.stmts, set(locals_))
            if e.else_block is not None:
                self.block(e.else_block.stmts, set(locals_))
        elif t is ast.Match:
            self.expr(e.value, locals_)
            for arm in e.arms:
                inner = set(locals_)
                binding = pattern_binding(arm.pattern)
                if binding is not None:
                    inner.add(binding)
                self.expr(arm.body, inner)
        elif t is ast.BlockExpr:
            self.block(e.block.stmts, set(locals_))
        else:
            # no new scope: the children left to right (literals and receive have none)
            for child in child_nodes(e):
                self.expr(child, locals_)


class _Enough(Exception):
    """Collecting stopped at its limit."""


def check_names(program: ast.Program) -> None:
    """Raise the first E009 of `program` (call under `deep_stack.call_deep` for deep ASTs)."""
    _Checker(program).run()


def name_errors(program: ast.Program, limit: int = 100) -> list[CompileError]:
    """Every E009 of `program` in source order (at most `limit`), for `check`; the checking
    continues past each error as if the name were defined. The first is `check_names`'."""
    checker = _Checker(program)
    checker.found, checker.limit = [], limit
    try:
        checker.run()
    except _Enough:
        pass
    return checker.found
