"""Type-strict structural equality of the value classes (docs/spec/vm.md §3.3)."""
import math

from boruna.core.values import (
    NONE, ActorId, Enum, Err, FnRef, MapValue, Ok, Record, Some, _same,
)


def test_int_and_float_are_never_equal():
    assert not _same(1, 1.0)
    assert Some(1) != Some(1.0)
    assert Record(0, (1,)) != Record(0, (1.0,))


def test_bool_and_int_are_never_equal():
    assert not _same(True, 1)
    assert Ok(True) != Ok(1)
    assert not _same((True,), (1,))


def test_float_equality_is_ieee():
    assert _same(0.0, -0.0)
    assert not _same(math.nan, math.nan)


def test_structures_compare_deeply():
    assert Enum(1, 2, (Some("a"),)) == Enum(1, 2, (Some("a"),))
    assert Enum(1, 2, None) != Enum(1, 3, None)
    assert Enum(1, 2, None) != Enum(2, 2, None)
    assert Record(0, (1, 2)) != Record(1, (1, 2))
    assert MapValue({"a": 1}) == MapValue({"a": 1})
    assert not _same(MapValue({"a": 1}), MapValue({"a": True}))
    assert Some(1) != Ok(1)
    assert Ok(1) != Err(1)
    assert ActorId(1) != FnRef(1)
    assert NONE is type(NONE)()


def test_unit_is_not_none_variant():
    assert not _same(None, NONE)
