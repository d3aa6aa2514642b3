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


def test_fused_loop_result_and_steps():
    src = ("fn main() -> Int {\n    let mut acc = 0\n    let mut i = 0\n    while i < 1000 {\n"
           "        acc = acc + 3\n        i = i + 1\n    }\n    acc\n}\n")
    module = compile_source(src)
    assert outcome(module) == (3000, None, 13011)
    assert outcome(module, max_steps=5000) == (None, "max execution steps exceeded (5000)", 5001)


@pytest.mark.parametrize("block", range(4))
def test_random_loops_fused_equal_single_steps_sliced_and_traced(block, monkeypatch):
    for seed in range(block * 25, block * 25 + 25):
        module = compile_source(random_program(seed))
        fused = outcome(module)
        monkeypatch.setattr(_vm, "SUPERINSTRUCTIONS", False)
        single = outcome(module)
        monkeypatch.setattr(_vm, "SUPERINSTRUCTIONS", True)
        assert fused == single, seed
        for size in (1, 7, 100_000):
            assert outcome(module, slice_steps=size) == fused, (seed, size)
        assert outcome(module, trace=True) == fused, seed
        steps = fused[2]
        for cap in {1, 3, 4, steps // 3, steps // 2 + 1, steps - 1}:
            if cap > 0:
                got = outcome(module, max_steps=cap)
                monkeypatch.setattr(_vm, "SUPERINSTRUCTIONS", False)
                want = outcome(module, max_steps=cap)
                monkeypatch.setattr(_vm, "SUPERINSTRUCTIONS", True)
                assert got == want, (seed, cap)
                assert outcome(module, slice_steps=7, max_steps=cap) == want, (seed, cap)


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
        module = compile_source(random_enum_program(seed))
        fused = outcome(module)
        monkeypatch.setattr(_vm, "SUPERINSTRUCTIONS", False)
        single = outcome(module)
        monkeypatch.setattr(_vm, "SUPERINSTRUCTIONS", True)
        assert fused == single, seed
        for size in (1, 7, 100_000):
            assert outcome(module, slice_steps=size) == fused, (seed, size)
        assert outcome(module, trace=True) == fused, seed
        # a wall clock turns the String Eq/Neq superinstruction off (Eq checks the clock)
        assert outcome(module, max_wall_ms=10**9) == fused, seed
        steps = fused[2]
        for cap in {1, 2, 3, steps // 3, steps // 2 + 1, steps - 1}:
            if cap > 0:
                got = outcome(module, max_steps=cap)
                monkeypatch.setattr(_vm, "SUPERINSTRUCTIONS", False)
                want = outcome(module, max_steps=cap)
                monkeypatch.setattr(_vm, "SUPERINSTRUCTIONS", True)
                assert got == want, (seed, cap)
                assert outcome(module, slice_steps=7, max_steps=cap) == want, (seed, cap)
