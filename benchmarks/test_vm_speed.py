"""VM speed against plain Python running the same algorithm, timed in the same run.

Run: `python -m pytest benchmarks/test_vm_speed.py --benchmark-only -s`.
Each test benchmarks the VM (`pytest-benchmark`, module compiled outside the timed region, a
fresh Machine per round) and times the plain-Python equivalent with the same number of rounds;
it prints steps/s and the ratio VM time / Python time (targets from issue 3: fib(27) <= 3.0,
loop <= 2.0, records <= 1.5, strings <= 0.9; list pushes <= 2.0) and stores them in `benchmark.extra_info`.
Nothing here asserts a timing. The loop benchmark also reports the peak RSS of a fresh process.
"""
import os
import subprocess
import sys
import textwrap
import time

import pytest

from boruna import _vm
from boruna.compiler import compile_source

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vm_suite_programs import (FIB, LOOP, RECORDS, STRINGS, py_fib, py_loop,  # noqa: E402
                               py_records, py_strings)

PUSHES = """fn main() -> Int {
    let mut xs = []
    let mut i = 0
    while i < 200000 {
        xs = list_push(xs, i)
        i = i + 1
    }
    list_len(xs) + list_get(xs, 199999)
}
"""


def py_pushes():
    xs = []
    i = 0
    while i < 200000:
        xs.append(i)
        i = i + 1
    return len(xs) + xs[199999]


CASES = {
    "fib27": (FIB, lambda: py_fib(27), 3.0),
    "loop3m": (LOOP, py_loop, 2.0),
    "records500k": (RECORDS, py_records, 1.5),
    "strings200k": (STRINGS, py_strings, 0.9),
    "pushes200k": (PUSHES, py_pushes, 2.0),
}
ROUNDS = 3


def _run_vm(module):
    m = _vm.Machine(module, max_steps=10**9)
    status = m.run()
    assert status == _vm.FINISHED, m.error
    return m


@pytest.mark.parametrize("name", list(CASES))
def test_vm_vs_python(benchmark, name):
    source, py, target = CASES[name]
    module = compile_source(source)
    machine = benchmark.pedantic(_run_vm, args=(module,), rounds=ROUNDS, iterations=1,
                                 warmup_rounds=0)
    py_times = []
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        expected = py()
        py_times.append(time.perf_counter() - t0)
    assert machine.result == expected
    if benchmark.stats is None:         # --benchmark-disable: the result check only
        return
    vm_time = benchmark.stats.stats.min
    py_time = min(py_times)
    ratio = vm_time / py_time
    benchmark.extra_info.update(steps=machine.steps, steps_per_s=machine.steps / vm_time,
                                python_s=py_time, ratio=ratio, target=target)
    print(f"\n{name}: steps={machine.steps} vm={vm_time * 1000:.1f} ms "
          f"({machine.steps / vm_time / 1e6:.1f} M steps/s) python={py_time * 1000:.1f} ms "
          f"ratio={ratio:.2f} (target <= {target})")


def test_loop_peak_rss(benchmark):
    script = textwrap.dedent(f"""
        import resource
        from boruna.compiler import compile_source
        from boruna import _vm
        m = _vm.Machine(compile_source({LOOP!r}), max_steps=10**9)
        m.run()
        assert m.result == 8999994
        peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        try:   # VmHWM is this process's own peak (ru_maxrss may include the pre-exec fork)
            with open("/proc/self/status") as f:
                peak_kb = next(int(l.split()[1]) for l in f if l.startswith("VmHWM:"))
        except (OSError, StopIteration):
            pass
        print(peak_kb)
    """)

    def measure():
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                             check=True, env=dict(os.environ))
        return int(out.stdout.strip()) / 1024.0

    rss_mb = benchmark.pedantic(measure, rounds=1, iterations=1)
    benchmark.extra_info["peak_rss_mb"] = rss_mb
    print(f"\nloop3m peak RSS: {rss_mb:.1f} MB (target < 50 MB)")
