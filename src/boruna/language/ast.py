"""The `.ax` abstract syntax tree as typed Python objects.

One class per node of the reference's AST (docs/spec/language.md §5.2). Field names and field order
are exactly the JSON keys of that catalogue, so `ast_json.py` can serialize any node
generically. Every node also carries `line` and `col` (1-based, 0 = unknown) of the token
that starts it; positions are *not* part of the JSON form.

Families:
  items     Function(FnDef), TypeDef, Import(ImportDef)
  types     Named, OptionType, ResultType, ListType, MapType, FnType
  stmts     Let, Assign, ExprStmt, Return, While, For
  exprs     IntLit, FloatLit, StringLit, BoolLit, NoneLit, Ident, Binary, Unary, Call,
            FieldAccess, If, Match, RecordLit, EnumVariant, ListLit, SomeExpr, OkExpr,
            ErrExpr, Spawn, Send, Receive, Emit, BlockExpr
  patterns  WildcardPat, IdentPat, IntPat, StringPat, BoolPat, NonePat, SomePat, OkPat,
            ErrPat, VariantPat

`JSON_TAG` on each class is the externally-tagged name it serializes under.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union


@dataclass(eq=True)
class Node:
    """Base of every AST node; `line`/`col` are positions, not part of node identity."""

    JSON_TAG = ""


def _pos():
    return field(default=0, compare=False, repr=False, kw_only=True)


# ---------------------------------------------------------------- types

@dataclass
class Named(Node):
    name: str
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Named"


@dataclass
class OptionType(Node):
    inner: "TypeExpr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Option"


@dataclass
class ResultType(Node):
    ok: "TypeExpr"
    err: "TypeExpr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Result"


@dataclass
class ListType(Node):
    inner: "TypeExpr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "List"


@dataclass
class MapType(Node):
    key: "TypeExpr"
    value: "TypeExpr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Map"


@dataclass
class FnType(Node):
    params: list["TypeExpr"]
    ret: "TypeExpr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Fn"


TypeExpr = Union[Named, OptionType, ResultType, ListType, MapType, FnType]


# ---------------------------------------------------------------- expressions

BINARY_OPS = ("Add", "Sub", "Mul", "Div", "Mod", "Eq", "Neq", "Lt", "Lte", "Gt", "Gte",
              "And", "Or", "Concat")
UNARY_OPS = ("Neg", "Not")


@dataclass
class IntLit(Node):
    value: int
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "IntLit"


@dataclass
class FloatLit(Node):
    value: float
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "FloatLit"


@dataclass
class StringLit(Node):
    value: str          # decoded text (escapes \\ \" \n \t \r are decoded: README rule 3)
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "StringLit"


@dataclass
class BoolLit(Node):
    value: bool
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "BoolLit"


@dataclass
class NoneLit(Node):
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "NoneLit"      # unit variant: serializes as the bare string "NoneLit"


@dataclass
class Ident(Node):
    name: str
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Ident"


@dataclass
class Binary(Node):
    op: str             # one of BINARY_OPS
    left: "Expr"
    right: "Expr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Binary"


@dataclass
class Unary(Node):
    op: str             # one of UNARY_OPS
    expr: "Expr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Unary"


@dataclass
class Call(Node):
    func: "Expr"
    args: list["Expr"]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Call"


@dataclass
class FieldAccess(Node):
    object: "Expr"
    field: str
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "FieldAccess"


@dataclass
class Block(Node):
    stmts: list["Stmt"]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = ""       # plain struct, never tagged


@dataclass
class If(Node):
    condition: "Expr"
    then_block: Block
    else_block: Optional[Block]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "If"


@dataclass
class MatchArm(Node):
    pattern: "Pattern"
    body: "Expr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = ""       # plain struct


@dataclass
class Match(Node):
    value: "Expr"
    arms: list[MatchArm]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Match"


@dataclass
class RecordLit(Node):
    type_name: str
    fields: list[tuple[str, "Expr"]]     # in the order the literal lists them
    spread: Optional["Expr"]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Record"


@dataclass
class EnumVariant(Node):
    enum_name: str
    variant: str
    payload: Optional["Expr"]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "EnumVariant"


@dataclass
class ListLit(Node):
    items: list["Expr"]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "List"       # newtype: {"List": [...]}


@dataclass
class SomeExpr(Node):
    expr: "Expr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "SomeExpr"   # newtype


@dataclass
class OkExpr(Node):
    expr: "Expr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "OkExpr"     # newtype


@dataclass
class ErrExpr(Node):
    expr: "Expr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "ErrExpr"    # newtype


@dataclass
class Spawn(Node):
    expr: "Expr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Spawn"      # newtype


@dataclass
class Send(Node):
    target: "Expr"
    message: "Expr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Send"


@dataclass
class Receive(Node):
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Receive"    # unit variant: bare string "Receive"


@dataclass
class Emit(Node):
    expr: "Expr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Emit"       # newtype


@dataclass
class BlockExpr(Node):
    block: Block
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Block"      # newtype: {"Block": {"stmts": [...]}}


Expr = Union[IntLit, FloatLit, StringLit, BoolLit, NoneLit, Ident, Binary, Unary, Call,
             FieldAccess, If, Match, RecordLit, EnumVariant, ListLit, SomeExpr, OkExpr,
             ErrExpr, Spawn, Send, Receive, Emit, BlockExpr]


# ---------------------------------------------------------------- patterns

@dataclass
class WildcardPat(Node):
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Wildcard"   # unit


@dataclass
class IdentPat(Node):
    name: str
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Ident"


@dataclass
class IntPat(Node):
    value: int
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "IntLit"


@dataclass
class StringPat(Node):
    value: str
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "StringLit"


@dataclass
class BoolPat(Node):
    value: bool
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "BoolLit"


@dataclass
class NonePat(Node):
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "NonePat"    # unit


@dataclass
class SomePat(Node):
    inner: "Pattern"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "SomePat"


@dataclass
class OkPat(Node):
    inner: "Pattern"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "OkPat"


@dataclass
class ErrPat(Node):
    inner: "Pattern"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "ErrPat"


@dataclass
class VariantPat(Node):
    name: str
    inner: Optional["Pattern"]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "EnumVariant"   # tuple variant: {"EnumVariant": ["Name", inner-or-null]}


Pattern = Union[WildcardPat, IdentPat, IntPat, StringPat, BoolPat, NonePat, SomePat, OkPat,
                ErrPat, VariantPat]


# ---------------------------------------------------------------- statements

@dataclass
class Let(Node):
    name: str
    mutable: bool
    ty: Optional[TypeExpr]
    value: Expr
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Let"


@dataclass
class Assign(Node):
    target: str
    value: Expr
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Assign"


@dataclass
class ExprStmt(Node):
    expr: Expr
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Expr"       # newtype


@dataclass
class Return(Node):
    value: Optional[Expr]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Return"     # newtype of Option: {"Return": null} / {"Return": EXPR}


@dataclass
class While(Node):
    condition: Expr
    body: Block
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "While"


@dataclass
class For(Node):
    var: str
    iter: Expr
    body: Block
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "For"


Stmt = Union[Let, Assign, ExprStmt, Return, While, For]


# ---------------------------------------------------------------- items

@dataclass
class Param(Node):
    name: str
    ty: TypeExpr
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = ""


@dataclass
class FnDef(Node):
    name: str
    params: list[Param]
    return_type: Optional[TypeExpr]
    capabilities: list[str]          # as written, dotted names joined with "."
    intent: Optional[str]
    requires: list[Expr]
    ensures: list[Expr]
    body: Block
    exported: bool
    line: int = _pos()
    col: int = _pos()
    # position of the `!{` capability set, 0 when absent (for diagnostics)
    caps_line: int = _pos()
    caps_col: int = _pos()
    JSON_TAG = "Function"


@dataclass
class RecordKind(Node):
    fields: list[tuple[str, TypeExpr]]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Record"


@dataclass
class EnumKind(Node):
    variants: list[tuple[str, Optional[TypeExpr]]]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Enum"


@dataclass
class TypeDef(Node):
    name: str
    kind: Union[RecordKind, EnumKind]
    exported: bool
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "TypeDef"


@dataclass
class ImportDef(Node):
    module: str
    items: list[str] = field(default_factory=list)
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Import"


Item = Union[FnDef, TypeDef, ImportDef]


@dataclass
class Program(Node):
    module_name: Optional[str]
    items: list[Item]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = ""

    def functions(self) -> list[FnDef]:
        return [i for i in self.items if isinstance(i, FnDef)]

    def type_defs(self) -> list[TypeDef]:
        return [i for i in self.items if isinstance(i, TypeDef)]
