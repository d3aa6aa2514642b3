"""`x = list_push(x, v)` / `x = __builtin_list_append(x, v)` runs in amortised O(1).

The VM grows the list in place when it holds the only references (the local and the operand);
nothing observable changes: results, steps, errors, traces, memory-cap accounting, slicing."""
import pytest

from boruna import _vm
from boruna.compiler import compile_source
from boruna.api import run
from boruna.core.values import MapValue

PUSHERS = ["list_push", "__builtin_list_append"]


def loop(fn, n, item="i"):
    return (f"fn main() -> Int {{\n    let mut xs = []\n    let mut i = 0\n"
            f"    while i < {n} {{\n        xs = {fn}(xs, {item})\n        i = i + 1\n    }}\n"
            f"    list_len(xs) + list_get(xs, {n} - 1)\n}}\n")


@pytest.mark.parametrize("fn", PUSHERS)
def test_push_loop_result_and_steps(fn):
    out = run(loop(fn, 1000))
    assert (out.ok, out.result, out.steps) == (True, 1999, 13018)


@pytest.mark.parametrize("fn", PUSHERS)
def test_two_hundred_thousand_pushes(fn):
    out = run(loop(fn, 200_000), max_steps=10_000_000)
    assert (out.ok, out.result, out.steps) == (True, 399_999, 2_600_018)


def test_built_list_is_exact():
    src = ("fn main() -> List<Int> {\n    let mut xs = [7]\n    let mut i = 0\n"
           "    while i < 40 {\n        xs = list_push(xs, i * i)\n        i = i + 1\n    }\n"
           "    xs\n}\n")
    out = run(src)
    assert out.result == (7,) + tuple(i * i for i in range(40))
    assert out.steps == 612


def test_old_list_in_another_local_is_unchanged():
    src = ("fn main() -> List<Int> {\n    let mut xs = []\n    let mut i = 0\n"
           "    let mut keep = []\n"
           "    while i < 50 {\n        xs = list_push(xs, i)\n"
           "        if i == 20 { keep = xs }\n        i = i + 1\n    }\n"
           "    keep = list_push(keep, 999)\n"
           "    list_push(list_push([], list_len(xs)), list_len(keep))\n}\n")
    out = run(src)
    assert out.result == (50, 22)


def test_aliases_in_locals_records_and_emits_see_no_change():
    src = ("type Box { items: List<Int> }\n"
           "fn main() -> Int {\n    let mut xs = []\n    let mut i = 0\n"
           "    let mut b = Box { items: [] }\n    let mut other = []\n"
           "    while i < 60 {\n        xs = list_push(xs, i)\n"
           "        if i == 30 { b = Box { items: xs } }\n"
           "        if i == 40 { other = xs }\n"
           "        if i == 45 { emit xs }\n"
           "        i = i + 1\n    }\n"
           "    list_len(b.items) * 10000 + list_len(other) * 100 + list_len(xs)\n}\n")
    out = run(src)
    assert out.ok, out.error
    assert out.result == 31 * 10000 + 41 * 100 + 60
    assert out.ui_output == [tuple(range(46))]


def test_list_sent_to_an_actor_is_unchanged():
    m = _vm.Machine(compile_source(
        "fn worker() -> Int { 1 }\n"
        "fn main() -> Int {\n    let a = spawn worker\n    let mut xs = [1, 2, 3]\n"
        "    xs = list_push(xs, 4)\n    send a xs\n    xs = list_push(xs, 5)\n"
        "    xs = list_push(xs, 6)\n    list_len(xs)\n}\n"))
    m.run()
    assert m.result == 6
    assert [msg for _, msg in m.outgoing] == [(1, 2, 3, 4)]


def test_constant_and_parameter_lists_are_not_mutated():
    src = ("fn grow(xs: List<Int>, n: Int) -> List<Int> {\n    let mut ys = xs\n"
           "    let mut i = 0\n    while i < n {\n        ys = list_push(ys, i)\n"
           "        i = i + 1\n    }\n    ys\n}\n"
           "fn main() -> Int {\n    let base = [1, 2]\n    let a = grow(base, 30)\n"
           "    let b = grow(base, 5)\n    let c = grow(a, 3)\n"
           "    list_len(base) * 1000000 + list_len(a) * 10000 + list_len(b) * 100 + list_len(c)\n}\n")
    out = run(src)
    assert out.result == 2 * 1000000 + 32 * 10000 + 7 * 100 + 35
    out = run("fn main() -> List<Int> {\n    let mut xs = [\"a\"]\n"
              "    xs = list_push(xs, \"b\")\n    xs = list_push(xs, \"c\")\n    xs\n}\n")
    assert out.result == ("a", "b", "c")


def test_same_list_pushed_from_two_locals():
    src = ("fn main() -> List<Int> {\n    let mut xs = [0]\n    let mut i = 0\n"
           "    while i < 20 {\n        xs = list_push(xs, i)\n        i = i + 1\n    }\n"
           "    let mut ys = xs\n    ys = list_push(ys, 100)\n    xs = list_push(xs, 200)\n"
           "    list_push(list_push([], list_get(xs, 21)), list_get(ys, 21))\n}\n")
    out = run(src)
    assert out.result == (200, 100)


def test_pushing_a_list_onto_itself():
    src = ("fn main() -> Int {\n    let mut xs = [1]\n    let mut i = 0\n"
           "    while i < 20 {\n        xs = list_push(xs, i)\n        i = i + 1\n    }\n"
           "    xs = list_push(xs, xs)\n    list_len(xs) * 100 + list_len(list_get(xs, 21))\n}\n")
    out = run(src)
    assert (out.ok, out.result, out.steps) == (True, 22 * 100 + 21, 284)


@pytest.mark.parametrize("fn", PUSHERS)
@pytest.mark.parametrize("size", [1, 7])
def test_sliced_runs_are_identical(fn, size):
    src = loop(fn, 300, item="i * 3")
    whole = run(src)
    sliced = run(src, slice_steps=size, on_progress=lambda s: None)
    assert (whole.ok, whole.result, whole.steps) == (True, 300 + 897, 4518)
    assert (sliced.ok, sliced.result, sliced.steps) == (whole.ok, whole.result, whole.steps)


def test_slicing_on_one_machine_with_size_one_and_seven():
    module = compile_source(loop("list_push", 200))
    for size in (1, 7):
        m = _vm.Machine(module)
        m.set_entry(module.entry)
        while m.execute_bounded(size) == _vm.PAUSED:
            pass
        assert (m.result, m.steps) == (399, 2618)


PUSH_TRACE_SRC = """fn main() -> Int {
    let mut xs = []
    let mut i = 0
    while i < 3 {
        xs = list_push(xs, i * 2)
        xs = __builtin_list_append(xs, i)
        i = i + 1
    }
    list_len(xs)
}
"""

# captured from the copying implementation before in-place pushes existed
PUSH_TRACE = [
    '[main:0] MakeList(0)  stack_depth=0',
    '[main:1] StoreLocal(0)  stack_depth=1',
    '[main:2] PushConst(0)  stack_depth=0',
    '[main:3] StoreLocal(1)  stack_depth=1',
    '[main:4] LoadLocal(1)  stack_depth=0',
    '[main:5] PushConst(1)  stack_depth=1',
    '[main:6] Lt  stack_depth=2',
    '[main:7] JmpIfNot(23)  stack_depth=1',
    '[main:8] LoadLocal(0)  stack_depth=0',
    '[main:9] LoadLocal(1)  stack_depth=1',
    '[main:10] PushConst(2)  stack_depth=2',
    '[main:11] Mul  stack_depth=3',
    '[main:12] ListPush  stack_depth=2',
    '[main:13] StoreLocal(0)  stack_depth=1',
    '[main:14] LoadLocal(0)  stack_depth=0',
    '[main:15] LoadLocal(1)  stack_depth=1',
    '[main:16] ListAppend  stack_depth=2',
    '[main:17] StoreLocal(0)  stack_depth=1',
    '[main:18] LoadLocal(1)  stack_depth=0',
    '[main:19] PushConst(3)  stack_depth=1',
    '[main:20] Add  stack_depth=2',
    '[main:21] StoreLocal(1)  stack_depth=1',
    '[main:22] Jmp(4)  stack_depth=0',
    '[main:4] LoadLocal(1)  stack_depth=0',
    '[main:5] PushConst(1)  stack_depth=1',
    '[main:6] Lt  stack_depth=2',
    '[main:7] JmpIfNot(23)  stack_depth=1',
    '[main:8] LoadLocal(0)  stack_depth=0',
    '[main:9] LoadLocal(1)  stack_depth=1',
    '[main:10] PushConst(2)  stack_depth=2',
    '[main:11] Mul  stack_depth=3',
    '[main:12] ListPush  stack_depth=2',
    '[main:13] StoreLocal(0)  stack_depth=1',
    '[main:14] LoadLocal(0)  stack_depth=0',
    '[main:15] LoadLocal(1)  stack_depth=1',
    '[main:16] ListAppend  stack_depth=2',
    '[main:17] StoreLocal(0)  stack_depth=1',
    '[main:18] LoadLocal(1)  stack_depth=0',
    '[main:19] PushConst(3)  stack_depth=1',
    '[main:20] Add  stack_depth=2',
    '[main:21] StoreLocal(1)  stack_depth=1',
    '[main:22] Jmp(4)  stack_depth=0',
    '[main:4] LoadLocal(1)  stack_depth=0',
    '[main:5] PushConst(1)  stack_depth=1',
    '[main:6] Lt  stack_depth=2',
    '[main:7] JmpIfNot(23)  stack_depth=1',
    '[main:8] LoadLocal(0)  stack_depth=0',
    '[main:9] LoadLocal(1)  stack_depth=1',
    '[main:10] PushConst(2)  stack_depth=2',
    '[main:11] Mul  stack_depth=3',
    '[main:12] ListPush  stack_depth=2',
    '[main:13] StoreLocal(0)  stack_depth=1',
    '[main:14] LoadLocal(0)  stack_depth=0',
    '[main:15] LoadLocal(1)  stack_depth=1',
    '[main:16] ListAppend  stack_depth=2',
    '[main:17] StoreLocal(0)  stack_depth=1',
    '[main:18] LoadLocal(1)  stack_depth=0',
    '[main:19] PushConst(3)  stack_depth=1',
    '[main:20] Add  stack_depth=2',
    '[main:21] StoreLocal(1)  stack_depth=1',
    '[main:22] Jmp(4)  stack_depth=0',
    '[main:4] LoadLocal(1)  stack_depth=0',
    '[main:5] PushConst(1)  stack_depth=1',
    '[main:6] Lt  stack_depth=2',
    '[main:7] JmpIfNot(23)  stack_depth=1',
    '[main:23] LoadLocal(0)  stack_depth=0',
    '[main:24] ListLen  stack_depth=1',
    '[main:25] Ret  stack_depth=1',
]


def test_trace_is_identical_to_the_copying_vm():
    out = run(PUSH_TRACE_SRC, trace=True)
    assert (out.result, out.steps) == (6, 69)
    assert out.trace == PUSH_TRACE
    # one line per dispatched op (docs/spec/vm.md §4.7): the pushes are traced like every other op
    assert len(out.trace) == out.steps - 1
    assert sum(line.split("] ")[1].startswith("ListPush") for line in out.trace) == 3


def outcome(module, cap, trace=False, max_steps=10_000_000):
    m = _vm.Machine(module, max_value_memory=cap, trace=trace, max_steps=max_steps)
    if m.run() == _vm.FAILED:
        return ("error", str(m.error), m.steps, len(m.trace))
    return ("ok", m.result, m.steps, len(m.trace))


ACCOUNTING_SRCS = [
    loop("list_push", 3000),
    loop("__builtin_list_append", 3000, item="\"abc\""),
    loop("list_push", 2000, item="Some(i)"),
    loop("list_push", 1500, item="[i, i]"),
    ("fn main() -> Int {\n    let mut xs = []\n    let mut i = 0\n    let s = \"" + "x" * 300
     + "\"\n    while i < 2000 {\n        xs = list_push(xs, s)\n        i = i + 1\n    }\n"
       "    list_len(xs)\n}\n"),
]


@pytest.mark.parametrize("src", ACCOUNTING_SRCS)
@pytest.mark.parametrize("trace", [False, True])
def test_memory_cap_accounting_matches_the_copying_vm(src, trace, monkeypatch):
    module = compile_source(src)
    for cap in (2_000, 9_000, 40_000, 77_777, 150_000, 600_000, 5_000_000):
        fast = outcome(module, cap, trace)
        monkeypatch.setattr(_vm, "PUSH_IN_PLACE", False)
        slow = outcome(module, cap, trace)
        monkeypatch.setattr(_vm, "PUSH_IN_PLACE", True)
        assert fast == slow, cap


def test_memory_cap_still_stops_a_huge_list():
    module = compile_source(loop("list_push", 200_000))
    got = outcome(module, 1_000_000)
    assert got[0] == "error"
    assert got[1] == "memory limit exceeded: live values use more than 1000000 bytes"


def test_collection_limit_error_is_unchanged():
    out = run(loop("list_push", 1_000_001), max_steps=100_000_000)
    assert out.ok is False
    assert out.error == ("collection too large: 1000001 elements exceeds the limit of "
                         "1000000 elements")


# ---------------------------------------------------------------- maps set/removed in place
# `m = __builtin_map_set(m, k, v)` / `m = __builtin_map_remove(m, k)` change the map itself
# when the local and the operand hold its only references; nothing observable changes.

MAP_SRC = """fn main(m0: Map<String, Int>) -> Map<String, Int> {
    let mut m = m0
    let mut i = 0
    while i < N {
        m = __builtin_map_set(m, "k" ++ __builtin_int_to_string((i * 7) % 23), i)
        if i % 5 == 0 { m = __builtin_map_remove(m, "k" ++ __builtin_int_to_string(i % 11)) }
        i = i + 1
    }
    m
}
"""


def map_machine(src, arg, **kw):
    module = compile_source(src)
    m = _vm.Machine(module, **kw)
    m.set_entry(next(i for i, f in enumerate(module.functions) if f.name == "main"), (arg,))
    return m


def map_outcome(src, arg, cap=None, trace=False, slice_steps=0):
    kw = {"trace": trace, "max_steps": 10_000_000}
    if cap is not None:
        kw["max_value_memory"] = cap
    m = map_machine(src, arg, **kw)
    if slice_steps:
        while m.execute_bounded(slice_steps) == _vm.PAUSED:
            pass
    else:
        m.run()
    if m.error is not None:
        return ("error", str(m.error), m.steps, tuple(m.trace))
    result = tuple(m.result.items()) if type(m.result) is MapValue else m.result
    return ("ok", result, m.steps, tuple(m.trace))


def expected_map(n, start=()):
    d = dict(start)
    for i in range(n):
        d["k" + str((i * 7) % 23)] = i
        if i % 5 == 0:
            d.pop("k" + str(i % 11), None)
    return tuple(sorted(d.items()))


def test_map_loop_result_keys_sorted_and_steps():
    got = map_outcome(MAP_SRC.replace("N", "300"), MapValue())
    assert got[:3] == ("ok", expected_map(300), 8651)


def test_host_map_argument_is_unchanged():
    arg = MapValue({"a": 1, "k5": 2})
    got = map_outcome(MAP_SRC.replace("N", "50"), arg)
    assert got[1] == expected_map(50, {"a": 1, "k5": 2})
    assert dict(arg) == {"a": 1, "k5": 2}


def test_map_alias_in_another_local_is_unchanged():
    src = ("fn main(m0: Map<String, Int>) -> List<Int> {\n    let mut m = m0\n"
           "    m = __builtin_map_set(m, \"b\", 1)\n    let keep = m\n"
           "    m = __builtin_map_set(m, \"a\", 2)\n    m = __builtin_map_remove(m, \"b\")\n"
           "    [__builtin_map_len(keep), __builtin_map_len(m)]\n}\n")
    assert map_outcome(src, MapValue())[1] == (1, 1)


@pytest.mark.parametrize("trace", [False, True])
def test_map_in_place_matches_the_copying_vm(trace, monkeypatch):
    src = MAP_SRC.replace("N", "400")
    for cap in (None, 3_000, 6_000, 20_000, 200_000):
        for size in (0, 1, 7, 100_000):
            fast = map_outcome(src, MapValue({"z": 0}), cap, trace, size)
            monkeypatch.setattr(_vm, "MAP_IN_PLACE", False)
            slow = map_outcome(src, MapValue({"z": 0}), cap, trace, size)
            monkeypatch.setattr(_vm, "MAP_IN_PLACE", True)
            assert fast == slow, (cap, size)


def test_walk_on_a_push_after_the_empty_lists_spends_no_work():
    # the empty list's push starts a builder (spending its element's 2 characters); a memory
    # walk falling on the next push (at a cap of 800 bytes it fails there) grows the builder
    # with the old list as a ghost instead of copying: the copy's work (1 + 2 + 2) is not spent
    src = ("fn main() -> List<String> {\n    let mut out = []\n    out = list_push(out, \"ab\")\n"
           "    out = list_push(out, \"cd\")\n    out = list_push(out, \"ef\")\n    out\n}\n")
    module = compile_source(src)
    got = []
    for cap in (800, 4000):
        m = _vm.Machine(module, max_value_memory=cap)
        m.run()
        got.append((m.result, m.error, m.steps, m.work))
    assert got == [(None, "memory limit exceeded: live values use more than 800 bytes", 9, 2),
                   (("ab", "cd", "ef"), None, 17, 2)]


# many short lists started and dropped (their builders die and their tuples are reused for the
# next new ones, vm/core/lists.h) while every third one is kept in a list of lists, and one
# long list grown by doubling all along: every kept list is exactly what was pushed
RECYCLE_SRC = """fn short(k: Int) -> List<Int> {
    let mut ys = []
    let mut j = 0
    while j < k % 9 + 1 { ys = list_push(ys, k * 100 + j)  j = j + 1 }
    ys
}
fn main() -> List<List<Int>> {
    let mut kept = []
    let mut long = []
    let mut k = 0
    while k < 300 {
        let ys = short(k)
        if k % 3 == 0 { kept = list_push(kept, ys) }
        long = list_push(long, list_len(ys))
        k = k + 1
    }
    list_push(kept, long)
}
"""


def test_reused_builders_leave_kept_lists_exact():
    out = run(RECYCLE_SRC, max_steps=10_000_000)
    short = [tuple(k * 100 + j for j in range(k % 9 + 1)) for k in range(300)]
    assert out.ok
    assert out.result == tuple(short[k] for k in range(0, 300, 3)) + (
        tuple(len(s) for s in short),)


@pytest.mark.parametrize("trace", [False, True])
def test_reused_builders_accounting_matches_the_copying_vm(trace, monkeypatch):
    module = compile_source(RECYCLE_SRC)
    for cap in (3_000, 20_000, 64_000, 150_000, 5_000_000):
        fast = outcome(module, cap, trace)
        monkeypatch.setattr(_vm, "PUSH_IN_PLACE", False)
        slow = outcome(module, cap, trace)
        monkeypatch.setattr(_vm, "PUSH_IN_PLACE", True)
        assert fast == slow, cap
