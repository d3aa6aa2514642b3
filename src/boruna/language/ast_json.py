"""AST JSON exactly as the reference's serde derives produce it (docs/spec/language.md §5).

`to_json_obj(program)` gives insertion-ordered dicts/lists (declaration order, externally
tagged enums, no positions); `pretty_json(program)` the serde pretty text; `dumps(obj)`
serializes any JSON-ready value with serde_json's float layout (§5.4), which Python's
`json` does not produce (`1e-05` vs `0.00001`). Non-finite floats become `null`.
"""
from __future__ import annotations

import math

from boruna.core.deep_stack import call_deep
from boruna.core.json_text import dumps, dumps_pretty, format_float, pretty_limited

from . import ast

__all__ = ["to_json_obj", "pretty_json", "pretty_json_limited", "dumps", "dumps_pretty",
           "format_float"]


# ------------------------------------------------------------------ AST -> JSON objects

def _type(t):
    c = type(t)
    if c is ast.Named:
        return {"Named": t.name}
    if c is ast.ListType:
        return {"List": _type(t.inner)}
    if c is ast.OptionType:
        return {"Option": _type(t.inner)}
    if c is ast.ResultType:
        return {"Result": [_type(t.ok), _type(t.err)]}
    if c is ast.MapType:
        return {"Map": [_type(t.key), _type(t.value)]}
    if c is ast.FnType:
        if t.capabilities:      # an addition: `[params, ret, caps]` only when it has a set
            return {"Fn": [[_type(p) for p in t.params], _type(t.ret), list(t.capabilities)]}
        return {"Fn": [[_type(p) for p in t.params], _type(t.ret)]}
    raise TypeError(f"not a type expression: {c.__name__}")


def _opt_type(t):
    return None if t is None else _type(t)


def _block(b: ast.Block):
    return {"stmts": [_stmt(s) for s in b.stmts]}


def _stmt(s):
    c = type(s)
    if c is ast.ExprStmt:
        return {"Expr": _expr(s.expr)}
    if c is ast.Let:
        return {"Let": {"name": s.name, "mutable": s.mutable, "ty": _opt_type(s.ty),
                        "value": _expr(s.value)}}
    if c is ast.Assign:
        return {"Assign": {"target": s.target, "value": _expr(s.value)}}
    if c is ast.Return:
        return {"Return": None if s.value is None else _expr(s.value)}
    if c is ast.While:
        return {"While": {"condition": _expr(s.condition), "body": _block(s.body)}}
    if c is ast.For:
        return {"For": {"var": s.var, "iter": _expr(s.iter), "body": _block(s.body)}}
    raise TypeError(f"not a statement: {c.__name__}")


def _float(value: float):
    return value if math.isfinite(value) else None


def _expr(e):
    c = type(e)
    if c is ast.Ident:
        return {"Ident": e.name}
    if c is ast.IntLit:
        return {"IntLit": e.value}
    if c is ast.StringLit:
        return {"StringLit": e.value}
    if c is ast.Binary:
        return {"Binary": {"op": e.op, "left": _expr(e.left), "right": _expr(e.right)}}
    if c is ast.Call:
        return {"Call": {"func": _expr(e.func), "args": [_expr(a) for a in e.args]}}
    if c is ast.FieldAccess:
        return {"FieldAccess": {"object": _expr(e.object), "field": e.field}}
    if c is ast.FloatLit:
        return {"FloatLit": _float(e.value)}
    if c is ast.BoolLit:
        return {"BoolLit": e.value}
    if c is ast.NoneLit:
        return "NoneLit"
    if c is ast.Unary:
        return {"Unary": {"op": e.op, "expr": _expr(e.expr)}}
    if c is ast.If:
        return {"If": {"condition": _expr(e.condition), "then_block": _block(e.then_block),
                       "else_block": None if e.else_block is None else _block(e.else_block)}}
    if c is ast.Match:
        return {"Match": {"value": _expr(e.value),
                          "arms": [{"pattern": _pattern(a.pattern), "body": _expr(a.body)}
                                   for a in e.arms]}}
    if c is ast.RecordLit:
        return {"Record": {"type_name": e.type_name,
                           "fields": [[name, _expr(v)] for name, v in e.fields],
                           "spread": None if e.spread is None else _expr(e.spread)}}
    if c is ast.EnumVariant:
        return {"EnumVariant": {"enum_name": e.enum_name, "variant": e.variant,
                                "payload": None if e.payload is None else _expr(e.payload)}}
    if c is ast.ListLit:
        return {"List": [_expr(i) for i in e.items]}
    if c is ast.SomeExpr:
        return {"SomeExpr": _expr(e.expr)}
    if c is ast.OkExpr:
        return {"OkExpr": _expr(e.expr)}
    if c is ast.ErrExpr:
        return {"ErrExpr": _expr(e.expr)}
    if c is ast.Spawn:
        return {"Spawn": _expr(e.expr)}
    if c is ast.Send:
        return {"Send": {"target": _expr(e.target), "message": _expr(e.message)}}
    if c is ast.Receive:
        return "Receive"
    if c is ast.Emit:
        return {"Emit": _expr(e.expr)}
    if c is ast.BlockExpr:
        return {"Block": _block(e.block)}
    raise TypeError(f"not an expression: {c.__name__}")


def _pattern(p):
    c = type(p)
    if c is ast.WildcardPat:
        return "Wildcard"
    if c is ast.IdentPat:
        return {"Ident": p.name}
    if c is ast.IntPat:
        return {"IntLit": p.value}
    if c is ast.StringPat:
        return {"StringLit": p.value}
    if c is ast.BoolPat:
        return {"BoolLit": p.value}
    if c is ast.NonePat:
        return "NonePat"
    if c is ast.SomePat:
        return {"SomePat": _pattern(p.inner)}
    if c is ast.OkPat:
        return {"OkPat": _pattern(p.inner)}
    if c is ast.ErrPat:
        return {"ErrPat": _pattern(p.inner)}
    if c is ast.VariantPat:
        return {"EnumVariant": [p.name, None if p.inner is None else _pattern(p.inner)]}
    raise TypeError(f"not a pattern: {c.__name__}")


def _item(item):
    c = type(item)
    if c is ast.FnDef:
        return {"Function": {
            "name": item.name,
            "params": [{"name": p.name, "ty": _type(p.ty)} for p in item.params],
            "return_type": _opt_type(item.return_type),
            "capabilities": list(item.capabilities),
            "intent": item.intent,
            "requires": [_expr(e) for e in item.requires],
            "ensures": [_expr(e) for e in item.ensures],
            "body": _block(item.body),
            "exported": item.exported,
        }}
    if c is ast.TypeDef:
        if type(item.kind) is ast.RecordKind:
            kind = {"Record": [[name, _type(t)] for name, t in item.kind.fields]}
        else:
            kind = {"Enum": [[name, _opt_type(t)] for name, t in item.kind.variants]}
        return {"TypeDef": {"name": item.name, "kind": kind, "exported": item.exported}}
    if c is ast.ImportDef:
        return {"Import": {"module": item.module, "items": list(item.items)}}
    raise TypeError(f"not an item: {c.__name__}")


def _program(program: ast.Program):
    return {"module_name": program.module_name,
            "items": [_item(i) for i in program.items]}


_ITEMS = (ast.FnDef, ast.TypeDef, ast.ImportDef)
_STMTS = (ast.ExprStmt, ast.Let, ast.Assign, ast.Return, ast.While, ast.For)
_PATTERNS = (ast.WildcardPat, ast.IdentPat, ast.IntPat, ast.StringPat, ast.BoolPat,
             ast.NonePat, ast.SomePat, ast.OkPat, ast.ErrPat, ast.VariantPat)
_TYPES = (ast.Named, ast.OptionType, ast.ResultType, ast.ListType, ast.MapType, ast.FnType)


def to_json_obj(node):
    """The serde JSON form of a Program (or of any single item/stmt/expr/pattern/type)."""
    if isinstance(node, ast.Program):
        convert = _program
    elif isinstance(node, _ITEMS):
        convert = _item
    elif isinstance(node, _STMTS):
        convert = _stmt
    elif isinstance(node, _PATTERNS):
        convert = _pattern
    elif isinstance(node, _TYPES):
        convert = _type
    elif isinstance(node, ast.Block):
        convert = _block
    else:
        convert = _expr
    return call_deep(convert, node)


def pretty_json(program: ast.Program) -> str:
    """The declaration-order pretty AST text of a Program (docs/spec/language.md §5.3)."""
    return dumps_pretty(to_json_obj(program))


def pretty_json_limited(program_or_obj, limit_bytes: int) -> tuple[str, int]:
    """`(prefix, size)`: the pretty AST text's first `limit_bytes` UTF-8 bytes, never cutting
    a character, and the full text's byte size (`core.json_text.pretty_limited`)."""
    obj = (to_json_obj(program_or_obj) if isinstance(program_or_obj, ast.Node)
           else program_or_obj)
    return pretty_limited(obj, limit_bytes)
