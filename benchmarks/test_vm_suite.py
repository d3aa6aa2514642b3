"""The VM benchmark suite of issue 11: 13 programs, each timed in the VM, in plain Python
running the same algorithm, and in Lua 5.4 and LuaJIT `-joff` when `lua5.4` / `luajit` are on
PATH (skipped otherwise), all in the same run.

Run: `python -m pytest benchmarks/test_vm_suite.py --benchmark-only -s`.
Each program prints its steps, ns/step and the ratios VM / CPython, VM / Lua 5.4 and
VM / LuaJIT -joff (min of ROUNDS each); the last one prints the whole table with geometric
means (the table in docs/performance.md). Nothing here asserts a timing.

How it is timed: ROUNDS rounds, each running the VM, then plain Python, then each Lua peer
once (interleaved, so a slow stretch of a shared machine falls on every side alike), every
side in CPU time: `time.process_time()` around the VM's run and the Python function,
`os.clock()` inside the Lua interpreter (start-up excluded). CPU time leaves out the time the
process waits for a core, which wall time on a shared machine does not; the ratio of the
minima is the figure. pytest-benchmark's own record is one more, wall-clock, run of the VM.
"""
import math
import os
import shutil
import subprocess
import sys
import time

import pytest

from boruna import _vm
from boruna.compiler import compile_source
from boruna.core.values import MapValue

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vm_suite_programs import LUA, SUITE  # noqa: E402

ROUNDS = 5
PEERS = {"lua54": ["lua5.4"], "luajit": ["luajit", "-joff"]}
RESULTS = {}


def _machine(module, takes_map):
    m = _vm.Machine(module, max_steps=10**9)
    if takes_map:
        main = next(i for i, f in enumerate(module.functions) if f.name == "main")
        m.set_entry(main, (MapValue({}),))
    return m


def _run_vm(module, takes_map):
    m = _machine(module, takes_map)
    status = m.run()
    assert status == _vm.FINISHED, m.error
    return m


def _lua_time(argv, chunk, expected):
    """CPU seconds of the chunk inside the interpreter (os.clock around it, start-up excluded)."""
    wrapped = ("local __t0 = os.clock()\n" + chunk +
               "\nio.stderr:write(string.format('%.9f', os.clock() - __t0))\n")
    out = subprocess.run(argv + ["-e", wrapped], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == str(expected), (argv, out.stdout, out.stderr)
    return float(out.stderr.strip())


def measure_program(benchmark, name, suite, lua, results):
    """Run program `name` of `suite` on the VM under pytest-benchmark, then plain Python and
    the installed Lua peers interleaved (results checked equal), and record the ratios in
    `results` (the table is printed when every program of the suite has a row). Shared by
    this suite and the held-out one (`test_vm_heldout.py`)."""
    source, py, takes_map = suite[name]
    module = compile_source(source)
    machine = benchmark.pedantic(_run_vm, args=(module, takes_map), rounds=1, iterations=1,
                                 warmup_rounds=0)
    expected = machine.result
    if benchmark.stats is None:         # --benchmark-disable: the result checks only
        assert py() == expected
        return
    times = {"vm": [], "python": [],
             **{peer: [] for peer, argv in PEERS.items() if shutil.which(argv[0])}}
    for _ in range(ROUNDS):   # interleaved: one run of each side at a time, CPU time
        t0 = time.process_time()
        machine = _run_vm(module, takes_map)
        times["vm"].append(time.process_time() - t0)
        assert machine.result == expected
        t0 = time.process_time()
        assert py() == expected
        times["python"].append(time.process_time() - t0)
        for peer in PEERS:
            if peer in times:
                times[peer].append(_lua_time(PEERS[peer], lua[name], expected))
    vm_time = min(times.pop("vm"))
    row = {"steps": machine.steps, "ns_per_step": vm_time / machine.steps * 1e9, "vm_s": vm_time}
    for peer, ts in times.items():
        row[peer] = vm_time / min(ts)
    results[name] = row
    benchmark.extra_info.update(row)
    ratios = " ".join(f"/{peer}={row[peer]:.2f}" for peer in times)
    print(f"\n{name}: steps={machine.steps} vm={vm_time * 1000:.1f} ms "
          f"{row['ns_per_step']:.1f} ns/step {ratios}")
    if len(results) == len(suite):
        print_table(results)


@pytest.mark.parametrize("name", list(SUITE))
def test_vm_suite(benchmark, name):
    measure_program(benchmark, name, SUITE, LUA, RESULTS)


def print_table(results):
    """The table of the programs run (markdown), with geometric means."""
    RESULTS = results
    peers = ["python"] + [p for p in PEERS if all(p in r for r in RESULTS.values())]
    lines = ["| program | steps | ns/step | " + " | ".join(f"/{p}" for p in peers) + " |",
             "|---|---|---|" + "---|" * len(peers)]
    for name, r in RESULTS.items():
        lines.append(f"| {name} | {r['steps'] / 1e6:.1f} M | {r['ns_per_step']:.1f} | "
                     + " | ".join(f"{r[p]:.2f}" for p in peers) + " |")
    geo = {p: math.exp(sum(math.log(r[p]) for r in RESULTS.values()) / len(RESULTS))
           for p in peers}
    lines.append("| geometric mean | | | " + " | ".join(f"{geo[p]:.2f}" for p in peers) + " |")
    print("\n" + "\n".join(lines))
