"""Values in the VM's C slots (vm/values.pxi): Enum, Some/Ok/Err and FnRef are built
(MakeEnum) and read (Match, CallIndirect) through their __slots__ in C. The values the VM
builds are the classes of boruna.core.values with the fields their constructors set, and
values built by the host match and call exactly as the VM's own."""
import pytest

from boruna import _vm
from boruna.compiler import compile_source
from boruna.core.values import NONE, Enum, Err, FnRef, Ok, OptNone, Some

SHAPES = """enum Shape { Dot, Seg(Int), Box(Int) }
fn area(s: Shape) -> Int { match s { Dot => 1, Seg(n) => n, Box(n) => n * 3, } }
fn unwrap(o: Option<Int>) -> Int { match o { Some(v) => v, None => 0 - 1, } }
fn check(r: Result<Int, String>) -> Int { match r { Ok(v) => v, Err(e) => 0 - 2, } }
fn inc(x: Int) -> Int { x + 1 }
fn apply(f: Fn(Int) -> Int, v: Int) -> Int { f(v) }
fn main() -> Int { area(Shape::Dot) }
"""


def _call(name, *args):
    module = compile_source(SHAPES)
    index = next(i for i, f in enumerate(module.functions) if f.name == name)
    m = _vm.Machine(module)
    m.set_entry(index, args)
    m.run()
    return m.result, m.error, m.steps


def _result(body, decls="enum Shape { Dot, Seg(Int), Box(Int) }\n"):
    m = _vm.Machine(compile_source(decls + body))
    assert m.run() == _vm.FINISHED, m.error
    return m.result


@pytest.mark.parametrize("body, expected", [
    ("fn main() -> Shape { Shape::Seg(3) }", Enum(0, 1, 3)),
    ("fn main() -> Shape { Shape::Dot }", Enum(0, 0, None)),
    ('fn main() -> Shape { Shape::Box(-7) }', Enum(0, 2, -7)),
    ("fn main() -> Option<Int> { Some(4) }", Some(4)),
    ("fn main() -> Option<Option<String>> { Some(Some(\"a\")) }", Some(Some("a"))),
    ("fn main() -> Result<Int, String> { Ok(0) }", Ok(0)),
    ('fn main() -> Result<Int, String> { Err("no") }', Err("no")),
    ("fn main() -> Option<Float> { Some(1.5) }", Some(1.5)),
])
def test_built_values_are_the_python_classes(body, expected):
    got = _result(body)
    assert type(got) is type(expected)
    assert got == expected
    assert repr(got) == repr(expected)
    if type(got) is Enum:
        assert (got.type_id, got.variant, got.payload) == (
            expected.type_id, expected.variant, expected.payload)
    else:
        assert got.value == expected.value


def test_none_is_the_singleton():
    assert _result("fn main() -> Option<Int> { None }") is NONE


@pytest.mark.parametrize("name, arg, expected", [
    ("area", Enum(0, 0, None), (1, None, 7)),
    ("area", Enum(0, 1, 5), (5, None, 7)),
    ("area", Enum(0, 2, 4), (12, None, 8)),
    ("area", Enum(0, 7, 1), (None, "no match found for value", 2)),
    ("unwrap", Some(9), (9, None, 7)),
    ("unwrap", NONE, (-1, None, 8)),
    ("check", Ok(8), (8, None, 7)),
    ("check", Err("x"), (-2, None, 8)),
])
def test_host_values_match_as_the_vms_own(name, arg, expected):
    assert _call(name, arg) == expected


def test_host_function_reference_calls_as_a_built_one():
    module = compile_source(SHAPES)
    inc = next(i for i, f in enumerate(module.functions) if f.name == "inc")
    assert _call("apply", FnRef(inc), 41) == (42, None, 9)
    assert _call("apply", FnRef(999), 1) == (None, "invalid function index: 999", 3)


def test_an_unset_slot_fails_as_reading_the_attribute_does():
    result, error, steps = _call("area", Enum.__new__(Enum))
    assert (result, steps) == (None, 2)
    assert error == "internal error: AttributeError: 'Enum' object has no attribute 'variant'"


def test_a_subclass_is_not_the_class():
    class Sub(Some):
        __slots__ = ()
    # only the exact classes have tags of their own: a subclass hits the catch-all only
    assert _call("unwrap", Sub(3))[1] == "no match found for value"
    assert type(OptNone()) is OptNone


# ints around the one-digit (compact) boundary and the i64 range, read from lists and slots
BOUNDARY_INTS = [0, 1, -1, 255, 256, 2**30 - 1, 2**30, -(2**30) + 1, -(2**30), 2**31,
                 2**62, 2**63 - 1, -(2**63), -(2**63) + 1]

SUM_LIST = """fn main(xs: List<Int>) -> List<Int> {
    let mut out = []
    let mut i = 0
    let n = list_len(xs)
    while i < n {
        let x = list_get(xs, i)
        out = list_push(out, match Some(x) { Some(v) => v, None => 0, })
        i = i + 1
    }
    out
}
"""


@pytest.mark.parametrize("fused", [True, False])
def test_boundary_ints_read_exactly(fused, monkeypatch):
    monkeypatch.setattr(_vm, "SUPERINSTRUCTIONS", fused)
    m = _vm.Machine(compile_source(SUM_LIST))
    m.set_entry(0, (tuple(BOUNDARY_INTS),))
    assert m.run() == _vm.FINISHED, m.error
    assert m.result == tuple(BOUNDARY_INTS)
    assert [type(x) for x in m.result] == [int] * len(BOUNDARY_INTS)


@pytest.mark.parametrize("fused", [True, False])
def test_an_int_beyond_i64_in_a_list_fails_at_the_same_step(fused, monkeypatch):
    monkeypatch.setattr(_vm, "SUPERINSTRUCTIONS", fused)
    m = _vm.Machine(compile_source(SUM_LIST))
    m.set_entry(0, ((1, 2**63),))
    m.run()
    assert (m.error, m.steps) == ("integer overflow in conversion", 38)


@pytest.mark.parametrize("payload", BOUNDARY_INTS)
def test_boundary_int_payloads_match_exactly(payload):
    assert _call("area", Enum(0, 1, payload))[:2] == (payload, None)
    assert _call("unwrap", Some(payload))[:2] == (payload, None)


@pytest.mark.parametrize("read", [
    'match __builtin_map_get(m, "k") { Some(v) => v, None => [] }',
    'match __builtin_list_head([a]) { Some(v) => v, None => [] }',
])
def test_a_some_of_a_list_keeps_no_hold_on_it_once_unwrapped(read):
    """An Option read and unwrapped leaves no extra holder on the List it held (the VM pools
    only Somes of Ints, Floats, Bools and Unit): pushing onto the List afterwards grows it in
    place, whatever the slicing, so the work is the same for every slice size."""
    module = compile_source(f"""fn main() -> Int {{
    let mut a: List<Int> = []
    let mut i = 0
    while i < 20 {{ a = list_push(a, i)  i = i + 1 }}
    let mut m: Map<String, List<Int>> = map_new()
    m = __builtin_map_set(m, "k", a)
    let mut b = {read}
    a = []
    m = map_new()
    let mut j = 0
    while j < 5 {{ b = list_push(b, j)  j = j + 1 }}
    list_len(b)
}}
""")
    seen = set()
    for size in (0, 1, 7, 0):
        m = _vm.Machine(module)
        m.set_entry(module.entry)
        while m.execute_bounded(size) == _vm.PAUSED:
            pass
        seen.add((m.result, m.error, m.work))
    assert seen == {(25, None, 21)}
