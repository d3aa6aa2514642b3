"""E009 type-consistency warnings (tooling.md §1.5): a conservative local inference that
flags `let` annotations and user-function call arguments whose type is known to differ.
Warnings only; never patches. Located at the `let` and at the offending argument."""
from __future__ import annotations

from typing import Optional

from boruna.language import ast as A

from . import registry as R
from .context import CheckContext
from .model import Diagnostic
from .walk import expr_children

Env = dict[str, Optional[str]]     # name -> plain type name, None = bound but unknown


class _Checker:
    def __init__(self, ctx: CheckContext):
        self.ctx = ctx
        self.out: list[Diagnostic] = []
        self.functions: dict[str, A.FnDef] = {fn.name: fn for fn in ctx.program.functions()}

    # -- inference
    def infer(self, expr, env: Env) -> Optional[str]:
        if isinstance(expr, A.IntLit):
            return "Int"
        if isinstance(expr, A.FloatLit):
            return "Float"
        if isinstance(expr, A.StringLit):
            return "String"
        if isinstance(expr, A.BoolLit):
            return "Bool"
        if isinstance(expr, A.Ident):
            return env.get(expr.name)
        if isinstance(expr, A.RecordLit):
            return expr.type_name
        if isinstance(expr, A.EnumVariant):
            return expr.enum_name
        if isinstance(expr, A.Call) and isinstance(expr.func, A.Ident):
            name = expr.func.name
            fn = self.functions.get(name)
            if fn is not None and name not in env and isinstance(fn.return_type, A.Named):
                return fn.return_type.name
        return None

    # -- traversal
    def function(self, fn: A.FnDef) -> None:
        env: Env = {p.name: (p.ty.name if isinstance(p.ty, A.Named) else None)
                    for p in fn.params}
        self.block(fn.body, env)

    def block(self, block: A.Block, env: Env) -> None:
        env = dict(env)
        for stmt in block.stmts:
            self.stmt(stmt, env)

    def stmt(self, stmt, env: Env) -> None:
        if isinstance(stmt, A.Let):
            self.expr(stmt.value, env)
            found = self.infer(stmt.value, env)
            if isinstance(stmt.ty, A.Named):
                if found is not None and found != stmt.ty.name:
                    self.warn(f"type mismatch: '{stmt.name}' is annotated '{stmt.ty.name}' "
                              f"but its initializer has type '{found}'", stmt)
                env[stmt.name] = stmt.ty.name
            else:
                env[stmt.name] = found if stmt.ty is None else None
        elif isinstance(stmt, A.Assign):
            self.expr(stmt.value, env)
        elif isinstance(stmt, A.ExprStmt):
            self.expr(stmt.expr, env)
        elif isinstance(stmt, A.Return):
            if stmt.value is not None:
                self.expr(stmt.value, env)
        elif isinstance(stmt, A.While):
            self.expr(stmt.condition, env)
            self.block(stmt.body, env)
        elif isinstance(stmt, A.For):
            self.expr(stmt.iter, env)
            self.block(stmt.body, {**env, stmt.var: None})

    def expr(self, expr, env: Env) -> None:
        if isinstance(expr, A.Call):
            self.expr(expr.func, env)
            for arg in expr.args:
                self.expr(arg, env)
            self.call(expr, env)
        elif isinstance(expr, A.If):
            self.expr(expr.condition, env)
            self.block(expr.then_block, env)
            if expr.else_block is not None:
                self.block(expr.else_block, env)
        elif isinstance(expr, A.Match):
            self.expr(expr.value, env)
            for arm in expr.arms:
                self.expr(arm.body, {**env, **{n: None for n in _bound(arm.pattern)}})
        elif isinstance(expr, A.BlockExpr):
            self.block(expr.block, env)
        else:
            for child in expr_children(expr):
                if isinstance(child, A.Block):
                    self.block(child, env)
                else:
                    self.expr(child, env)

    def call(self, call: A.Call, env: Env) -> None:
        if not isinstance(call.func, A.Ident) or call.func.name in env:
            return
        fn = self.functions.get(call.func.name)
        if fn is None:
            return
        for index, (arg, param) in enumerate(zip(call.args, fn.params), start=1):
            if not isinstance(param.ty, A.Named):
                continue
            found = self.infer(arg, env)
            if found is not None and found != param.ty.name:
                self.warn(f"type mismatch: call to '{fn.name}' argument {index} expects "
                          f"'{param.ty.name}' but got '{found}'", arg)

    def warn(self, message: str, node) -> None:
        self.out.append(Diagnostic(R.E009_TYPE_ERROR, "warning", message,
                                   self.ctx.location(node.line, node.col)))


def _bound(pattern) -> list[str]:
    if isinstance(pattern, A.IdentPat):
        return [pattern.name]
    if isinstance(pattern, (A.SomePat, A.OkPat, A.ErrPat)):
        return _bound(pattern.inner)
    if isinstance(pattern, A.VariantPat) and pattern.inner is not None:
        return _bound(pattern.inner)
    return []


def check_type_consistency(ctx: CheckContext) -> list[Diagnostic]:
    checker = _Checker(ctx)
    for fn in ctx.program.functions():
        checker.function(fn)
    return checker.out
