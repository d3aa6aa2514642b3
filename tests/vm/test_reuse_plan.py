"""The reuse plan (vm/reuse.pxi `_reuse_plan`: which LoadLocal / StoreLocal move and which
GetField may take its field), computed with one bitset per pc, against the table-per-pc
analysis it replaced (`reuse_plan_oracle.py`): the same moves and takes, in the same order,
for every function of every program here and of random and malformed code."""
import os
import random
import sys

import pytest

from boruna import _vm
from boruna.compiler import compile_source

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reuse_plan_oracle as oracle  # noqa: E402
import snapshot_cases  # noqa: E402  (every family of random programs)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
from vm_heldout_programs import SUITE as HELDOUT  # noqa: E402
from vm_suite_programs import SUITE  # noqa: E402


def _same_plans(module):
    for f in module.functions:
        want = oracle.reuse_plan(f.code, f.match_tables, int(f.arity))
        got = _vm._reuse_plan(f.code, f.match_tables, int(f.arity))
        assert (list(got[0]), dict(got[1])) == (list(want[0]), dict(want[1])), f.name


def _ax_files():
    for base, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "build"]
        for name in files:
            if name.endswith(".ax"):
                yield os.path.join(base, name)


def test_the_repositorys_programs_and_both_benchmark_suites():
    sources = [open(p, encoding="utf-8").read() for p in _ax_files()]
    sources += [src for src, _py, _m in list(SUITE.values()) + list(HELDOUT.values())]
    compiled = 0
    for src in sources:
        try:
            module = compile_source(src)
        except Exception:
            continue            # a file of errors on purpose (diagnostics examples)
        _same_plans(module)
        compiled += 1
    assert compiled >= 30


@pytest.mark.parametrize("family", sorted(snapshot_cases.families()))
def test_random_programs_of_every_family(family):
    make = snapshot_cases.families()[family]
    for seed in range(40):
        src = make(seed)
        _same_plans(compile_source(src[0] if isinstance(src, tuple) else src))


def test_a_function_with_many_locals_live_to_its_end():
    n = 600
    body = "\n".join(f"    let x{i} = {i} + 1" for i in range(n))
    src = f"fn main() -> Int {{\n{body}\n    " + " + ".join(f"x{i}" for i in range(n)) + "\n}"
    module = compile_source(src)
    _same_plans(module)
    moves, takes = _vm._reuse_plan(module.functions[0].code, [], 0)
    assert len(moves) == n and takes == {}    # each x_i's one read moves it


def _random_code(rng):
    n = rng.randint(1, 40)
    tables = [[(rng.randint(-1, 3), rng.randint(-3, n + 2)) for _ in range(rng.randint(0, 3))]
              for _ in range(rng.randint(0, 3))]
    code = []
    for _ in range(n):
        r = rng.random()
        if r < 0.3:
            code.append(("LoadLocal", rng.choice([0, 1, 2, 3, 4, 5, 10 ** 6])))
        elif r < 0.45:
            code.append(("StoreLocal", rng.choice([0, 1, 2, 3, 4, 5])))
        elif r < 0.6:
            code.append(("GetField", rng.choice([0, 1, 2, 3, -1, -4])))
        elif r < 0.7:
            code.append((rng.choice(["Jmp", "JmpIf", "JmpIfNot"]), rng.randint(0, n + 3)))
        elif r < 0.76:
            code.append(("Match", rng.randint(-1, 3)))
        elif r < 0.8:
            code.append(("Assert", 0, "Requires", 0))
        elif r < 0.84:
            code.append(rng.choice([("Ret",), ("Halt",)]))
        elif r < 0.86:     # malformed: the plan is empty
            code.append(rng.choice([(), ("LoadLocal",), ("Jmp", -1), ("StoreLocal", "x")]))
        else:
            code.append(rng.choice([("PushConst", 0), ("Add",), ("Pop",), ("Call", 0, 1)]))
    return code, tables, rng.randint(0, 4)


def test_random_and_malformed_code():
    rng = random.Random(11)
    nonempty = 0
    for _ in range(3000):
        code, tables, arity = _random_code(rng)
        want = oracle.reuse_plan(code, tables, arity)
        got = _vm._reuse_plan(code, tables, arity)
        assert (list(got[0]), dict(got[1])) == (list(want[0]), dict(want[1])), (code, tables)
        nonempty += bool(got[0]) or bool(got[1])
    assert nonempty > 1500
