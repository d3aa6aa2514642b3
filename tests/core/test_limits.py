"""core.limits is the one definition of every limit: the VM and the layers above read it."""
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
