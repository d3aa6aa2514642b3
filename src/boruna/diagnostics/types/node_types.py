"""What the type checker infers for each node, for editors (hover, inlay hints, completion).

`boruna check` runs the plain `Checker` and records nothing; `node_types(ctx)` runs a
`RecordingChecker`, the same checker whose `infer`/`check`/`pattern`/`stmt` also note the
type each expression, pattern binding and `let` got. Types are kept as checker terms and shown
only when asked (`NodeTypes.text`), after every unification of the program is done, so a
variable bound late (`let xs = []` then a push) shows what the whole function made of it.
"""
from __future__ import annotations

from typing import Optional

from boruna.language import ast as A

from ..context import CheckContext
from .infer import Checker, show
from .types import ERROR, Con, Type
from .unify import find


class RecordingChecker(Checker):
    """The type checker, noting the type of every node it types (by node identity)."""

    def __init__(self, ctx: CheckContext):
        self.recorded: dict[int, tuple[object, Type]] = {}
        super().__init__(ctx)

    def infer(self, expr, env, used: bool = True) -> Type:
        found = super().infer(expr, env, used)
        self.recorded[id(expr)] = (expr, found)
        return found

    # each override hands back what the checker's method returns, whatever that is
    def check(self, expr, expected: Type, why, env):
        result = super().check(expr, expected, why, env)
        self.recorded.setdefault(id(expr), (expr, expected))
        return result

    def pattern(self, pat, t: Type, env, scrutinee):
        result = super().pattern(pat, t, env, scrutinee)
        if isinstance(pat, A.IdentPat):
            self.recorded[id(pat)] = (pat, t)
        return result

    def stmt(self, stmt, env):
        result = super().stmt(stmt, env)
        if isinstance(stmt, A.Let) and stmt.name in env:
            self.recorded[id(stmt)] = (stmt, env[stmt.name].ty)
        return result


class NodeTypes:
    """The types a `RecordingChecker` noted, and the function signatures it read."""

    def __init__(self, checker: RecordingChecker):
        self._recorded = checker.recorded
        self._signatures = checker.signatures
        self.records = checker.records
        self.enums = checker.enums

    def term(self, node) -> Optional[Type]:
        """The checker term of `node` (an expression, an identifier pattern, a `let`), or
        None when the checker never typed it (dead code, a parameter)."""
        entry = self._recorded.get(id(node))
        if entry is None or entry[0] is not node:
            return None
        return entry[1]

    def text(self, node) -> Optional[str]:
        """`node`'s type as `.ax` writes it (`_` for an unknown part), or None."""
        term = self.term(node)
        if term is None or find(term) is ERROR:
            return None
        return show(term)

    def named(self, node) -> Optional[str]:
        """The record or enum type name of `node`'s value, when the checker knows it."""
        term = self.term(node)
        if term is None:
            return None
        resolved = find(term)
        if isinstance(resolved, Con) and (resolved.name in self.records
                                          or resolved.name in self.enums):
            return resolved.name
        return None

    def element(self, node) -> Optional[str]:
        """The element type of a `List` value (for a `for` variable), as text."""
        term = self.term(node)
        resolved = find(term) if term is not None else None
        if isinstance(resolved, Con) and resolved.name == "List" and resolved.args:
            element = find(resolved.args[0])
            return None if element is ERROR else show(element)
        return None

    def signature_text(self, name: str) -> Optional[tuple[list[str], str]]:
        """(parameter types, result type) of user or library function `name`, as text."""
        sig = self._signatures.get(name)
        if sig is None:
            return None
        params, ret = sig
        return [show(p) for p in params], show(ret)


def node_types(ctx: CheckContext) -> NodeTypes:
    """The types of `ctx`'s program: those its check recorded (`collector.
    check_source_context` has the type pass use a `RecordingChecker`), else from a
    `RecordingChecker` run now (run it where deep programs cannot exhaust the stack:
    `core.deep_stack.call_deep`)."""
    checker = ctx.cache.get("types")
    if not isinstance(checker, RecordingChecker):
        checker = RecordingChecker(ctx)
        for fn in ctx.program.functions():
            checker.function(fn)
    return NodeTypes(checker)
