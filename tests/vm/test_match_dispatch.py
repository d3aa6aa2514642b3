"""Match through each table's dispatch computed at load time (vm/core/dispatch.h
`bor_match_prep`: per kind of value the first arm that takes it) and MapGet run with the
Match after it (`bor_map_get_match`): the same arms, results, steps, errors, work and traces
as the arms tried in order, whole, in slices (a checkpoint between the two ops), traced and
under memory caps (a memory walk due at the MapGet)."""
import pytest

from boruna import _vm
from boruna.bytecode.module import Function, Module
from boruna.compiler import compile_source
from boruna.core.values import Enum, MapValue

# an enum of ten variants: variants 8 and 9 are past the dispatch's slots (the arms in order)
WIDE = """enum W { V0, V1(Int), V2, V3(String), V4, V5, V6, V7(Int), V8, V9(Int) }
fn pick(i: Int) -> W {
    if i == 0 { W::V0 } else { if i == 1 { W::V1(10) } else { if i == 2 { W::V2 } else {
    if i == 3 { W::V3("three") } else { if i == 4 { W::V4 } else { if i == 5 { W::V5 } else {
    if i == 6 { W::V6 } else { if i == 7 { W::V7(70) } else { if i == 8 { W::V8 } else {
    W::V9(90) } } } } } } } } }
}
fn score(w: W) -> Int {
    match w {
        V1(x) => x + 1,
        V3(s) => __builtin_string_len(s),
        V7(x) => x * 2,
        V9(x) => x - 1,
        V8 => 800,
        V0 => 5,
        _ => 3,
    }
}
fn main() -> Int {
    let mut t = 0
    let mut i = 0
    while i < 40 { t = t * 3 % 1000003 + score(pick(i % 10))  i = i + 1 }
    t
}
"""

# `Leaf` at index 0 of one enum and 1 of the other: exact (type, variant) arm tags
EXACT = """enum A { Leaf(Int), Node(Int) }
enum B { Stop, Leaf(Int) }
fn fa(a: A) -> Int { match a { Leaf(x) => x, Node(y) => 100 + y } }
fn fb(b: B) -> Int { match b { Stop => 7, Leaf(x) => 1000 + x } }
fn main() -> Int {
    let mut t = 0
    let mut i = 0
    while i < 30 {
        t = t + fa(if i % 2 == 0 { A::Leaf(i) } else { A::Node(i) })
        t = t + fb(if i % 3 == 0 { B::Stop } else { B::Leaf(i) })
        i = i + 1
    }
    t
}
"""

# Int literal arms (their own tags), Bool, Option and Result arms, a catch-all on a String
SCALARS = """fn ints(n: Int) -> Int { match n { 0 => 11, 1 => 22, 5 => 55, _ => n } }
fn bools(b: Bool) -> Int { match b { true => 1, false => 2 } }
fn opts(o: Option<Int>) -> Int { match o { Some(v) => v * 10, None => -1 } }
fn ress(r: Result<Int, String>) -> Int {
    match r { Ok(v) => v, Err(e) => __builtin_string_len(e) }
}
fn strs(s: String) -> Int { match s { _ => __builtin_string_len(s) } }
fn main() -> Int {
    let mut t = 0
    let mut i = 0
    while i < 24 {
        t = t + ints(i % 7) + bools(i % 2 == 0) + opts(if i % 3 == 0 { None } else { Some(i) })
        t = t + ress(if i % 4 == 0 { Err("bad") } else { Ok(i) }) + strs("ab" ++ "c")
        i = i + 1
    }
    t
}
"""

# `match map_get(..)` with heap values kept (a list taken out of the map and grown), a
# map read again after, and keys found and not found
MAPS = """fn main(m0: Map<String, List<Int>>) -> Int {
    let mut m = m0
    let mut t = 0
    let mut i = 0
    while i < 60 {
        let k = "k" ++ __builtin_int_to_string(i % 7)
        let xs = match __builtin_map_get(m, k) { Some(v) => v, None => [] }
        m = __builtin_map_set(m, k, list_push(xs, i))
        t = t + match __builtin_map_get(m, "k3") { Some(v) => list_len(v), None => 100 }
        i = i + 1
    }
    t + __builtin_map_len(m)
}
"""


def _machine(src, arg=None, **kw):
    module = compile_source(src)
    kw.setdefault("max_steps", 10_000_000)
    m = _vm.Machine(module, **kw)
    if arg is not None:
        m.set_entry(next(i for i, f in enumerate(module.functions) if f.name == "main"), (arg,))
    return m


def _outcome(src, arg=None, slice_steps=0, **kw):
    m = _machine(src, arg, **kw)
    if slice_steps:
        while m.execute_bounded(slice_steps) == _vm.PAUSED:
            pass
    else:
        m.run()
    return (m.result, m.error, m.steps, m.work, tuple(m.trace))


def _py_wide():
    payload = {1: 10, 3: "three", 7: 70, 9: 90}
    t = 0
    for i in range(40):
        v = i % 10
        x = payload.get(v)
        s = (x + 1 if v == 1 else len(x) if v == 3 else x * 2 if v == 7 else x - 1 if v == 9
             else 800 if v == 8 else 5 if v == 0 else 3)
        t = t * 3 % 1000003 + s
    return t


@pytest.mark.parametrize("src, want", [
    (WIDE, (_py_wide(), None, 2123, 0, ())),
    (EXACT, (sum(i if i % 2 == 0 else 100 + i for i in range(30))
             + sum(7 if i % 3 == 0 else 1000 + i for i in range(30)), None, 1421, 0, ())),
    (SCALARS, (sum({0: 11, 1: 22, 5: 55}.get(i % 7, i % 7) + (1 if i % 2 == 0 else 2)
                   + (-1 if i % 3 == 0 else i * 10) + (3 if i % 4 == 0 else i) + 3
                   for i in range(24)), None, 1976, 72, ())),
])
def test_dispatch_takes_the_first_arm_in_every_slice_size(src, want):
    assert _outcome(src) == want
    for n in (1, 2, 3, 7):
        assert _outcome(src, slice_steps=n) == want, n
    traced = _outcome(src, trace=True)
    assert traced[:4] == want[:4] and len(traced[4]) == 500     # (the trace's cap)
    assert _outcome(src, trace=True, slice_steps=7) == traced


def _py_maps():
    m, t = {}, 0
    for i in range(60):
        k = "k" + str(i % 7)
        m[k] = m.get(k, []) + [i]
        t += len(m["k3"]) if "k3" in m else 100
    return t + len(m)


def test_map_get_match_as_the_two_ops():
    want = _outcome(MAPS, MapValue())
    assert want[:3] == (_py_maps(), None, 2523)
    for n in (1, 2, 3, 5, 7, 100):
        assert _outcome(MAPS, MapValue(), slice_steps=n) == want, n
    traced = _outcome(MAPS, MapValue(), trace=True)
    assert traced[:4] == want[:4] and len(traced[4]) == 500
    assert _outcome(MAPS, MapValue(), trace=True, slice_steps=7) == traced


def test_map_get_match_under_memory_caps_as_sliced_runs():
    # a slice of one step runs every op alone (no fused pair), so its outcome under each cap is
    # the two ops' own: walks due at a MapGet and memory errors at the same step
    errors = 0
    for cap in range(3000, 40000, 1500):
        whole = _outcome(MAPS, MapValue(), max_value_memory=cap)
        assert _outcome(MAPS, MapValue(), slice_steps=1, max_value_memory=cap) == whole, cap
        errors += whole[1] is not None
    assert errors > 0


def test_no_arm_for_the_value_is_the_match_error():
    # table 0 has only a Some arm: MapGet's None goes to the Match alone, which fails there
    module = Module("m", constants=[MapValue({"a": 1}), "b", 5], functions=[Function(
        "main", 0, 1, [("PushConst", 0), ("PushConst", 1), ("MapGet",), ("Match", 0),
                       ("Ret",), ("PushConst", 2), ("Ret",)], match_tables=[[(-3, 5)]])])
    m = _vm.Machine(module)
    m.run()
    assert (m.error, m.steps) == ("no match found for value", 4)
    found = Module("m", constants=[MapValue({"a": 1}), "a", 5], functions=[Function(
        "main", 0, 1, [("PushConst", 0), ("PushConst", 1), ("MapGet",), ("Match", 0),
                       ("Ret",), ("PushConst", 2), ("Add",), ("Ret",)],
        match_tables=[[(-3, 5)]])])
    m = _vm.Machine(found)
    m.run()
    assert (m.result, m.error, m.steps) == (6, None, 8)


def test_values_the_dispatch_leaves_to_the_arms_in_order():
    # table [(tag 1 -> 8), (catch-all -> 5)]: 6 from the tag-1 arm, 2 from the catch-all. An
    # Enum with a negative type id or a variant past the slots takes the arms in order; a
    # Bool true hits tag 1 as an Enum of variant 1 does; an Int hits only the catch-all
    code = [("PushConst", 0), ("Match", 0), ("Pop",), ("PushConst", 1), ("Ret",), ("Pop",),
            ("PushConst", 2), ("Ret",), ("Pop",), ("PushConst", 3), ("Ret",)]
    cases = [(Enum(-1, 1, 5), 6), (Enum(3, 12, 5), 2), (Enum(3, 1, 5), 6), (Enum(3, 0, 5), 2),
             (True, 6), (False, 2), (1, 2), ("x", 2)]
    for value, want in cases:
        module = Module("m", constants=[value, 1, 2, 6], functions=[
            Function("main", 0, 1, list(code), match_tables=[[(1, 8), (-1, 5)]])])
        m = _vm.Machine(module)
        m.run()
        assert (m.result, m.error, m.steps) == (want, None, 6), value


# `m = map_set(m, k, ..)` and `out = list_push(out, f(i))` done in place with the StoreLocal
# after them (a plain one, and one fused with the LoadLocal after it); matches whose arm
# starts by popping the value (`_` payloads, arms without one: Match + Pop as one dispatch)
# or by binding it (Match + StoreLocal, Match + StoreLocal + LoadLocal); an if or match
# expression's value returned (a Jmp to a Ret: OP_SUPER_JMPRET)
COUNTS = """enum Ev { Click(Int), Key(String), Tick }
fn sq(x: Int) -> Int { x * x % 97 }
fn is_click(e: Ev) -> Bool { match e { Click(_) => true, _ => false } }
fn label(e: Ev) -> String {
    match e {
        Click(x) => if x > 50 { "right" } else { "left" },
        Key(k) => "key:" ++ k,
        Tick => "tick",
    }
}
fn main(m0: Map<String, Int>) -> Int {
    let mut m = m0
    let mut out = []
    let mut clicks = 0
    let mut i = 0
    while i < 70 {
        let e = if i % 3 == 0 { Ev::Tick } else { if i % 3 == 1 { Ev::Key("q") } else { Ev::Click(i) } }
        if is_click(e) { clicks = clicks + 1 }
        let k = label(e) ++ __builtin_int_to_string(i % 6)
        m = __builtin_map_set(m, k, match __builtin_map_get(m, k) { Some(v) => v + i, None => 1 })
        out = list_push(out, sq(i))
        i = i + 1
    }
    let mut t = clicks
    for v in __builtin_map_values(m) { t = t * 31 % 1000003 + v }
    for x in out { t = (t + x) % 1000003 }
    t * 100 + list_len(out)
}
"""


def _py_counts():
    m, out, clicks = {}, [], 0
    for i in range(70):
        clicks += i % 3 == 2
        k = ("tick" if i % 3 == 0 else "key:q" if i % 3 == 1 else "right" if i > 50
             else "left") + str(i % 6)
        m[k] = m[k] + i if k in m else 1
        out.append(i * i % 97)
    t = clicks
    for k in sorted(m):
        t = t * 31 % 1000003 + m[k]
    for x in out:
        t = (t + x) % 1000003
    return t * 100 + len(out)


def test_fused_stores_and_pops_are_the_single_steps():
    want = _outcome(COUNTS, MapValue())
    assert want[:2] == (_py_counts(), None)
    # a slice of one step runs every op alone
    assert _outcome(COUNTS, MapValue(), slice_steps=1) == want
    for n in (2, 3, 5, 7, 100):
        assert _outcome(COUNTS, MapValue(), slice_steps=n) == want, n
    traced = _outcome(COUNTS, MapValue(), trace=True)
    assert traced[:4] == want[:4]
    for cap in range(2500, 20000, 1750):
        whole = _outcome(COUNTS, MapValue(), max_value_memory=cap)
        assert _outcome(COUNTS, MapValue(), slice_steps=1, max_value_memory=cap) == whole, cap
    for limit in range(1, want[2] + 2, max(1, want[2] // 50)):
        whole = _outcome(COUNTS, MapValue(), max_steps=limit)
        assert _outcome(COUNTS, MapValue(), slice_steps=1, max_steps=limit) == whole, limit
