"""The printer: a parsed program and its comments -> the document of its canonical layout.

The layout (docs/formatting.md): 4-space indentation; one blank line between top-level items
(consecutive imports stay together); blocks, type definitions and matches always one entry a
line, with trailing commas on fields, variants and arms; calls, lists and record literals on
one line when they fit in the width, else one element a line (trailing commas where the
grammar allows them: lists and records); binary chains of one precedence broken after their
operators; parentheses only where the grammar needs them; floats always with a fractional
part, strings with the five escapes. Every token goes through `Comments.token`, in source
order, so the comments come back where they were (see comments.py).
"""
from __future__ import annotations

from decimal import Decimal

from boruna.language import ast
from boruna.language.tokens import FLOAT, IDENT, INT, STRING

from .comments import Comments
from .doc import HARDLINE, LINE, SOFTLINE, Group, IfBreak, Nest, INDENT_WIDTH

# AST op -> (token kind, text, precedence); higher binds tighter (parser.py's _BINARY)
BINARY = {
    "Or": ("OrOr", "||", 1), "And": ("AndAnd", "&&", 2),
    "Eq": ("EqEq", "==", 3), "Neq": ("BangEq", "!=", 3),
    "Lt": ("Lt", "<", 4), "Lte": ("LtEq", "<=", 4), "Gt": ("Gt", ">", 4), "Gte": ("GtEq", ">=", 4),
    "Concat": ("PlusPlus", "++", 5),
    "Add": ("Plus", "+", 6), "Sub": ("Minus", "-", 6),
    "Mul": ("Star", "*", 7), "Div": ("Slash", "/", 7), "Mod": ("Percent", "%", 7),
}
UNARY = {"Neg": ("Minus", "-"), "Not": ("Bang", "!")}

# binding levels of expressions that are not binary: a prefix operator, then the postfix
# call and field access, then the primaries (which include spawn/emit/send: their operands
# are primaries)
_PREFIX = 8
_POSTFIX = 9
_PRIMARY = 10

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}
_NEEDS_ESCAPE = frozenset(_ESCAPES)


def string_text(value: str) -> str:
    """A string literal's source text: the decoded value with its five escapes."""
    if _NEEDS_ESCAPE.isdisjoint(value):
        return '"' + value + '"'
    return '"' + "".join(_ESCAPES.get(ch, ch) for ch in value) + '"'


def float_text(value: float) -> str:
    """A float literal's source text: digits, a point and at least one fractional digit (the
    lexer reads no exponent), the shortest that reads back as `value`; an infinite value (a
    literal too large for a float) as a literal that reads back as infinite."""
    if value == float("inf"):
        return "1" + "0" * 309 + ".0"
    text = repr(value)
    if "e" in text or "E" in text:
        text = format(Decimal(text), "f")
    if "." not in text:
        text += ".0"
    return text


def _level(e) -> int:
    t = type(e)
    if t is ast.Binary:
        return BINARY[e.op][2]
    if t is ast.Unary:
        return _PREFIX
    if t is ast.Call or t is ast.FieldAccess:
        return _POSTFIX
    return _PRIMARY


def _trailing_capital(e):
    """The capitalised identifier `e` ends with as printed (followed by `{` it would start a
    record literal), or None: the right spine, down to an operand printed in parentheses."""
    while True:
        t = type(e)
        if t is ast.Ident:
            return e if "A" <= e.name[:1] <= "Z" else None
        if t is ast.Binary:
            inner, need = e.right, BINARY[e.op][2] + 1
        elif t is ast.Unary:
            inner, need = e.expr, _PREFIX
        elif t is ast.Spawn or t is ast.Emit:
            inner, need = e.expr, _PRIMARY
        elif t is ast.Send:
            inner, need = e.message, _PRIMARY
        else:
            return None
        if _level(inner) < need:
            return None
        e = inner


def _trailing_bare_variant(e):
    """The variant without payload (`E::V`) `e` ends with as printed, or None: followed by
    `(` it would read as the variant's payload."""
    while True:
        t = type(e)
        if t is ast.EnumVariant:
            return e if e.payload is None else None
        if t is ast.Spawn or t is ast.Emit:
            inner = e.expr
        elif t is ast.Send:
            inner = e.message
        else:
            return None
        if _level(inner) < _PRIMARY:
            return None
        e = inner


def _starts_with_brace(e) -> bool:
    """Whether the first token of `e` printed is `{` (a block expression)."""
    while True:
        t = type(e)
        if t is ast.BlockExpr:
            return True
        if t is ast.Binary:
            if _level(e.left) < BINARY[e.op][2]:
                return False
            e = e.left
        elif t is ast.Call:
            if _level(e.func) < _POSTFIX:
                return False
            e = e.func
        elif t is ast.FieldAccess:
            if _level(e.object) < _POSTFIX:
                return False
            e = e.object
        else:
            return False


class Printer:
    """Builds the document of one program (`program_doc`); `comments` places the comments."""

    def __init__(self, comments: Comments):
        self.comments = comments
        self.tok = comments.token
        self.parenthesized = None   # the identifier to print in parentheses (head_expr)

    # ---------------------------------------------------------------- items

    def program_doc(self, program: ast.Program):
        c = self.comments
        tok = self.tok
        parts = []
        if program.module_name is not None:
            parts += c.leading()
            parts += [tok("module", "module "), tok(IDENT, program.module_name)]
            parts += c.trailing()
        prev = None
        for item in program.items:
            if prev is not None:
                parts.append(HARDLINE)
                blank, lead = c.paragraph(item.line, item.col)
                if blank or not (type(prev) is ast.ImportDef and type(item) is ast.ImportDef):
                    parts.append(HARDLINE)
            else:
                lead = c.leading()
                if program.module_name is not None:
                    parts.append(HARDLINE)
                    parts.append(HARDLINE)
            parts += lead
            parts.append(self.item(item))
            parts += c.trailing()
            prev = item
        parts += c.rest(at_start=not parts)
        return parts

    def item(self, item):
        t = type(item)
        if t is ast.FnDef:
            return self.fn_def(item)
        if t is ast.TypeDef:
            return self.type_def(item)
        return [self.tok("import", "import "), self.tok(IDENT, item.module)]

    def fn_def(self, fn: ast.FnDef):
        tok = self.tok
        c = self.comments
        head = []
        if fn.exported:
            head += [tok("export", "export ")]
        head += [tok("fn", "fn "), tok(IDENT, fn.name), tok("LParen", "(", True)]
        if fn.params:
            params = []
            for i, p in enumerate(fn.params):
                params += c.leading(False, True)
                params += [tok(IDENT, p.name), tok("Colon", ": "), self.type_doc(p.ty)]
                if i < len(fn.params) - 1:
                    params += [",", *c.trailing(True), LINE]
                else:
                    params += c.dangling(False, True)
            head += [Nest(INDENT_WIDTH, [SOFTLINE, *params]), SOFTLINE]
        else:
            head += [Nest(INDENT_WIDTH, c.dangling(False, True)), SOFTLINE]
        head.append(tok("RParen", ")"))
        if fn.return_type is not None:
            head += [" ", tok("Arrow", "-> "), self.type_doc(fn.return_type)]
        if fn.capabilities:
            head += [" ", *self.capability_set(fn.capabilities)]
        parts = [Group(head)]
        clauses = self.clauses(fn)
        if clauses:
            parts.append(Nest(INDENT_WIDTH, clauses))
            parts.append(HARDLINE)
        else:
            parts.append(" ")
        parts.append(self.block(fn.body))
        return parts

    def capability_set(self, caps):
        tok = self.tok
        out = [tok("Bang", "!"), tok("LBrace", "{")]
        for i, cap in enumerate(caps):
            if i:
                out.append(tok("Comma", ", "))
            head, dot, tail = cap.partition(".")
            out.append(tok(IDENT, head))
            if dot:
                out += [tok("Dot", "."), tok(IDENT, tail)]
        out.append(tok("RBrace", "}"))
        return out

    def clauses(self, fn: ast.FnDef) -> list:
        """The intent, requires and ensures clauses, in the order the source has them."""
        tok = self.tok
        c = self.comments
        order = [((e.line, e.col), "requires", e) for e in fn.requires]
        order += [((e.line, e.col), "ensures", e) for e in fn.ensures]
        if fn.intent is not None:
            at = c.keyword_position("intent", (fn.line, fn.col), (fn.body.line, fn.body.col))
            order.append((at, "intent", fn.intent))
        order.sort(key=lambda clause: clause[0])
        out = []
        for _, kind, value in order:
            out.append(HARDLINE)
            out += c.leading(False)
            if kind == "intent":
                out += [tok("intent", "intent "), tok(STRING, string_text(value))]
            else:
                out += [tok(kind, kind + " "), self.head_expr(value)]
            out += c.trailing()
        return out

    def type_def(self, td: ast.TypeDef):
        tok = self.tok
        c = self.comments
        head = []
        if td.exported:
            head += [tok("export", "export ")]
        is_record = type(td.kind) is ast.RecordKind
        head += [tok("type", "type ") if is_record else tok("enum", "enum "),
                 tok(IDENT, td.name), " ", tok("LBrace", "{", True)]
        entries = td.kind.fields if is_record else td.kind.variants
        body = []
        for name, ty in entries:
            body.append(HARDLINE)
            body += c.leading()
            body.append(tok(IDENT, name))
            if is_record:
                body += [tok("Colon", ": "), self.type_doc(ty)]
            elif ty is not None:
                body += [tok("LParen", "("), self.type_doc(ty), tok("RParen", ")")]
            body.append(",")
            body += c.trailing()
        body += c.dangling(trail=False)
        if body:
            head += [Nest(INDENT_WIDTH, body), HARDLINE]
        else:
            head.append(SOFTLINE)   # `{}`, broken by a comment after the `{`
        head.append(tok("RBrace", "}"))
        return Group(head)

    # ---------------------------------------------------------------- types

    def type_doc(self, ty):
        tok = self.tok
        t = type(ty)
        if t is ast.Named:
            return tok(IDENT, ty.name)
        if t is ast.OptionType or t is ast.ListType:
            name = "Option" if t is ast.OptionType else "List"
            return [tok(IDENT, name), tok("Lt", "<"), self.type_doc(ty.inner), tok("Gt", ">")]
        if t is ast.ResultType or t is ast.MapType:
            name, first, second = (("Result", ty.ok, ty.err) if t is ast.ResultType
                                   else ("Map", ty.key, ty.value))
            return [tok(IDENT, name), tok("Lt", "<"), self.type_doc(first), tok("Comma", ", "),
                    self.type_doc(second), tok("Gt", ">")]
        # FnType; `capabilities` arrives with effect sets on function types
        out = [tok(IDENT, "Fn"), tok("LParen", "(")]
        for i, p in enumerate(ty.params):
            if i:
                out.append(tok("Comma", ", "))
            out.append(self.type_doc(p))
        out += [tok("RParen", ")"), " ", tok("Arrow", "-> "), self.type_doc(ty.ret)]
        caps = getattr(ty, "capabilities", None) or []
        if caps:
            out += [" ", *self.capability_set(caps)]
        return out

    # ---------------------------------------------------------------- blocks, statements

    def block(self, block: ast.Block):
        tok = self.tok
        c = self.comments
        open_ = tok("LBrace", "{", True)
        body = []
        stmts = block.stmts
        for i, s in enumerate(stmts):
            body.append(HARDLINE)
            blank, lead = c.paragraph(s.line, s.col)
            if blank and i:
                body.append(HARDLINE)
            body += lead
            nxt = stmts[i + 1] if i + 1 < len(stmts) else None
            body.append(self.stmt(s, nxt))
            if c.active:
                body += c.trailing()
        body += c.dangling(trail=False)
        close = tok("RBrace", "}")
        if not body:
            return Group([open_, SOFTLINE, close])     # `{}`, broken by a comment after `{`
        return [open_, Nest(INDENT_WIDTH, body), HARDLINE, close]

    def stmt(self, s, nxt):
        tok = self.tok
        t = type(s)
        # an expression ending in a capitalised name before a statement starting with `{`
        # would read as a record literal: parenthesize it
        guard = (nxt is not None and type(nxt) is ast.ExprStmt
                 and _starts_with_brace(nxt.expr))
        if t is ast.Let:
            out = [tok("let", "let ")]
            if s.mutable:
                out.append(tok("mut", "mut "))
            out.append(tok(IDENT, s.name))
            if s.ty is not None:
                out += [tok("Colon", ": "), self.type_doc(s.ty)]
            out += [" ", tok("Eq", "= "), self.value(s.value, guard)]
            return out
        if t is ast.ExprStmt:
            return self.value(s.expr, guard)
        if t is ast.Assign:
            return [tok(IDENT, s.target), " ", tok("Eq", "= "), self.value(s.value, guard)]
        if t is ast.Return:
            if s.value is None:
                return tok("return", "return")
            return [tok("return", "return "), self.value(s.value, guard)]
        if t is ast.While:
            return [tok("while", "while "), self.head_expr(s.condition), " ",
                    self.block(s.body)]
        return [tok("for", "for "), tok(IDENT, s.var), " ", tok("in", "in "),
                self.head_expr(s.iter), " ", self.block(s.body)]

    def value(self, e, guard: bool):
        return self.head_expr(e) if guard else self.expr(e)

    def head_expr(self, e):
        """An expression followed by `{` (a condition, a scrutinee, a clause): a capitalised
        name it ends with goes in parentheses."""
        capital = _trailing_capital(e)
        if capital is None:
            return self.expr(e)
        return self.with_parenthesized(capital, e)

    def with_parenthesized(self, node, e):
        """`e` with `node` (its last primary) printed in parentheses."""
        saved = self.parenthesized
        self.parenthesized = node
        try:
            return self.expr(e)
        finally:
            self.parenthesized = saved

    def parens(self, e):
        return [self.tok("LParen", "("), self.expr(e), self.tok("RParen", ")")]

    # ---------------------------------------------------------------- expressions

    def operand(self, e, level: int):
        """`e` where the grammar needs at least `level`: in parentheses when it binds less."""
        if _level(e) < level:
            return self.parens(e)
        return self.expr(e)

    def expr(self, e):
        tok = self.tok
        t = type(e)
        if t is ast.Ident:
            if e is self.parenthesized:
                return [tok("LParen", "("), tok(IDENT, e.name), tok("RParen", ")")]
            return tok(IDENT, e.name)
        if t is ast.IntLit:
            return tok(INT, str(e.value))
        if t is ast.Binary:
            return self.binary(e)
        if t is ast.Call:
            func = e.func
            bare = _trailing_bare_variant(func)
            if bare is not None:                # `E::V(x)` would be the variant's payload
                head = self.with_parenthesized(bare, func)
            else:
                head = self.operand(func, _POSTFIX)
            return self.call_args(head, e.args)
        if t is ast.FieldAccess:
            return [self.operand(e.object, _POSTFIX), tok("Dot", "."), tok(IDENT, e.field)]
        if t is ast.StringLit:
            return tok(STRING, string_text(e.value))
        if t is ast.FloatLit:
            return tok(FLOAT, float_text(e.value))
        if t is ast.BoolLit:
            return tok("true", "true") if e.value else tok("false", "false")
        if t is ast.NoneLit:
            return tok("None", "None")
        if t is ast.Unary:
            kind, text = UNARY[e.op]
            return [tok(kind, text), self.operand(e.expr, _PREFIX)]
        if t is ast.If:
            out = [tok("if", "if "), self.head_expr(e.condition), " ",
                   self.block(e.then_block)]
            if e.else_block is not None:
                out += [" ", tok("else", "else "), self.block(e.else_block)]
            return out
        if t is ast.Match:
            return self.match(e)
        if t is ast.RecordLit:
            return self.record(e)
        if t is ast.EnumVariant:
            if e is self.parenthesized:
                return [tok("LParen", "("), tok(IDENT, e.enum_name), tok("ColonColon", "::"),
                        tok(IDENT, e.variant), tok("RParen", ")")]
            out = [tok(IDENT, e.enum_name), tok("ColonColon", "::"), tok(IDENT, e.variant)]
            if e.payload is not None:
                out += [tok("LParen", "("), self.expr(e.payload), tok("RParen", ")")]
            return out
        if t is ast.ListLit:
            return self.list_lit(e)
        if t is ast.SomeExpr or t is ast.OkExpr or t is ast.ErrExpr:
            kw = "Some" if t is ast.SomeExpr else "Ok" if t is ast.OkExpr else "Err"
            return [tok(kw, kw), tok("LParen", "("), self.expr(e.expr), tok("RParen", ")")]
        if t is ast.BlockExpr:
            return self.block(e.block)
        if t is ast.Spawn or t is ast.Emit:
            kw = "spawn" if t is ast.Spawn else "emit"
            return [tok(kw, kw + " "), self.operand(e.expr, _PRIMARY)]
        if t is ast.Send:
            kw = tok("send", "send ")
            if (type(e.target) is ast.Ident and _trailing_capital(e.target) is not None
                    and _starts_with_brace(e.message)) or (
                    _trailing_bare_variant(e.target) is not None
                    and (_level(e.message) < _PRIMARY or e.message is self.parenthesized)):
                target = self.parens(e.target)
            else:
                target = self.operand(e.target, _PRIMARY)
            return [kw, target, " ", self.operand(e.message, _PRIMARY)]
        if t is ast.Receive:
            return tok("receive", "receive")
        raise TypeError(f"not an expression: {type(e).__name__}")

    def binary(self, e: ast.Binary):
        """A chain of operators of one precedence, broken after its operators when it does
        not fit."""
        prec = BINARY[e.op][2]
        chain = []
        left = e
        while type(left) is ast.Binary and BINARY[left.op][2] == prec:
            chain.append(left)
            left = left.left
        tok = self.tok
        first = self.operand(left, prec)
        rest = []
        for b in reversed(chain):
            kind, text, _ = BINARY[b.op]
            rest += [" ", tok(kind, text, True), LINE, self.operand(b.right, prec + 1)]
        return Group([first, Nest(INDENT_WIDTH, rest)])

    def call_args(self, head, args):
        tok = self.tok
        c = self.comments
        open_ = tok("LParen", "(", True)
        close = c.closer_of_last()
        if not args:
            inner = c.dangling(False, True, limit=close)
            return Group([head, open_, Nest(INDENT_WIDTH, inner), SOFTLINE,
                          tok("RParen", ")")])
        body = [SOFTLINE]
        last = len(args) - 1
        for i, a in enumerate(args):
            if c.active:
                body += c.leading(False)
            body.append(self.expr(a))
            if i < last:
                body += [",", *c.trailing(), LINE] if c.active else [",", LINE]
            elif c.active:
                body += c.dangling(False, True, limit=close)
        return Group([head, open_, Nest(INDENT_WIDTH, body), SOFTLINE, tok("RParen", ")")])

    def list_lit(self, e: ast.ListLit):
        tok = self.tok
        c = self.comments
        open_ = tok("LBracket", "[", True)
        items = e.items
        body = [SOFTLINE]
        last = len(items) - 1
        for i, item in enumerate(items):
            if c.active:
                body += c.leading(False)
            body.append(self.expr(item))
            if i < last:
                body += [",", *c.trailing(), LINE] if c.active else [",", LINE]
            else:
                body += [IfBreak(","), *c.dangling(False)]
        if not items:
            body = c.dangling(False)
        return Group([open_, Nest(INDENT_WIDTH, body), SOFTLINE, tok("RBracket", "]")])

    def record(self, e: ast.RecordLit):
        tok = self.tok
        c = self.comments
        head = [tok(IDENT, e.type_name), " ", tok("LBrace", "{", True)]
        entries = []
        if e.spread is not None:
            entries.append((None, e.spread))
        entries += e.fields
        if not entries:
            inner = c.dangling(False)
            return Group([*head, Nest(INDENT_WIDTH, inner), SOFTLINE, tok("RBrace", "}")])
        body = [LINE]
        last = len(entries) - 1
        for i, (name, value) in enumerate(entries):
            if c.active:
                body += c.leading(False)
            if name is None:
                body += [tok("DotDot", ".."), self.expr(value)]
            else:
                body += [tok(IDENT, name), tok("Colon", ": "), self.expr(value)]
            if i < last:
                body += [",", *c.trailing(), LINE] if c.active else [",", LINE]
            else:
                body += [IfBreak(","), *c.dangling(False)]
        return Group([*head, Nest(INDENT_WIDTH, body), LINE, tok("RBrace", "}")])

    def match(self, e: ast.Match):
        tok = self.tok
        c = self.comments
        head = [tok("match", "match "), self.head_expr(e.value), " ",
                tok("LBrace", "{", True)]
        body = []
        for i, arm in enumerate(e.arms):
            body.append(HARDLINE)
            blank, lead = c.paragraph(arm.line, arm.col)
            if blank and i:
                body.append(HARDLINE)
            body += lead
            body += [self.pattern(arm.pattern), " ", tok("FatArrow", "=> "),
                     self.expr(arm.body), ","]
            body += c.trailing()
        body += c.dangling(trail=False)
        if body:
            head += [Nest(INDENT_WIDTH, body), HARDLINE]
        else:
            head.append(SOFTLINE)
        head.append(tok("RBrace", "}"))
        return Group(head)

    # ---------------------------------------------------------------- patterns

    def pattern(self, p):
        tok = self.tok
        t = type(p)
        if t is ast.IdentPat:
            return tok(IDENT, p.name)
        if t is ast.WildcardPat:
            return tok("Underscore", "_")
        if t is ast.VariantPat:
            if p.inner is None:
                return tok(IDENT, p.name)
            return [tok(IDENT, p.name), tok("LParen", "("), self.pattern(p.inner),
                    tok("RParen", ")")]
        if t is ast.IntPat:
            return tok(INT, str(p.value))
        if t is ast.StringPat:
            return tok(STRING, string_text(p.value))
        if t is ast.BoolPat:
            return tok("true", "true") if p.value else tok("false", "false")
        if t is ast.NonePat:
            return tok("None", "None")
        kw = "Some" if t is ast.SomePat else "Ok" if t is ast.OkPat else "Err"
        return [tok(kw, kw), tok("LParen", "("), self.pattern(p.inner), tok("RParen", ")")]
