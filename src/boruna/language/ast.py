"""The `.ax` abstract syntax tree as typed Python objects.

One class per node of the reference's AST (docs/spec/language.md §5.2). Field names and field order
are exactly the JSON keys of that catalogue, so `ast_json.py` can serialize any node
generically. Every node also carries `line` and `col` (1-based, 0 = unknown) of the token
that starts it, as the last two fields (positional or keyword; `FnDef` adds `caps_line`,
`caps_col`); positions are *not* part of the JSON form nor of node equality. Nodes use
`__slots__` (no per-node dict: a 1 MB program builds ~200k of them).

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


@dataclass(slots=True)
class Node:
    """Base of every AST node; `line`/`col` are positions, not part of node identity."""

    JSON_TAG = ""


def _pos():
    return field(default=0, compare=False, repr=False)


# ---------------------------------------------------------------- types

@dataclass(slots=True)
class Named(Node):
    name: str
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Named"


@dataclass(slots=True)
class OptionType(Node):
    inner: "TypeExpr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Option"


@dataclass(slots=True)
class ResultType(Node):
    ok: "TypeExpr"
    err: "TypeExpr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Result"


@dataclass(slots=True)
class ListType(Node):
    inner: "TypeExpr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "List"


@dataclass(slots=True)
class MapType(Node):
    key: "TypeExpr"
    value: "TypeExpr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Map"


@dataclass(slots=True)
class FnType(Node):
    params: list["TypeExpr"]
    ret: "TypeExpr"
    # `Fn(A) -> R !{db.query}`: the capability names as written (like `FnDef`'s); empty for
    # a pure function type. An addition: not in the reference's AST.
    capabilities: list[str] = field(default_factory=list)
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Fn"


TypeExpr = Union[Named, OptionType, ResultType, ListType, MapType, FnType]


# ---------------------------------------------------------------- expressions

BINARY_OPS = ("Add", "Sub", "Mul", "Div", "Mod", "Eq", "Neq", "Lt", "Lte", "Gt", "Gte",
              "And", "Or", "Concat")
UNARY_OPS = ("Neg", "Not")


@dataclass(slots=True)
class IntLit(Node):
    value: int
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "IntLit"


@dataclass(slots=True)
class FloatLit(Node):
    value: float
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "FloatLit"


@dataclass(slots=True)
class StringLit(Node):
    value: str          # decoded text (escapes \\ \" \n \t \r are decoded: README rule 3)
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "StringLit"


@dataclass(slots=True)
class BoolLit(Node):
    value: bool
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "BoolLit"


@dataclass(slots=True)
class NoneLit(Node):
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "NoneLit"      # unit variant: serializes as the bare string "NoneLit"


@dataclass(slots=True)
class Ident(Node):
    name: str
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Ident"


@dataclass(slots=True)
class Binary(Node):
    op: str             # one of BINARY_OPS
    left: "Expr"
    right: "Expr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Binary"


@dataclass(slots=True)
class Unary(Node):
    op: str             # one of UNARY_OPS
    expr: "Expr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Unary"


@dataclass(slots=True)
class Call(Node):
    func: "Expr"
    args: list["Expr"]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Call"


@dataclass(slots=True)
class FieldAccess(Node):
    object: "Expr"
    field: str
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "FieldAccess"


@dataclass(slots=True)
class Block(Node):
    stmts: list["Stmt"]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = ""       # plain struct, never tagged


@dataclass(slots=True)
class If(Node):
    condition: "Expr"
    then_block: Block
    else_block: Optional[Block]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "If"


@dataclass(slots=True)
class MatchArm(Node):
    pattern: "Pattern"
    body: "Expr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = ""       # plain struct


@dataclass(slots=True)
class Match(Node):
    value: "Expr"
    arms: list[MatchArm]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Match"


@dataclass(slots=True)
class RecordLit(Node):
    type_name: str
    fields: list[tuple[str, "Expr"]]     # in the order the literal lists them
    spread: Optional["Expr"]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Record"


@dataclass(slots=True)
class EnumVariant(Node):
    enum_name: str
    variant: str
    payload: Optional["Expr"]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "EnumVariant"


@dataclass(slots=True)
class ListLit(Node):
    items: list["Expr"]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "List"       # newtype: {"List": [...]}


@dataclass(slots=True)
class SomeExpr(Node):
    expr: "Expr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "SomeExpr"   # newtype


@dataclass(slots=True)
class OkExpr(Node):
    expr: "Expr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "OkExpr"     # newtype


@dataclass(slots=True)
class ErrExpr(Node):
    expr: "Expr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "ErrExpr"    # newtype


@dataclass(slots=True)
class Spawn(Node):
    expr: "Expr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Spawn"      # newtype


@dataclass(slots=True)
class Send(Node):
    target: "Expr"
    message: "Expr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Send"


@dataclass(slots=True)
class Receive(Node):
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Receive"    # unit variant: bare string "Receive"


@dataclass(slots=True)
class Emit(Node):
    expr: "Expr"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Emit"       # newtype


@dataclass(slots=True)
class BlockExpr(Node):
    block: Block
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Block"      # newtype: {"Block": {"stmts": [...]}}


Expr = Union[IntLit, FloatLit, StringLit, BoolLit, NoneLit, Ident, Binary, Unary, Call,
             FieldAccess, If, Match, RecordLit, EnumVariant, ListLit, SomeExpr, OkExpr,
             ErrExpr, Spawn, Send, Receive, Emit, BlockExpr]


# ---------------------------------------------------------------- patterns

@dataclass(slots=True)
class WildcardPat(Node):
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Wildcard"   # unit


@dataclass(slots=True)
class IdentPat(Node):
    name: str
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Ident"


@dataclass(slots=True)
class IntPat(Node):
    value: int
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "IntLit"


@dataclass(slots=True)
class StringPat(Node):
    value: str
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "StringLit"


@dataclass(slots=True)
class BoolPat(Node):
    value: bool
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "BoolLit"


@dataclass(slots=True)
class NonePat(Node):
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "NonePat"    # unit


@dataclass(slots=True)
class SomePat(Node):
    inner: "Pattern"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "SomePat"


@dataclass(slots=True)
class OkPat(Node):
    inner: "Pattern"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "OkPat"


@dataclass(slots=True)
class ErrPat(Node):
    inner: "Pattern"
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "ErrPat"


@dataclass(slots=True)
class VariantPat(Node):
    name: str
    inner: Optional["Pattern"]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "EnumVariant"   # tuple variant: {"EnumVariant": ["Name", inner-or-null]}


Pattern = Union[WildcardPat, IdentPat, IntPat, StringPat, BoolPat, NonePat, SomePat, OkPat,
                ErrPat, VariantPat]


# ---------------------------------------------------------------- statements

@dataclass(slots=True)
class Let(Node):
    name: str
    mutable: bool
    ty: Optional[TypeExpr]
    value: Expr
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Let"


@dataclass(slots=True)
class Assign(Node):
    target: str
    value: Expr
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Assign"


@dataclass(slots=True)
class ExprStmt(Node):
    expr: Expr
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Expr"       # newtype


@dataclass(slots=True)
class Return(Node):
    value: Optional[Expr]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Return"     # newtype of Option: {"Return": null} / {"Return": EXPR}


@dataclass(slots=True)
class While(Node):
    condition: Expr
    body: Block
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "While"


@dataclass(slots=True)
class For(Node):
    var: str
    iter: Expr
    body: Block
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "For"


Stmt = Union[Let, Assign, ExprStmt, Return, While, For]


# ---------------------------------------------------------------- items

@dataclass(slots=True)
class Param(Node):
    name: str
    ty: TypeExpr
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = ""


@dataclass(slots=True)
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


@dataclass(slots=True)
class RecordKind(Node):
    fields: list[tuple[str, TypeExpr]]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Record"


@dataclass(slots=True)
class EnumKind(Node):
    variants: list[tuple[str, Optional[TypeExpr]]]
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Enum"


@dataclass(slots=True)
class TypeDef(Node):
    name: str
    kind: Union[RecordKind, EnumKind]
    exported: bool
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "TypeDef"


@dataclass(slots=True)
class ImportDef(Node):
    module: str
    items: list[str] = field(default_factory=list)
    line: int = _pos()
    col: int = _pos()
    JSON_TAG = "Import"


Item = Union[FnDef, TypeDef, ImportDef]


@dataclass(slots=True)
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
