"""The held-out VM programs of issue 25 (benchmarks/vm_heldout_programs.py), timed like the first
suite (benchmarks/test_vm_suite.py, whose helpers this uses): each in the VM, in plain Python
running the same algorithm, and in Lua 5.4 and LuaJIT `-joff` when `lua5.4` / `luajit` are on
PATH (left out otherwise, nothing fails), rounds interleaved, results checked equal.

Run: `python -m pytest benchmarks/test_vm_heldout.py --benchmark-only -s`. Each program prints
its steps, ns/step and the ratios VM / CPython, VM / Lua 5.4 and VM / LuaJIT -joff (min of
ROUNDS each); the last one prints the table with geometric means (docs/performance.md). With
`--benchmark-disable` only the result checks run. Nothing here asserts a timing.
"""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_vm_suite import measure_program  # noqa: E402
from vm_heldout_programs import LUA, SUITE  # noqa: E402

RESULTS = {}


@pytest.mark.parametrize("name", list(SUITE))
def test_vm_heldout(benchmark, name):
    measure_program(benchmark, name, SUITE, LUA, RESULTS)
