"""Capability sets on function types (issue 21): `Fn(String) -> Int !{db.query}`.

A function value's type carries the capabilities a call of it needs (`Con.effects`, wire
names). Unification ignores them; where a value meets a declared type, `misfit` compares
them by inclusion: a function fits a `Fn` type whose set covers its own (a pure one fits
every `Fn` type), and, in a parameter position (contravariant), the other way round. Where
values of one type merge without a declaration (the items of a list, the branches of an
`if`, a `match`'s arms, a variable assigned again), `join` gives the union, so the merged
value carries every capability any of them needs.
"""
from __future__ import annotations

from typing import Optional

from boruna.core.capabilities import from_source_name

from .types import ERROR, Con, Type
from .unify import find

MAX_WALK = 10_000       # nodes of one type walked (deeper types are not judged)


def wire_names(names) -> frozenset:
    """The wire names of capability names as written (`db` -> `db.query`); unknown names
    grant nothing (the compiler drops them), so they are left out."""
    out = set()
    for name in names:
        cap = from_source_name(name)
        if cap is not None:
            out.add(cap.wire_name)
    return frozenset(out)


def has_effects(t: Type) -> bool:
    """Whether some function type inside `t` carries a capability."""
    stack, seen = [t], 0
    while stack and seen < MAX_WALK:
        seen += 1
        current = find(stack.pop())
        if current.__class__ is not Con:
            continue
        if current.effects:
            return True
        stack.extend(current.args)
    return False


def effects_of(t: Type) -> frozenset:
    """Every capability the function types in `t`'s result positions carry (what calling
    something taken out of a value of type `t` may need)."""
    out: set = set()
    stack, seen = [t], 0
    while stack and seen < MAX_WALK:
        seen += 1
        current = find(stack.pop())
        if current.__class__ is not Con:
            continue
        out |= current.effects
        stack.extend(current.args[-1:] if current.name == "Fn" else current.args)
    return frozenset(out)


def misfit(found: Type, expected: Type) -> Optional[tuple[Con, Con, frozenset, bool]]:
    """The first function type in `found` whose capabilities the matching one in
    `expected` does not cover: (found part, expected part, the missing capabilities, False
    when it is in a parameter position: `found` does not accept what `expected` may pass),
    or None when it fits. Parts that do not match structurally are unification's
    business."""
    stack, seen = [(found, expected, True)], 0
    while stack and seen < MAX_WALK:
        seen += 1
        f, e, positive = stack.pop()
        f, e = find(f), find(e)
        if f.__class__ is not Con or e.__class__ is not Con or f is ERROR or e is ERROR:
            continue
        if not f.args or f.name != e.name or len(f.args) != len(e.args):
            continue
        if f.name == "Fn":
            missing = (f.effects - e.effects) if positive else (e.effects - f.effects)
            if missing:
                return f, e, frozenset(missing), positive
            stack.append((f.args[-1], e.args[-1], positive))
            stack.extend((fp, ep, not positive) for fp, ep in zip(f.args[:-1], e.args[:-1]))
        else:
            stack.extend((fa, ea, positive) for fa, ea in zip(f.args, e.args))
    return None


def join(a: Type, b: Type, positive: bool = True, depth: int = 0) -> Type:
    """`a` with the capabilities of the matching function types in `b` added (in result
    positions; a parameter position keeps only the shared ones). `a` itself when `b` adds
    nothing."""
    if a is b or (a.__class__ is Con and not a.args):      # the common case: a plain type
        return a
    a_root, b_root = find(a), find(b)
    if (a_root.__class__ is not Con or b_root.__class__ is not Con or a_root is b_root
            or not a_root.args or a_root.name != b_root.name
            or len(a_root.args) != len(b_root.args) or depth > 100):
        return a
    if not (has_effects(a_root) or has_effects(b_root)):
        return a
    if a_root.name == "Fn":
        effects = (a_root.effects | b_root.effects) if positive else (
            a_root.effects & b_root.effects)
        args = tuple(join(x, y, not positive, depth + 1)
                     for x, y in zip(a_root.args[:-1], b_root.args[:-1]))
        args += (join(a_root.args[-1], b_root.args[-1], positive, depth + 1),)
    else:
        effects = a_root.effects
        args = tuple(join(x, y, positive, depth + 1) for x, y in zip(a_root.args, b_root.args))
    if effects == a_root.effects and all(x is y for x, y in zip(args, a_root.args)):
        return a
    return Con(a_root.name, args, effects)


def widen(t: Type, effects: frozenset, depth: int = 0) -> Type:
    """`t` with `effects` added to every function type in a result position (a builtin's
    result built from its arguments: a list with `query` pushed onto it holds `query`)."""
    root = find(t)
    if not effects or root.__class__ is not Con or not root.args or depth > 100:
        return t
    if root.name == "Fn":
        return Con("Fn", root.args[:-1] + (widen(root.args[-1], effects, depth + 1),),
                   root.effects | effects)
    return Con(root.name, tuple(widen(a, effects, depth + 1) for a in root.args), root.effects)
