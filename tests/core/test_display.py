"""display(): the Display form of every value kind (docs/spec/vm.md §3.2)."""
import pytest

from boruna.core.display import display
from boruna.core.values import (
    NONE, ActorId, Enum, Err, FnRef, MapValue, Ok, Record, Some,
)


@pytest.mark.parametrize("value, expected", [
    (None, "()"),
    (True, "true"),
    (False, "false"),
    (42, "42"),
    (-7, "-7"),
    (1.5, "1.5"),
    (2.0, "2"),
    ("abc", '"abc"'),
    ('say "hi"\n', '"say "hi"\n"'),      # no escaping at all
    ("", '""'),
    (NONE, "None"),
    (Some(5), "Some(5)"),
    (Ok("x"), 'Ok("x")'),
    (Err(None), "Err(())"),
    (Record(0, (1, "a")), 'Record#0{1, "a"}'),
    (Record(3, ()), "Record#3{}"),
    (Enum(1, 2, None), "Enum#1::2(())"),
    (Enum(65534, 1, 5), "Enum#65534::1(5)"),
    ((), "[]"),
    ((1, 2, 3), "[1, 2, 3]"),
    (MapValue({"b": 1, "a": "x"}), '{a: "x", b: 1}'),
    (MapValue({}), "{}"),
    (ActorId(3), "Actor#3"),
    (FnRef(0), "Fn#0"),
])
def test_every_value_kind(value, expected):
    assert display(value) == expected


def test_nested_values():
    v = (Some((1, Ok(Record(2, (MapValue({"k": (NONE,)}), 0.5))))), Enum(0, 0, (True,)))
    assert display(v) == "[Some([1, Ok(Record#2{{k: [None]}, 0.5})]), Enum#0::0([true])]"


def test_deep_nesting_does_not_hit_the_recursion_limit():
    v = ()
    for _ in range(50_000):
        v = (v,)
    text = display(v)
    assert text == "[" * 50_001 + "]" * 50_001


from hypothesis import given, settings, strategies as st  # noqa: E402

from boruna.core.display import _display_iterative  # noqa: E402

_leaves = (st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5)
           | st.just(NONE) | st.builds(ActorId, st.integers(0, 99))
           | st.builds(FnRef, st.integers(0, 99)))
_values = st.recursive(_leaves, lambda inner: (
    st.lists(inner, max_size=4).map(tuple)
    | st.builds(Some, inner) | st.builds(Ok, inner) | st.builds(Err, inner)
    | st.builds(Record, st.integers(0, 9), st.lists(inner, max_size=3).map(tuple))
    | st.builds(Enum, st.integers(0, 9), st.integers(0, 9), inner)
    | st.dictionaries(st.text(max_size=3), inner, max_size=3).map(MapValue)), max_leaves=30)


@settings(max_examples=200)
@given(_values)
def test_fast_and_iterative_paths_agree(value):
    assert display(value) == _display_iterative(value)


def test_switch_to_the_iterative_path_mid_value():
    v = 1
    for i in range(450):
        v = Some(v) if i % 2 else (v, "x")
    assert display(v) == _display_iterative(v)
