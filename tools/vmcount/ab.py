"""Same-run timing of benchmark programs in two Python environments (VM builds), interleaved:
min of ROUNDS runs of each, the ratio B/A. Timings on a shared machine are noisy; the
interleaving and the min make the ratio usable (instruction counts: count.py).

Usage: python tools/vmcount/ab.py PYTHON_A PYTHON_B [--rounds N] [--only name,name]"""
import argparse
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "benchmarks"))
from vm_heldout_programs import SUITE as HELDOUT  # noqa: E402
from vm_suite_programs import SUITE  # noqa: E402

TIMER = r'''
import sys, time
sys.argv = ["run_one", sys.argv[1]]
sys.path.insert(0, %r)
import run_one
from boruna import _vm
from boruna.compiler import compile_source
from boruna.core.values import MapValue
src, _py, takes_map = {**run_one.SUITE, **run_one.HELDOUT}[sys.argv[1]]
module = compile_source(src)
best = 1e9
for _ in range(int(%r)):
    m = _vm.Machine(module, max_steps=10**9)
    if takes_map:
        main_fn = next(i for i, f in enumerate(module.functions) if f.name == "main")
        m.set_entry(main_fn, (MapValue({}),))
    t0 = time.perf_counter()
    m.run()
    best = min(best, time.perf_counter() - t0)
print(best)
'''


def once(python, name, reps):
    out = subprocess.run([python, "-c", TIMER % (HERE, reps), name], capture_output=True,
                         text=True, check=True)
    return float(out.stdout.split()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    names = [n for n in list(SUITE) + list(HELDOUT) if not args.only or n in args.only.split(",")]
    print("| program | A ms | B ms | B/A |", flush=True)
    logs = []
    for name in names:
        ta, tb = [], []
        for _ in range(args.rounds):
            ta.append(once(args.a, name, args.reps))
            tb.append(once(args.b, name, args.reps))
        r = min(tb) / min(ta)
        logs.append(math.log(r))
        print(f"| {name} | {min(ta) * 1e3:.1f} | {min(tb) * 1e3:.1f} | {r:.3f} |", flush=True)
    print(f"| geometric mean | | | {math.exp(sum(logs) / len(logs)):.3f} |")


if __name__ == "__main__":
    main()
