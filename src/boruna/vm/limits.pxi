# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# Resource limits (read from boruna.core.limits; Python-visible, and compiled in as C constants
# by vm/limits_c.pxi) and the run status codes.

from boruna.core import limits as _core_limits
from boruna.core.limits import (
    DEFAULT_MAX_STEPS, MAX_CALL_DEPTH, MAX_COLLECTION_LEN, MAX_LOCAL_SLOTS, MAX_STACK,
    MAX_STRING_BYTES, MAX_TRACE_LIMIT, MAX_VALUE_MEMORY, MAX_WORK, TRACE_LIMIT,
)
EVENT_BYTES = 200          # accounted size of one event-log entry
TRACE_ENTRY_BYTES = 100    # accounted size of one kept trace line

# the C constants (vm/limits_c.pxi) are compiled in; a build older than core/limits.py fails
if COMPILED_LIMITS != {name: getattr(_core_limits, name) for name in _core_limits.C_LIMITS}:
    raise ImportError(_core_limits.STALE_BUILD)
cdef extern from *:
    int64_t C_MAX_DEPTH "C_MAX_CALL_DEPTH"
    int64_t C_MAX_LOCALS "C_MAX_LOCAL_SLOTS"
    int64_t C_MAX_STR_CHARS_FAST "(C_MAX_STRING_BYTES / 4)"
    int64_t C_WALK_MIN "(64LL * 1024 * 1024)"
    int64_t I64_MAX_C "INT64_MAX"
    int64_t I64_MIN_C "INT64_MIN"
# reserved type ids of Option's Some and of Result (docs/spec/vm.md §3.1)
cdef int64_t SOME_TID = SOME_TYPE_ID
cdef int64_t RESULT_TID = RESULT_TYPE_ID

# run status returned by execute_bounded
FINISHED = 0
PAUSED = 1
FAILED = 2
BLOCKED = 3
