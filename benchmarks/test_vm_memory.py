"""Resident memory of the VM suite's loop benchmark (issue 11: under 50 MB): the peak RSS of
a fresh process that imports the VM, compiles `loop3m` and runs it, next to a process that
only imports the same (the interpreter and the package). Printed, not asserted.

Run: `python -m pytest benchmarks/test_vm_memory.py --benchmark-only -s` (also run by
`python -m pytest benchmarks/ --benchmark-only -s`).

The peak is the child's own: `VmHWM` of /proc/self/status on Linux. `getrusage`'s
`ru_maxrss` there also counts the pages the child had mapped before its exec (a fork of
this ~40 MB pytest process), so it is used only where /proc is missing.
"""
import json
import os
import subprocess
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))

_CHILD = """
import json, os, resource, sys
sys.path.insert(0, {bench!r})
from boruna import _vm
from boruna.compiler import compile_source
from vm_suite_programs import SUITE
run = sys.argv[1] == "run"
if run:
    m = _vm.Machine(compile_source(SUITE["loop3m"][0]), max_steps=10**9)
    assert m.run() == _vm.FINISHED, m.error
kib = None
if os.path.exists("/proc/self/status"):
    with open("/proc/self/status") as f:
        kib = next((int(l.split()[1]) for l in f if l.startswith("VmHWM:")), None)
if kib is None:   # ru_maxrss: KiB on Linux, bytes on macOS
    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if sys.platform == "darwin":
        kib //= 1024
print(json.dumps({{"max_rss_kib": kib, "steps": m.steps if run else 0}}))
"""


def _max_rss(mode):
    out = subprocess.run([sys.executable, "-c", _CHILD.format(bench=BENCH), mode],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_loop_resident_memory(benchmark):
    base = _max_rss("import")
    run = benchmark.pedantic(_max_rss, args=("run",), rounds=1, iterations=1, warmup_rounds=0)
    benchmark.extra_info.update(max_rss_kib=run["max_rss_kib"], import_rss_kib=base["max_rss_kib"])
    print(f"\nloop3m max RSS: {run['max_rss_kib'] / 1024:.1f} MB "
          f"(compile + {run['steps']} steps; the same process without compiling or running: "
          f"{base['max_rss_kib'] / 1024:.1f} MB; target < 50 MB)")
