"""E009 type-consistency warnings: a conservative local inference (tooling.md §1.5, widened
as README rule 4 allows). Warnings only, never patches; each at the offending expression.

Reference checks: a `let` annotation that differs from its initializer's type; a user-function
call argument that differs from the parameter's declared type. Additions: a tail or `return`
value that differs from the declared return type; an assignment to an annotated variable of a
different type; operators whose operand types are known to fail at run time (`+ - * /` on
non-numbers, `%` on a Float, `++` on a non-String, ordering Int against Float or String).

Known types: literals, annotated/inferred locals, parameters with plain named types, record
literals, `E::V`, user calls with a plain named return type, builtins with a fixed result
type, arithmetic/comparison/concatenation results, record field reads, and `if`/`match`/blocks
whose branches agree. Everything else (generics, lists, options) is unknown and never flagged.
"""
from __future__ import annotations

from typing import Optional

from boruna.core.builtins import result_types, to_string_builtin
from boruna.language import ast as A
from boruna.language.walk import child_nodes, pattern_binding

import boruna.diagnostics.registry as R
from .context import CheckContext
from .model import Diagnostic

Env = dict[str, Optional[str]]     # name -> plain type name, None = bound but unknown

NUMERIC = ("Int", "Float")
SCALARS = ("Int", "Float", "String", "Bool")
ARITHMETIC = {"Add": "+", "Sub": "-", "Mul": "*", "Div": "/", "Mod": "%"}
ORDERING = {"Lt": "<", "Lte": "<=", "Gt": ">", "Gte": ">="}
BOOLEAN_RESULT = ("Eq", "Neq", "Lt", "Lte", "Gt", "Gte", "And", "Or")

# builtin name -> its plain result type (`Int`, `String`, `Bool`), from the builtin table
BUILTIN_RESULTS = result_types()


def _arm_env(env: Env, pattern) -> Env:
    """A copy of `env` plus the name a match arm's pattern binds (its type unknown)."""
    arm_env = dict(env)
    name = pattern_binding(pattern)
    if name is not None:
        arm_env[name] = None
    return arm_env


class _Checker:
    def __init__(self, ctx: CheckContext):
        self.ctx = ctx
        self.out: list[Diagnostic] = []
        self.functions: dict[str, A.FnDef] = ctx.function_defs()
        self.current: Optional[A.FnDef] = None
        self.declared: set[str] = set()

    # ------------------------------------------------------------ inference (pure)
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
        if isinstance(expr, A.Call):
            return self._call_result(expr, env)
        if isinstance(expr, A.Binary):
            return self._binary_result(expr, env)
        if isinstance(expr, A.Unary):
            if expr.op == "Not":
                return "Bool"
            inner = self.infer(expr.expr, env)
            return inner if inner in NUMERIC else None
        if isinstance(expr, A.FieldAccess):
            owner = self.infer(expr.object, env)
            for name, ty in self.ctx.records.get(owner, ()):
                if name == expr.field:
                    return ty.name if isinstance(ty, A.Named) else None
            return None
        if isinstance(expr, A.If):
            if expr.else_block is None:
                return None
            return self._agree([self._block_value(expr.then_block, env),
                                self._block_value(expr.else_block, env)])
        if isinstance(expr, A.BlockExpr):
            return self._block_value(expr.block, env)
        if isinstance(expr, A.Match):
            if not expr.arms:
                return None
            return self._agree([self.infer(arm.body, _arm_env(env, arm.pattern))
                                for arm in expr.arms])
        return None

    def _call_result(self, call: A.Call, env: Env) -> Optional[str]:
        if not isinstance(call.func, A.Ident) or call.func.name in env:
            return None
        name = call.func.name
        fn = self.functions.get(name)
        if fn is not None:
            return fn.return_type.name if isinstance(fn.return_type, A.Named) else None
        return BUILTIN_RESULTS.get(name)

    def _binary_result(self, expr: A.Binary, env: Env) -> Optional[str]:
        if expr.op in BOOLEAN_RESULT:
            return "Bool"
        if expr.op == "Concat":
            return "String"
        left, right = self.infer(expr.left, env), self.infer(expr.right, env)
        if left not in NUMERIC or right not in NUMERIC:
            return None
        return "Int" if left == right == "Int" else "Float"

    def _block_value(self, block: A.Block, env: Env) -> Optional[str]:
        if len(block.stmts) == 1 and isinstance(block.stmts[0], A.ExprStmt):
            return self.infer(block.stmts[0].expr, env)
        return None

    @staticmethod
    def _agree(types: list) -> Optional[str]:
        return types[0] if types and None not in types and len(set(types)) == 1 else None

    # ------------------------------------------------------------ traversal
    def function(self, fn: A.FnDef) -> None:
        self.current = fn
        env: Env = {p.name: (p.ty.name if isinstance(p.ty, A.Named) else None)
                    for p in fn.params}
        self.declared = {p.name for p in fn.params if isinstance(p.ty, A.Named)}
        final = self.block(fn.body, env)
        stmts = fn.body.stmts
        if stmts and isinstance(stmts[-1], A.ExprStmt):
            self.check_return(stmts[-1].expr, final, "its body evaluates to")

    def block(self, block: A.Block, env: Env) -> Env:
        env = dict(env)
        saved = set(self.declared)
        for stmt in block.stmts:
            self.stmt(stmt, env)
        self.declared = saved
        return env

    def stmt(self, stmt, env: Env) -> None:
        if isinstance(stmt, A.Let):
            self.expr(stmt.value, env)
            found = self.infer(stmt.value, env)
            if isinstance(stmt.ty, A.Named):
                if found is not None and found != stmt.ty.name:
                    self.warn(f"type mismatch: '{stmt.name}' is annotated '{stmt.ty.name}' "
                              f"but its initializer has type '{found}'", stmt)
                env[stmt.name] = stmt.ty.name
                self.declared.add(stmt.name)
            else:
                env[stmt.name] = found if stmt.ty is None else None
                self.declared.discard(stmt.name)
        elif isinstance(stmt, A.Assign):
            self.expr(stmt.value, env)
            declared = env.get(stmt.target)
            found = self.infer(stmt.value, env)
            if (stmt.target in self.declared and declared is not None and found is not None
                    and found != declared):
                self.warn(f"type mismatch: '{stmt.target}' has type '{declared}' but is "
                          f"assigned a value of type '{found}'", stmt.value)
        elif isinstance(stmt, A.ExprStmt):
            self.expr(stmt.expr, env)
        elif isinstance(stmt, A.Return):
            if stmt.value is not None:
                self.expr(stmt.value, env)
                self.check_return(stmt.value, env, "it returns")
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
        elif isinstance(expr, A.Binary):
            self.expr(expr.left, env)
            self.expr(expr.right, env)
            self.operator(expr, env)
        elif isinstance(expr, A.If):
            self.expr(expr.condition, env)
            self.block(expr.then_block, env)
            if expr.else_block is not None:
                self.block(expr.else_block, env)
        elif isinstance(expr, A.Match):
            self.expr(expr.value, env)
            for arm in expr.arms:
                self.expr(arm.body, _arm_env(env, arm.pattern))
        elif isinstance(expr, A.BlockExpr):
            self.block(expr.block, env)
        else:
            for child in child_nodes(expr):
                if isinstance(child, A.Block):
                    self.block(child, env)
                else:
                    self.expr(child, env)

    # ------------------------------------------------------------ checks
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

    def check_return(self, value, env: Env, verb: str) -> None:
        fn = self.current
        if fn is None or not isinstance(fn.return_type, A.Named):
            return
        declared = fn.return_type.name
        found = self.infer(value, env)
        if declared != "Unit" and found is not None and found != declared:
            self.warn(f"type mismatch: function '{fn.name}' is declared to return "
                      f"'{declared}' but {verb} '{found}'", value)

    def operator(self, expr: A.Binary, env: Env) -> None:
        left, right = self.infer(expr.left, env), self.infer(expr.right, env)
        if expr.op in ARITHMETIC:
            symbol = ARITHMETIC[expr.op]
            for side, ty, node in (("left", left, expr.left), ("right", right, expr.right)):
                if ty is None or ty in NUMERIC and not (expr.op == "Mod" and ty == "Float"):
                    continue
                expected = "Int" if expr.op == "Mod" else "Int or Float"
                hint = "; join strings with ++" if expr.op == "Add" and ty == "String" else ""
                self.warn(f"type mismatch: operator '{symbol}' expects {expected} operands "
                          f"but the {side} operand has type '{ty}'{hint}", node)
                return
        elif expr.op == "Concat":
            for side, ty, node in (("left", left, expr.left), ("right", right, expr.right)):
                if ty is None or ty == "String":
                    continue
                convert = to_string_builtin(ty)
                hint = f"; convert it with {convert}(...)" if convert else ""
                self.warn(f"type mismatch: operator '++' expects String operands but the "
                          f"{side} operand has type '{ty}'{hint}", node)
                return
        elif expr.op in ORDERING:
            if left in SCALARS and right in SCALARS and left != right:
                self.warn(f"type mismatch: operator '{ORDERING[expr.op]}' cannot order "
                          f"'{left}' against '{right}'", expr.right)

    def warn(self, message: str, node) -> None:
        self.out.append(Diagnostic(R.E009_TYPE_ERROR, "warning", message,
                                   self.ctx.location(node.line, node.col)))


def check_type_consistency(ctx: CheckContext) -> list[Diagnostic]:
    checker = _Checker(ctx)
    for fn in ctx.program.functions():
        checker.function(fn)
    return checker.out
