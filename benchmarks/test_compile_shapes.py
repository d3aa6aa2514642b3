"""Compile speed on ~1 MB programs of several shapes (`compile_shapes.py`): many functions,
many matches, records and enums, long expressions, nesting, many small functions, strings.

For each shape, rounds interleaved with the baselines: the CPU time of `compile_source`, of
our lexer alone on the same text, and of CPython's `compile()` of a ~1 MB Python source
(`compile_shapes.PY_FUNCTION`, test_frontend_speed's baseline), minimum of ROUNDS; also the stages (lex, parse +
imports, codegen with the name checks riding along) with the collector off. Target (issue
25): <= 0.25 s per shape. Nothing is asserted about timings.

    python -m pytest benchmarks/test_compile_shapes.py --benchmark-only -s
"""
import gc
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compile_shapes import PY_FUNCTION, SHAPES, megabyte, python_megabyte  # noqa: E402

from boruna.bytecode.codegen import generate  # noqa: E402
from boruna.compiler import compile_source  # noqa: E402
from boruna.language.frontend import resolve  # noqa: E402
from boruna.language.lexer import lex  # noqa: E402

ROUNDS = int(os.environ.get("BORUNA_COMPILE_ROUNDS", "3"))


def _cpu(fn, *args) -> float:
    started = time.process_time()
    fn(*args)
    return time.process_time() - started


def _stages(source: str) -> tuple[float, float, float]:
    gc.disable()
    try:
        lexing = _cpu(lex, source)
        started = time.process_time()
        program = resolve(source)
        parsing = time.process_time() - started
        codegen = _cpu(lambda: generate(program, "module", names_checked=False))
    finally:
        gc.enable()
    return lexing, parsing, codegen


def test_compile_shapes_1mb(benchmark):
    python_source = python_megabyte()
    sources = {shape: megabyte(shape) for shape in SHAPES}
    for source in sources.values():
        assert compile_source(source).functions
    times = {shape: {"compile": [], "lex": [], "cpython": [], "stages": []} for shape in SHAPES}
    for _ in range(ROUNDS):
        for shape, source in sources.items():
            row = times[shape]
            row["compile"].append(_cpu(compile_source, source))
            row["cpython"].append(_cpu(compile, python_source, "<bench>", "exec"))
            row["lex"].append(_cpu(lex, source))
            row["stages"].append(_stages(source))
    benchmark.pedantic(compile_source, args=(sources["functions"],), rounds=1, iterations=1)
    print(f"\nCPU ms, minimum of {ROUNDS} interleaved rounds")
    print("| shape | compile_source | / CPython compile() | / our lexer | lex | parse | codegen |")
    print("|---|---|---|---|---|---|---|")
    for shape, row in times.items():
        ours, cpython, lexing = min(row["compile"]), min(row["cpython"]), min(row["lex"])
        stages = [min(s[k] for s in row["stages"]) for k in range(3)]
        benchmark.extra_info[f"{shape} compile_cpu_s"] = ours
        print(f"| {shape} | {ours * 1e3:.0f} | {ours / cpython:.2f} | {ours / lexing:.2f} | "
              + " | ".join(f"{s * 1e3:.0f}" for s in stages) + " |")
