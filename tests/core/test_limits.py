"""core.limits is the one definition of every limit: the VM and the layers above read it (the
VM's C code as constants generated from it at build time)."""
import os
import runpy
import subprocess
import sys

from boruna import _vm
from boruna.vm import builtins as vm_builtins
from boruna.core import errors, limits
from boruna.service import errors as service_errors


def test_values():
    assert (limits.DEFAULT_MAX_STEPS, limits.SLICE_STEPS, limits.TRACE_LIMIT) == (
        10_000_000, 100_000, 500)
    assert (limits.MAX_STACK, limits.MAX_CALL_DEPTH, limits.MAX_LOCAL_SLOTS) == (
        4096, 256, 4_194_304)
    assert (limits.MAX_VALUE_MEMORY, limits.MAX_STRING_BYTES, limits.MAX_COLLECTION_LEN) == (
        268_435_456, 16_777_216, 1_000_000)
    assert (limits.MAX_SOURCE_BYTES, limits.U64_MAX) == (1_048_576, 18_446_744_073_709_551_615)


def test_the_vm_and_the_service_read_them():
    assert _vm.MAX_STACK == limits.MAX_STACK and _vm.MAX_CALL_DEPTH == limits.MAX_CALL_DEPTH
    assert _vm.MAX_VALUE_MEMORY == limits.MAX_VALUE_MEMORY
    assert _vm.MAX_STRING_BYTES == vm_builtins.MAX_STRING_BYTES == limits.MAX_STRING_BYTES
    assert _vm.MAX_COLLECTION_LEN == limits.MAX_COLLECTION_LEN
    assert service_errors.MAX_SOURCE_BYTES == limits.MAX_SOURCE_BYTES
    assert errors.stack_overflow().message == "stack overflow (max 4096)"


def test_machine_defaults_come_from_limits():
    from boruna.compiler import compile_source

    machine = _vm.Machine(compile_source("fn main() -> Int { 1 }\n"))
    assert machine.max_steps == limits.DEFAULT_MAX_STEPS


# ---------------------------------------------------------------- the VM's compiled copies

PKG = os.path.join(os.path.dirname(__file__), "..", "..", "src", "boruna")


def test_the_vm_was_built_with_these_limits():
    """setup.py writes vm/limits_c.pxi from limits.pxi_text() at every build; the extension
    compares the constants it was compiled with against this module when it loads."""
    assert _vm.COMPILED_LIMITS == {name: getattr(limits, name) for name in limits.C_LIMITS}
    with open(os.path.join(PKG, "vm", "limits_c.pxi"), encoding="utf-8") as f:
        text = f.read()
    assert text == limits.pxi_text(), "vm/limits_c.pxi differs from core/limits.py: rebuild"
    assert text.startswith("# generated — do not edit")
    assert "    #define C_MAX_COLLECTION_LEN 1000000LL\n" in text
    assert "    #define C_MAX_WORK 8589934592LL\n" in text


def test_setup_reads_the_limits_without_the_package(tmp_path):
    """`python -S` has no site-packages: limits.py must run on the standard library alone,
    as setup.py runs it."""
    code = ("import runpy, sys; t = runpy.run_path(sys.argv[1])['pxi_text'](); "
            "assert 'boruna' not in sys.modules; sys.stdout.write(t)")
    out = subprocess.run([sys.executable, "-S", "-c", code, limits.__file__],
                         capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout == limits.pxi_text()


def test_a_changed_limit_changes_the_generated_constant(tmp_path):
    with open(limits.__file__, encoding="utf-8") as f:
        source = f.read()
    row = "MAX_COLLECTION_LEN = 1_000_000\n"
    assert source.count(row) == 1
    changed = tmp_path / "limits.py"
    changed.write_text(source.replace(row, "MAX_COLLECTION_LEN = 2_000_000\n"), encoding="utf-8")
    text = runpy.run_path(str(changed))["pxi_text"]()
    assert "    #define C_MAX_COLLECTION_LEN 2000000LL\n" in text
    assert "    'MAX_COLLECTION_LEN': C_MAX_COLLECTION_LEN,\n" in text
