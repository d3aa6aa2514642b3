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
import shutil
import sys
import time

import pytest

from boruna.compiler import compile_source

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_vm_suite import PEERS, ROUNDS, _lua_time, _run_vm, print_table  # noqa: E402
from vm_heldout_programs import LUA, SUITE  # noqa: E402

RESULTS = {}


@pytest.mark.parametrize("name", list(SUITE))
def test_vm_heldout(benchmark, name):
    source, py, takes_map = SUITE[name]
    module = compile_source(source)
    machine = benchmark.pedantic(_run_vm, args=(module, takes_map), rounds=ROUNDS, iterations=1,
                                 warmup_rounds=0)
    expected = machine.result
    times = {"python": [], **{peer: [] for peer, argv in PEERS.items() if shutil.which(argv[0])}}
    for _ in range(ROUNDS):   # interleaved: one round of each peer at a time
        t0 = time.perf_counter()
        assert py() == expected
        times["python"].append(time.perf_counter() - t0)
        for peer in times:
            if peer != "python":
                times[peer].append(_lua_time(PEERS[peer], LUA[name], expected))
    if benchmark.stats is None:         # --benchmark-disable: the result checks only
        return
    vm_time = benchmark.stats.stats.min
    row = {"steps": machine.steps, "ns_per_step": vm_time / machine.steps * 1e9, "vm_s": vm_time}
    for peer, ts in times.items():
        row[peer] = vm_time / min(ts)
    RESULTS[name] = row
    benchmark.extra_info.update(row)
    ratios = " ".join(f"/{peer}={row[peer]:.2f}" for peer in times)
    print(f"\n{name}: steps={machine.steps} vm={vm_time * 1000:.1f} ms "
          f"{row['ns_per_step']:.1f} ns/step {ratios}")
    if len(RESULTS) == len(SUITE):
        print_table(RESULTS)
