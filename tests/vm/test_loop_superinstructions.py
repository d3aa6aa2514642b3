"""Superinstructions (vm/loading.pxi `_fuse`, vm/loop.pxi): frequent sequences starting with
LoadLocal (compare + JmpIfNot, Add/Sub + StoreLocal, a binary op on a constant, ListGet,
GetField, CallIndirect, a conditional jump on a Bool) run as one dispatch charging their
steps, and fall back to single steps wherever a difference could show. On random programs
(Int and Float loops with overflow; enums, Option/Result, matches, records, lists, function
values, String equality) runs with and without them, in slices of 1, 7 and 100,000 steps,
traced (never fused), with a wall clock, and under step limits give identical results,
errors and steps."""
import random

import pytest

from boruna import _vm
from boruna.compiler import compile_source

BIG = "9223372036854775800"


def _expr(rng, names):
    v = rng.choice(names)
    return rng.choice([f"{v} + {rng.randint(0, 9)}", f"{v} - {rng.randint(0, 9)}",
                       f"{v} * 2", f"{v} + {v}", str(rng.randint(-5, 50))])


def _stmt(rng, names, depth):
    v = rng.choice(names)
    kind = rng.randrange(6 if depth < 2 else 3)
    w = rng.choice(names)
    if kind == 0:
        return rng.choice([f"{v} = {v} + {rng.randint(0, 7)}", f"{v} = {v} + {w}"])
    if kind == 1:
        return rng.choice([f"{v} = {v} - {rng.randint(0, 7)}", f"{v} = {v} - {w}"])
    if kind == 2:
        return f"{v} = {_expr(rng, names)}"
    op = rng.choice(["<", "<=", ">", ">="])
    body = "\n".join(_stmt(rng, names, depth + 1) for _ in range(rng.randint(1, 3)))
    if kind == 3:
        return f"if {v} {op} {rng.choice([str(rng.randint(-3, 40)), w])} {{\n{body}\n}}"
    return (f"let mut g{depth} = 0\nwhile g{depth} < {rng.randint(0, 30)} {{\n{body}\n"
            f"g{depth} = g{depth} + 1\nif {w} {op} {rng.randint(-3, 40)} {{ {w} = {w} + 1 }}\n}}")


def random_program(seed):
    rng = random.Random(seed)
    start = rng.choice(["0", "3", BIG, "-" + BIG])
    lines = [f"let mut a = {start}", "let mut b = 1", "let mut i = 0"]
    body = "\n".join(_stmt(rng, ["a", "b", "i"], 0) for _ in range(rng.randint(1, 4)))
    lines.append(f"let n = {rng.randint(1, 60)}\nwhile i < n {{\n{body}\ni = i + 1\n}}")
    lines.append("let mut f = 0.5\nwhile f < 4.0 { f = f + 1.25 }")
    return "fn main() -> Int {\n" + "\n".join(lines) + "\na + b + i\n}\n"


def outcome(module, slice_steps=0, trace=False, max_steps=10_000_000, max_wall_ms=None):
    m = _vm.Machine(module, trace=trace, max_steps=max_steps, max_wall_ms=max_wall_ms)
    if slice_steps:
        while m.execute_bounded(slice_steps) == _vm.PAUSED:
            pass
    else:
        m.run()
    return (m.result, m.error, m.steps)


def single_steps(monkeypatch, fn, *args, **kw):
    """`fn(*args, **kw)` with the superinstructions off."""
    monkeypatch.setattr(_vm, "SUPERINSTRUCTIONS", False)
    try:
        return fn(*args, **kw)
    finally:
        monkeypatch.setattr(_vm, "SUPERINSTRUCTIONS", True)


def assert_fused_equals_single(module, monkeypatch, seed, caps, wall_clock=False,
                               sliced_caps=True):
    """A program fused and in single steps: the same outcome, also sliced 1/7/100,000,
    traced, (with a wall clock) and stopped at each of `caps(steps)` (also sliced by 7)."""
    fused = outcome(module)
    assert fused == single_steps(monkeypatch, outcome, module), seed
    for size in (1, 7, 100_000):
        assert outcome(module, slice_steps=size) == fused, (seed, size)
    assert outcome(module, trace=True) == fused, seed
    if wall_clock:      # a wall clock turns the String Eq/Neq superinstruction off
        assert outcome(module, max_wall_ms=10**9) == fused, seed
    for cap in caps(fused[2]):
        if cap > 0:
            want = single_steps(monkeypatch, outcome, module, max_steps=cap)
            assert outcome(module, max_steps=cap) == want, (seed, cap)
            if sliced_caps:
                assert outcome(module, slice_steps=7, max_steps=cap) == want, (seed, cap)


def test_fused_loop_result_and_steps():
    src = ("fn main() -> Int {\n    let mut acc = 0\n    let mut i = 0\n    while i < 1000 {\n"
           "        acc = acc + 3\n        i = i + 1\n    }\n    acc\n}\n")
    module = compile_source(src)
    assert outcome(module) == (3000, None, 13011)
    assert outcome(module, max_steps=5000) == (None, "max execution steps exceeded (5000)", 5001)


@pytest.mark.parametrize("block", range(4))
def test_random_loops_fused_equal_single_steps_sliced_and_traced(block, monkeypatch):
    for seed in range(block * 25, block * 25 + 25):
        assert_fused_equals_single(
            compile_source(random_program(seed)), monkeypatch, seed,
            lambda steps: {1, 3, 4, steps // 3, steps // 2 + 1, steps - 1})


# ------------------------------------------- enums, matches, records, lists, function values

ENUM_PRELUDE = """enum Shape { Dot, Seg(Int), Box(Int) }
type P { x: Int, y: Int }
fn inc(x: Int) -> Int { x + 1 }
fn dbl(x: Int) -> Int { x * 2 }
fn neg(x: Int) -> Int { 0 - x }
fn pick(k: Int) -> Fn(Int) -> Int { if k % 3 == 0 { inc } else { if k % 3 == 1 { dbl } else { neg } } }
fn shape(k: Int) -> Shape { if k % 3 == 0 { Shape::Dot } else { if k % 3 == 1 { Shape::Seg(k) } else { Shape::Box(k * 2) } } }
fn opt(k: Int) -> Option<Int> { if k % 2 == 0 { Some(k) } else { None } }
fn res(k: Int) -> Result<Int, String> { if k % 4 == 0 { Err("e") } else { Ok(k) } }
fn apply(f: Fn(Int) -> Int, v: Int) -> Int { f(v) }
"""


def _enum_stmt(rng, k):
    c = rng.randint(0, 9)
    kind = rng.randrange(10)
    if kind == 0:
        return f"let g{k} = pick(i + {c})\nacc = g{k}(acc) % 100003"
    if kind == 1:
        return (f"let s{k} = match shape(i + {c}) {{ Dot => 1, Seg(n) => n, Box(n) => n * 3, }}\n"
                f"acc = acc + s{k}")
    if kind == 2:
        return (f"match opt(acc % 5 + {c}) {{ Some(v) => {{ acc = acc + v }}, "
                f"None => {{ acc = acc - 1 }}, }}")
    if kind == 3:
        return f"match res(i + {c}) {{ Ok(v) => {{ acc = acc + v }}, Err(e) => {{ acc = acc * 2 }}, }}"
    if kind == 4:
        # sometimes one past the end: the index error, fused or not
        return f"let j{k} = (i + {c}) % {rng.choice([5, 5, 5, 6])}\nacc = acc + list_get(xs, j{k})"
    if kind == 5:
        return f"p = P {{ x: p.y + acc % 7, y: p.x + {c} }}\nacc = acc + p.x"
    if kind == 6:
        return f"acc = apply(pick(acc + {c}), acc) % 100003"
    if kind == 7:
        return f"let h{k} = shape(acc % 3)\nmatch h{k} {{ Seg(n) => {{ acc = acc + n }}, _ => {{ acc = acc + {c} }}, }}"
    if kind == 8:
        return rng.choice([
            f"if acc {rng.choice(['==', '!='])} {c} {{ acc = acc + 2 }}",
            f"let t{k} = if acc % 2 == 0 {{ \"even\" }} else {{ \"odd\" }}\n"
            f"if t{k} {rng.choice(['==', '!='])} \"even\" {{ acc = acc + 5 }}",
            f"let f{k} = acc % 3 == {c % 3}\nif f{k} {{ acc = acc + 1 }} else {{ acc = acc - 1 }}",
            f"let mut go{k} = true\nwhile go{k} {{ acc = acc + 1  go{k} = acc % 4 != 0 }}",
        ])
    return rng.choice([f"acc = acc * {rng.choice([2, 3, 1000003])}", f"acc = acc % {c + 1}",
                       f"acc = acc - {c}"])


def random_enum_program(seed):
    """Enum / Option / Result construction and matches, records, list reads, calls through
    function values, Int and String equality and Bool locals as conditions, in a loop; some
    overflow or index past the end."""
    rng = random.Random(seed)
    start = rng.choice(["0", "7", BIG])
    body = "\n".join(_enum_stmt(rng, k) for k in range(rng.randint(1, 5)))
    return (ENUM_PRELUDE + "fn main() -> Int {\n"
            f"let mut acc = {start}\nlet xs = [3, 1, 4, 1, 5]\nlet mut p = P {{ x: 1, y: 2 }}\n"
            f"let mut i = 0\nwhile i < {rng.randint(1, 40)} {{\n{body}\ni = i + 1\n}}\n"
            "acc + p.x + p.y\n}\n")


def test_random_enum_program_compiles_and_runs():
    m = _vm.Machine(compile_source(random_enum_program(0)))
    assert m.run() in (_vm.FINISHED, _vm.FAILED)


@pytest.mark.parametrize("block", range(4))
def test_random_enum_programs_fused_equal_single_steps_sliced_and_traced(block, monkeypatch):
    for seed in range(block * 25, block * 25 + 25):
        assert_fused_equals_single(
            compile_source(random_enum_program(seed)), monkeypatch, seed,
            lambda steps: {1, 2, 3, steps // 3, steps // 2 + 1, steps - 1}, wall_clock=True)


# the superinstructions of vm/fused.pxi: x = list_push(x, list_get(l, i)) (6 steps), a
# compare of two list elements (7), of two locals to a Bool (3), two of them as an And/Or
# condition (8), StoreLocal, LoadLocal and JmpIfNot of one local (3); and a jump to a jump (2)
LIST_PROGRAM = """fn pick(xs: List<Int>, lo: Int, hi: Int) -> List<Int> {
    let mut out = []
    let mut i = lo
    while i < hi { out = list_push(out, list_get(xs, i))  i = i + 1 }
    out
}
fn merge(a: List<Int>, b: List<Int>) -> List<Int> {
    let mut out = []
    let mut i = 0
    let mut j = 0
    let na = list_len(a)
    let nb = list_len(b)
    while i < na || j < nb {
        let take_a = if j >= nb { true } else { if i >= na { false } else { list_get(a, i) <= list_get(b, j) } }
        if take_a {
            out = list_push(out, list_get(a, i))
            i = i + 1
        } else {
            out = list_push(out, list_get(b, j))
            j = j + 1
        }
    }
    out
}
fn sort(xs: List<Int>) -> List<Int> {
    let n = list_len(xs)
    if n < 2 { xs } else {
        let mid = n / 2
        merge(sort(pick(xs, 0, mid)), sort(pick(xs, mid, n)))
    }
}
fn main() -> List<Int> {
    let mut xs = []
    let mut seed = SEED
    let mut i = 0
    while i < COUNT {
        seed = (seed * 75 + 74) % 65537
        xs = list_push(xs, seed % 1000)
        i = i + 1
    }
    sort(xs)
}
"""


def _list_outcome(module, slice_steps=0, trace=False, max_steps=10_000_000, **kw):
    m = _vm.Machine(module, trace=trace, max_steps=max_steps, **kw)
    if slice_steps:
        while m.execute_bounded(slice_steps) == _vm.PAUSED:
            pass
    else:
        m.run()
    return (m.result, m.error, m.steps, m.work)


@pytest.mark.parametrize("seed", [1, 77, 12345])
def test_list_superinstructions_equal_single_steps(seed, monkeypatch):
    module = compile_source(LIST_PROGRAM.replace("SEED", str(seed)).replace("COUNT", "60"))
    fused = _list_outcome(module)
    seq, xs = seed, []
    for _ in range(60):
        seq = (seq * 75 + 74) % 65537
        xs.append(seq % 1000)
    assert fused[:2] == (tuple(sorted(xs)), None)
    assert fused == single_steps(monkeypatch, _list_outcome, module)
    for cap in (9_000, 12_000, 20_000):
        assert _list_outcome(module, max_value_memory=cap) == single_steps(
            monkeypatch, _list_outcome, module, max_value_memory=cap), cap
    for size in (1, 7, 100_000):
        assert _list_outcome(module, slice_steps=size) == fused, size
    assert _list_outcome(module, trace=True) == fused
    for limit in range(1, fused[2] + 2, 97):
        assert _list_outcome(module, max_steps=limit) == single_steps(
            monkeypatch, _list_outcome, module, max_steps=limit), limit
    for cap in (9_000, 12_000):
        for size in (1, 7):
            assert (_list_outcome(module, slice_steps=size, max_value_memory=cap)
                    == _list_outcome(module, max_value_memory=cap)), (cap, size)


def test_push_get_of_a_host_list_keeps_list_get_errors():
    src = ("fn main(xs: List<Int>, i: Int) -> List<Int> {\n    let mut out = []\n"
           "    out = list_push(out, list_get(xs, i))\n    out\n}\n")
    module = compile_source(src)
    for args, want in [(((1 << 70,), 0), "integer overflow in conversion"),
                       (((5, 6), 2), "list index out of bounds: index 2, length 2"),
                       (((5, 6), -1), "list index out of bounds: index -1, length 2"),
                       ((("ab", "c"), 1), None)]:
        got = []
        for fused in (True, False):
            _vm.SUPERINSTRUCTIONS = fused
            try:
                m = _vm.Machine(module)
                m.set_entry(0, args)
                m.run()
            finally:
                _vm.SUPERINSTRUCTIONS = True
            got.append((m.result, m.error, m.steps, m.work))
        assert got[0] == got[1], args
        assert got[0][1] == want, (args, got)


def test_empty_list_push_spends_the_copys_work(monkeypatch):
    src = ("fn main(s: String) -> List<String> {\n    let mut out = []\n"
           "    out = list_push(out, s)\n    out = list_push(out, s)\n    out\n}\n")
    module = compile_source(src)
    got = []
    for in_place in (True, False):
        monkeypatch.setattr(_vm, "PUSH_IN_PLACE", in_place)
        m = _vm.Machine(module)
        m.set_entry(0, ("abcd",))
        m.run()
        got.append((m.result, m.steps, m.work))
    assert got[0][:2] == got[1][:2] == (("abcd", "abcd"), 13)
    assert got[0][2] == 4          # the empty list's push: its element's 4 characters
    assert got[1][2] == 4 + 1 + 4  # the copy also reads the one-element list


def _cond(rng, names):
    v, w = rng.choice(names), rng.choice(names)
    op = rng.choice(["<", "<=", ">", ">="])
    one = f"{v} {op} {w}"
    if rng.random() < 0.5:
        return one
    return f"{one} {rng.choice(['&&', '||'])} {rng.choice(names)} {op} {rng.choice(names)}"


def _kstmt(rng, names, depth):
    v = rng.choice(names[:-1])      # the last name (the loop counter) is only read
    kind = rng.randrange(5 if depth < 2 else 2)
    if kind == 0:   # a local and an Int constant: overflow, division by 0 and by -1
        k = rng.choice(["0", "1", "-1", "3", "7", BIG, "2"])
        op = rng.choice(["+", "-", "*", "/", "%"])
        return f"{v} = {rng.choice(names)} {op} {k} + 0"
    if kind == 1:
        return f"{v} = {v} + {rng.randint(-3, 3)}"
    body = "\n".join(_kstmt(rng, names, depth + 1) for _ in range(rng.randint(1, 2)))
    if kind == 2:   # a stored condition, and an else whose end jumps to a jump
        return (f"let t{depth} = {_cond(rng, names)}\nif t{depth} {{\n{body}\n}} else {{\n"
                f"{v} = {v} + 1\n}}")
    if kind == 3:
        return f"if {_cond(rng, names)} {{\n{body}\n}}"
    return (f"let mut g{depth} = 0\nwhile g{depth} < {rng.randint(0, 9)} && ({_cond(rng, names)}) "
            f"{{\n{body}\ng{depth} = g{depth} + 1\n}}")


def constant_program(seed):
    rng = random.Random(seed)
    start = rng.choice(["0", "5", BIG, "-" + BIG, "-9223372036854775807 - 1"])
    lines = [f"let mut a = {start}", "let mut b = 2", "let mut c = -3", "let mut i = 0"]
    body = "\n".join(_kstmt(rng, ["a", "b", "c", "i"], 0) for _ in range(rng.randint(1, 4)))
    lines.append(f"while i < {rng.randint(1, 30)} {{\n{body}\ni = i + 1\n}}")
    lines.append("let mut f = 0.5\nwhile f < 3.0 && f >= 0.0 { f = f * 2.0 }")
    return "fn main() -> Int {\n" + "\n".join(lines) + "\na + b + c + i\n}\n"


@pytest.mark.parametrize("block", range(4))
def test_random_constant_ops_and_conditions_fused_equal_single_steps(block, monkeypatch):
    for seed in range(block * 25, block * 25 + 25):
        assert_fused_equals_single(
            compile_source(constant_program(seed)), monkeypatch, seed,
            lambda steps: range(1, steps + 2, max(1, steps // 11)), sliced_caps=False)


def test_constant_program_errors_are_covered():
    errors = {outcome(compile_source(constant_program(seed)))[1] for seed in range(100)}
    assert errors == {None, "division by zero", "integer overflow in addition",
                      "integer overflow in subtraction", "integer overflow in multiplication"}


IDIOM_PROGRAM = """type Item { name: String, tags: List<String>, n: Int }
fn is_lower(c: String) -> Bool { c >= "a" && c <= "z" }
fn make(i: Int) -> Item {
    let mut tags = ["t" ++ __builtin_int_to_string(i % 3)]
    if i % 2 == 0 { tags = list_push(tags, "even") }
    Item { name: "w" ++ __builtin_int_to_string(i), tags: tags, n: i * 37 % 1000 }
}
fn main() -> Int {
    let mut items = []
    let mut i = 0
    while i < COUNT { items = list_push(items, make(i))  i = i + 1 }
    let mut ns = []
    for it in items {
        let t = list_get(it.tags, 0)
        if t != "t0" { ns = list_push(ns, it.n) }
    }
    let mut total = 0
    let mut k = 0
    while k < list_len(ns) {
        let x = list_get(ns, k)
        let big = x > 500
        if big { total = total + x } else { total = total + 1 }
        k = k + 1
    }
    for c in __builtin_string_chars("Hello, World of ax") {
        let low = is_lower(c)
        if low { total = total + 1000 }
        let sp = c == " "
        if sp { total = total + 7 }
    }
    total * 1000 + list_len(items)
}
"""


def _py_idiom(count):
    items = []
    for i in range(count):
        tags = ["t" + str(i % 3)] + (["even"] if i % 2 == 0 else [])
        items.append(("w" + str(i), tags, i * 37 % 1000))
    ns = [n for _, tags, n in items if tags[0] != "t0"]
    total = sum(x if x > 500 else 1 for x in ns)
    for c in "Hello, World of ax":
        total += 1000 if "a" <= c <= "z" else 0
        total += 7 if c == " " else 0
    return total * 1000 + len(items)


@pytest.mark.parametrize("count", [5, 40, 300])
def test_idiom_superinstructions_equal_single_steps(count, monkeypatch):
    """`let x = list_get(..)` (ListGet + StoreLocal), `x = list_push(x, v)` (OP_SUPER_PUSHL),
    compares with a constant as values (Ints and Strings), a long list of records built while
    short lists come and go (the builders' least-recently-grown eviction): the result in
    Python, and the same result, error, steps and work as single steps, sliced, traced, under
    memory caps (memory walks landing inside the sequences) and step limits."""
    module = compile_source(IDIOM_PROGRAM.replace("COUNT", str(count)))
    fused = _list_outcome(module)
    assert fused[:2] == (_py_idiom(count), None)
    assert fused == single_steps(monkeypatch, _list_outcome, module)
    for size in (1, 7, 100_000):
        assert _list_outcome(module, slice_steps=size) == fused, size
    assert _list_outcome(module, trace=True) == fused
    for cap in (4_000, 9_000, 30_000, 120_000):
        assert _list_outcome(module, max_value_memory=cap) == single_steps(
            monkeypatch, _list_outcome, module, max_value_memory=cap), cap
    for limit in range(1, fused[2] + 2, max(1, fused[2] // 60)):
        assert _list_outcome(module, max_steps=limit) == single_steps(
            monkeypatch, _list_outcome, module, max_steps=limit), limit
