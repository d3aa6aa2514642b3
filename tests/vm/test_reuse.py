"""Reuse of values nothing else holds (vm/reuse.pxi): a local's last read moves it, a field
read from a record only dead or other-field locals hold takes the field, and ListPush /
ListAppend / ListConcat / MapSet / MapRemove on a value only their operand holds change it in place. None
of it may be seen: every value still readable keeps what it held (persistent semantics), the
results, steps and errors equal the copying paths', and building through a call, a record
field or an App-style reducer costs no work (the copies spent the whole list or map); a
ListConcat onto a list only its operand holds spends the right list's length."""
import pytest

from boruna import _vm
from boruna.compiler import compile_source
from boruna.core.values import MapValue, Record


def _run(src, *args, **kw):
    module = compile_source(src)
    m = _vm.Machine(module, **kw)
    m.set_entry(next(i for i, f in enumerate(module.functions) if f.name == "main"), args)
    m.run()
    return m


def _outcome(src, *args, **kw):
    m = _run(src, *args, **kw)
    result = tuple(m.result.items()) if type(m.result) is MapValue else m.result
    return (repr(result), m.error, m.steps)


COPIES = {"PUSH_IN_PLACE": False, "MAP_IN_PLACE": False}

KEPT = [
    # the old value is read after the update: it keeps its elements
    ("fn main() -> Int { let xs = [1, 2] let ys = list_push(xs, 3) "
     "list_len(xs) * 10 + list_len(ys) }", 23),
    ("fn add(xs: List<Int>, x: Int) -> List<Int> { list_push(xs, x) }\n"
     "fn main() -> Int { let mut xs = list_push([], 0) let mut t = 0 let mut i = 0\n"
     "  while i < 5 { let ys = add(xs, i) t = t + list_len(ys) xs = list_push(xs, i) i = i + 1 }\n"
     "  t * 100 + list_len(xs) }", 2006),
    ("type S { items: List<Int>, n: Int }\n"
     "fn main() -> Int { let s = S { items: list_push([], 1), n: 0 }\n"
     "  let t = S { ..s, items: list_push(s.items, 2) }\n"
     "  list_len(s.items) * 10 + list_len(t.items) }", 12),
    ("type S { items: List<Int>, n: Int }\n"
     "fn grow(s: S) -> S { S { ..s, items: list_push(s.items, 9) } }\n"
     "fn main() -> Int { let s = S { items: list_push([], 1), n: 0 }\n"
     "  let a = grow(s) let b = grow(s) list_len(a.items) + list_len(b.items) + list_len(s.items) }", 5),
    ("fn main(m0: Map<String, Int>) -> Int { let m = __builtin_map_set(m0, \"a\", 1)\n"
     "  let m2 = __builtin_map_set(m, \"b\", 2) let m3 = __builtin_map_remove(m, \"a\")\n"
     "  __builtin_map_len(m) * 100 + __builtin_map_len(m2) * 10 + __builtin_map_len(m3) }", 120),
    # a list in two records: taking it out of one would show in the other
    ("type S { items: List<Int>, n: Int }\n"
     "fn main() -> Int { let xs = list_push(list_push([], 1), 2) let a = S { items: xs, n: 0 }\n"
     "  let b = S { items: xs, n: 1 } let c = S { ..a, items: list_push(a.items, 3) }\n"
     "  list_len(b.items) * 10 + list_len(c.items) }", 23),
    # concat: the left list read again keeps its elements, and so does the right one
    ("fn main() -> Int { let xs = list_push(list_push([], 1), 2) let ys = [7, 8, 9]\n"
     "  let zs = __builtin_list_concat(xs, ys) list_len(xs) * 100 + list_len(ys) * 10 "
     "+ list_len(zs) + list_get(zs, 4) }", 244),
    ("fn main() -> Int { let mut xs = [1] let mut i = 0\n"
     "  while i < 30 { xs = __builtin_list_concat(xs, [i, i]) i = i + 1 }\n"
     "  let a = __builtin_list_concat(xs, [100]) let b = __builtin_list_concat(xs, xs)\n"
     "  list_get(a, 61) + list_len(b) + list_len(xs) + list_get(b, 121) }", 100 + 122 + 61 + 29),
    # the same list pushed twice
    ("fn main() -> Int { let mut xs = [] let mut i = 0 while i < 20 { xs = list_push(xs, i) i = i + 1 }\n"
     "  let a = list_push(xs, 100) let b = list_push(xs, 200)\n"
     "  list_get(a, 20) + list_get(b, 20) + list_len(xs) }", 320),
]


@pytest.mark.parametrize("src, want", KEPT)
def test_values_still_read_keep_what_they_held(src, want, monkeypatch):
    args = (MapValue(),) if "m0" in src else ()
    m = _run(src, *args)
    assert (m.result, m.error) == (want, None)
    for name, value in COPIES.items():
        monkeypatch.setattr(_vm, name, value)
    monkeypatch.setattr(_vm, "MOVES", False)
    assert _outcome(src, *args) == (repr(want), None, m.steps)


GROW = {
    "call": ("fn add(xs: List<Int>, x: Int) -> List<Int> { list_push(xs, x) }\n"
             "fn main() -> Int { let mut xs = [] let mut i = 0\n"
             "  while i < COUNT { xs = add(xs, i) i = i + 1 } list_len(xs) }"),
    "field": ("type S { items: List<Int>, n: Int }\n"
              "fn main() -> Int { let mut s = S { items: [], n: 0 } let mut i = 0\n"
              "  while i < COUNT { s = S { ..s, items: list_push(s.items, i) } i = i + 1 }\n"
              "  list_len(s.items) }"),
    "reducer": ("type S { items: List<Int>, n: Int }\n"
                "fn update(s: S, i: Int) -> S { S { ..s, items: list_push(s.items, i), n: s.n + 1 } }\n"
                "fn main() -> Int { let mut s = S { items: [], n: 0 } let mut i = 0\n"
                "  while i < COUNT { s = update(s, i) i = i + 1 } list_len(s.items) + s.n - COUNT }"),
    "map": ("fn put(m: Map<String, Int>, i: Int) -> Map<String, Int> {\n"
            "  __builtin_map_set(m, __builtin_int_to_string(i * 7 % COUNT), i) }\n"
            "fn main(m0: Map<String, Int>) -> Int { let mut m = m0 let mut i = 0\n"
            "  while i < COUNT { m = put(m, i) i = i + 1 } __builtin_map_len(m) }"),
}


@pytest.mark.parametrize("how", list(GROW))
def test_building_through_calls_records_and_reducers_spends_no_copy_work(how, monkeypatch):
    src = GROW[how].replace("COUNT", "3000")
    args = (MapValue(),) if how == "map" else ()
    fast = _run(src, *args)
    assert (fast.result, fast.error) == (3000, None)
    # the map's keys: "0".."2999" (int_to_string spends nothing); the first set copies the
    # host's (empty) map
    keys = sum(len(str(i)) for i in range(3000))
    assert fast.work == (keys if how == "map" else 0)
    for name, value in COPIES.items():
        monkeypatch.setattr(_vm, name, value)
    slow = _run(src, *args)
    assert (slow.result, slow.error, slow.steps) == (fast.result, None, fast.steps)
    # the copies spend the whole list or map each time
    assert slow.work >= 3000 * 2999 // 2


CONCAT = {
    "local": ("fn main() -> List<Int> { let mut xs: List<Int> = [] let mut i = 0\n"
              "  while i < COUNT { xs = __builtin_list_concat(xs, [i, -i]) i = i + 1 } xs }"),
    "call": ("fn add(xs: List<Int>, x: Int) -> List<Int> { __builtin_list_concat(xs, [x, -x]) }\n"
             "fn main() -> List<Int> { let mut xs: List<Int> = [] let mut i = 0\n"
             "  while i < COUNT { xs = add(xs, i) i = i + 1 } xs }"),
    "reducer": ("type S { items: List<Int>, n: Int }\n"
                "fn update(s: S, i: Int) -> S { S { ..s, items: __builtin_list_concat(s.items, "
                "[i, -i]), n: s.n + 1 } }\n"
                "fn main() -> List<Int> { let mut s = S { items: [], n: 0 } let mut i = 0\n"
                "  while i < COUNT { s = update(s, i) i = i + 1 } s.items }"),
}


@pytest.mark.parametrize("how", list(CONCAT))
def test_concat_onto_a_list_only_its_operand_holds_spends_the_right_lists_length(how, monkeypatch):
    src = CONCAT[how].replace("COUNT", "2000")
    want = tuple(x for i in range(2000) for x in (i, -i))
    fast = _run(src)
    assert (fast.result, fast.error) == (want, None)
    # the first concat copies the empty list (work 0 + 2); every later one spends the 2
    # elements it appends
    assert fast.work == 2 * 2000
    for name, value in COPIES.items():
        monkeypatch.setattr(_vm, name, value)
    slow = _run(src)
    assert (slow.result, slow.error, slow.steps) == (want, None, fast.steps)
    # the copies spend both lists each time
    assert slow.work == sum(2 * i + 2 for i in range(2000))


def test_concat_memory_caps_match_the_copying_paths(monkeypatch):
    for how, src in CONCAT.items():
        src = src.replace("COUNT", "300")
        for cap in (2_000, 9_000, 40_000, 200_000):
            fast = _outcome(src, max_value_memory=cap)
            for name, value in COPIES.items():
                monkeypatch.setattr(_vm, name, value)
            assert _outcome(src, max_value_memory=cap) == fast, (how, cap)
            monkeypatch.undo()


def test_unsorted_inserts_read_in_key_order():
    src = ("fn main(m0: Map<String, Int>) -> Map<String, Int> { let mut m = m0 let mut i = 0\n"
           "  while i < 50 { m = __builtin_map_set(m, __builtin_int_to_string(i * 37 % 50), i) i = i + 1 }\n"
           "  m }")
    m = _run(src, MapValue())
    assert list(m.result) == sorted(str(i) for i in range(50))
    assert list(m.result.items())[0] == ("0", 0)
    src2 = src.replace("  m }", "  __builtin_string_join(__builtin_map_keys(m), \",\") }").replace(
        "-> Map<String, Int> {", "-> String {")
    assert _run(src2, MapValue()).result == ",".join(sorted(str(i) for i in range(50)))


def test_a_taken_field_is_never_read_and_the_record_returned_is_whole():
    src = ("type S { items: List<Int>, tag: String, n: Int }\n"
           "fn update(s: S, i: Int) -> S { S { ..s, items: list_push(s.items, i), n: s.n + i } }\n"
           "fn main() -> S { let mut s = S { items: [], tag: \"t\", n: 0 } let mut i = 0\n"
           "  while i < 40 { s = update(s, i) i = i + 1 } s }")
    m = _run(src)
    assert type(m.result) is Record
    assert m.result.fields == (tuple(range(40)), "t", sum(range(40)))


def test_memory_caps_match_the_copying_paths(monkeypatch):
    for how, src in GROW.items():
        src = src.replace("COUNT", "400")
        args = (MapValue(),) if how == "map" else ()
        for cap in (2_000, 9_000, 40_000, 200_000):
            fast = _outcome(src, *args, max_value_memory=cap)
            for name, value in COPIES.items():
                monkeypatch.setattr(_vm, name, value)
            assert _outcome(src, *args, max_value_memory=cap) == fast, (how, cap)
            monkeypatch.undo()


def test_a_malformed_local_is_never_a_field_holder():
    from boruna.bytecode.module import Function, Module
    from boruna.core import errors as verr
    code = [("PushConst", 0), ("PushConst", 0), ("MakeList", 2), ("PushConst", 0),
            ("MakeRecord", 0, 2), ("GetField", 0), ("Pop",), ("LoadLocal", 5), ("GetField", 1),
            ("Ret",)]
    f = Function("main", 0, 1, code)
    moves, takes = _vm._reuse_plan(f.code, f.match_tables, f.arity)
    assert takes[5] == [5]          # the plan lists it; loading drops it (slot 5 >= 1 local)
    m = _vm.Machine(Module("m", constants=[1], functions=[f]))
    m.run()
    assert m.error == str(verr.invalid_local(5))
