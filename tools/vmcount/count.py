"""Instructions executed by the VM's run per benchmark program, under callgrind, for one or
more Python environments side by side: the count of a process that runs the program minus
that of one that only compiles it and builds the machine (the release extension is stripped,
so no symbol can delimit the loop). PYTHONHASHSEED is fixed so both counts are reproducible.

Usage: python tools/vmcount/count.py PYTHON_A [PYTHON_B] [--only name,name]
Prints a markdown table: steps, instructions (millions) per env, instructions per step, B/A."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "benchmarks"))
from vm_heldout_programs import SUITE as HELDOUT  # noqa: E402
from vm_suite_programs import SUITE  # noqa: E402


def _collected(python, name, *extra):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", python,
             os.path.join(HERE, "run_one.py"), name, *extra],
            capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"})
        return int(proc.stdout.split()[1]), int(re.search(r"Collected : (\d+)", proc.stderr)[1])


def count(python, name):
    """(steps, instructions) of one program's run in `python`'s VM build."""
    steps, total = _collected(python, name)
    return steps, total - _collected(python, name, "--setup-only")[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pythons", nargs="+")
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    names = [n for n in list(SUITE) + list(HELDOUT) if not args.only or n in args.only.split(",")]
    head = "| program | steps | " + " | ".join(f"Minstr {k}" for k in range(len(args.pythons)))
    head += " | instr/step | " + (" ratio |" if len(args.pythons) > 1 else "")
    print(head, flush=True)
    for name in names:
        res = [count(p, name) for p in args.pythons]
        steps = res[0][0]
        assert all(r[0] == steps for r in res), (name, res)
        cells = " | ".join(f"{r[1] / 1e6:.1f}" for r in res)
        per = " / ".join(f"{r[1] / steps:.1f}" for r in res)
        ratio = f" {res[-1][1] / res[0][1]:.3f} |" if len(res) > 1 else ""
        print(f"| {name} | {steps / 1e6:.1f} M | {cells} | {per} |{ratio}", flush=True)


if __name__ == "__main__":
    main()
