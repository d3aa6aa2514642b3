"""Superinstructions (vm/loading.pxi `_fuse`, vm/loop.pxi): LoadLocal/PushConst-or-LoadLocal/
compare/JmpIfNot and LoadLocal/PushConst-or-LoadLocal/Add-or-Sub/StoreLocal run as one dispatch charging their
four steps, and fall back to single steps wherever a difference could show. On random loop
programs (Int and Float locals, overflow, step limits) runs with and without them, in slices
of 1, 7 and 100,000 steps, and traced (never fused) give identical results, errors and steps."""
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


def outcome(module, slice_steps=0, trace=False, max_steps=10_000_000):
    m = _vm.Machine(module, trace=trace, max_steps=max_steps)
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
