"""Bidirectional type checking of a program, with unification (issue 12).

`check` pushes an expected type into an expression (into both branches of an `if`, every
arm of a `match`, the items of a list, the payload of `Some`/`Ok`/`Err`), so a mismatch is
reported at the innermost expression that has the wrong type; `infer` synthesizes a type.
Annotations give types where they exist (parameters, returns, `let`, record fields, enum
payloads), inference variables where they don't; each builtin call instantiates the
builtin's signature (`signatures.py`) with fresh variables.

Severity (the issue's rule): an error when the program would stop with a type error at run
time or produce a value that contradicts its annotations; a warning where the VM's dynamic
rules make the code run as written (truthiness of a non-`Bool` condition or operand of `!`,
`&&`, `||`; `==` between different types, always false). Int/Float promotion in arithmetic
is accepted. Erroneous and unknowable terms get `ERROR`, which unifies with everything, so
each root cause is reported once.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from boruna.language import ast as A

from ..context import CheckContext
from ..fix import Applicability, Edit, Fix
from ..model import Diagnostic, Label
from ..naming import closest_name
from .effect_types import effects_of, join, misfit, widen, wire_names
from .signatures import conversions, is_guard, signature_of
from .spans import Spans
from boruna.core.builtins import DYNAMIC

from .types import (ACTOR_ID, BOOL, ERROR, FLOAT, INT, PRIMITIVES, STRING, UNIT, Con, Type, Var,
                    PRIMITIVE_TYPES,
                    VarSupply, fn_of, fn_parts, list_of, option_of, result_of)
from .unify import Mismatch, can_unify, find, resolve, unify

CODE = "E009"
ARITHMETIC = {"Add": "+", "Sub": "-", "Mul": "*", "Div": "/"}
ORDERING = {"Lt": "<", "Lte": "<=", "Gt": ">", "Gte": ">="}
ORDERED = ("Int", "Float", "String")
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    return ORDINALS.get(n, f"{n}th")


def shown_now(t: Type) -> str:
    """`show(t)`, with a plain constructor's text read off at once (no `find`, no walk)."""
    if t.__class__ is Con and not t.args and t.name != "Fn":
        return "_" if t is ERROR else t.name
    return show(t)


def show(t: Type) -> str:
    """A type as `.ax` writes it; an unknown part is `_`."""
    t = find(t)
    if not isinstance(t, Con) or t is ERROR:
        return "_"
    if t.name == "Fn":
        params, result = fn_parts(t)
        effects = f" !{{{', '.join(sorted(t.effects))}}}" if t.effects else ""
        return f"Fn({', '.join(show(p) for p in params)}) -> {show(result)}{effects}"
    if not t.args:
        return t.name
    return f"{t.name}<{', '.join(show(a) for a in t.args)}>"


class Why:      # made for every argument, annotated `let` and field
    """Where an expectation came from: what the checked expression is ("the 2nd argument
    of `area`") and, optionally, a label at the annotation or earlier branch that set it.

    `label`: a Label, or a callable building one; `contract`: a declared type (not a
    sibling's), capabilities must fit it; `annotation`: the type annotation that declares
    it, when one does; `returned`: a function's declared result; `holder`: (function, name)
    of the parameter or `let` it declares. `what` is a text, or for a call's argument
    (its number, the callee's name, whether the name is quoted), written out when read."""

    __slots__ = ("_what", "label", "contract", "annotation", "returned", "holder")

    def __init__(self, what, label=None, contract: bool = False, annotation=None,
                 returned: bool = False, holder=None):
        self._what, self.label, self.contract = what, label, contract
        self.annotation, self.returned, self.holder = annotation, returned, holder

    @property
    def what(self) -> str:
        what = self._what
        if what.__class__ is tuple:
            number, name, quoted = what
            what = self._what = (f"the {ordinal(number)} argument of "
                                 f"{f'`{name}`' if quoted else name}")
        return what

    def inner(self, what: str) -> "Why":
        """The same expectation, of a part of the checked expression described by `what`."""
        return Why(what, self.label, self.contract, self.annotation, self.returned,
                   self.holder)


@dataclass(slots=True)
class Binding:
    ty: Type
    node: object            # the `let`/parameter that declared it
    annotated: bool


Env = dict[str, Binding]


class Checker:
    def __init__(self, ctx: CheckContext):
        self.ctx = ctx
        self._spans: Optional[Spans] = None
        self.supply = VarSupply()
        self.out: list[Diagnostic] = []
        self.unknown_reads: list[tuple[A.FieldAccess, str]] = []
        self.reported: set = set()
        self.has_imports = any(isinstance(i, A.ImportDef) for i in ctx.program.items)
        self.records: dict[str, list[tuple[str, Type]]] = {}
        self.enums: dict[str, dict[str, Optional[Type]]] = {}
        self.variant_owners: dict[str, list[str]] = {}
        self.functions: dict[str, A.FnDef] = ctx.function_defs()
        self.signatures: dict[str, tuple[tuple[Type, ...], Type]] = {}
        self.own = {id(fn) for fn in ctx.program.functions()}
        self.current: Optional[A.FnDef] = None
        # each call of a function value whose type carries capabilities (or of a `let mut`
        # that may be assigned one later): `effects.py` holds the caller to them
        self.value_calls: list[ValueCall] = []
        self.last_field: tuple = (None, "")      # (field access, record name) last typed
        self.return_type: Type = ERROR
        # a plain type's name -> its one term (`annotation`): the primitives' constants
        self.plain_types: dict[str, Con] = dict(zip(PRIMITIVES, PRIMITIVE_TYPES))
        self._types()
        self._app_message_payload()
        for name, fn in self.functions.items():
            report = id(fn) in self.own
            params = tuple([self.annotation(p.ty, report) for p in fn.params])
            ret = (self.annotation(fn.return_type, report) if fn.return_type is not None
                   else ERROR)
            self.signatures[name] = (params, ret)

    # ------------------------------------------------------------ declarations
    def _types(self) -> None:
        own = {id(td) for td in self.ctx.program.type_defs()}
        for name, td in self.ctx.type_defs.items():
            report = id(td) in own
            if isinstance(td.kind, A.RecordKind):
                self.records[name] = [(f, self.annotation(t, report)) for f, t in td.kind.fields]
            else:
                variants: dict[str, Optional[Type]] = {}
                for variant, payload in td.kind.variants:
                    variants.setdefault(variant, None if payload is None
                                        else self.annotation(payload, report))
                    self.variant_owners.setdefault(variant, []).append(name)
                self.enums[name] = variants

    def _app_message_payload(self) -> None:
        """In an App (`init`, `update`, `view`), the framework delivers a message's `payload`
        as an Int when it reads as a decimal number, as 0 when absent, else as text, whatever
        the message record declares (`framework/messages.py`): that field is dynamic."""
        if not {"init", "update", "view"} <= set(self.functions):
            return
        params = self.functions["update"].params
        if len(params) < 2 or not isinstance(params[1].ty, A.Named):
            return
        fields = self.records.get(params[1].ty.name)
        if fields is not None:
            self.records[params[1].ty.name] = [(name, ERROR if name == "payload" else ty)
                                               for name, ty in fields]

    def annotation(self, te, report: bool = True) -> Type:
        """The checker type an annotation names; an unknown name is reported (once) and
        becomes ERROR."""
        if isinstance(te, A.Named):
            plain = self.plain_types.get(te.name)
            if plain is not None:
                return plain
            if te.name in PRIMITIVES or te.name in self.ctx.type_defs:
                # one term per name: types are equal by value, and the checker's `is`
                # tests for the common plain types then succeed at once
                plain = self.plain_types[te.name] = Con(te.name)
                return plain
            if te.name == DYNAMIC and te.name not in self.ctx.type_defs:
                return ERROR        # a database column: checked when the program runs
            if report and not self.has_imports:
                self.unknown_type(te)
            return ERROR
        if isinstance(te, A.ListType):
            return list_of(self.annotation(te.inner, report))
        if isinstance(te, A.OptionType):
            return option_of(self.annotation(te.inner, report))
        if isinstance(te, A.ResultType):
            return result_of(self.annotation(te.ok, report), self.annotation(te.err, report))
        if isinstance(te, A.MapType):
            return Con("Map", (self.annotation(te.key, report),
                               self.annotation(te.value, report)))
        if isinstance(te, A.FnType):
            return fn_of([self.annotation(p, report) for p in te.params],
                         self.annotation(te.ret, report),
                         wire_names(te.capabilities) if te.capabilities else frozenset())
        return ERROR

    def unknown_type(self, te: A.Named) -> None:
        key = ("type", te.line, te.col)
        if key in self.reported:
            return
        self.reported.add(key)
        candidates = [*PRIMITIVES, *self.ctx.type_defs]
        best = closest_name(te.name, candidates)
        fixes, help_text = [], None
        if best is not None:
            help_text = f"did you mean `{best[0]}`?"
            fix = self.replace_fix(te.line, te.col, len(te.name.encode("utf-8")), best[0],
                                   f"rename the type to `{best[0]}`")
            if fix is not None:
                fixes.append(fix)
        self.report("error", f"unknown type `{te.name}`", te, help_text=help_text,
                    fixes=fixes, length=len(te.name.encode("utf-8")))

    @property
    def spans(self) -> Spans:
        """End positions, from a token pass made only when a diagnostic needs one."""
        if self._spans is None:
            self._spans = Spans(self.ctx.source)
        return self._spans

    # ------------------------------------------------------------ reporting
    def report(self, severity: str, body: str, node, labels=(), help_text=None, fixes=(),
               notes=(), length: Optional[int] = None, code: str = CODE) -> None:
        line, col = getattr(node, "line", 0), getattr(node, "col", 0)
        if length is not None:
            end = (line, col + length)
        else:
            end = self.spans.end(node) if line else None
        location = self.ctx.location(line, col, *(end or (None, None)))
        labels = [label() if callable(label) else label for label in labels]
        self.out.append(Diagnostic(code, severity, body, location, list(fixes), labels,
                                   help_text, list(notes)))

    def label_at(self, node, message):
        """A secondary label at `node`, built only if a diagnostic uses it (a callable).
        `message` is the text, or a callable giving it when the label is built (for texts
        that show a declared type: an annotation's term has no variables, so its text is
        the same then as now)."""
        def build() -> Label:
            text = message() if callable(message) else message
            if node is None or not getattr(node, "line", 0):
                return Label(text, None)
            end = (self.spans.end(node) if not isinstance(node, (A.Let, A.Param, A.FnDef))
                   else None)
            return Label(text, self.ctx.location(node.line, node.col, *(end or (None, None))))
        return build

    def replace_fix(self, line: int, col: int, length: int, new: str, description: str,
                    applicability=Applicability.UNSAFE) -> Optional[Fix]:
        """A fix replacing `length` bytes at (line, col) with `new` (one line)."""
        text = self.ctx.line_text(line)
        if text is None:
            return None
        raw = text.encode("utf-8", "surrogatepass")
        if col < 1 or col - 1 + length > len(raw):
            return None
        new_raw = raw[:col - 1] + new.encode("utf-8") + raw[col - 1 + length:]
        new_text = new_raw.decode("utf-8", "surrogatepass")
        return Fix(f"E009-retype-{line}-{col}", description, applicability,
                   "the types disagree; this is the mechanical change that makes them agree",
                   [Edit(line, text, new_text, self.ctx.file)])

    def mismatch(self, node, found: Type, expected: Type, why: Why) -> None:
        exp, got = show(expected), show(found)
        if exp == got:     # e.g. both `List<_>` with incompatible unknown parts
            exp, got = show(resolve(expected)), show(resolve(found))
        body = f"type mismatch: {why.what} should be `{exp}`, but it is `{got}`"
        help_text, fixes = self.conversion_hint(node, found, expected)
        labels = [why.label] if why.label is not None else []
        self.report("error", body, node, labels=labels, help_text=help_text, fixes=fixes)

    def conversion_hint(self, node, found: Type, expected: Type):
        f, e = find(found), find(expected)
        if f == INT and e == FLOAT and isinstance(node, A.IntLit):
            end = self.spans.end(node)
            if end is not None and end[0] == node.line:
                fix = self.replace_fix(node.line, node.col, end[1] - node.col,
                                       f"{node.value}.0", "write the literal as a Float",
                                       Applicability.SAFE)
                return "write it as a Float literal", [fix] if fix else []
        if f == INT and e == FLOAT:
            return ("an Int is not promoted when it is stored; make one operand a Float "
                    "(e.g. `7.0 / 2`)"), []
        names = conversions(found, expected)
        if not names or isinstance(node, (A.IntLit, A.FloatLit, A.StringLit, A.BoolLit)):
            return None, []     # a literal of the wrong type: no conversion was meant
        wrap = names[0]
        others = "".join(f" or `{n}(...)`" for n in names[1:])
        help_text = f"convert it with `{wrap}(...)`{others}"
        fixes = []
        end = self.spans.end(node)
        if end is not None and end[0] == node.line:
            text = self.ctx.line_text(node.line) or ""
            raw = text.encode("utf-8", "surrogatepass")
            inner = raw[node.col - 1:end[1] - 1].decode("utf-8", "surrogatepass")
            fix = self.replace_fix(node.line, node.col, end[1] - node.col, f"{wrap}({inner})",
                                   f"convert with `{wrap}`")
            if fix is not None:
                fixes.append(fix)
        return help_text, fixes

    # ------------------------------------------------------------ functions
    def function(self, fn: A.FnDef) -> None:
        self.current = fn
        params, ret = self.signatures.get(fn.name, ((), ERROR))
        if self.functions.get(fn.name) is not fn:      # a duplicate: check it on its own
            params = tuple(self.annotation(p.ty, False) for p in fn.params)
            ret = self.annotation(fn.return_type, False) if fn.return_type else ERROR
        env: Env = {p.name: Binding(t, p, True) for p, t in zip(fn.params, params)}
        self.return_type = ret
        for clause in fn.requires:
            self.condition(clause, env, "this `requires` clause")
        body_env = dict(env) if fn.ensures else env     # the block's own: `ensures` reads `env`
        stmts = fn.body.stmts
        if fn.return_type is not None and ret is not ERROR and stmts and isinstance(
                stmts[-1], A.ExprStmt):
            label = self.label_at(fn.return_type, lambda: f"`{fn.name}` is declared to "
                                                          f"return `{show(ret)}` here")
            self.block(fn.body, body_env, ret, Why(f"the result of `{fn.name}`", label,
                                                   contract=True, returned=True,
                                                   annotation=fn.return_type), own=True)
        else:
            self.block(fn.body, body_env, None, None, used=False, own=True)
            self.missing_result(fn, ret)
        if fn.ensures:
            ensures_env = {**env, "result": Binding(ret, fn, True)}
            for clause in fn.ensures:
                self.condition(clause, ensures_env, "this `ensures` clause")

    def missing_result(self, fn: A.FnDef, ret: Type) -> None:
        """A function declared to return a value whose body ends with a `let` or an
        assignment returns Unit."""
        stmts = fn.body.stmts
        if (fn.return_type is None or not stmts or not isinstance(stmts[-1], (A.Let, A.Assign))
                or can_unify(ret, UNIT)):
            return
        last = stmts[-1]
        name = last.name if isinstance(last, A.Let) else last.target
        label = self.label_at(fn.return_type, f"`{fn.name}` is declared to return "
                                              f"`{show(ret)}` here")
        self.report("error", f"type mismatch: `{fn.name}` ends with a statement, so it returns "
                    f"`Unit`, but it is declared to return `{show(ret)}`", last, labels=[label],
                    help_text=f"end the body with the value to return, e.g. `{name}`",
                    length=len("let") if isinstance(last, A.Let) else None)

    # ------------------------------------------------------------ blocks and statements
    def block(self, block: A.Block, env: Env, expected: Optional[Type], why: Optional[Why],
              used: bool = True, own: bool = False) -> Type:
        """Check the statements of `block` in a copy of `env` (in `env` itself when `own`: a
        fresh dict the caller does not read again); its value's type (ERROR when it ends with
        something other than an expression)."""
        if not own:
            env = dict(env)
        stmts = block.stmts
        for stmt in stmts[:-1]:
            self.stmt(stmt, env)
        if not stmts:
            if expected is not None:
                return expected
            return UNIT
        last = stmts[-1]
        if isinstance(last, A.ExprStmt) and (used or expected is not None):
            if expected is not None:
                return self.check(last.expr, expected, why, env)
            return self.infer(last.expr, env)
        self.stmt(last, env)
        return ERROR

    def stmt(self, stmt, env: Env) -> None:
        kind = stmt.__class__
        if kind is A.Let:
            if stmt.ty is not None:
                ty = self.annotation(stmt.ty)
                label = self.label_at(stmt.ty, lambda: f"`{stmt.name}` is declared "
                                                       f"`{show(ty)}` here")
                self.check(stmt.value, ty, Why(f"the value of `{stmt.name}`", label,
                                               contract=True, annotation=stmt.ty,
                                               holder=(self.current, stmt.name)
                                               if self.current is not None else None), env)
                env[stmt.name] = Binding(ty, stmt, True)
            else:
                env[stmt.name] = Binding(self.infer(stmt.value, env), stmt, False)
        elif kind is A.Assign:
            self.assign(stmt, env)
        elif kind is A.ExprStmt:
            self.infer(stmt.expr, env, used=False)
        elif kind is A.Return:
            fn = self.current
            label = None
            if fn is not None and fn.return_type is not None:
                label = self.label_at(fn.return_type, lambda ret=self.return_type: (
                    f"`{fn.name}` is declared to return `{show(ret)}` here"))
            why = Why(f"the value `{fn.name if fn else 'this function'}` returns", label,
                      contract=True, returned=True,
                      annotation=fn.return_type if fn is not None else None)
            if stmt.value is not None:
                self.check(stmt.value, self.return_type, why, env)
            elif not can_unify(self.return_type, UNIT):
                self.report("error", f"type mismatch: `return` without a value gives `Unit`, "
                            f"but `{fn.name}` returns `{show(self.return_type)}`", stmt,
                            labels=[label] if label else [], length=len("return"))
        elif kind is A.While:
            self.condition(stmt.condition, env, "the condition of this `while`")
            self.block(stmt.body, env, None, None, used=False)
        elif kind is A.For:
            self.for_loop(stmt, env)

    def assign(self, stmt: A.Assign, env: Env) -> None:
        binding = env.get(stmt.target)
        if binding is None:
            self.infer(stmt.value, env)
            return
        if not binding.annotated:
            found = self.infer(stmt.value, env)
            if found is binding.ty and found.__class__ is Con:
                return      # the very type it has: unifying and joining change nothing
            if find(binding.ty) == INT and find(found) == FLOAT:
                binding.ty = FLOAT          # a number that became a Float: promotion
                return
            try:
                unify(found, binding.ty)
                binding.ty = join(binding.ty, found)    # it may now hold either function
            except Mismatch:
                label = self.label_at(binding.node.value if isinstance(binding.node, A.Let)
                                      else binding.node,
                                      f"`{stmt.target}` gets its type `{show(binding.ty)}` "
                                      f"from this initializer")
                self.mismatch(stmt.value, found, binding.ty,
                              Why(f"the value assigned to `{stmt.target}`", label))
            return
        decl = binding.node
        where = decl.ty if isinstance(decl, (A.Let, A.Param)) and decl.ty is not None else decl
        label = self.label_at(where, f"`{stmt.target}` is declared `{show(binding.ty)}` here")
        self.check(stmt.value, binding.ty, Why(f"the value assigned to `{stmt.target}`", label,
                                               contract=True, annotation=where), env)

    def for_loop(self, stmt: A.For, env: Env) -> None:
        iterable = self.infer(stmt.iter, env)
        element = self.supply.fresh()
        try:
            unify(iterable, list_of(element))
        except Mismatch:
            hint = None
            if find(iterable) == STRING:
                hint = "iterate over `__builtin_string_chars(s)` to visit its characters"
            elif find(iterable) == INT:
                hint = "`for` walks a list; count with a `while` loop instead"
            self.report("error", f"type mismatch: `for` walks a `List`, but this is "
                        f"`{show(iterable)}`", stmt.iter, help_text=hint)
            element = ERROR
        body_env = {**env, stmt.var: Binding(element, stmt, False)}
        self.block(stmt.body, body_env, None, None, used=False, own=True)

    def condition(self, expr, env: Env, what: str) -> None:
        found = self.infer(expr, env)
        t = find(found)
        if not isinstance(t, Con):
            try:
                unify(t, BOOL)
            except Mismatch:
                pass
            return
        if t is BOOL or t is ERROR or t == BOOL:
            return
        self.report("warning", f"{what} is `{show(t)}`, not `Bool`", expr,
                    help_text=self.truthiness_help(t), fixes=self.explicit_test_fix(expr, t))

    def explicit_test_fix(self, expr, t: Con) -> list[Fix]:
        """`n` → `n != 0` (`0.0`, `""`) for a simple operand on one line: the test the VM's
        truthiness makes, written out."""
        zero = {"Int": "0", "Float": "0.0", "String": '""'}.get(t.name)
        if zero is None or not isinstance(expr, (A.Ident, A.FieldAccess, A.Call)):
            return []
        end = self.spans.end(expr)
        text = self.ctx.line_text(expr.line)
        if end is None or end[0] != expr.line or text is None:
            return []
        raw = text.encode("utf-8", "surrogatepass")[expr.col - 1:end[1] - 1]
        inner = raw.decode("utf-8", "surrogatepass")
        fix = self.replace_fix(expr.line, expr.col, end[1] - expr.col, f"{inner} != {zero}",
                               f"test `{inner} != {zero}` explicitly", Applicability.SAFE)
        return [fix] if fix else []

    @staticmethod
    def truthiness_help(t: Con) -> str:
        test = {"Int": "`n != 0`", "Float": "`x != 0.0`", "String": "`s != \"\"`",
                "List": "`!__builtin_list_is_empty(xs)`"}.get(t.name)
        rule = "the VM uses its truthiness (0, 0.0, \"\", [], None and Unit are false)"
        return f"{rule}; write the test explicitly, e.g. {test}" if test else rule

    # ------------------------------------------------------------ checking mode
    def check(self, expr, expected: Type, why: Why, env: Env) -> Type:
        """Check `expr` against `expected`, pushing the expectation inward where it can; the
        type found (`expected` where nothing more is known), whose function types may carry
        fewer capabilities than `expected`'s, or more when `why` is no `contract`."""
        kind = expr.__class__       # no node class has subclasses: a class test suffices
        if kind is A.If and expr.else_block is not None:
            self.condition(expr.condition, env, "the condition of this `if`")
            then = self.block(expr.then_block, env, expected, why)
            return join(then, self.block(expr.else_block, env, expected, why))
        if kind is A.Match and expr.arms:
            scrutinee = self.infer(expr.value, env)
            result = expected
            for index, (arm, arm_env) in enumerate(zip(expr.arms, self.arm_envs(
                    expr, scrutinee, env))):
                found = self.check(arm.body, expected, why, arm_env)
                if index == 0:
                    result = found
                elif result is not found and (result.__class__ is not Con or result.args):
                    result = join(result, found)    # (`join` gives a plain type back as is)
            return result
        if kind is A.BlockExpr:
            return self.block(expr.block, env, expected, why)
        if kind is A.If:          # no `else`: its value is `()` when false
            found = self.if_without_else(expr, env, expected, why)
            try:
                unify(found, expected)
            except Mismatch:
                self.mismatch(expr, found, expected, why)
            return expected
        target = expected if expected.__class__ is Con else find(expected)
        if kind in _PUSHED_INTO and target.__class__ is Con and target is not ERROR:
            if kind is A.ListLit and target.name == "List" and expr.items:
                before = len(self.out)
                element = target.args[0]
                item_why = why.inner(f"an element of {why.what}")
                for index, item in enumerate(expr.items):
                    if len(self.out) == before:
                        found = self.check(item, target.args[0], item_why, env)
                        element = found if index == 0 else join(element, found)
                    else:       # one report per list: the first wrong element
                        self.infer(item, env)
                return list_of(element) if element is not target.args[0] else expected
            if kind is A.SomeExpr and target.name == "Option":
                found = self.check(expr.expr, target.args[0], why.inner(
                    f"the `Some` payload of {why.what}"), env)
                return option_of(found) if found is not target.args[0] else expected
            if (kind is A.OkExpr or kind is A.ErrExpr) and target.name == "Result":
                index, word = (0, "Ok") if kind is A.OkExpr else (1, "Err")
                self.check(expr.expr, target.args[index], why.inner(
                    f"the `{word}` payload of {why.what}"), env)
                return expected
        found = self.infer(expr, env)
        if found is not expected:       # (`unify` of a type with itself binds nothing)
            try:
                unify(found, expected)
            except Mismatch:
                self.mismatch(expr, found, expected, why)
                return expected
        if found.__class__ is Con and not found.args:       # the common case: a plain type
            return found if found is not ERROR else expected
        if why.contract:
            self.capabilities_fit(expr, found, expected, why, env)
        return found

    # ------------------------------------------------------------ inference mode
    def infer(self, expr, env: Env, used: bool = True) -> Type:
        """The type of `expr` (`used`: whether its value is used, for `if`/`match`/blocks)."""
        kind = expr.__class__
        if kind is _IDENT:          # `ident`'s first answer, without the call
            binding = env.get(expr.name)
            if binding is not None:
                return binding.ty
        rule = _INFER.get(kind)
        return ERROR if rule is None else rule(self, expr, env, used)   # None: receive

    def send(self, expr: A.Send, env: Env, used: bool = True) -> Type:
        target = find(self.infer(expr.target, env))
        if isinstance(target, Var):
            unify(target, ACTOR_ID)
        elif target not in (ACTOR_ID, ERROR):
            self.report("error", f"type mismatch: `send` needs an `ActorId` (from "
                        f"`spawn`), but this is `{show(target)}`", expr.target)
        self.infer(expr.message, env)
        return ERROR

    def spawn(self, expr: A.Spawn, env: Env, used: bool = True) -> Type:
        if not isinstance(expr.expr, A.Ident):
            self.infer(expr.expr, env)
        return ACTOR_ID

    def ident(self, expr: A.Ident, env: Env, used: bool = True) -> Type:
        binding = env.get(expr.name)
        if binding is not None:
            return binding.ty
        if expr.name in self.signatures:
            params, ret = self.signatures[expr.name]
            fn = self.functions.get(expr.name)
            return fn_of(params, ret, wire_names(fn.capabilities) if fn is not None
                         and fn.capabilities else frozenset())
        return ERROR

    # ------------------------------------------------------------ operators
    def binary(self, expr: A.Binary, env: Env, used: bool = True) -> Type:
        op = expr.op
        left, right = self.infer(expr.left, env), self.infer(expr.right, env)
        lt = left if left.__class__ is Con else find(left)
        rt = right if right.__class__ is Con else find(right)
        if op in ARITHMETIC:
            if (lt is INT or lt is FLOAT) and (rt is INT or rt is FLOAT):
                return FLOAT if lt is FLOAT or rt is FLOAT else INT     # `arithmetic`'s result
            return self.arithmetic(expr, lt, rt)
        # below, an operand that already is the wanted constant is passed over: its check
        # binds and reports nothing (and builds no message)
        if op == "Mod":
            if lt is INT and rt is INT:
                return INT
            for side, t, node in (("left", lt, expr.left), ("right", rt, expr.right)):
                if not self.operand(node, t, INT, f"the {side} operand of `%`",
                                    "`%` works on Int only"):
                    return ERROR
            return INT
        if op == "Concat":
            if lt is STRING and rt is STRING:
                return STRING
            for side, t, node in (("left", lt, expr.left), ("right", rt, expr.right)):
                if not self.operand(node, t, STRING, f"the {side} operand of `++`",
                                    "`++` joins strings" + (
                                        "; join lists with `__builtin_list_concat(a, b)`"
                                        if isinstance(t, Con) and t.name == "List" else "")):
                    return ERROR
            return STRING
        if op in ORDERING:
            self.ordering(expr, lt, rt)
            return BOOL
        if op in ("And", "Or"):
            if lt is BOOL and rt is BOOL:
                return BOOL
            symbol = "&&" if op == "And" else "||"
            for side, t, node in (("left", lt, expr.left), ("right", rt, expr.right)):
                self.boolean_operand(node, t, f"the {side} operand of `{symbol}`")
            return BOOL
        if op in ("Eq", "Neq"):
            if not (left is right and left.__class__ is Con):    # one known type: equal
                self.equality(expr, left, right)
            return BOOL
        return ERROR

    def operand(self, node, t: Type, want: Con, what: str, help_text: str) -> bool:
        """Whether operand `t` is (or now is) `want`; a mismatch is reported."""
        try:
            unify(t, want)
            return True
        except Mismatch:
            extra, fixes = self.conversion_hint(node, t, want)
            self.report("error", f"type mismatch: {what} should be `{show(want)}`, but it is "
                        f"`{show(t)}`", node, help_text=extra or help_text, fixes=fixes)
            return False

    def arithmetic(self, expr: A.Binary, lt: Type, rt: Type) -> Type:
        symbol = ARITHMETIC[expr.op]
        numeric = (INT, FLOAT)
        for side, t, node in (("left", lt, expr.left), ("right", rt, expr.right)):
            if t is INT or t is FLOAT:
                continue
            if isinstance(t, Con) and t is not ERROR and t not in numeric:
                help_text = ("join strings with `++`" if expr.op == "Add" and t == STRING
                             else None)
                fixes = []
                if help_text is not None:
                    fix = self.operator_fix(expr, "+", "++")
                    fixes = [fix] if fix else []
                self.report("error", f"type mismatch: the {side} operand of `{symbol}` should "
                            f"be `Int` or `Float`, but it is `{show(t)}`", node,
                            help_text=help_text, fixes=fixes)
                return ERROR
        if lt is FLOAT or rt is FLOAT:      # the constants first: no `==` call for them
            return FLOAT
        if lt is INT and rt is INT:
            return INT
        if lt == FLOAT or rt == FLOAT:
            return FLOAT
        if lt == INT and rt == INT:
            return INT
        return ERROR        # an operand still unknown: Int or Float, not known which

    def operator_fix(self, expr: A.Binary, old: str, new: str) -> Optional[Fix]:
        left_end = self.spans.end(expr.left)
        if left_end is None or left_end[0] != expr.right.line:
            return None
        text = (self.ctx.line_text(left_end[0]) or "").encode("utf-8", "surrogatepass")
        between = text[left_end[1] - 1:expr.right.col - 1]
        at = between.find(old.encode())
        if at < 0:
            return None
        return self.replace_fix(left_end[0], left_end[1] + at, len(old), new,
                                f"use `{new}`", Applicability.SAFE)

    def ordering(self, expr: A.Binary, lt: Type, rt: Type) -> None:
        if lt is rt and (lt is INT or lt is STRING or lt is FLOAT):
            return          # one ordered type on both sides: nothing to report or bind
        symbol = ORDERING[expr.op]
        for side, t, node in (("left", lt, expr.left), ("right", rt, expr.right)):
            if isinstance(t, Con) and t is not ERROR and t.name not in ORDERED:
                self.report("error", f"type mismatch: the {side} operand of `{symbol}` should "
                            f"be `Int`, `Float` or `String`, but it is `{show(t)}`", node)
                return
        if lt is rt and lt.__class__ is Con:      # the same known type: nothing to do
            return
        if isinstance(lt, Con) and isinstance(rt, Con) and ERROR not in (lt, rt) and lt != rt:
            help_text = None
            if {lt, rt} == {INT, FLOAT}:
                help_text = "the VM orders an Int only against an Int; write the Int as a Float"
            self.report("error", f"type mismatch: `{symbol}` compares `{show(lt)}` with "
                        f"`{show(rt)}`; both sides must have the same type", expr.right,
                        labels=[self.label_at(expr.left, f"this is `{show(lt)}`")],
                        help_text=help_text)
        elif isinstance(lt, Con) and lt is not ERROR and not isinstance(rt, Con):
            unify(rt, lt)
        elif isinstance(rt, Con) and rt is not ERROR and not isinstance(lt, Con):
            unify(lt, rt)

    def boolean_operand(self, node, t: Type, what: str) -> None:
        if not isinstance(t, Con):
            unify(t, BOOL)
        elif t is not ERROR and t != BOOL:
            self.report("warning", f"{what} is `{show(t)}`, not `Bool`", node,
                        help_text=self.truthiness_help(t))

    def equality(self, expr: A.Binary, left: Type, right: Type) -> None:
        if can_unify(left, right):
            try:
                unify(left, right)
            except Mismatch:
                pass
            return
        symbol = "==" if expr.op == "Eq" else "!="
        always = "false" if expr.op == "Eq" else "true"
        lt, rt = find(left), find(right)
        help_text = None
        if {lt, rt} == {INT, FLOAT}:
            help_text = "an Int never equals a Float on the VM; write both sides as Floats"
        self.report("warning", f"`{symbol}` compares `{show(left)}` with `{show(right)}`: "
                    f"values of different types are never equal, so this is always {always}",
                    expr.right, labels=[self.label_at(expr.left, f"this is `{show(left)}`")],
                    help_text=help_text)

    def unary(self, expr: A.Unary, env: Env, used: bool = True) -> Type:
        inner = self.infer(expr.expr, env)
        t = find(inner)
        if expr.op == "Not":
            self.boolean_operand(expr.expr, t, "the operand of `!`")
            return BOOL
        if isinstance(t, Con) and t not in (INT, FLOAT, ERROR):
            self.report("error", f"type mismatch: the operand of unary `-` should be `Int` or "
                        f"`Float`, but it is `{show(t)}`", expr.expr)
            return ERROR
        return t if isinstance(t, Con) else ERROR

    # ------------------------------------------------------------ calls
    def call(self, expr: A.Call, env: Env, used: bool = True) -> Type:
        func = expr.func
        if isinstance(func, A.Ident) and func.name not in env:
            name = func.name
            builtin = signature_of(name, self.supply)
            if name in self.functions:
                if builtin is not None and len(builtin[0]) == len(expr.args):
                    for arg in expr.args:       # codegen emits the builtin here anyway
                        self.infer(arg, env)
                    return ERROR
                params, ret = self.signatures[name]
                fn = self.functions[name]
                if len(params) != len(expr.args):       # the name checker's arity error
                    for arg in expr.args:
                        self.infer(arg, env)
                    return ret
                return self.arguments(expr, name, params, ret, fn.params, env)
            if builtin is not None:
                params, ret = builtin
                if len(params) != len(expr.args):       # the name checker's arity error
                    for arg in expr.args:
                        self.infer(arg, env)
                    return ERROR
                ret = self.arguments(expr, name, params, ret, None, env, contract=False)
                if is_guard(name) and isinstance(expr.args[1], A.BoolLit) and not \
                        expr.args[1].value:
                    return ERROR        # always traps: no value to type
                return ret
            for arg in expr.args:
                self.infer(arg, env)
            return ERROR
        callee = find(self.infer(func, env))
        if isinstance(callee, Con) and callee.name == "Fn":
            params, ret = fn_parts(callee)
            if len(params) != len(expr.args):
                for arg in expr.args:
                    self.infer(arg, env)
                self.report("error", f"this function value takes {len(params)} argument"
                            f"{'s' if len(params) != 1 else ''}, but {len(expr.args)} "
                            f"{'were' if len(expr.args) != 1 else 'was'} given", expr,
                            labels=[self.label_at(func, f"this is `{show(callee)}`")])
                return ret
            name = func.name if isinstance(func, A.Ident) else "this function value"
            binding = env.get(func.name) if isinstance(func, A.Ident) else None
            if binding is not None and (binding.annotated or not isinstance(
                    binding.node, A.Let) or not binding.node.mutable):
                binding = None      # only a `let mut` without a type changes its type
            if (callee.effects or binding is not None) and self.current is not None:
                label = (self.value_origin(func, callee, env) if binding is None else
                         lambda binding=binding: self.label_at(
                             binding.node, f"`{binding.node.name}` is "
                             f"`{show(binding.ty)}` (it holds every function assigned to "
                             f"it)")())
                self.value_calls.append(ValueCall(self.current, expr, callee.effects, binding,
                                                  label))
            return self.arguments(expr, name, params, ret, None, env, quoted=isinstance(
                func, A.Ident))
        for arg in expr.args:
            self.infer(arg, env)
        if isinstance(callee, Con) and callee is not ERROR:
            self.report("error", f"type mismatch: this is `{show(callee)}`, not a function, "
                        f"so it cannot be called", func)
            return ERROR
        if not isinstance(callee, Con):
            params = tuple(self.supply.fresh() for _ in expr.args)
            ret = self.supply.fresh()
            unify(callee, fn_of(params, ret))
            return ret
        return ERROR

    def value_origin(self, func, callee: Con, env: Env):
        """A label builder at where a called function value's capabilities come from: the
        declaration of the parameter, variable or record field holding it."""
        shown = show(callee)
        if isinstance(func, A.Ident):
            binding = env.get(func.name)
            if binding is None:
                fn = self.functions.get(func.name)
                return self.label_at(fn, f"`{func.name}` declares !{{"
                                         f"{', '.join(fn.capabilities)}}} here") if fn else None
            node = binding.node
            if isinstance(node, (A.Param, A.Let)) and node.ty is not None:
                return self.label_at(node.ty, f"`{func.name}` is declared `{shown}` here")
            if isinstance(node, A.Let):
                return self.label_at(node.value, f"`{func.name}` gets its type `{shown}` "
                                                 f"from here")
            return self.label_at(node, f"`{func.name}` is `{shown}`")
        if isinstance(func, A.FieldAccess) and self.last_field[0] is func:
            owner = self.last_field[1]
            td = self.ctx.type_defs.get(owner)
            if td is not None and isinstance(td.kind, A.RecordKind):
                for name, te in td.kind.fields:
                    if name == func.field:
                        return self.label_at(te, f"`{owner}.{name}` is declared "
                                                 f"`{shown}` here")
        return self.label_at(func, f"this is `{shown}`")

    def capabilities_fit(self, expr, found: Type, expected: Type, why: Why, env: Env) -> None:
        """E007 where a function value meets a declared `Fn` type that does not list every
        capability it needs (the effect would vanish into a pure-looking value)."""
        failure = misfit(found, expected)
        if failure is None:
            return
        part, wanted, missing, positive = failure
        names = ", ".join(sorted(missing))
        if not positive:        # a parameter: the value would get callbacks it cannot call
            self.report("error", f"capability violation: {why.what} should be "
                        f"`{show(expected)}`, but it is `{show(found)}`, whose parameter "
                        f"`{show(part)}` does not accept functions that need `{names}`", expr,
                        labels=[why.label] if why.label is not None else [], code="E007",
                        help_text="a function passed where a `Fn` type is declared must "
                                  "accept every callback that type may pass it")
            return
        labels = [why.label] if why.label is not None else []
        if isinstance(expr, A.Ident) and expr.name in self.functions and expr.name not in env:
            fn = self.functions[expr.name]
            if fn.caps_line:
                labels.append(lambda fn=fn: Label(
                    f"`{fn.name}` declares !{{{', '.join(fn.capabilities)}}} here",
                    self.ctx.location(fn.caps_line, fn.caps_col)))
        node = self.annotation_of(why.annotation, wanted)
        top = node is why.annotation
        fix = self.list_capabilities_fix(node, wanted, missing, why.holder if top else None,
                                         self.current if why.returned and top else None)
        listed = show(Con("Fn", wanted.args, wanted.effects | missing))
        help_text = f"list the capabilities in the function type: `{listed}`"
        if why.returned:
            help_text += (" (in a return type, a last `!{...}` is the function's own set: "
                          f"write `-> {listed} !{{...}}` with the function's set after it)")
        self.report("error", f"capability violation: {why.what} should be `{show(expected)}`, "
                    f"but it is `{show(found)}`, which needs `{names}`", expr, labels=labels,
                    help_text=help_text, fixes=[fix] if fix else [], code="E007")

    def list_capabilities_fix(self, annotation, wanted: Con, missing: frozenset,
                              holder=None, returning: Optional[A.FnDef] = None):
        """Add `missing` to the `!{...}` set of the `Fn` type annotation `annotation` (when
        it is the function type that does not fit, and its end is on one line); when the
        annotation declares a parameter or variable that its function calls, that
        function's own set gets them too (a call of the value needs them). In the return
        type of `returning`, a new set is followed by an empty own set when the function
        has none (a single trailing set would be the function's own)."""
        if not isinstance(annotation, A.FnType) or wanted.effects != wire_names(
                annotation.capabilities):
            return None
        end = self.spans.end(annotation.ret)
        line = end[0] if end is not None else 0
        text = self.ctx.line_text(line) if line else None
        cut = self.ctx.index_of(line, end[1]) if text is not None else None
        if cut is None:
            return None
        names = sorted(missing)
        if annotation.capabilities:
            close = text.find("}", cut)
            if close < 0:
                return None
            new = text[:close].rstrip() + ", " + ", ".join(names) + text[close:]
        else:
            close = cut
            own = " !{}" if returning is not None and not returning.caps_line else ""
            new = text[:cut] + f" !{{{', '.join(names)}}}{own}" + text[cut:]
        lines = {line: new}
        undeclared = [] if holder is None else [
            n for n in names if n not in wire_names(holder[0].capabilities)]
        if undeclared and self.calls_value(*holder):
            owner_edit = self.declare_edit(holder[0], undeclared, lines, line, close,
                                           len(new) - len(text))
            if owner_edit is None:
                return None
            lines[owner_edit[0]] = owner_edit[1]
        edits = [Edit(n, self.ctx.line_text(n), t, self.ctx.file) for n, t in sorted(
            lines.items())]
        return Fix(f"E007-list-{'-'.join(names)}-{line}", f"list `{', '.join(names)}` in "
                   f"the function type", Applicability.SAFE,
                   "a function type lists every capability a call of its values needs",
                   edits)

    def annotation_of(self, te, wanted: Con):
        """The one `Fn` annotation inside `te` that denotes `wanted` (None when there is no
        such annotation or more than one)."""
        found, stack = [], [te]
        while stack:
            node = stack.pop()
            if isinstance(node, A.FnType):
                if self.annotation(node, False) == wanted:
                    found.append(node)
                stack.extend((*node.params, node.ret))
            elif isinstance(node, (A.ListType, A.OptionType)):
                stack.append(node.inner)
            elif isinstance(node, A.ResultType):
                stack.extend((node.ok, node.err))
            elif isinstance(node, A.MapType):
                stack.extend((node.key, node.value))
        return found[0] if len(found) == 1 else None

    def calls_value(self, fn: A.FnDef, name: str) -> bool:
        return any(isinstance(call.func, A.Ident) and call.func.name == name
                   for call in self.ctx.nodes_of(fn, (A.Call,)))

    def declare_edit(self, fn: A.FnDef, names: list, lines: dict, at_line: int, at: int,
                     grown: int):
        """(line, new text) declaring `names` on `fn` (on top of the edits in `lines`;
        `grown` characters were inserted at index `at` of line `at_line`)."""
        line = fn.caps_line or fn.body.line
        text = lines.get(line, self.ctx.line_text(line))
        index = self.ctx.index_of(line, fn.caps_col if fn.caps_line else fn.body.col)
        if text is None or index is None:
            return None
        if line == at_line and index >= at:
            index += grown
        if fn.caps_line:
            close = text.find("}", index)
            if close < 0:
                return None
            sep = "" if text[index:close].rstrip().endswith("{") else ", "
            return line, text[:close].rstrip() + sep + ", ".join(names) + text[close:]
        return line, text[:index].rstrip() + f" !{{{', '.join(names)}}} " + text[index:]

    def arguments(self, expr: A.Call, name: str, params, ret: Type, declared, env: Env,
                  quoted: bool = True, contract: bool = True) -> Type:
        """Check each argument of a call against its parameter type (extra or missing
        arguments are the name checker's arity error). A builtin's generic parameters are
        no `contract`: its result carries the capabilities of the function values passed
        (a list with `query` pushed onto it holds `query`)."""
        carried = frozenset()
        for index, arg in enumerate(expr.args):
            if index >= len(params):
                self.infer(arg, env)
                continue
            label = None
            if declared is not None and index < len(declared) and declared[index].ty is not None:
                param = declared[index]
                label = self.label_at(param.ty, lambda param=param, ty=params[index]: (
                    f"`{name}` declares `{param.name}: {show(ty)}` here"))
            elif declared is None and quoted:
                label = (lambda params=params: Label(
                    f"`{name}` takes ({', '.join(show(p) for p in params)}) and returns "
                    f"`{show(ret)}`"))
            annotation = (declared[index].ty if declared is not None and index < len(declared)
                          else None)
            holder = ((self.functions[name], declared[index].name)     # for the fix only
                      if annotation.__class__ is A.FnType and name in self.functions
                      else None)
            found = self.check(arg, params[index],
                               Why((index + 1, name, quoted), label, contract=contract,
                                   annotation=annotation, holder=holder),
                               env)
            if not contract and (found.__class__ is not Con or found.args):
                carried |= effects_of(found)
        return widen(ret, carried) if carried and not contract else ret

    # ------------------------------------------------------------ records, enums, lists
    def field(self, expr: A.FieldAccess, env: Env, used: bool = True) -> Type:
        owner = find(self.infer(expr.object, env))
        if not isinstance(owner, Con) or owner is ERROR:
            return ERROR
        fields = self.records.get(owner.name)
        if fields is None:
            self.report("error", f"type mismatch: `.{expr.field}` reads a record field, but "
                        f"this is `{show(owner)}`", expr.object)
            return ERROR
        self.last_field = (expr, owner.name)
        for name, ty in fields:
            if name == expr.field:
                return ty
        self.unknown_reads.append((expr, owner.name))
        return ERROR        # an unknown field: E006's finding (`field_access.py`)

    def record(self, expr: A.RecordLit, env: Env, used: bool = True) -> Type:
        fields = self.records.get(expr.type_name)
        if fields is None:
            for _, value in expr.fields:
                self.infer(value, env)
            if expr.spread is not None:
                self.infer(expr.spread, env)
            return ERROR        # an unknown record type: type_names' finding
        declared = dict(fields)
        td = self.ctx.type_defs.get(expr.type_name)
        field_types = dict(td.kind.fields) if td is not None else {}
        for name, value in expr.fields:
            if name not in declared:
                self.infer(value, env)
                continue
            label = self.label_at(field_types.get(name),
                                  lambda name=name: f"`{expr.type_name}.{name}` is declared "
                                                    f"`{show(declared[name])}` here")
            self.check(value, declared[name], Why(f"the field `{name}` of `{expr.type_name}`",
                                                  label, contract=True,
                                                  annotation=field_types.get(name)), env)
        if expr.spread is not None:
            self.check(expr.spread, Con(expr.type_name),
                       Why(f"the `..` spread of a `{expr.type_name}` literal"), env)
        return Con(expr.type_name)

    def variant(self, expr: A.EnumVariant, env: Env, used: bool = True) -> Type:
        variants = self.enums.get(expr.enum_name)
        if variants is None or expr.variant not in variants:
            if expr.payload is not None:
                self.infer(expr.payload, env)
            return ERROR        # unknown enum or variant: type_names' finding
        payload = variants[expr.variant]
        name = f"{expr.enum_name}::{expr.variant}"
        if expr.payload is None:
            if payload is not None:
                self.report("error", f"`{name}` carries a payload of type `{show(payload)}`, "
                            f"but none is given", expr, help_text=f"write `{name}(value)`")
        elif payload is None:
            self.infer(expr.payload, env)
            self.report("error", f"`{name}` carries no payload, but one is given",
                        expr.payload, help_text=f"write `{name}`")
        else:
            self.check(expr.payload, payload, Why(f"the payload of `{name}`",
                                                  self.payload_label(expr.enum_name,
                                                                     expr.variant),
                                                  contract=True, annotation=self.payload_type(
                                                      expr.enum_name, expr.variant)), env)
        return Con(expr.enum_name)

    def payload_type(self, enum: str, variant: str):
        """The payload's type annotation of `enum::variant`, or None."""
        td = self.ctx.type_defs.get(enum)
        if td is None or not isinstance(td.kind, A.EnumKind):
            return None
        return next((payload for name, payload in td.kind.variants if name == variant), None)

    def payload_label(self, enum: str, variant: str) -> Optional[Label]:
        td = self.ctx.type_defs.get(enum)
        if td is None or not isinstance(td.kind, A.EnumKind):
            return None
        for name, payload in td.kind.variants:
            if name == variant and payload is not None:
                return self.label_at(payload, f"`{enum}::{variant}` is declared with a "
                                              f"`{show(self.enums[enum][variant])}` payload "
                                              f"here")
        return None

    def list_lit(self, expr: A.ListLit, env: Env, used: bool = True) -> Type:
        if not expr.items:
            return list_of(self.supply.fresh())
        first = self.infer(expr.items[0], env)
        label = self.label_at(expr.items[0], f"the first element is `{shown_now(first)}`")
        element = first
        why = Why("an element of this list", label)      # the same for every element
        for item in expr.items[1:]:
            found = self.check(item, first, why, env)
            if element is not found and (element.__class__ is not Con or element.args):
                element = join(element, found)      # (`join` gives a plain type back as is)
        return list_of(element)

    # ------------------------------------------------------------ if and match
    def if_expr(self, expr: A.If, env: Env, used: bool) -> Type:
        if expr.else_block is None and used:
            return self.if_without_else(expr, env, None, None)
        self.condition(expr.condition, env, "the condition of this `if`")
        if expr.else_block is None or not used:
            self.block(expr.then_block, env, None, None, used=False)
            if expr.else_block is not None:
                self.block(expr.else_block, env, None, None, used=False)
            return ERROR
        then = self.block(expr.then_block, env, None, None)
        tail = self.tail(expr.then_block)
        label = self.label_at(tail, f"the `then` branch is `{shown_now(then)}`")
        return join(then, self.block(expr.else_block, env, then, Why("the `else` branch",
                                                                      label)))

    def if_without_else(self, expr: A.If, env: Env, expected: Optional[Type],
                        why: Optional[Why]) -> Type:
        """The type of an `if` without `else` whose value is used: the VM gives the `then`
        branch's value when the condition holds and `()` otherwise, so it is `Unit` when
        that branch is; any other branch type is reported here (ERROR afterwards: one
        report). An error when an annotation expects that other type (the value contradicts
        it whenever the condition is false), else a warning."""
        self.condition(expr.condition, env, "the condition of this `if`")
        then = find(self.block(expr.then_block, env, None, None))
        if then is ERROR or can_unify(then, UNIT):
            if not isinstance(then, Con):
                unify(then, UNIT)
            return UNIT
        target = find(expected) if expected is not None else None
        if target == UNIT:          # a `-> Unit` body or slot: the value is dropped anyway
            return UNIT
        annotated = isinstance(target, Con) and target is not ERROR
        place = why.what if annotated else "its value"
        labels = [why.label] if annotated and why.label is not None else []
        self.report("error" if annotated else "warning",
                    f"type mismatch: this `if` has no `else`, so {place} is `()` when the "
                    f"condition is false and `{show(then)}` when it is true", expr,
                    labels=labels, length=len("if"),
                    help_text="add an `else` branch with the value for the other case")
        return ERROR

    @staticmethod
    def tail(block: A.Block):
        if block.stmts and isinstance(block.stmts[-1], A.ExprStmt):
            return block.stmts[-1].expr
        return block

    def match(self, expr: A.Match, env: Env, used: bool) -> Type:
        scrutinee = self.infer(expr.value, env)
        result: Optional[Type] = None
        label = None
        for index, (arm, arm_env) in enumerate(zip(expr.arms, self.arm_envs(expr, scrutinee,
                                                                             env))):
            if not used:
                self.infer(arm.body, arm_env, used=False)
            elif result is None:
                result = first = self.infer(arm.body, arm_env)
                label = self.label_at(arm.body, f"the 1st arm is `{shown_now(result)}`")
            else:
                result = join(result, self.check(arm.body, first, Why(
                    f"the {ordinal(index + 1)} arm of this `match`", label), arm_env))
        return result if result is not None else ERROR

    def arm_envs(self, expr: A.Match, scrutinee: Type, env: Env) -> list[Env]:
        """Each arm's environment with its pattern's binding; of the patterns that can
        never match the scrutinee, only the first is reported (one root cause)."""
        envs, reported = [], False
        for arm in expr.arms:
            arm_env = dict(env)
            before = len(self.out)
            self.pattern(arm.pattern, scrutinee, arm_env, expr.value)
            if len(self.out) > before:
                if reported:
                    del self.out[before:]
                reported = True
            envs.append(arm_env)
        return envs

    def pattern(self, pat, t: Type, env: Env, scrutinee) -> None:
        """Bind a pattern's name in `env`; report a pattern that can never match a value of
        type `t`."""
        if isinstance(pat, A.WildcardPat):
            return
        if isinstance(pat, A.IdentPat):
            env[pat.name] = Binding(t, pat, False)
            return
        literal = _LITERAL_PATTERNS.get(type(pat))
        if literal is not None:
            self.pattern_type(pat, t, literal, scrutinee)
            return
        if isinstance(pat, (A.NonePat, A.SomePat)):
            inner = self.supply.fresh()
            if self.pattern_type(pat, t, option_of(inner), scrutinee) and isinstance(
                    pat, A.SomePat):
                self.pattern(pat.inner, inner, env, scrutinee)
            elif isinstance(pat, A.SomePat):
                self.pattern(pat.inner, ERROR, env, scrutinee)
            return
        if isinstance(pat, (A.OkPat, A.ErrPat)):
            ok, err = self.supply.fresh(), self.supply.fresh()
            matched = self.pattern_type(pat, t, result_of(ok, err), scrutinee)
            self.pattern(pat.inner, (ok if isinstance(pat, A.OkPat) else err) if matched
                         else ERROR, env, scrutinee)
            return
        if isinstance(pat, A.VariantPat):
            self.variant_pattern(pat, t, env, scrutinee)

    def pattern_type(self, pat, t: Type, want: Type, scrutinee) -> bool:
        try:
            unify(t, want)
            return True
        except Mismatch:
            self.report("error", f"type mismatch: this pattern matches `{show(want)}` values, "
                        f"but the matched value is `{show(t)}`, so it can never match", pat,
                        labels=[self.label_at(scrutinee, f"this is `{show(t)}`")],
                        length=self.pattern_length(pat))
            return False

    @staticmethod
    def pattern_length(pat) -> Optional[int]:
        if isinstance(pat, A.VariantPat) and pat.inner is None:
            return len(pat.name.encode("utf-8"))
        if isinstance(pat, A.NonePat):
            return 4
        return None

    def pattern_enum(self, pat: A.VariantPat, resolved: Type, scrutinee) -> Optional[str]:
        """The enum whose variant `pat` tests: the scrutinee's, or, when the scrutinee's type
        is unknown, the only enum declaring the variant (the scrutinee is then bound to it).
        None when not known or after reporting a variant of another type."""
        owners = self.variant_owners.get(pat.name, [])
        if not owners:              # no enum declares it: type_names' finding
            return None
        if isinstance(resolved, Var) or resolved is ERROR:
            if len(owners) != 1:
                return None
            if isinstance(resolved, Var):
                unify(resolved, Con(owners[0]))
            return owners[0]
        variants = self.enums.get(resolved.name)
        if variants is not None and pat.name in variants:
            return resolved.name
        help_text = (f"`{resolved.name}` has the variants {', '.join(variants)}"
                     if variants else None)
        self.report("error", f"type mismatch: `{pat.name}` is a variant of `{owners[0]}`, "
                    f"but the matched value is `{show(resolved)}`", pat,
                    labels=[self.label_at(scrutinee, f"this is `{show(resolved)}`")],
                    help_text=help_text, length=len(pat.name.encode("utf-8")))
        return None

    def variant_pattern(self, pat: A.VariantPat, t: Type, env: Env, scrutinee) -> None:
        enum = self.pattern_enum(pat, find(t), scrutinee)
        if enum is None:
            if pat.inner is not None:
                self.pattern(pat.inner, ERROR, env, scrutinee)
            return
        payload = self.enums[enum][pat.name]
        if pat.inner is None:
            return
        if payload is None:
            self.report("error", f"`{enum}::{pat.name}` carries no payload, but this pattern "
                        f"expects one", pat.inner, help_text=f"write `{pat.name}`")
            self.pattern(pat.inner, ERROR, env, scrutinee)
            return
        self.pattern(pat.inner, payload, env, scrutinee)


_IDENT = A.Ident

# the expressions `check` pushes an expected constructor's arguments into
_PUSHED_INTO = frozenset((A.ListLit, A.SomeExpr, A.OkExpr, A.ErrExpr))

# literal pattern class -> the type of the values it matches
_LITERAL_PATTERNS = {A.IntPat: INT, A.StringPat: STRING, A.BoolPat: BOOL}

# expression class -> how `Checker.infer` types it (checker, expression, env, used); the
# methods are called as functions, one call per node (no subclass overrides them)
_INFER = {
    A.IntLit: lambda c, e, env, used: INT,
    A.FloatLit: lambda c, e, env, used: FLOAT,
    A.StringLit: lambda c, e, env, used: STRING,
    A.BoolLit: lambda c, e, env, used: BOOL,
    A.NoneLit: lambda c, e, env, used: option_of(c.supply.fresh()),
    A.Ident: Checker.ident,
    A.Binary: Checker.binary,
    A.Unary: Checker.unary,
    A.Call: Checker.call,
    A.FieldAccess: Checker.field,
    A.If: Checker.if_expr,
    A.Match: Checker.match,
    A.RecordLit: Checker.record,
    A.EnumVariant: Checker.variant,
    A.ListLit: Checker.list_lit,
    A.SomeExpr: lambda c, e, env, used: option_of(c.infer(e.expr, env)),
    A.OkExpr: lambda c, e, env, used: result_of(c.infer(e.expr, env), c.supply.fresh()),
    A.ErrExpr: lambda c, e, env, used: result_of(c.supply.fresh(), c.infer(e.expr, env)),
    A.Emit: lambda c, e, env, used: c.infer(e.expr, env),
    A.BlockExpr: lambda c, e, env, used: c.block(e.block, env, None, None, used),
    A.Send: Checker.send,
    A.Spawn: Checker.spawn,
}


class ValueCall:
    """A call of a function value: the calling function, the call, the capabilities of the
    value's type, and for a `let mut` the binding, whose type gains the capabilities of
    every function assigned to it, also after this call (a loop may come back to it);
    `label` builds the label at where the capabilities come from."""

    __slots__ = ("fn", "call", "known", "binding", "label")

    def __init__(self, fn, call, known: frozenset, binding, label):
        self.fn, self.call, self.known, self.binding, self.label = (fn, call, known, binding,
                                                                    label)

    @property
    def effects(self) -> frozenset:
        if self.binding is None:
            return self.known
        final = find(self.binding.ty)
        return self.known | (final.effects if isinstance(final, Con) else frozenset())


def checked(ctx: CheckContext) -> Checker:
    """The checker run over every function of `ctx`'s program (once per context)."""
    checker = ctx.cache.get("types")
    if checker is None:
        # a tool that goes on asking about types (the language server) puts a recording
        # subclass here (`node_types.RecordingChecker`); `boruna check` runs the plain one
        checker = ctx.cache.get("checker_class", Checker)(ctx)
        for fn in ctx.program.functions():
            checker.function(fn)
        checker.out.sort(key=lambda d: (d.span.line, d.span.col or 0) if d.span else (0, 0))
        ctx.cache["types"] = checker
    return checker


def check_types(ctx: CheckContext) -> list[Diagnostic]:
    """The E009 type findings of the program in `ctx`, in source order."""
    return list(checked(ctx).out)
