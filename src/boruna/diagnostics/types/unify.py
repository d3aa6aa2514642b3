"""Unification over `types.py` terms: a union-find substitution with an occurs check.

`unify(a, b)` either succeeds (binding variables) or raises `Mismatch` and leaves every
variable as it was (the bindings it made are undone), so a failed check never half-binds.
`ERROR` unifies with anything and binds nothing. A function type's `effects` take no part:
they are compared by inclusion where a value meets a declared type (`effect_types.py`).
"""
from __future__ import annotations

from .types import ERROR, Con, Type, Var


class Mismatch(Exception):
    """Two types that cannot be made equal."""


def find(t: Type) -> Type:
    """The representative of `t`: its bound constructor, its root variable, or `t`."""
    if t.__class__ is Con:      # neither class has subclasses: a class test suffices
        return t
    root = t
    while root.parent is not None:
        root = root.parent
    while t.parent is not None and t.parent is not root:      # path compression
        t.parent, t = root, t.parent
    return root.bound if root.bound is not None else root


def resolve(t: Type, depth: int = 0) -> Type:
    """`t` with every bound variable replaced by what it stands for (deeply)."""
    t = find(t)
    if isinstance(t, Var) or not t.args or depth > 200:
        return t
    return Con(t.name, tuple(resolve(a, depth + 1) for a in t.args), t.effects)


def _root(v: Var) -> Var:
    while v.parent is not None:
        v = v.parent
    return v


def _occurs(v: Var, t: Type) -> bool:
    stack = [t]
    while stack:
        current = find(stack.pop())
        if isinstance(current, Var):
            if _root(current) is v:
                return True
        else:
            stack.extend(current.args)
    return False


def unify(a: Type, b: Type) -> None:
    """Make `a` and `b` equal, or raise `Mismatch` with nothing bound."""
    if a is b:
        return
    if a.__class__ is Con and b.__class__ is Con and not a.args and not b.args:
        if a.name == b.name or a is ERROR or b is ERROR:    # the common case: two plain types
            return
        raise Mismatch()
    trail: list[tuple[Var, str]] = []
    try:
        _unify(a, b, trail)
    except Mismatch:
        for var, what in reversed(trail):
            if what == "bound":
                var.bound = None
            else:
                var.parent = None
        raise


def can_unify(a: Type, b: Type) -> bool:
    """Whether `a` and `b` could be equal; binds nothing either way."""
    trail: list[tuple[Var, str]] = []
    try:
        _unify(a, b, trail)
        return True
    except Mismatch:
        return False
    finally:
        for var, what in reversed(trail):
            if what == "bound":
                var.bound = None
            else:
                var.parent = None


def _unify(a: Type, b: Type, trail: list) -> None:
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x.__class__ is not Con:
            x = find(x)
        if y.__class__ is not Con:
            y = find(y)
        if x is y or x is ERROR or y is ERROR:      # ERROR is the one Con named "?"
            continue
        if x.__class__ is Var or y.__class__ is Var:
            var, other = (x, y) if x.__class__ is Var else (y, x)
            if other.__class__ is Var:
                var, other = _root(var), _root(other)
                if var is other:
                    continue
                var.parent = other
                trail.append((var, "parent"))
            else:
                if other.args and _occurs(var, other):     # a plain type holds no variable
                    raise Mismatch()
                var.bound = other
                trail.append((var, "bound"))
            continue
        if x.name != y.name or len(x.args) != len(y.args):
            raise Mismatch()
        stack.extend(zip(x.args, y.args))
