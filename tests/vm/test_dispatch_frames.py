"""The C core's frame, compare and element paths (vm/core/dispatch.h): Call and Ret with heap
values in the slots, extra arguments and values left above a result (let go out of line,
bor_vclear_range), the call depth limit met with heap values in every frame, one-character
String compares (bor_str_cmp: compact ASCII by their one byte, every other pair through
bor_str_order), And/Or of Bools, and List element and record field reads of Ints of any size
(bor_from_py_k).
The expected (result, error, steps, work) values are the session-start VM's (/work/ref, main
at f620190); the String compares are also checked against Python's own str order."""
import itertools

import pytest

from boruna import _vm
from boruna.bytecode.module import Function, Module
from boruna.compiler import compile_source


def _run(module, wall, slice_steps, trace, caps):
    m = _vm.Machine(module, max_wall_ms=wall, trace=trace, **caps)
    status = m.run() if not slice_steps else m.execute_bounded(slice_steps)
    while status == _vm.PAUSED:
        status = m.execute_bounded(slice_steps)
    return (m.result, m.error, m.steps, m.work)


def _outcomes(module, caps=None, trace=False):
    """the set of (result, error, steps, work) without and with a wall clock (the core's
    paths, the Cython ones), whole and in slices of 1 and 7 steps"""
    return {_run(module, wall, sl, trace, caps or {})
            for wall, sl in itertools.product((None, 10**9), (0, 1, 7))}


# every frame holds a String and a List (its own and its caller's), so each Ret lets heap
# slots go; 300 frames meet the call depth limit (256), 200 do not
DEEP = """fn d(n: Int, s: String, xs: List<Int>) -> Int {
    let t = s ++ "x"
    let ys = list_push(xs, n)
    if n == 0 { __builtin_string_len(t) + list_len(ys) } else { 1 + d(n - 1, t, ys) + list_len(xs) }
}
fn main() -> Int { d(DEPTH, "", []) + d(3, "ab", [1, 2]) }
"""
_MEM = "memory limit exceeded: live values use more than {} bytes"
DEEP_EXPECTED = {
    ("200", "none"): ({}, (20526, None, 4923, 22477)),
    ("300", "none"): ({}, (None, "stack overflow (max 256)", 4849, 34784)),
    ("200", "memory_20000"): ({"max_value_memory": 20000}, (None, _MEM.format(20000), 524, 784)),
    ("200", "memory_200000"): ({"max_value_memory": 200000},
                               (None, _MEM.format(200000), 1797, 6576)),
    ("200", "steps_3000"): ({"max_steps": 3000},
                            (None, "max execution steps exceeded (3000)", 3001, 14705)),
}


@pytest.mark.parametrize("depth,name", sorted(DEEP_EXPECTED))
def test_calls_and_returns_with_heap_slots_and_the_depth_limit(depth, name):
    caps, want = DEEP_EXPECTED[(depth, name)]
    module = compile_source(DEEP.replace("DEPTH", depth))
    assert _outcomes(module, caps) == {want}


def _main(consts, code, nlocals, extra):
    return Module("m", constants=list(consts),
                  functions=[Function("main", 0, nlocals, code), *extra])


# Ret / ImplicitRet with values above the frame's result (Strings, Lists, Ints), a Call with
# more arguments than the callee has slots (heap values among the dropped ones), and a callee
# whose slots are all Ints
FRAME_CODE = {
    "ret_above": _main(["s", (1, 2), 7], [
        ("Call", 1, 0), ("Call", 2, 0), ("Add",), ("Ret",)], 0, [
        Function("f", 0, 1, [("PushConst", 0), ("PushConst", 1), ("PushConst", 2), ("Ret",)]),
        Function("g", 0, 2, [("PushConst", 1), ("StoreLocal", 0), ("PushConst", 2),
                             ("StoreLocal", 1), ("PushConst", 0), ("PushConst", 2),
                             ("PushConst", 2), ("Ret",)])]),
    "implicit_ret_above": _main(["s", (1, 2)], [
        ("Call", 1, 0), ("Ret",)], 0, [
        Function("f", 0, 1, [("PushConst", 0), ("StoreLocal", 0), ("PushConst", 1),
                             ("PushConst", 0)])]),
    "extra_heap_args": _main(["s", (1, 2), 5], [
        ("PushConst", 2), ("PushConst", 0), ("PushConst", 1), ("PushConst", 0),
        ("Call", 1, 4), ("Ret",)], 0, [
        Function("f", 4, 2, [("LoadLocal", 1), ("Ret",)])]),
    "int_slots": _main([4, 1], [
        ("PushConst", 0), ("Call", 1, 1), ("Ret",)], 0, [
        Function("f", 1, 3, [("LoadLocal", 0), ("PushConst", 1), ("Sub",), ("StoreLocal", 1),
                             ("LoadLocal", 1), ("LoadLocal", 0), ("Mul",), ("Ret",)])]),
    # a List element past a digit, one outside i64 (the conversion error), record fields
    "listget_store_big": _main([(1, 2**40, 3), 1], [
        ("PushConst", 0), ("StoreLocal", 0), ("PushConst", 1), ("StoreLocal", 1),
        ("LoadLocal", 0), ("LoadLocal", 1), ("ListGet",), ("StoreLocal", 1), ("LoadLocal", 1),
        ("Ret",)], 2, []),
    "listget_store_huge": _main([(1, 2**70, 3), 1], [
        ("PushConst", 0), ("StoreLocal", 0), ("PushConst", 1), ("StoreLocal", 1),
        ("LoadLocal", 0), ("LoadLocal", 1), ("ListGet",), ("StoreLocal", 1), ("LoadLocal", 1),
        ("Ret",)], 2, []),
    "listget_push_neg": _main([(-(2**62), -1, 3), 0], [
        ("PushConst", 0), ("StoreLocal", 0), ("PushConst", 1), ("StoreLocal", 1),
        ("LoadLocal", 0), ("LoadLocal", 1), ("ListGet",), ("Ret",)], 2, []),
    "field_big": _main([-(2**40), 2**41], [
        ("PushConst", 0), ("PushConst", 1), ("MakeRecord", 0, 2), ("StoreLocal", 0),
        ("LoadLocal", 0), ("GetField", 0), ("LoadLocal", 0), ("GetField", 1), ("Add",), ("Ret",)],
        1, []),
}
FRAME_EXPECTED = {
    "ret_above": (14, None, 17, 0),
    "implicit_ret_above": (None, None, 8, 0),
    "extra_heap_args": ("s", None, 9, 0),
    "int_slots": (12, None, 12, 0),
    "listget_store_big": (1099511627776, None, 11, 0),
    "listget_store_huge": (None, "integer overflow in conversion", 7, 0),
    "listget_push_neg": (-4611686018427387904, None, 9, 0),
    "field_big": (1099511627776, None, 11, 0),
}


@pytest.mark.parametrize("name", sorted(FRAME_CODE))
def test_frames_and_element_reads_match_the_reference(name):
    for trace in (False, True):
        assert _outcomes(FRAME_CODE[name], trace=trace) == {FRAME_EXPECTED[name]}, (name, trace)


# every ordered pair of these Strings under Lt / Lte / Gt / Gte: a fused compare of two locals
# before a branch, a compare of two locals to a Bool, a local against a constant, `&&` and
# `||` of compares; one-character ASCII strings, non-ASCII characters, longer and empty strings
STRS = ["a", "0", "Z", "9", "z", " ", "\u00e9", "\u20ac", "\U0001F600", "ab", "", "a", "a\u00e9"]
CHARS = """fn in_range(c: String) -> Bool { c >= "0" && c <= "9" }
fn main() -> Int {
    let xs = [LIST]
    let n = list_len(xs)
    let mut h = 1
    let mut i = 0
    while i < n {
        let c = list_get(xs, i)
        let mut j = 0
        while j < n {
            let d = list_get(xs, j)
            let lt = c < d
            let le = c <= d
            let mut k = 0
            if lt { k = k + 1 }
            if le { k = k + 2 }
            if c > d { k = k + 4 }
            if c >= d { k = k + 8 }
            if c > "a" || d < "0" { k = k + 16 }
            if in_range(c) { k = k + 32 }
            h = (h * 67 + k) % 1000003
            j = j + 1
        }
        i = i + 1
    }
    h
}
"""


def _chars_oracle():
    h = 1
    for c in STRS:
        for d in STRS:
            k = ((c < d) + 2 * (c <= d) + 4 * (c > d) + 8 * (c >= d)
                 + 16 * (c > "a" or d < "0") + 32 * ("0" <= c <= "9"))
            h = (h * 67 + k) % 1000003
    return h


CHARS_EXPECTED = {
    "none": ({}, (None, 12578)),
    "steps_5000": ({"max_steps": 5000}, ("max execution steps exceeded (5000)", 5001)),
}


@pytest.mark.parametrize("name", sorted(CHARS_EXPECTED))
def test_string_compares_follow_str_order(name):
    caps, (err, steps) = CHARS_EXPECTED[name]
    items = ", ".join('"' + s + '"' for s in STRS)
    module = compile_source(CHARS.replace("LIST", items))
    result = None if err else _chars_oracle()
    for trace in (False, True):
        assert _outcomes(module, caps, trace) == {(result, err, steps, 0)}, trace
