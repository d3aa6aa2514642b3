# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The interpreter loop (docs/spec/vm.md §2–§4): a Module translated to a flat C instruction array,
operand stack and locals as C arrays of tagged values (Int/Float/Bool/Unit unboxed, every
other value a Python object of `boruna.core.values` with manual reference counting),
frames in a C array; the hot ops run in a C core with threaded dispatch (vm/core/dispatch.h),
the others in the Cython loop (vm/loop.pxi).

Step counting follows docs/spec/vm.md §4.2 with one deliberate fix: a slice boundary of
`execute_bounded` costs no step, so a run split into slices of any size reports exactly the
steps of an unsliced run.

Resource caps (all fail with a runtime error, never exhaust the host):
  operand stack 4,096 values; call depth 256 frames; local slots 4,194,304 in total;
  a string at most MAX_STRING_BYTES (16 MiB of UTF-8); a list or map at most
  MAX_COLLECTION_LEN (1,000,000) elements; the live values reachable from the machine at most
  MAX_VALUE_MEMORY (256 MiB, measured by a walk triggered after each further
  max(64 MiB, live size) of allocation; the event log and kept trace lines count too);
  the work of builtins whose cost grows with their operands (`++`, replace, split, join,
  contains, list and map copies, ...) at most `max_work` units (MAX_WORK, one unit per
  character or element read or built), so a loop of cheap steps on huge values stops.
Limits are checked cheaply: one compare per step against the next checkpoint (slice end,
max_steps, or the next multiple of 1,024 steps, where the wall clock, cancellation and
signals are looked at).

This file is the extension's entry: the C declarations and the Machine's attributes are in
`_vm.pxd`, the code in the `vm/*.pxi` files included below, one per concern (the table is
in `vm/__init__.py`), the Python API typed in `_vm.pyi`. The Machine's C helpers are
module-level `cdef` functions taking the machine as `self`.
"""
import time as _time

from boruna.core.values import (
    NONE, OptNone, Some, Ok, Err, Record, Enum, MapValue, ActorId, FnRef, type_name,
    LEGACY_LIST_TYPE_ID, SOME_TYPE_ID, RESULT_TYPE_ID,
)
from boruna.core import errors as verr
from boruna.core.errors import VmError
from boruna.core.display import display
from boruna.bytecode.opcodes import COLD, OPCODES, debug_form

from boruna.vm.builtins import (
    COLD_OPS, WORK_INPUTS, WORK_RESULTS, _check_str_len, _utf8_len, normalize_value,
)

# OP_* dispatch constants of every op and pseudo-op, and the match tags: generated from
# bytecode/opcodes.py by setup.py
cimport cython

include "vm/opcodes.pxi"
# C constants of the limits the loop compares against: generated from core/limits.py by setup.py
include "vm/limits_c.pxi"
include "vm/limits.pxi"
include "vm/values.pxi"
include "vm/memory.pxi"
include "vm/machine.pxi"
include "vm/loading.pxi"
include "vm/loop.pxi"
include "vm/lists.pxi"
include "vm/cold.pxi"
include "vm/maps.pxi"
include "vm/reuse.pxi"
include "vm/string_builders.pxi"
include "vm/effects.pxi"
include "vm/snapshot.pxi"
