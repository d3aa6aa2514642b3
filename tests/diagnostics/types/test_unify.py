"""Unification (`diagnostics/types/unify.py`): union-find bindings, the occurs check, the
error type, and a failed unification leaving nothing bound."""
import pytest

from boruna.diagnostics.types.types import ERROR, INT, STRING, VarSupply, fn_of, list_of
from boruna.diagnostics.types.unify import Mismatch, can_unify, find, resolve, unify


def test_variables_bind_through_each_other():
    supply = VarSupply()
    a, b = supply.fresh(), supply.fresh()
    unify(a, b)
    unify(list_of(b), list_of(INT))
    assert resolve(a) == INT and resolve(list_of(a)) == list_of(INT)


def test_occurs_check():
    a = VarSupply().fresh()
    with pytest.raises(Mismatch):
        unify(a, list_of(a))


def test_failure_undoes_its_bindings():
    supply = VarSupply()
    a, b = supply.fresh(), supply.fresh()
    with pytest.raises(Mismatch):
        unify(fn_of([a, b], INT), fn_of([INT, STRING], STRING))
    assert find(a) is a and find(b) is b


def test_error_type_unifies_with_everything_and_binds_nothing():
    a = VarSupply().fresh()
    unify(ERROR, list_of(INT))
    unify(a, ERROR)
    assert find(a) is a
    assert can_unify(list_of(ERROR), list_of(STRING))
    assert not can_unify(INT, STRING) and find(a) is a
