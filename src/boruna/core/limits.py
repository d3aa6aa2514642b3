"""Every limit and default of a run, defined once (docs/spec/vm.md §4, docs/spec/mcp.md §2).

The VM (`_vm.pyx`, `vm/`), `runtime`, `service`, the App framework, the CLI and the
MCP parameter docs read these names; none of them writes the numbers again. The VM's C code
compares against compiled-in copies of the caps in `C_LIMITS`, which `setup.py` generates
from `pxi_text()` at every build, executing this file on its own: it imports nothing.
"""
from __future__ import annotations

DEFAULT_MAX_STEPS = 10_000_000
"""Steps a run may take unless the caller says otherwise (`max_steps`)."""

SLICE_STEPS = 100_000
"""Steps per `execute_bounded` slice when someone watches a run (progress, cancellation)."""

TRACE_LIMIT = 500
"""Trace entries a run keeps and `boruna_run` returns (`trace_total` counts them all)."""

MAX_TRACE_LIMIT = 10_000_000
"""The largest `trace_limit` a caller may ask the VM to keep."""

MAX_STACK = 4096
"""Operand stack slots of one machine."""

MAX_CALL_DEPTH = 256
"""Call frames of one machine."""

MAX_LOCAL_SLOTS = 1 << 22
"""Local slots of all live frames together."""

MAX_VALUE_MEMORY = 256 * 1024 * 1024
"""Bytes of live values reachable from one machine (event log and kept trace included)."""

MAX_STRING_BYTES = 16 * 1024 * 1024
"""UTF-8 bytes of one string value."""

MAX_COLLECTION_LEN = 1_000_000
"""Elements of one list or map value."""

MAX_WORK = 1 << 33
"""Work units one machine may spend in builtins whose cost grows with their operands: one
unit per character of a string or element of a list or map the builtin reads or builds
(`++` included). Steps are not affected; overrunning fails with kind `work_limit`."""

MAX_SOURCE_BYTES = 1_048_576
"""Largest accepted `source`, in UTF-8 bytes (exactly 1 MB passes, one byte more fails)."""

EVENT_LOG_LIMIT = 1000
"""Events (and capability calls) a sealed run's response lists."""

MAX_APP_CYCLES = 100_000
"""`update` cycles one App runtime serves."""

APP_TEST_MAX_TOTAL_STEPS = 100_000_000
"""VM steps one `boruna_framework_test` may take in all (init, policies, every update/view)."""

DEFAULT_MAX_WALL_MS = 30_000
"""The wall clock of an MCP run (`boruna_run` without `limits.max_wall_ms`, each of
`boruna_run_sealed`'s two runs, a whole `boruna_framework_test`, compile excluded)."""

DEFAULT_MAX_OUTPUT_BYTES = 16 * 1024 * 1024
"""The output budget of every tool: bytes of the rendered response text (16 MiB)."""

U64_MAX = 2**64 - 1
"""The largest `max_steps` or limit a request may carry (a Rust u64)."""


# ---------------------------------------------------------------- the VM's compiled copies

C_LIMITS = ("MAX_STACK", "MAX_CALL_DEPTH", "MAX_LOCAL_SLOTS", "MAX_VALUE_MEMORY",
            "MAX_STRING_BYTES", "MAX_COLLECTION_LEN", "MAX_WORK")
"""The limits the VM's C code compares against: compiled in as constants (`pxi_text`)."""

STALE_BUILD = ("boruna._vm was built with other limits than boruna.core.limits: "
               "rebuild (pip install -e .)")
"""The ImportError text of an extension whose compiled limits differ from this file."""

GENERATED_HEADER = ("# generated — do not edit: written by setup.py from "
                    "src/boruna/core/limits.py (pxi_text)\n")


def pxi_text() -> str:
    """The Cython include `setup.py` writes to `src/boruna/vm/limits_c.pxi` (this file runs
    on the standard library alone): each of `C_LIMITS` as a C constant `C_<name>`, and
    `COMPILED_LIMITS` (name -> the value built in), so the extension can refuse to load
    when its build and this file disagree."""
    values = globals()
    lines = [GENERATED_HEADER, '\ncdef extern from *:\n    """\n']
    lines += [f"    #define C_{name} {values[name]}LL\n" for name in C_LIMITS]
    lines.append('    """\n')
    lines += [f"    int64_t C_{name}\n" for name in C_LIMITS]
    lines.append("\nCOMPILED_LIMITS = {\n")
    lines += [f"    {name!r}: C_{name},\n" for name in C_LIMITS]
    lines.append("}\n")
    return "".join(lines)
