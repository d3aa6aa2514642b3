"""The checker's one view of the builtin table (`boruna.core.builtins`): a builtin's
signature as checker types, instantiated with fresh variables at each call, and the
conversion builtins a mismatch can suggest."""
from __future__ import annotations

from functools import lru_cache
from typing import Optional

from boruna.core import builtins as B

from .types import ERROR, PRIMITIVE_TYPES, PRIMITIVES, Con, Type, VarSupply
from .unify import find


def _convert(ty, mapping: dict, supply: VarSupply) -> Type:
    if isinstance(ty, B.TypeCon) and ty.name == B.DYNAMIC:
        return ERROR            # known only at run time: accepted wherever a type is expected
    if isinstance(ty, B.TypeVar):
        if ty.name not in mapping:
            mapping[ty.name] = supply.fresh()
        return mapping[ty.name]
    if not ty.args:         # a plain type: one term per name, made once
        plain = _PLAIN.get(ty.name)
        if plain is None:
            plain = _PLAIN[ty.name] = Con(ty.name)
        return plain
    return Con(ty.name, tuple([_convert(a, mapping, supply) for a in ty.args]))


# a builtin signature's plain type name -> its term (types are equal by value)
_PLAIN: dict[str, Con] = dict(zip(PRIMITIVES, PRIMITIVE_TYPES))

# builtin name -> its signature when that has no type variable: terms are immutable and
# equal by value, so one converted signature serves every call (no fresh variable is made
# for it either way)
_FIXED: dict[str, tuple[tuple[Type, ...], Type]] = {}


def signature_of(name: str, supply: VarSupply) -> Optional[tuple[tuple[Type, ...], Type]]:
    """(parameter types, result type) of builtin `name` with fresh type variables, or None
    when `name` is no builtin."""
    builtin = B.BY_NAME.get(name)
    if builtin is None:
        return None
    fixed = _FIXED.get(name)
    if fixed is not None:
        return fixed
    mapping: dict = {}
    params = tuple([_convert(p, mapping, supply) for p in builtin.signature.params])
    signature = params, _convert(builtin.signature.result, mapping, supply)
    if not mapping:
        _FIXED[name] = signature
    return signature


def is_guard(name: str) -> bool:
    """Whether builtin `name` is the sealed guard, which traps when its condition is false
    (so `guard(v, false, label)` never produces a value)."""
    builtin = B.BY_NAME.get(name)
    return builtin is not None and builtin.opcode == "GuardSeal"


def capability_of(name: str) -> Optional[str]:
    """The wire name of the capability builtin `name` needs, or None."""
    builtin = B.BY_NAME.get(name)
    return None if builtin is None else builtin.capability


@lru_cache(maxsize=None)
def provided_capabilities() -> frozenset:
    """The capabilities some builtin uses (the only ones a function can be seen to use)."""
    return frozenset(b.capability for b in B.BUILTINS if b.capability)


@lru_cache(maxsize=None)
def capability_names() -> frozenset:
    """Every name `capability_of` gives a capability for."""
    return frozenset(name for name, b in B.BY_NAME.items() if b.capability is not None)


@lru_cache(maxsize=None)
def _unary_conversions() -> tuple:
    """(name, parameter type name, result type) of the conversion builtins: those taking one
    plain value whose name says they convert (`..._to_string`, `...parse...`)."""
    out = []
    for b in B.BUILTINS:
        sig = b.signature
        if (b.capability is None and len(sig.params) == 1
                and isinstance(sig.params[0], B.TypeCon) and not sig.params[0].args
                and isinstance(sig.result, B.TypeCon)
                and (b.name.endswith("_to_string") or "parse" in b.name)):
            out.append((b.name, sig.params[0].name, sig.result))
    return tuple(out)


def conversions(found: Type, expected: Type) -> list[str]:
    """Builtins that turn a `found` value into an `expected` one: `(found) -> expected`
    first, then those giving `Result<expected, _>` or `Option<expected>`."""
    found, expected = find(found), find(expected)
    if not (isinstance(found, Con) and isinstance(expected, Con) and not found.args
            and not expected.args):
        return []
    direct, wrapped = [], []
    for name, param, result in _unary_conversions():
        if param != found.name or found.name == expected.name:
            continue
        if result.name == expected.name and not result.args:
            direct.append(name)
        elif (result.name in ("Result", "Option") and result.args
              and isinstance(result.args[0], B.TypeCon) and result.args[0].name == expected.name
              and not result.args[0].args):
            wrapped.append(name)
    return direct + wrapped


__all__ = ["capability_names", "capability_of", "conversions", "is_guard", "provided_capabilities",
           "signature_of"]
