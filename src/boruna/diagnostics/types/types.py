"""Type terms of the static checker.

A type is a `Con` (a constructor with arguments: `Int`, `List<T>`, `Map<K, V>`,
`Option<T>`, `Result<T, E>`, a nominal record or enum by its name, `Fn` whose arguments are
the parameter types then the result type, and whose `effects` are the capabilities (wire
names) a call of it needs: `Fn(String) -> Int !{db.query}`; empty for every other type) or a `Var` (an inference variable, bound through
`unify.py`'s union-find). `ERROR` is the type of an erroneous or unknowable term: it unifies
with everything, so one mistake is reported once (no cascade).
"""
from __future__ import annotations

from typing import Optional, Union

PRIMITIVES = ("Int", "Float", "String", "Bool", "Unit", "ActorId")   # ActorId: what spawn gives
GENERIC_ARITY = {"List": 1, "Option": 1, "Result": 2, "Map": 2}


class Con:
    """A type constructor applied to its arguments; immutable, equal by value."""

    __slots__ = ("name", "args", "effects")

    def __init__(self, name: str, args: tuple = (), effects: frozenset = frozenset()):
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "effects", effects)

    def __setattr__(self, key, value):
        raise AttributeError("Con is immutable")

    def __eq__(self, other) -> bool:
        if self is other:
            return True
        if other.__class__ is not Con:
            return NotImplemented
        return (self.name == other.name and self.args == other.args
                and self.effects == other.effects)

    def __hash__(self) -> int:
        return hash((self.name, self.args))

    def __repr__(self) -> str:
        effects = f", effects={set(self.effects)!r}" if self.effects else ""
        return f"Con(name={self.name!r}, args={self.args!r}{effects})"


class Var:
    """An inference variable; `parent` is its union-find link (None: a root), `bound` the
    type a root stands for once unified with a constructor."""

    __slots__ = ("id", "parent", "bound", "rank")

    def __init__(self, ident: int):
        self.id = ident
        self.parent: Optional[Var] = None
        self.bound: Optional[Con] = None
        self.rank = 0

    def __repr__(self) -> str:
        return f"Var({self.id})"


Type = Union[Con, Var]

ERROR = Con("?")          # the only Con named "?": compared by identity
PRIMITIVE_TYPES = tuple(Con(name) for name in PRIMITIVES)
INT, FLOAT, STRING, BOOL, UNIT, ACTOR_ID = PRIMITIVE_TYPES


def list_of(t: Type) -> Con:
    return Con("List", (t,))


def option_of(t: Type) -> Con:
    return Con("Option", (t,))


def result_of(ok: Type, err: Type) -> Con:
    return Con("Result", (ok, err))


def fn_of(params, result: Type, effects: frozenset = frozenset()) -> Con:
    return Con("Fn", (*params, result), effects)


def fn_parts(t: Con) -> tuple[tuple[Type, ...], Type]:
    """The parameter types and the result type of an `Fn` constructor."""
    return t.args[:-1], t.args[-1]


class VarSupply:
    """Fresh inference variables, numbered in creation order."""

    def __init__(self):
        self.count = 0

    def fresh(self) -> Var:
        self.count += 1
        return Var(self.count)
