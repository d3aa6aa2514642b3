"""Run one benchmark program (both suites) once in the VM: the process `count.py` runs under
`valgrind --tool=callgrind --toggle-collect=<the loop>` to count the instructions of the
interpreter loop alone (deterministic, unlike timings on a shared machine).

Usage: python tools/vmcount/run_one.py NAME [--setup-only]  (--setup-only: compile and build
the machine, no run: the difference of the two counts is the run's)"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))

from boruna import _vm  # noqa: E402
from boruna.compiler import compile_source  # noqa: E402
from boruna.core.values import MapValue  # noqa: E402
from vm_heldout_programs import SUITE as HELDOUT  # noqa: E402
from vm_suite_programs import SUITE  # noqa: E402


def main(name, setup_only=False):
    source, _py, takes_map = {**SUITE, **HELDOUT}[name]
    module = compile_source(source)
    m = _vm.Machine(module, max_steps=10**9)
    if takes_map:
        main_fn = next(i for i, f in enumerate(module.functions) if f.name == "main")
        m.set_entry(main_fn, (MapValue({}),))
    if setup_only:
        print(name, 0)
        return
    status = m.run()
    assert status == _vm.FINISHED, m.error
    print(name, m.steps, m.result if len(str(m.result)) < 60 else "...")


if __name__ == "__main__":
    main(sys.argv[1], "--setup-only" in sys.argv[2:])
