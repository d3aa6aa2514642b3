"""The String paths of the VM's C core against the start build (main at f620190, whose
answers the tables below hold) and against Python's own text operations: Concat of two ASCII
Strings written without an intermediate object into the one only its operand holds
(vm/core/strings.h `bor_ascii_concat`, `bor_str_grow`), StringJoin in one pass in the core
(vm/core/dispatch.h `bor_string_join`) and IntToString two digits at a time (_vm.pxd
`bor_int_to_str`). The texts, steps, work and the step and charge at which every memory, work and
step cap is met must be the start build's, whole and in slices of 7 steps, with no wall clock
(the core's paths) and with one (StringJoin then takes the Cython path, vm/cold.pxi
`_split_join_fast`)."""
import importlib.util
import pathlib

import pytest

from boruna import _vm
from boruna.compiler import compile_source

_spec = importlib.util.spec_from_file_location(
    "test_dispatch_core", pathlib.Path(__file__).with_name("test_dispatch_core.py"))
_core = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_core)

# Concat: a fresh String on the right of a constant and then on the left (in place both
# times), appends onto a String only the loop's local holds (in place below 64 characters, the
# builders above), a String still read after the append (a new one), non-ASCII operands
# (PyUnicode_Concat), the empty String on either side (the other operand itself), two fresh
# Strings
CONCATS = """fn tag(x: Int) -> String { "<" ++ __builtin_int_to_string(x) ++ ">" }
fn grow(s: String, n: Int) -> String {
    let mut t = s
    let mut i = 0
    while i < n { t = t ++ __builtin_int_to_string(i % 10) ++ "." i = i + 1 }
    t
}
fn main() -> List<String> {
    let mut out = []
    let mut i = 0
    while i < 48 {
        let a = tag(i * 37 - 900)
        let b = grow("", i % 9)
        let c = grow("k", i)
        let kept = c
        let d = kept ++ "!"
        let e = "é" ++ a ++ "ß"
        let f = a ++ ""
        let g = "" ++ f
        let h = g ++ "+"
        let j = __builtin_int_to_string(i) ++ __builtin_int_to_string(i)
        out = list_push(out, a ++ "|" ++ b ++ "|" ++ d ++ "|" ++ kept ++ "|" ++ e ++ "|" ++ h
            ++ "|" ++ j)
        i = i + 1
    }
    out
}
"""

# a String whose hash a map computed, then appended to in place once nothing else holds it:
# the appended String must hash anew (found in a map built from an equal String)
HASHED = """fn hashed(i: Int) -> Int {
    let k = "key" ++ __builtin_int_to_string(i)
    let m = __builtin_map_set(map_new(), k, i)
    let n = __builtin_map_len(m)
    let k2 = k ++ "z"
    let m2 = __builtin_map_set(map_new(), "key" ++ __builtin_int_to_string(i) ++ "z", 7)
    match __builtin_map_get(m2, k2) { Some(v) => v + n, None => 0 - 1000 }
}
fn main() -> Int {
    let mut t = 0
    let mut i = 0
    while i < 30 { t = t * 3 % 1000003 + hashed(i * 11) i = i + 1 }
    t
}
"""

# StringJoin of 0, 1 (the lone item itself) and more items, empty items, an empty separator,
# a non-ASCII separator or item (the Cython path), results appended to
JOINS = """fn main() -> List<String> {
    let mut out = []
    let mut r = 0
    while r < 14 {
        let mut parts = []
        let mut i = 0
        while i < r {
            parts = list_push(parts, if i % 4 == 0 { "" } else { __builtin_int_to_string(i * r - 20) })
            i = i + 1
        }
        let s1 = __builtin_string_join(parts, ", ")
        let s2 = __builtin_string_join(parts, "") ++ "x"
        let s3 = __builtin_string_join(parts, "é")
        let s4 = __builtin_string_join(list_push(parts, "ü"), "-")
        let s5 = __builtin_string_join(parts, "") ++ __builtin_string_join(parts, ";")
        out = list_push(out, s1 ++ "|" ++ s2 ++ "|" ++ s3 ++ "|" ++ s4 ++ "|" ++ s5)
        r = r + 1
    }
    out
}
"""

INTS = """fn main() -> List<String> {
    let xs = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 12345, 99999, 100000, 1234567890,
              0 - 1, 0 - 9, 0 - 10, 0 - 99, 0 - 100, 0 - 101, 0 - 1234567890,
              9223372036854775807, 0 - 9223372036854775807, 0 - 9223372036854775807 - 1]
    let mut out = []
    for x in xs { out = list_push(out, __builtin_int_to_string(x)) }
    out
}
"""


def _py_concats():
    def grow(s, n):
        for i in range(n):
            s += str(i % 10) + "."
        return s
    out = []
    for i in range(48):
        a = "<" + str(i * 37 - 900) + ">"
        c = grow("k", i)
        out.append("|".join([a, grow("", i % 9), c + "!", c, "é" + a + "ß", a + "+",
                             str(i) * 2]))
    return out


def _py_joins():
    out = []
    for r in range(14):
        parts = ["" if i % 4 == 0 else str(i * r - 20) for i in range(r)]
        out.append("|".join([", ".join(parts), "".join(parts) + "x", "é".join(parts),
                             "-".join(parts + ["ü"]), "".join(parts) + ";".join(parts)]))
    return out


_INTS = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 12345, 99999, 100000, 1234567890, -1, -9, -10,
         -99, -100, -101, -1234567890, 2**63 - 1, -(2**63 - 1), -(2**63)]

_TEXTS = {"CONCATS": _py_concats, "JOINS": _py_joins, "INTS": lambda: [str(x) for x in _INTS]}
_HASHED = 0
for _i in range(30):
    _HASHED = _HASHED * 3 % 1000003 + 8

# (steps, work) at which each cap is met in the start build, or (None, steps, work) for a run
# that finishes under it
CONCATS_CAPS = {
    'memory': {
        2500: (81, 49), 3000: (109, 283), 3500: (131, 294), 4000: (184, 299), 4500: (204, 306),
        5000: (214, 327), 5500: (222, 340), 6000: (228, 342), 6500: (256, 598), 7000: (276, 603),
        7500: (299, 610), 8000: (349, 621), 8500: (367, 628), 9000: (2045, 4382),
        9500: (3892, 9085), 10000: (3966, 9281), 10500: (5956, 14795), 11000: (8329, 22895),
        11500: (10897, 31574), 12000: (10879, 31535), 12500: (13699, 42970), 13000: (13699, 42970),
        13500: (16555, 54645), 14000: (19735, 67839), 14500: (19825, 68094), 15000: (23099, 81261),
        15500: (23117, 81274), 16000: (26704, 94238), 16500: (26848, 94254),
        17000: (None, 28937, 102713), 17500: (None, 28937, 102713), 18000: (None, 28937, 102713),
        18500: (None, 28937, 102713), 19000: (None, 28937, 102713), 19500: (None, 28937, 102713),
        20000: (None, 28937, 102713),
    },
    'work': {
        500: (251, 524), 3000: (1516, 3002), 5500: (2520, 5502), 8000: (3459, 8005),
        10500: (4429, 10506), 13000: (5341, 13008), 15500: (6041, 15567), 18000: (6880, 18038),
        20500: (7456, 20534), 23000: (8365, 23001), 25500: (9072, 25502), 28000: (9799, 28003),
        30500: (10521, 30541), 33000: (11240, 33001), 35500: (11839, 35537), 38000: (12435, 38028),
        40500: (13066, 40517), 43000: (13701, 43021), 45500: (14334, 45508), 48000: (14913, 48016),
        50500: (15374, 50633), 53000: (16084, 53006), 55500: (16773, 55520), 58000: (17404, 58016),
        60500: (17919, 60568), 63000: (18507, 63019), 65500: (19174, 65529), 68000: (19791, 68007),
        70500: (20306, 70561), 73000: (20980, 73040), 75500: (21721, 75526), 78000: (22390, 78013),
        80500: (23013, 80631), 83000: (23689, 83034), 85500: (24466, 85509), 88000: (25001, 88006),
        90500: (25747, 90533), 93000: (26454, 93015), 95500: (26973, 95620), 98000: (27918, 98087),
        100500: (28474, 100537),
    },
    'steps': {
        900: (901, 1716), 5000: (5001, 12604), 20000: (20001, 68854),
    },
}
HASHED_CAPS = {
    'memory': {
        2500: (35, 13), 3000: (39, 17), 3500: (43, 27), 4000: (47, 27), 4500: (78, 32),
        5000: (80, 32), 5500: (83, 37), 6000: (86, 37), 6500: (92, 43), 7000: (96, 48),
        7500: (100, 60), 8000: (104, 60),
    },
    'work': {
        100: (197, 103), 200: (368, 202), 300: (539, 301), 400: (670, 402), 500: (837, 505),
        600: (990, 603), 700: (1124, 707), 800: (1280, 804), 900: (1409, 902), 1000: (1572, 1006),
        1100: (1696, 1104),
    },
    'steps': {
        900: (901, 558),
    },
}
JOINS_CAPS = {
    'memory': {
        2500: (42, 9), 2750: (43, 9), 3000: (50, 12), 3250: (63, 45), 3500: (74, 45),
        3750: (74, 45), 4000: (91, 45), 4250: (104, 48), 4500: (108, 49), 4750: (110, 50),
        5000: (118, 54), 5250: (118, 54), 5500: (124, 60), 5750: (127, 62), 6000: (128, 62),
        6250: (133, 63), 6500: (148, 95), 6750: (148, 95), 7000: (159, 95), 7250: (159, 95),
        7500: (176, 95), 7750: (200, 95), 8000: (200, 95), 8250: (213, 104), 8500: (217, 109),
        8750: (227, 123), 9000: (1369, 2795), 9250: (1369, 2795), 9500: (1369, 2795),
        9750: (1359, 2745), 10000: (2538, 5983), 10250: (1369, 2795), 10500: (None, 2993, 8185),
        10750: (2589, 6145), 11000: (None, 2993, 8185),
    },
    'work': {
        500: (385, 523), 750: (532, 758), 1000: (546, 1051), 1250: (713, 1262), 1500: (723, 1525),
        1750: (914, 1769), 2000: (924, 2071), 2250: (1130, 2256), 2500: (1145, 2521),
        2750: (1361, 2758), 3000: (1388, 3013), 3250: (1396, 3299), 3500: (1634, 3516),
        3750: (1657, 3756), 4000: (1665, 4056), 4250: (1923, 4258), 4500: (1948, 4516),
        4750: (1956, 4808), 5000: (1960, 5043), 5250: (2257, 5260), 5500: (2269, 5544),
        5750: (2275, 5836), 6000: (2575, 6038), 6250: (2598, 6265), 6500: (2610, 6574),
        6750: (2614, 6794), 7000: (2618, 7097), 7250: (2946, 7252), 7500: (2967, 7549),
        7750: (2975, 7873), 8000: (2977, 8004),
    },
    'steps': {
        900: (901, 1629), 2000: (2001, 5043),
    },
}
PROGRAMS = {"CONCATS": (CONCATS, CONCATS_CAPS), "HASHED": (HASHED, HASHED_CAPS),
            "JOINS": (JOINS, JOINS_CAPS)}
# (steps, work) of the uncapped runs
FULL = {"CONCATS": (28937, 102713), "HASHED": (1721, 1104), "JOINS": (2993, 8185)}
_CAP_ARG = {"memory": "max_value_memory", "work": "max_work", "steps": "max_steps"}
_ERRORS = {
    "memory": "memory limit exceeded: live values use more than {} bytes",
    "work": "work limit exceeded: builtins processed more than {} characters or elements",
    "steps": "max execution steps exceeded ({})",
}


# (result, error, steps, work) without and with a wall clock, whole and in 7-step slices
_outcomes = _core._outcomes_with_and_without_wall


def _expected_result(name):
    return _HASHED if name == "HASHED" else tuple(_TEXTS[name]())


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_texts_steps_and_work_equal_the_start_build(name):
    steps, work = FULL[name]
    outs = _outcomes(compile_source(PROGRAMS[name][0]), {})
    assert outs == [(_expected_result(name), None, steps, work)] * 4
    if name != "HASHED":
        for s in outs[0][0]:
            # an exact str whose hash is its text's (no stale cached hash)
            assert type(s) is str and hash(s) == hash("".join(list(s)))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("kind", sorted(_CAP_ARG))
def test_every_cap_is_met_where_the_start_build_meets_it(name, kind):
    src, caps = PROGRAMS[name]
    module = compile_source(src)
    for cap, want in caps[kind].items():
        outs = _outcomes(module, {_CAP_ARG[kind]: cap})
        if len(want) == 3:
            assert outs == [(_expected_result(name), None) + want[1:]] * 4, (kind, cap)
        else:
            assert outs == [(None, _ERRORS[kind].format(cap)) + want] * 4, (kind, cap)


# CONCATS with the String builders off (STR_IN_PLACE): every append below and above 64
# characters then grows the String only its operand holds in place (moved when its block has no
# room), the copy's work spent: (finished, steps, work) of the start build with builders off
COPYING = {
    (None, 0): (True, 28937, 130884),
    ("memory", 9000): (False, 2045, 4382),
    ("memory", 12000): (False, 10879, 33271),
    ("memory", 16000): (False, 26704, 114669),
    ("work", 20000): (False, 7281, 20014),
    ("work", 100000): (False, 23990, 100081),
}


def test_appends_without_builders_equal_the_start_build(monkeypatch):
    monkeypatch.setattr(_vm, "STR_IN_PLACE", False)
    module = compile_source(CONCATS)
    for (kind, cap), (finished, steps, work) in COPYING.items():
        outs = _outcomes(module, {_CAP_ARG[kind]: cap} if kind else {})
        if finished:
            assert outs == [(tuple(_py_concats()), None, steps, work)] * 4
        else:
            assert outs == [(None, _ERRORS[kind].format(cap), steps, work)] * 4


def test_int_to_string_texts():
    m = _vm.Machine(compile_source(INTS))
    m.run()
    assert (m.result, m.error, m.steps) == (tuple(str(x) for x in _INTS), None, 516)
