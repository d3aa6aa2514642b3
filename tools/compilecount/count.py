"""Instructions of `compile_source` per shape of `benchmarks/compile_shapes.py`, under callgrind,
for one or more source trees side by side: the count of a process that builds the shape's text
at SIZE characters and compiles it, minus that of one that only builds the text (the imports
and the deep-stack pool started in both; the compiled module is freed
right after, as benchmarks/test_compile_shapes.py times it; every process ends with
`os._exit`, no teardown), and the same for `resolve` alone (parse and name
resolution), so compile minus resolve is code generation. PYTHONHASHSEED is fixed so the
counts are reproducible.

Usage: python tools/compilecount/count.py SRC_A [SRC_B] [--size 250000] [--only name,name]
(SRC: a tree's `src` directory, put first on PYTHONPATH). Prints a markdown table in M Ir."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(os.path.dirname(os.path.dirname(HERE)), "benchmarks")
sys.path.insert(0, BENCH)
from compile_shapes import SHAPES  # noqa: E402

# the text of `shape` at `size` characters, as compile_shapes.megabyte builds it at 1 MB
_SCRIPT = """
import os
import sys
sys.path.insert(0, {bench!r})
from compile_shapes import SHAPES
from boruna.compiler import compile_source
from boruna.core.deep_stack import call_deep, paused_gc
from boruna.language.frontend import resolve
prelude, template = SHAPES[{shape!r}]
parts, size, i = [prelude], len(prelude), 0
while size < {size}:
    text = template.format(i=i, j=max(i - 1, 0))
    parts.append(text)
    size += len(text)
    i += 1
parts.append("fn main() -> Int {{ 0 }}\\n")
source = "".join(parts)
call_deep(int)
mode = {mode!r}
if mode == "compile":
    compile_source(source)      # the module freed, as the benchmark times it
elif mode == "resolve":
    with paused_gc():
        program = resolve(source)
        del program
os._exit(0)     # no teardown: the module compiled is not freed in the count
"""


def collected(src, shape, size, mode):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        script = _SCRIPT.format(bench=BENCH, shape=shape, size=size, mode=mode)
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
             "-c", script],
            capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": src})
        return int(re.search(r"Collected : (\d+)", proc.stderr)[1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("srcs", nargs="+")
    ap.add_argument("--size", type=int, default=250_000)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    names = [n for n in SHAPES if not args.only or n in args.only.split(",")]
    cols = len(args.srcs)
    print("| shape | " + " | ".join(f"compile {k}" for k in range(cols))
          + " | " + " | ".join(f"codegen {k}" for k in range(cols)) + " |", flush=True)
    for name in names:
        comp, gen = [], []
        for src in args.srcs:
            base = collected(src, name, args.size, "build")
            total = collected(src, name, args.size, "compile") - base
            parse = collected(src, name, args.size, "resolve") - base
            comp.append(total / 1e6)
            gen.append((total - parse) / 1e6)
        print(f"| {name} | " + " | ".join(f"{c:.1f}" for c in comp) + " | "
              + " | ".join(f"{c:.1f}" for c in gen) + " |", flush=True)


if __name__ == "__main__":
    main()
