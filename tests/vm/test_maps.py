"""Maps in C (vm/maps.pxi): MapGet / MapContainsKey / MapLen give exactly what the Python
implementations of vm/builtins.py give (which they fall back to for other operands), with
the same steps, errors and charges; and MapSet / MapRemove on a map nothing else holds
change it in place (vm/reuse.pxi `_reuse_map`, new keys appended and put back in key order
before anything reads the order), which changes nothing observable but the work: runs with
and without (`MAP_IN_PLACE`) give identical results, steps, errors and traces, under memory
caps and in slices."""
import pytest

from boruna import _vm
from boruna.bytecode.module import Function, Module
from boruna.compiler import compile_source
from boruna.core.values import NONE, MapValue, Some
from boruna.runtime.execute import run
from boruna.vm.builtins import IMPLEMENTATIONS

MAPS = [MapValue(), MapValue({"a": 1}), MapValue({"b": "x", "a": 2.5, "\u00e9": (1, 2)}),
        MapValue({"\U0001f600": NONE, "": Some(3), "k" * 300: -9223372036854775808})]
KEYS = ["", "a", "b", "A", "\u00e9", "\U0001f600", "k" * 300, "zz"]


def _one(op, args):
    code = [("PushConst", k) for k in range(len(args))] + [(op,), ("Ret",)]
    return run(Module("m", constants=list(args), functions=[Function("main", 0, 0, code)]))


@pytest.mark.parametrize("op", ["MapGet", "MapContainsKey"])
def test_lookups_match_the_python_implementation(op):
    for m in MAPS:
        for k in KEYS:
            out = _one(op, [m, k])
            assert out.ok, (op, m, k, out.error)
            want = IMPLEMENTATIONS[op](m, k)
            assert (type(out.result), out.result, out.steps) == (type(want), want, 5), (m, k)


def test_map_len_and_exact_values():
    for m in MAPS:
        assert (_one("MapLen", [m]).result, _one("MapLen", [m]).steps) == (len(m), 4)
    assert _one("MapGet", [MAPS[3], "k" * 300]).result == Some(-9223372036854775808)
    assert _one("MapGet", [MAPS[0], "a"]).result is NONE


def test_type_errors_as_the_python_path():
    for op, args in [("MapGet", [MAPS[1], 1]), ("MapGet", [(1,), "a"]), ("MapLen", ["a"]),
                     ("MapContainsKey", [MAPS[1], None]), ("MapContainsKey", [5, "a"])]:
        out = _one(op, args)
        assert not out.ok
        try:
            IMPLEMENTATIONS[op](*args)
        except Exception as exc:
            assert out.error == exc.message, (op, args)
        assert out.steps == len(args) + 1


@pytest.mark.parametrize("op", ["MapGet", "MapContainsKey", "MapLen"])
def test_charge_hits_the_memory_cap_exactly_as_the_python_path(op):
    # _cold charges approx_size of the result, 48 bytes (Some, None, Bool, Int): 40 lookups
    # reach the first walk (at a quarter of the cap, which the 8,192 bytes of locals exceed)
    # exactly when cap // 4 <= 40 * 48
    one = [("PushConst", 0)] + ([("PushConst", 1)] if op != "MapLen" else []) + [(op,), ("Pop",)]
    module = Module("m", constants=[MAPS[2], "a"],
                    functions=[Function("main", 0, 0, one * 40 + [("Ret",)])])
    last = len(one) * 40 - 1     # the step of the 40th lookup
    for cap, want in [(7683, (f"memory limit exceeded: live values use more than 7683 bytes",
                              last)), (7684, (None, last + 3))]:
        m = _vm.Machine(module, max_value_memory=cap)
        m.run()
        assert (m.error, m.steps) == want, cap


MAP_PROGRAM = """fn main(m0: Map<String, Int>) -> Int {
    let mut m = m0
    let mut i = 0
    let mut total = 0
    while i < COUNT {
        let key = "k" ++ __builtin_int_to_string((i * 7) % 31)
        let old = match __builtin_map_get(m, key) { Some(v) => v, None => 0 }
        m = __builtin_map_set(m, key, old + i)
        if i % 3 == 0 { m = __builtin_map_remove(m, "k" ++ __builtin_int_to_string(i % 13)) }
        if __builtin_map_contains_key(m, "k3") { total = total + 1 }
        i = i + 1
    }
    total * 1000 + __builtin_map_len(m)
}
"""

# the map's keys leave the function: its local is not map-only
ESCAPING = MAP_PROGRAM.replace("-> Int {", "-> List<String> {", 1).replace(
    "    total * 1000 + __builtin_map_len(m)\n", "    __builtin_map_keys(m)\n")


def _functions(src):
    return {f.name: f for f in compile_source(src.replace("COUNT", "50")).functions}


def test_reuse_plan_moves_last_reads_and_takes_fields():
    f = _functions(MAP_PROGRAM)["main"]
    moves, takes = _vm._reuse_plan(f.code, f.match_tables, f.arity)
    # `m = map_set(m, ..)`: the LoadLocal of m before each MapSet moves it
    sets = [j for j, ins in enumerate(f.code) if ins[0] == "MapSet"]
    assert sets and all(any(f.code[k] == ("LoadLocal", 1) and k in moves
                            for k in range(j - 6, j)) for j in sets)
    src = ("type S { items: List<Int>, n: Int }\n"
           "fn update(s: S, i: Int) -> S { S { ..s, items: list_push(s.items, i), n: s.n + 1 } }\n"
           "fn main() -> Int { update(S { items: [], n: 0 }, 1).n }\n")
    f = _functions(src)["update"]
    assert f.code[:4] == [("LoadLocal", 0), ("StoreLocal", 2), ("LoadLocal", 0), ("GetField", 0)]
    moves, takes = _vm._reuse_plan(f.code, f.match_tables, f.arity)
    # the spread's copy in slot 2 is never read (a dead store); s is read for field 1 later,
    # so field 0 may be taken when only s and the operand hold the record
    assert 1 in moves and 6 in moves and takes[3] == [0]
    # a function with a contract keeps its parameters (a failed contract displays them)
    code = [("LoadLocal", 0), ("Ret",), ("Assert", 0, "Ensures", 0)]
    assert _vm._reuse_plan(code, [], 1) == ([], {})
    assert _vm._reuse_plan([("LoadLocal",), ("Ret",)], [], 0) == ((), {})
    # a loop keeps what the next round reads
    code = [("LoadLocal", 0), ("Pop",), ("Jmp", 0)]
    assert _vm._reuse_plan(code, [], 1) == ([], {})


def _outcome(src, arg, cap=None, trace=False, slice_steps=0, **kw):
    module = compile_source(src)
    kw.update(trace=trace, max_steps=10_000_000)
    if cap is not None:
        kw["max_value_memory"] = cap
    m = _vm.Machine(module, **kw)
    m.set_entry(next(i for i, f in enumerate(module.functions) if f.name == "main"), (arg,))
    if slice_steps:
        while m.execute_bounded(slice_steps) == _vm.PAUSED:
            pass
    else:
        m.run()
    result = tuple(m.result.items()) if type(m.result) is MapValue else m.result
    return (result, m.error, m.steps, m.work, tuple(m.trace))


def test_unsorted_result_and_steps():
    src = MAP_PROGRAM.replace("COUNT", "300")
    d, total = {}, 0
    for i in range(300):
        key = "k" + str((i * 7) % 31)
        d[key] = d.get(key, 0) + i
        if i % 3 == 0:
            d.pop("k" + str(i % 13), None)
        total += "k3" in d
    assert _outcome(src, MapValue())[:2] == (total * 1000 + len(d), None)


@pytest.mark.parametrize("src", [MAP_PROGRAM, ESCAPING])
def test_in_place_matches_copies(src, monkeypatch):
    src = src.replace("COUNT", "200")
    for cap in (None, 3_000, 9_000, 40_000):
        for size in (0, 1, 7, 100_000):
            for trace in (False, True):
                fast = _outcome(src, MapValue({"z": 0, "a": 1}), cap, trace, size)
                monkeypatch.setattr(_vm, "MAP_IN_PLACE", False)
                slow = _outcome(src, MapValue({"z": 0, "a": 1}), cap, trace, size)
                monkeypatch.setattr(_vm, "MAP_IN_PLACE", True)
                # the copies spend the whole map's work
                assert fast[:3] + fast[4:] == slow[:3] + slow[4:], (cap, size, trace)
                assert fast[3] < slow[3] if fast[1] is None else fast[3] <= slow[3]


def test_in_place_work_is_the_key_and_the_value():
    src = ("fn main(m0: Map<String, Int>) -> Int {\n    let mut m = m0\n    let mut i = 0\n"
           "    while i < 1000 {\n"
           "        m = __builtin_map_set(m, \"k\" ++ __builtin_int_to_string(i), i)\n"
           "        i = i + 1\n    }\n    m = __builtin_map_remove(m, \"k5\")\n"
           "    __builtin_map_len(m)\n}\n")
    result, err, steps, work, _ = _outcome(src, MapValue())
    keys = sum(len("k" + str(i)) for i in range(1000))
    # the first set copies the host's map (empty: its key), the rest change the copy in place;
    # `++` spends its result's length
    assert (result, err) == (999, None)
    assert work == keys + keys + 2


def test_escaping_map_is_in_key_order():
    src = ("fn main(m0: Map<String, Int>) -> Map<String, Int> {\n    let mut m = m0\n"
           "    m = __builtin_map_set(m, \"b\", 1)\n    m = __builtin_map_set(m, \"c\", 2)\n"
           "    m = __builtin_map_set(m, \"a\", 3)\n    m\n}\n")
    assert _outcome(src, MapValue())[0] == (("a", 3), ("b", 1), ("c", 2))


def test_lookups_kept_and_returned_stay_distinct():
    # Some objects are reused only when nothing else holds them (vm/values.pxi make_some)
    src = ("fn main(m: Map<String, Int>) -> List<Option<Int>> {\n    let mut out = []\n"
           "    let mut i = 0\n    while i < 12 {\n"
           "        let k = \"k\" ++ __builtin_int_to_string(i % 5)\n"
           "        let v = __builtin_map_get(m, k)\n"
           "        let w = match v { Some(x) => x, None => -1 }\n"
           "        if w % 2 == 0 { out = list_push(out, v) }\n        i = i + 1\n    }\n"
           "    out\n}\n")
    def want(d):
        got = [d.get("k" + str(i % 5), -1) for i in range(12)]
        return tuple(Some(x) for x in got if x % 2 == 0)

    first_arg = {"k0": 0, "k1": 1, "k2": 2, "k3": 3}
    first = _outcome(src, MapValue(first_arg))[0]
    assert first == want(first_arg) == (Some(0), Some(2), Some(0), Some(2), Some(0))
    assert len({id(x) for x in first}) == 5
    again_arg = {"k0": 10, "k2": 12, "k4": 14}
    again = _outcome(src, MapValue(again_arg))[0]
    assert first == (Some(0), Some(2), Some(0), Some(2), Some(0))
    assert again == want(again_arg) and len(again) == 7
