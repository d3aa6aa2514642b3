# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The interpreter loop (vm.md §2–§4): a Module translated to a flat C instruction array,
operand stack and locals as C arrays of tagged values (Int/Float/Bool/Unit unboxed, every
other value a Python object of `boruna.core.values` with manual reference counting),
frames in a C array, one `switch` over integer opcodes.

Step counting follows vm.md §4.2 with one deliberate fix: a slice boundary of
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
"""
from libc.stdlib cimport malloc, realloc, free
from libc.stdint cimport int64_t
from cpython.ref cimport PyObject
from cpython.unicode cimport PyUnicode_Concat
import time as _time

from boruna.core.values import (
    NONE, OptNone, Some, Ok, Err, Record, Enum, MapValue, ActorId, FnRef, type_name,
    LEGACY_LIST_TYPE_ID, SOME_TYPE_ID, RESULT_TYPE_ID,
)
from boruna.core import errors as verr
from boruna.core.errors import VmError
from boruna.core.display import display
from boruna.bytecode.opcodes import COLD, OPCODES, debug_form

cdef extern from "Python.h":
    void _incref "Py_INCREF"(PyObject*)
    void _decref "Py_DECREF"(PyObject*)
    Py_ssize_t PyUnicode_GET_LENGTH(object)
    int PyUnicode_IS_ASCII(object)
    const char* PyUnicode_AsUTF8AndSize(object, Py_ssize_t*) except NULL
    Py_ssize_t PyTuple_GET_SIZE(object)
    PyObject* PyTuple_GET_ITEM(object, Py_ssize_t)
    PyObject* PyTuple_New_raw "PyTuple_New"(Py_ssize_t) except NULL
    void PyTuple_SET_ITEM_raw "PyTuple_SET_ITEM"(PyObject*, Py_ssize_t, PyObject*)
    PyObject* PyLong_FromLongLong_raw "PyLong_FromLongLong"(long long) except NULL
    PyObject* PyFloat_FromDouble_raw "PyFloat_FromDouble"(double) except NULL
    PyObject* Py_True_raw "Py_True"
    PyObject* Py_False_raw "Py_False"
    PyObject* Py_None_raw "Py_None"
    bint PyLong_CheckExact_raw "PyLong_CheckExact"(PyObject*)
    bint PyFloat_CheckExact_raw "PyFloat_CheckExact"(PyObject*)
    double PyFloat_AS_DOUBLE_raw "PyFloat_AS_DOUBLE"(PyObject*)
    long long PyLong_AsLongLongAndOverflow(object, int*) except? -1
    Py_ssize_t Py_REFCNT_raw "Py_REFCNT"(PyObject*)
    Py_ssize_t Py_SIZE_raw "Py_SIZE"(PyObject*)
    void Py_SET_SIZE_raw "Py_SET_SIZE"(PyObject*, Py_ssize_t)
    bint PyTuple_CheckExact_raw "PyTuple_CheckExact"(PyObject*)
    PyObject* PyTuple_GET_ITEM_raw "PyTuple_GET_ITEM"(PyObject*, Py_ssize_t)

cdef extern from *:
    """
    #include <stdint.h>
    #include "structmember.h"
    #include <string.h>
    #if defined(__GNUC__) || defined(__clang__)
    static inline int bor_add(int64_t a, int64_t b, int64_t *r) { return __builtin_add_overflow(a, b, r); }
    static inline int bor_sub(int64_t a, int64_t b, int64_t *r) { return __builtin_sub_overflow(a, b, r); }
    static inline int bor_mul(int64_t a, int64_t b, int64_t *r) { return __builtin_mul_overflow(a, b, r); }
    #else   /* portable checked i64 arithmetic */
    static inline int bor_add(int64_t a, int64_t b, int64_t *r) {
        if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return 1;
        *r = a + b; return 0;
    }
    static inline int bor_sub(int64_t a, int64_t b, int64_t *r) {
        if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b)) return 1;
        *r = a - b; return 0;
    }
    static inline int bor_mul(int64_t a, int64_t b, int64_t *r) {
        if (a == 0 || b == 0) { *r = 0; return 0; }
        if (a == -1) { if (b == INT64_MIN) return 1; *r = -b; return 0; }
        if (b == -1) { if (a == INT64_MIN) return 1; *r = -a; return 0; }
        if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
                  : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b)) return 1;
        *r = a * b; return 0;
    }
    #endif
    /* decimal text of an i64 as a compact ASCII str (new reference) */
    static PyObject* bor_int_to_str(int64_t x) {
        char buf[24];
        int pos = 24;
        uint64_t u = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
        do { buf[--pos] = (char)('0' + (int)(u % 10)); u /= 10; } while (u);
        if (x < 0) buf[--pos] = '-';
        PyObject* s = PyUnicode_New(24 - pos, 127);
        if (s == NULL) return NULL;
        memcpy(PyUnicode_1BYTE_DATA(s), buf + pos, (size_t)(24 - pos));
        return s;
    }
    static PyTypeObject* bor_rec_type = NULL;
    static Py_ssize_t bor_rec_tid_off = 0, bor_rec_fields_off = 0;
    /* Record instances are built and read through their __slots__ offsets (set once from the
       member descriptors; when Record has no such slots the VM uses the class instead). */
    static int bor_init_record(PyObject* type, PyObject* tid_d, PyObject* fields_d) {
        if (Py_TYPE(tid_d) != &PyMemberDescr_Type || Py_TYPE(fields_d) != &PyMemberDescr_Type)
            return 0;
        bor_rec_tid_off = ((PyMemberDescrObject*)tid_d)->d_member->offset;
        bor_rec_fields_off = ((PyMemberDescrObject*)fields_d)->d_member->offset;
        if (bor_rec_tid_off <= 0 || bor_rec_fields_off <= 0) return 0;
        Py_INCREF(type);
        bor_rec_type = (PyTypeObject*)type;
        return 1;
    }
    static inline int bor_is_record(PyObject* o) { return Py_TYPE(o) == bor_rec_type; }
    static inline PyObject* bor_rec_fields(PyObject* o) {
        return *(PyObject**)((char*)o + bor_rec_fields_off);
    }
    /* steals tid and fields */
    static PyObject* bor_new_record(PyObject* tid, PyObject* fields) {
        PyObject* o = bor_rec_type->tp_alloc(bor_rec_type, 0);
        if (o == NULL) { Py_DECREF(tid); Py_DECREF(fields); return NULL; }
        *(PyObject**)((char*)o + bor_rec_tid_off) = tid;
        *(PyObject**)((char*)o + bor_rec_fields_off) = fields;
        return o;
    }
    """
    int64_t BOR_I64_MIN "INT64_MIN"
    int64_t BOR_I64_MAX "INT64_MAX"
    int PyErr_CheckSignals() except -1
    bint likely(bint)
    bint unlikely(bint)
    int bor_init_record(object, object, object)
    bint bor_is_record(PyObject*)
    PyObject* bor_rec_fields(PyObject*)
    PyObject* bor_new_record(PyObject*, PyObject*) except NULL
    PyObject* bor_int_to_str(int64_t) except NULL
    int bor_add(int64_t a, int64_t b, int64_t *r)
    int bor_sub(int64_t a, int64_t b, int64_t *r)
    int bor_mul(int64_t a, int64_t b, int64_t *r)

from boruna._vm_builtins import (
    COLD_OPS, MAX_STRING_BYTES, MAX_COLLECTION_LEN, MAX_WORK, WORK_INPUTS, WORK_RESULTS,
    _check_str_len, _utf8_len, normalize_value,
)

cdef bint REC_FAST = False
try:
    REC_FAST = bor_init_record(Record, Record.__dict__["type_id"], Record.__dict__["fields"]) == 1
except Exception:
    REC_FAST = False

# ---------------------------------------------------------------- limits

MAX_STACK = 4096
MAX_CALL_DEPTH = 256
MAX_LOCAL_SLOTS = 1 << 22
MAX_VALUE_MEMORY = 256 * 1024 * 1024
TRACE_KEEP = 500
EVENT_BYTES = 200          # accounted size of one event-log entry
TRACE_ENTRY_BYTES = 100    # accounted size of one kept trace line

cdef enum:
    BLD_SLOTS = 4
cdef enum:
    C_MAX_STACK = 4096
    C_MAX_DEPTH = 256
cdef int64_t C_MAX_LOCALS = 1 << 22
cdef int64_t C_MAX_STR_CHARS_FAST = (16 * 1024 * 1024) // 4
cdef int64_t C_WALK_MIN = 64 * 1024 * 1024
cdef int64_t I64_MAX_C = BOR_I64_MAX
cdef int64_t I64_MIN_C = BOR_I64_MIN
# exact match tag of an Int scrutinee n (0 <= n < limit) is -(base + n): codegen.match_tag_int
cdef int64_t INT_TAG_BASE_C = INT_TAG_BASE
cdef int64_t INT_TAG_LIMIT_C = INT_TAG_LIMIT
# reserved type ids of Option's Some and of Result (vm.md §3.1)
cdef int64_t SOME_TID = SOME_TYPE_ID
cdef int64_t RESULT_TID = RESULT_TYPE_ID

# run status returned by execute_bounded
FINISHED = 0
PAUSED = 1
FAILED = 2
BLOCKED = 3

# ---------------------------------------------------------------- values

cdef enum:
    T_UNIT = 0
    T_BOOL = 1
    T_INT = 2
    T_FLOAT = 3
    T_OBJ = 4

cdef struct Val:
    int tag
    int64_t i
    double f
    PyObject* o

cdef struct Frame:
    int func
    int64_t ip
    int stack_base
    int64_t locals_base

cdef inline void vclear(Val* v):
    if v.tag == T_OBJ:
        _decref(v.o)
    v.tag = T_UNIT

cdef inline void vcopy(Val* dst, Val* src):
    dst[0] = src[0]
    if src.tag == T_OBJ:
        _incref(src.o)

cdef inline object to_py(Val* v):
    cdef int t = v.tag
    if t == T_INT:
        return v.i
    if t == T_FLOAT:
        return v.f
    if t == T_BOOL:
        return True if v.i else False
    if t == T_UNIT:
        return None
    return <object>v.o

cdef inline PyObject* take_owned(Val* v) except NULL:
    """Move `v` out as a new reference (v becomes Unit)."""
    cdef int t = v.tag
    cdef PyObject* r
    if t == T_OBJ:
        r = v.o
    elif t == T_INT:
        r = PyLong_FromLongLong_raw(v.i)
    elif t == T_FLOAT:
        r = PyFloat_FromDouble_raw(v.f)
    elif t == T_BOOL:
        r = Py_True_raw if v.i else Py_False_raw
        _incref(r)
    else:
        r = Py_None_raw
        _incref(r)
    v.tag = T_UNIT
    return r


cdef int from_py(Val* d, object o) except -1:
    """Store Python value `o` into the empty slot `d`."""
    cdef int overflow = 0
    cdef long long v
    cdef PyObject* p = <PyObject*>o
    if PyLong_CheckExact_raw(p):
        v = PyLong_AsLongLongAndOverflow(o, &overflow)
        if overflow != 0:
            raise VmError("integer overflow in conversion", "overflow")
        d.tag = T_INT
        d.i = v
    elif p == Py_True_raw or p == Py_False_raw:
        d.tag = T_BOOL
        d.i = 1 if p == Py_True_raw else 0
    elif PyFloat_CheckExact_raw(p):
        d.tag = T_FLOAT
        d.f = PyFloat_AS_DOUBLE_raw(p)
    elif p == Py_None_raw:
        d.tag = T_UNIT
    else:
        d.tag = T_OBJ
        d.o = p
        _incref(p)
    return 0

cdef inline bint truthy(Val* v):
    cdef int t = v.tag
    if t == T_BOOL or t == T_INT:
        return v.i != 0
    if t == T_FLOAT:
        return v.f != 0.0
    if t == T_UNIT:
        return False
    return obj_truthy(<object>v.o)

cdef bint obj_truthy(object o):
    t = type(o)
    if t is str or t is tuple or t is MapValue:
        return len(o) != 0
    if t is OptNone or t is Err:
        return False
    return True

cdef str vtype_name(Val* v):
    cdef int t = v.tag
    if t == T_INT:
        return "Int"
    if t == T_FLOAT:
        return "Float"
    if t == T_BOOL:
        return "Bool"
    if t == T_UNIT:
        return "Unit"
    return type_name(<object>v.o)


def values_equal(a, b):
    """Type-strict structural equality (vm.md §3.3); iterative, so any depth is safe."""
    work = [(a, b)]
    while work:
        x, y = work.pop()
        tx = type(x)
        if tx is not type(y):
            return False
        if tx is tuple:
            if len(x) != len(y):
                return False
            work.extend(zip(x, y))
        elif tx is Record:
            if x.type_id != y.type_id or len(x.fields) != len(y.fields):
                return False
            work.extend(zip(x.fields, y.fields))
        elif tx is Enum:
            if x.type_id != y.type_id or x.variant != y.variant:
                return False
            work.append((x.payload, y.payload))
        elif tx is Some or tx is Ok or tx is Err:
            work.append((x.value, y.value))
        elif tx is MapValue:
            if x.keys() != y.keys():
                return False
            work.extend((x[k], y[k]) for k in x)
        elif x != y:
            return False
    return True


cdef bint vals_equal(Val* a, Val* b) except -1:
    if a.tag != b.tag:
        return False
    if a.tag == T_INT or a.tag == T_BOOL:
        return a.i == b.i
    if a.tag == T_FLOAT:
        return a.f == b.f
    if a.tag == T_UNIT:
        return True
    if type(<object>a.o) is str:
        if type(<object>b.o) is not str:
            return False
        return a.o == b.o or (<str>a.o) == (<str>b.o)
    return values_equal(<object>a.o, <object>b.o)


cdef inline int64_t work_size(object o):
    """Work units of an operand or result: its characters or elements (0 for other values)."""
    t = type(o)
    if t is str or t is tuple or t is MapValue:
        return len(o)
    return 0


cdef int64_t approx_size(object o):
    t = type(o)
    if t is str:
        return 49 + PyUnicode_GET_LENGTH(o)
    if t is tuple:
        return 56 + 8 * PyTuple_GET_SIZE(o)
    if t is Record:
        return 120 + 8 * len(o.fields)
    if t is MapValue:
        return 232 + 100 * len(o)
    return 48


cdef int64_t cf_size(object o, int depth):
    """What _memory_walk adds for `o` when that does not depend on the rest of the walk
    (nothing in it is deduplicated by identity), else -1. Mirrors _memory_walk exactly."""
    cdef int64_t total, x
    t = type(o)
    if t is str:
        if PyUnicode_GET_LENGTH(o) >= 256:
            return -1
        return 49 + PyUnicode_GET_LENGTH(o)
    if t is tuple or t is Record:
        if depth >= 4:
            return -1
        items = o.fields if t is Record else o
        if len(items) >= 16:
            return -1
        total = approx_size(o)
        for it in items:
            x = cf_size(it, depth + 1)
            if x < 0:
                return -1
            total += x
        return total
    if t is MapValue:
        return -1
    if t is Some or t is Ok or t is Err:
        if depth >= 4:
            return -1
        x = cf_size(o.value, depth + 1)
        return -1 if x < 0 else 48 + x
    if t is Enum:
        if depth >= 4:
            return -1
        x = cf_size(o.payload, depth + 1)
        return -1 if x < 0 else 64 + x
    return 32


# ---------------------------------------------------------------- opcodes

# in-place list building relies on tuples caching no hash (true through CPython 3.13)
import sys as _sys
PUSH_IN_PLACE = _sys.version_info < (3, 14)

# OP_* dispatch constants of every op and pseudo-op, and the match tags: generated from
# bytecode/opcodes.py by setup.py
include "vm/opcodes.pxi"

cdef enum:
    W = 4   # words per instruction: op, a, b, c

cdef int64_t FINISH_CODE[4]
FINISH_CODE[0] = OP_FINISH
FINISH_CODE[1] = 0
FINISH_CODE[2] = 0
FINISH_CODE[3] = 0

_NEEDS_RANGE = {"PushConst", "LoadLocal", "StoreLocal", "LoadGlobal", "StoreGlobal"}


cdef class Machine:
    """One VM instance for one module (vm.md §4.1).

    `Machine(module, gateway=None, max_steps=10_000_000, trace=False, max_wall_ms=None,
    max_value_memory=MAX_VALUE_MEMORY, trace_limit=500)` (trace_limit: entries kept, at most
    10,000,000; `trace_total` counts them all);
    `set_entry(fn_index, args=())`, `execute_bounded(slice) -> FINISHED | PAUSED | FAILED |
    BLOCKED`, `run()`. Results: `steps`, `result`, `error`, `error_kind`, `ui_output`,
    `trace`, `trace_total`.
    """

    cdef Val* stack
    cdef int sp
    cdef Frame* frames
    cdef int nframes
    cdef Val* locals
    cdef int64_t locals_cap
    cdef int64_t lp
    cdef Val* consts
    cdef int nconsts
    cdef Val* globals_
    cdef int nglobals
    cdef int64_t* code
    cdef int64_t* fn_start
    cdef int64_t* fn_len
    cdef int64_t* fn_nlocals
    cdef int64_t* fn_arity
    cdef int64_t* fn_tables      # per function: first table index in tbl_start
    cdef int64_t* fn_ntables
    cdef int64_t* tbl_start      # per table: first arm index in arms
    cdef int64_t* tbl_len
    cdef int64_t* arms           # (tag, target) pairs
    cdef int nfuncs
    cdef readonly int64_t steps
    cdef public int64_t max_steps
    cdef int64_t alloc_bytes
    cdef int64_t next_walk
    cdef int64_t mem_cap
    cdef readonly int64_t work
    cdef readonly int64_t max_work
    cdef bint tracing
    cdef bint cancelled
    cdef bint started
    cdef bint running
    cdef bint done
    cdef public bint in_actor
    cdef double wall_start
    cdef object max_wall_ms_obj
    # list builders (_push_into): tuples this machine over-allocated, one strong reference
    # each, and their allocated capacity; Py_SIZE is the list's length
    cdef PyObject* bld[BLD_SLOTS]
    cdef Py_ssize_t bld_cap[BLD_SLOTS]
    cdef int64_t bld_sub[BLD_SLOTS]     # what _memory_walk adds for its items, or -1
    cdef int64_t ghost                  # bytes _memory_walk adds for a list _push_into grew
    cdef int bld_next
    cdef readonly object module
    cdef readonly object gateway
    cdef readonly object result
    cdef readonly object error
    cdef readonly object error_kind
    cdef readonly object error_obj
    cdef public list ui_output
    cdef readonly list trace
    cdef readonly int64_t trace_total
    cdef int64_t trace_keep
    cdef list fn_names
    cdef list fn_caps
    cdef list dbg
    cdef list fail_msgs
    cdef list named_fields
    cdef public object mailbox
    cdef public object cancel_event
    cdef public list outgoing
    cdef public list spawn_requests
    cdef public int64_t next_spawn_id
    cdef public int64_t actor_id

    def __cinit__(self):
        self.stack = NULL
        self.frames = NULL
        self.locals = NULL
        self.consts = NULL
        self.globals_ = NULL
        self.code = NULL
        self.fn_start = NULL
        self.fn_len = NULL
        self.fn_nlocals = NULL
        self.fn_arity = NULL
        self.fn_tables = NULL
        self.fn_ntables = NULL
        self.tbl_start = NULL
        self.tbl_len = NULL
        self.arms = NULL
        self.sp = 0
        self.nframes = 0
        self.lp = 0
        self.nconsts = 0
        self.nglobals = 0

    def __init__(self, module, *, gateway=None, max_steps=10_000_000, trace=False,
                 max_wall_ms=None, max_value_memory=MAX_VALUE_MEMORY, trace_limit=TRACE_KEEP,
                 max_work=MAX_WORK):
        if self.stack != NULL:
            raise RuntimeError("Machine is already initialised")
        self.module = module
        self.gateway = gateway
        self.max_steps = max(0, min(int(max_steps), I64_MAX_C - 1))
        self.tracing = bool(trace)
        self.max_wall_ms_obj = max_wall_ms
        self.result = None
        self.error = None
        self.error_kind = None
        self.error_obj = None
        self.ui_output = []
        self.trace = []
        self.trace_total = 0
        self.trace_keep = max(0, min(int(trace_limit), 10_000_000))
        self.steps = 0
        self.alloc_bytes = 0
        self.mem_cap = max(0, int(max_value_memory))
        self.next_walk = min(C_WALK_MIN, self.mem_cap // 4)
        self.work = 0
        self.max_work = max(0, min(int(max_work), I64_MAX_C))
        self.cancelled = False
        self.started = False
        self.done = False
        self.in_actor = False
        self.wall_start = 0.0
        self.cancel_event = None
        from collections import deque
        self.mailbox = deque()
        self.outgoing = []
        self.spawn_requests = []
        self.next_spawn_id = 0
        self.actor_id = 0
        self.stack = <Val*>malloc(sizeof(Val) * C_MAX_STACK)
        self.frames = <Frame*>malloc(sizeof(Frame) * C_MAX_DEPTH)
        self.locals_cap = 256
        self.locals = <Val*>malloc(sizeof(Val) * self.locals_cap)
        if self.stack == NULL or self.frames == NULL or self.locals == NULL:
            raise MemoryError()
        self._translate(module)

    def __dealloc__(self):
        cdef int64_t k
        if self.stack != NULL:
            for k in range(self.sp):
                vclear(&self.stack[k])
            free(self.stack)
        if self.locals != NULL:
            for k in range(self.lp):
                vclear(&self.locals[k])
            free(self.locals)
        if self.consts != NULL:
            for k in range(self.nconsts):
                vclear(&self.consts[k])
            free(self.consts)
        if self.globals_ != NULL:
            for k in range(self.nglobals):
                vclear(&self.globals_[k])
            free(self.globals_)
        for k in range(BLD_SLOTS):
            if self.bld[k] != NULL:
                _decref(self.bld[k])
                self.bld[k] = NULL
        free(self.frames)
        free(self.code)
        free(self.fn_start)
        free(self.fn_len)
        free(self.fn_nlocals)
        free(self.fn_arity)
        free(self.fn_tables)
        free(self.fn_ntables)
        free(self.tbl_start)
        free(self.tbl_len)
        free(self.arms)

    # ------------------------------------------------------------ translation

    cdef int _translate(self, module) except -1:
        """Flatten the module into C arrays, bounding every index once, here."""
        cdef int64_t k, total, pos, j, ntables, narms, t, a
        cdef int64_t* w
        functions = list(module.functions)
        constants = list(module.constants)
        self.nfuncs = len(functions)
        self.nconsts = len(constants)
        self.consts = <Val*>malloc(sizeof(Val) * (self.nconsts + 1))
        if self.consts == NULL:
            raise MemoryError()
        for k in range(self.nconsts):
            self.consts[k].tag = T_UNIT
            from_py(&self.consts[k], constants[k])
        self.nglobals = len(module.globals)
        self.globals_ = <Val*>malloc(sizeof(Val) * (self.nglobals + 1))
        if self.globals_ == NULL:
            raise MemoryError()
        for k in range(self.nglobals):
            self.globals_[k].tag = T_UNIT
        n = self.nfuncs + 1
        self.fn_start = <int64_t*>malloc(sizeof(int64_t) * n)
        self.fn_len = <int64_t*>malloc(sizeof(int64_t) * n)
        self.fn_nlocals = <int64_t*>malloc(sizeof(int64_t) * n)
        self.fn_arity = <int64_t*>malloc(sizeof(int64_t) * n)
        self.fn_tables = <int64_t*>malloc(sizeof(int64_t) * n)
        self.fn_ntables = <int64_t*>malloc(sizeof(int64_t) * n)
        if (self.fn_start == NULL or self.fn_len == NULL or self.fn_nlocals == NULL
                or self.fn_arity == NULL or self.fn_tables == NULL or self.fn_ntables == NULL):
            raise MemoryError()
        total = 0
        ntables = 0
        narms = 0
        self.fn_names = []
        self.fn_caps = []
        for k, f in enumerate(functions):
            self.fn_start[k] = total
            self.fn_len[k] = len(f.code)
            self.fn_nlocals[k] = max(0, int(f.locals))
            self.fn_arity[k] = max(0, int(f.arity))
            self.fn_tables[k] = ntables
            self.fn_ntables[k] = len(f.match_tables)
            ntables += len(f.match_tables)
            for tab in f.match_tables:
                narms += len(tab)
            total += len(f.code) + 1
            self.fn_names.append(f.name)
            self.fn_caps.append(tuple(f.capabilities))
        self.code = <int64_t*>malloc(sizeof(int64_t) * W * (total + 1))
        self.tbl_start = <int64_t*>malloc(sizeof(int64_t) * (ntables + 1))
        self.tbl_len = <int64_t*>malloc(sizeof(int64_t) * (ntables + 1))
        self.arms = <int64_t*>malloc(sizeof(int64_t) * 2 * (narms + 1))
        if self.code == NULL or self.tbl_start == NULL or self.tbl_len == NULL or self.arms == NULL:
            raise MemoryError()
        self.fail_msgs = []
        self.named_fields = []
        t = 0
        a = 0
        for k, f in enumerate(functions):
            flen = len(f.code)
            for tab in f.match_tables:
                self.tbl_start[t] = a
                self.tbl_len[t] = len(tab)
                for arm in tab:
                    self.arms[2 * a] = max(-2**31, min(2**31 - 1, int(arm[0])))
                    self.arms[2 * a + 1] = min(max(int(arm[1]), 0), flen)
                    a += 1
                t += 1
            base = self.fn_start[k]
            for j, ins in enumerate(f.code):
                self._encode(&self.code[(base + j) * W], ins, flen, int(f.locals))
            if PUSH_IN_PLACE:
                for j in range(flen - 1):
                    w = &self.code[(base + j) * W]
                    if (w[0] == OP_COLD and (w[1] == OP_LISTPUSH or w[1] == OP_LISTAPPEND)
                            and w[W] == OP_STORELOCAL):
                        w[0] = OP_PUSH_STORE
                        w[2] = w[W + 1]
            pos = (base + flen) * W
            self.code[pos] = OP_IMPLICIT_RET
            self.code[pos + 1] = 0
            self.code[pos + 2] = 0
            self.code[pos + 3] = 0
        if self.tracing:
            self.dbg = [[_debug(ins) for ins in f.code] for f in functions]
        return 0

    cdef int _fail_op(self, int64_t* w, object err) except -1:
        w[0] = OP_FAIL
        w[1] = len(self.fail_msgs)
        w[2] = 0
        w[3] = 0
        self.fail_msgs.append(err)
        return 0

    cdef int _encode(self, int64_t* w, object ins, int64_t flen, int64_t nlocals) except -1:
        w[1] = 0
        w[2] = 0
        w[3] = 0
        try:
            name = ins[0]
            info = OPCODES[name]
            ops = ins[1:]
            if len(ops) != len(info.operands):
                raise ValueError("operand count")
        except Exception:
            return self._fail_op(w, verr.bytecode_error(f"malformed instruction {ins!r}"))
        tag = info.tag
        if name == "GetFieldNamed":
            w[0] = OP_GETFIELDNAMED
            w[1] = len(self.named_fields)
            self.named_fields.append(str(ops[0]))
            return 0
        if name == "Assert":
            kind = ops[1]
            ops = (ops[0], 0 if kind == "Requires" else 1, ops[2])
        vals = []
        for x in ops:
            if type(x) is not int or x < 0 or x > 0xFFFFFFFF:
                return self._fail_op(w, verr.bytecode_error(f"operand out of range in {ins!r}"))
            vals.append(x)
        if info.path == COLD:
            w[0] = OP_COLD
            w[1] = tag
            return 0
        if name == "PushConst" and vals[0] >= self.nconsts:
            return self._fail_op(w, verr.invalid_constant(vals[0]))
        if name in ("LoadLocal", "StoreLocal") and vals[0] >= nlocals:
            err = verr.invalid_local(vals[0])
            if name == "StoreLocal":
                w[0] = OP_FAIL
                w[1] = len(self.fail_msgs)
                w[2] = 1      # pop first
                self.fail_msgs.append(err)
                return 0
            return self._fail_op(w, err)
        if name in ("LoadGlobal", "StoreGlobal") and vals[0] >= self.nglobals:
            return self._fail_op(w, verr.invalid_global(vals[0]))
        if name in ("Jmp", "JmpIf", "JmpIfNot"):
            vals[0] = min(vals[0], flen)
        w[0] = tag
        for i, x in enumerate(vals):
            w[1 + i] = x
        return 0

    # ------------------------------------------------------------ setup

    def set_entry(self, fn_index, args=()):
        """Push the entry frame (no step charged) if the call stack is empty."""
        cdef int64_t k, n
        if self.running:
            raise RuntimeError("Machine is already running (re-entrant or concurrent call)")
        if self.nframes != 0 or self.done:
            return
        self.started = True
        if not (isinstance(fn_index, int) and 0 <= fn_index < self.nfuncs):
            self._set_error(verr.invalid_function(fn_index))
            self.done = True
            return
        n = self.fn_nlocals[fn_index]
        if not self._ensure_locals(n):
            self._set_error(self._locals_error())
            self.done = True
            return
        for k in range(n):
            self.locals[self.lp + k].tag = T_UNIT
        args = list(args)
        try:
            for k in range(min(len(args), n)):
                from_py(&self.locals[self.lp + k], args[k])
        except Exception as exc:
            for k in range(n):
                vclear(&self.locals[self.lp + k])
            self._set_error(exc)
            self.done = True
            return
        self.frames[0].func = fn_index
        self.frames[0].ip = 0
        self.frames[0].stack_base = self.sp
        self.frames[0].locals_base = self.lp
        self.lp += n
        self.nframes = 1

    cdef bint _ensure_locals(self, int64_t n):
        cdef int64_t cap
        cdef Val* p
        if self.lp + n <= self.locals_cap:
            return True
        if self.lp + n > C_MAX_LOCALS:
            return False
        cap = self.locals_cap
        while cap < self.lp + n:
            cap *= 2
        p = <Val*>realloc(self.locals, sizeof(Val) * cap)
        if p == NULL:
            return False
        self.locals = p
        self.locals_cap = cap
        self.alloc_bytes += <int64_t>sizeof(Val) * cap // 2
        return True

    cdef object _locals_error(self):
        return VmError(f"memory limit exceeded: more than {MAX_LOCAL_SLOTS} local slots",
                       "memory_limit")

    cdef void _set_error(self, err):
        if isinstance(err, VmError):
            self.error = err.message
            self.error_kind = err.kind
            self.error_obj = err
        else:
            self.error = f"internal error: {type(err).__name__}: {err}"
            self.error_kind = "internal"
            self.error_obj = VmError(self.error, "internal")

    def cancel(self):
        """Stop at the next 1,024-step checkpoint with `execution cancelled`."""
        self.cancelled = True

    def deliver(self, msg):
        self.mailbox.append(msg)

    @property
    def finished(self):
        return self.done

    @property
    def call_depth(self):
        return self.nframes

    def run(self):
        """Run to completion from the module entry; returns the status."""
        if not self.started:
            self.set_entry(self.module.entry)
        return self.execute_bounded(0)

    # ------------------------------------------------------------ memory accounting

    cdef int _charge(self, int64_t n) except -1:
        self.alloc_bytes += n
        if self.alloc_bytes >= self.next_walk:
            self._memory_walk()
        return 0

    cdef object _work_error(self):
        return VmError(f"work limit exceeded: builtins processed more than {self.max_work} "
                       "characters or elements", "work_limit")

    cdef int _spend(self, int64_t n) except -1:
        """Charge `n` work units; the work limit's VmError when they overrun `max_work`."""
        self.work += n
        if self.work > self.max_work:
            raise self._work_error()
        return 0

    cdef int _memory_walk(self) except -1:
        cdef int64_t k, total = 0
        cdef int64_t cap = self.mem_cap
        roots = []
        for k in range(self.sp):
            if self.stack[k].tag == T_OBJ:
                roots.append(<object>self.stack[k].o)
        for k in range(self.lp):
            if self.locals[k].tag == T_OBJ:
                roots.append(<object>self.locals[k].o)
        roots.extend(self.ui_output)
        total += self.ghost
        roots.extend(m for _, m in self.outgoing)
        roots.extend(self.mailbox)
        # bookkeeping that grows with the run: UI trees, queued messages, spawn requests and
        # the gateway's event log (contract checks, UI emits, capability calls)
        total += 8 * (len(self.ui_output) + len(self.outgoing) + len(self.spawn_requests)
                      + len(self.mailbox))
        total += TRACE_ENTRY_BYTES * len(self.trace)
        total += <int64_t>sizeof(Val) * self.locals_cap
        log = getattr(self.gateway, "log", None)
        if log is not None:
            try:
                total += EVENT_BYTES * len(log)
            except TypeError:
                pass
        seen = set()
        work = roots
        while work:
            o = work.pop()
            t = type(o)
            if t is str:
                if PyUnicode_GET_LENGTH(o) >= 256:
                    if id(o) in seen:
                        continue
                    seen.add(id(o))
                total += approx_size(o)
            elif t is tuple or t is Record or t is MapValue:
                if len(o.fields if t is Record else o) >= 16:
                    if id(o) in seen:
                        continue
                    seen.add(id(o))
                total += approx_size(o)
                if t is tuple:
                    sub = self._builder_items_size(o)
                    if sub >= 0:
                        total += sub
                    else:
                        work.extend(o)
                elif t is Record:
                    work.extend(o.fields)
                else:
                    work.extend(o.values())
            elif t is Some or t is Ok or t is Err:
                total += 48
                work.append(o.value)
            elif t is Enum:
                total += 64
                work.append(o.payload)
            else:
                total += 32
            if total > cap:
                raise VmError(f"memory limit exceeded: live values use more than {cap} bytes",
                              "memory_limit")
        if total > cap:
            raise VmError(f"memory limit exceeded: live values use more than {cap} bytes",
                          "memory_limit")
        self.next_walk = self.alloc_bytes + max(min(C_WALK_MIN, cap // 4), total)
        return 0

    # ------------------------------------------------------------ cold helpers

    cdef int _trace(self, int func, int64_t ip, int sp) except -1:
        """Record one dispatched op: keep the first `trace_limit` lines, count them all."""
        self.trace.append(f"[{self.fn_names[func]}:{ip}] {self.dbg[func][ip]}  "
                          f"stack_depth={sp}")
        self._charge(TRACE_ENTRY_BYTES)
        self.trace_total += 1
        return 0

    cdef object _counterexample(self, int func, int64_t locals_base):
        cdef int64_t k, n = min(self.fn_arity[func], self.fn_nlocals[func])
        return [display(to_py(&self.locals[locals_base + k])) for k in range(n)]

    cdef object _contract_log(self, function, kind, index, passed):
        gw = self._gw()
        log = getattr(gw, "log", None)
        if log is not None:
            log.contract_check(function, kind, index, passed)

    cdef object _gw(self):
        if self.gateway is None:
            from boruna.runtime.gateway import CapabilityGateway
            self.gateway = CapabilityGateway(None)
        return self.gateway

    # ------------------------------------------------------------ the loop

    def execute_bounded(self, slice_steps=0):
        """Run at most `slice_steps` steps (0 or None = no bound). Returns FINISHED, PAUSED,
        FAILED or BLOCKED. A pause costs no step; the next call resumes at the next op."""
        cdef int64_t budget
        if self.done:
            return FAILED if self.error is not None else FINISHED
        if not self.started:
            self.set_entry(self.module.entry)
            if self.done:
                return FAILED
        if self.max_wall_ms_obj is not None and self.wall_start == 0.0:
            self.wall_start = _time.monotonic()
        budget = 0 if slice_steps is None else max(0, min(int(slice_steps), I64_MAX_C // 2))
        if self.running:
            raise RuntimeError("Machine is already running (re-entrant or concurrent call)")
        self.running = True
        try:
            status = self._loop(budget)
        except Exception as exc:     # a VmError from a cold path, or an internal failure
            self._set_error(exc)
            self.done = True
            self._drop_frames()
            return FAILED
        finally:
            self.running = False
        if status == FAILED or status == FINISHED:
            self.done = True
            if status == FAILED:
                self._drop_frames()
        return status

    cdef void _drop_frames(self):
        cdef int64_t k
        for k in range(self.lp):
            vclear(&self.locals[k])
        self.lp = 0
        self.nframes = 0

    cdef object _wall_check(self):
        cdef object lim = self.max_wall_ms_obj
        PyErr_CheckSignals()
        if self.cancel_event is not None and self.cancel_event.is_set():
            self.cancelled = True
        if self.cancelled:
            return VmError("execution cancelled", "cancelled")
        if lim is not None:
            elapsed = (_time.monotonic() - self.wall_start) * 1000.0
            if elapsed > lim:
                return verr.wall_time_exceeded(lim)
        return None

    cdef object _loop(self, int64_t budget):
        cdef Val* stack = self.stack
        cdef int sp = self.sp
        cdef Val* loc
        cdef Val* v
        cdef Val* a
        cdef Val* b
        cdef Val tmp
        cdef Frame* fr
        cdef int64_t* cur
        cdef int64_t* ins
        cdef int64_t ip
        cdef int func
        cdef int op
        cdef int64_t steps = self.steps
        cdef int64_t max_steps = self.max_steps
        cdef int64_t slice_end
        cdef int64_t check_at, m
        cdef int64_t x, y, r, k, n, argc, target, tag, base
        cdef double fx, fy
        cdef bint tracing = self.tracing
        cdef bint c
        cdef object err = None
        cdef object status = PAUSED
        cdef object o, o2
        cdef PyObject* pt

        if budget > 0:
            slice_end = steps + budget
        else:
            slice_end = I64_MAX_C
        if self.nframes > 0:
            fr = &self.frames[self.nframes - 1]
            func = fr.func
            ip = fr.ip
            cur = &self.code[self.fn_start[func] * W]
            loc = &self.locals[fr.locals_base]
        else:
            func = -1
            ip = 0
            cur = FINISH_CODE
            loc = self.locals
        m = (steps // 1024 + 1) * 1024 - 1       # next s >= steps with (s + 1) % 1024 == 0
        check_at = min(slice_end, min(max_steps, m))

        try:
            while True:
                if steps >= check_at:
                    if steps >= slice_end:
                        status = PAUSED
                        break
                    if steps >= max_steps:
                        steps += 1
                        err = verr.step_limit(max_steps)
                        break
                    if (steps + 1) % 1024 == 0:
                        err = self._wall_check()
                        if err is not None:
                            steps += 1
                            break
                    m = ((steps + 1) // 1024 + 1) * 1024 - 1
                    check_at = min(slice_end, min(max_steps, m))
                steps += 1
                ins = cur + ip * W
                op = <int>ins[0]
                # every dispatched op is traced: real tags, and the load-time rewrites of
                # real ops (OP_FAIL, OP_COLD, OP_PUSH_STORE); only the implicit return and
                # the finishing iteration (OP_IMPLICIT_RET, OP_FINISH) have no trace line
                # (vm.md §4.7)
                if tracing and (op < OP_IMPLICIT_RET or op >= OP_FAIL):
                    if self.trace_total < self.trace_keep:
                        self._trace(func, ip, sp)
                    else:
                        self.trace_total += 1
                ip += 1

                if op == OP_LOADLOCAL:
                    if sp >= C_MAX_STACK:
                        err = verr.stack_overflow(MAX_STACK)
                        break
                    vcopy(&stack[sp], &loc[ins[1]])
                    sp += 1
                elif op == OP_PUSHCONST:
                    if sp >= C_MAX_STACK:
                        err = verr.stack_overflow(MAX_STACK)
                        break
                    vcopy(&stack[sp], &self.consts[ins[1]])
                    sp += 1
                elif op == OP_STORELOCAL:
                    if sp <= 0:
                        err = verr.stack_underflow()
                        break
                    sp -= 1
                    vclear(&loc[ins[1]])
                    loc[ins[1]] = stack[sp]
                elif op == OP_ADD or op == OP_SUB or op == OP_MUL:
                    if sp < 2:
                        err = verr.stack_underflow()
                        break
                    a = &stack[sp - 2]
                    b = &stack[sp - 1]
                    if a.tag == T_INT and b.tag == T_INT:
                        if op == OP_ADD:
                            if bor_add(a.i, b.i, &r):
                                err = verr.overflow("addition")
                                break
                        elif op == OP_SUB:
                            if bor_sub(a.i, b.i, &r):
                                err = verr.overflow("subtraction")
                                break
                        else:
                            if bor_mul(a.i, b.i, &r):
                                err = verr.overflow("multiplication")
                                break
                        a.i = r
                        sp -= 1
                    elif (a.tag == T_INT or a.tag == T_FLOAT) and (b.tag == T_INT or b.tag == T_FLOAT):
                        fx = a.f if a.tag == T_FLOAT else <double>a.i
                        fy = b.f if b.tag == T_FLOAT else <double>b.i
                        if op == OP_ADD:
                            a.f = fx + fy
                        elif op == OP_SUB:
                            a.f = fx - fy
                        else:
                            a.f = fx * fy
                        a.tag = T_FLOAT
                        sp -= 1
                    else:
                        err = verr.type_error("numeric", vtype_name(b) if (a.tag == T_INT or a.tag == T_FLOAT) else vtype_name(a))
                        sp -= 2
                        vclear(a)
                        vclear(b)
                        break
                elif op == OP_LT or op == OP_LTE or op == OP_GT or op == OP_GTE:
                    if sp < 2:
                        err = verr.stack_underflow()
                        break
                    a = &stack[sp - 2]
                    b = &stack[sp - 1]
                    if a.tag == T_INT and b.tag == T_INT:
                        x = a.i
                        y = b.i
                        if op == OP_LT:
                            c = x < y
                        elif op == OP_LTE:
                            c = x <= y
                        elif op == OP_GT:
                            c = x > y
                        else:
                            c = x >= y
                    elif a.tag == T_FLOAT and b.tag == T_FLOAT:
                        fx = a.f
                        fy = b.f
                        if fx != fx or fy != fy:      # NaN compares as Equal
                            c = op == OP_LTE or op == OP_GTE
                        elif op == OP_LT:
                            c = fx < fy
                        elif op == OP_LTE:
                            c = fx <= fy
                        elif op == OP_GT:
                            c = fx > fy
                        else:
                            c = fx >= fy
                    elif (a.tag == T_OBJ and b.tag == T_OBJ and type(<object>a.o) is str
                          and type(<object>b.o) is str):
                        o = <object>a.o
                        o2 = <object>b.o
                        if op == OP_LT:
                            c = o < o2
                        elif op == OP_LTE:
                            c = o <= o2
                        elif op == OP_GT:
                            c = o > o2
                        else:
                            c = o >= o2
                        o = None
                        o2 = None
                    else:
                        err = verr.type_error("comparable", vtype_name(a))
                        break
                    vclear(a)
                    vclear(b)
                    a.tag = T_BOOL
                    a.i = c
                    sp -= 1
                elif op == OP_JMPIFNOT or op == OP_JMPIF:
                    if sp <= 0:
                        err = verr.stack_underflow()
                        break
                    sp -= 1
                    v = &stack[sp]
                    if v.tag == T_BOOL:
                        c = v.i != 0
                    else:
                        c = truthy(v)
                        vclear(v)
                    if c == (op == OP_JMPIF):
                        ip = ins[1]
                elif op == OP_JMP:
                    ip = ins[1]
                elif op == OP_CALL or op == OP_CALLINDIRECT:
                    if op == OP_CALLINDIRECT:
                        argc = ins[1]
                        if sp <= 0:
                            err = verr.stack_underflow()
                            break
                        v = &stack[sp - 1]
                        if v.tag != T_OBJ or type(<object>v.o) is not FnRef:
                            err = verr.type_error("function reference", vtype_name(v))
                            break
                        target = (<object>v.o).index
                        sp -= 1
                        vclear(v)
                    else:
                        target = ins[1]
                        argc = ins[2]
                    if sp < argc:
                        err = verr.stack_underflow()
                        break
                    if target < 0 or target >= self.nfuncs:
                        err = verr.invalid_function(target)
                        break
                    if self.nframes >= C_MAX_DEPTH:
                        err = verr.stack_overflow(MAX_CALL_DEPTH)
                        break
                    n = self.fn_nlocals[target]
                    if self.lp + n > self.locals_cap:
                        base = self.frames[self.nframes - 1].locals_base if self.nframes else 0
                        if not self._ensure_locals(n):
                            err = self._locals_error()
                            break
                        loc = &self.locals[base]
                    self.frames[self.nframes - 1].ip = ip
                    base = self.lp
                    for k in range(n):
                        self.locals[base + k].tag = T_UNIT
                    sp -= <int>argc
                    for k in range(argc):
                        if k < n:
                            self.locals[base + k] = stack[sp + k]
                        else:
                            vclear(&stack[sp + k])
                    self.lp = base + n
                    fr = &self.frames[self.nframes]
                    self.nframes += 1
                    fr.func = <int>target
                    fr.ip = 0
                    fr.stack_base = sp
                    fr.locals_base = base
                    func = <int>target
                    cur = &self.code[self.fn_start[func] * W]
                    loc = &self.locals[base]
                    ip = 0
                elif op == OP_RET or op == OP_IMPLICIT_RET:
                    fr = &self.frames[self.nframes - 1]
                    if op == OP_RET and sp > fr.stack_base:
                        sp -= 1
                        tmp = stack[sp]
                    else:
                        tmp.tag = T_UNIT
                    while sp > fr.stack_base:
                        sp -= 1
                        vclear(&stack[sp])
                    if sp >= C_MAX_STACK:
                        vclear(&tmp)
                        err = verr.stack_overflow(MAX_STACK)
                        break
                    for k in range(fr.locals_base, self.lp):
                        vclear(&self.locals[k])
                    self.lp = fr.locals_base
                    stack[sp] = tmp
                    sp += 1
                    self.nframes -= 1
                    if self.nframes == 0:
                        func = -1
                        cur = FINISH_CODE
                        ip = 0
                        loc = self.locals
                    else:
                        fr = &self.frames[self.nframes - 1]
                        func = fr.func
                        ip = fr.ip
                        cur = &self.code[self.fn_start[func] * W]
                        loc = &self.locals[fr.locals_base]
                elif op == OP_MOD or op == OP_DIV:
                    if sp < 2:
                        err = verr.stack_underflow()
                        break
                    a = &stack[sp - 2]
                    b = &stack[sp - 1]
                    if op == OP_DIV:
                        if (b.tag == T_INT and b.i == 0) or (b.tag == T_FLOAT and b.f == 0.0):
                            err = verr.division_by_zero()
                            break
                        if a.tag == T_INT and b.tag == T_INT:
                            if a.i == I64_MIN_C and b.i == -1:
                                err = verr.overflow("division")
                                break
                            a.i = _cdiv(a.i, b.i)
                            sp -= 1
                        elif (a.tag == T_INT or a.tag == T_FLOAT) and (b.tag == T_INT or b.tag == T_FLOAT):
                            fx = a.f if a.tag == T_FLOAT else <double>a.i
                            fy = b.f if b.tag == T_FLOAT else <double>b.i
                            a.f = fx / fy
                            a.tag = T_FLOAT
                            sp -= 1
                        else:
                            err = verr.type_error("numeric", vtype_name(b) if (a.tag == T_INT or a.tag == T_FLOAT) else vtype_name(a))
                            break
                    else:
                        if a.tag == T_INT and b.tag == T_INT:
                            if b.i == 0:
                                err = verr.division_by_zero()
                                break
                            if a.i == I64_MIN_C and b.i == -1:
                                err = verr.overflow("remainder")
                                break
                            a.i = _cmod(a.i, b.i)
                            sp -= 1
                        else:
                            err = verr.type_error("Int", vtype_name(b) if a.tag == T_INT else vtype_name(a))
                            break
                elif op == OP_EQ or op == OP_NEQ:
                    if sp < 2:
                        err = verr.stack_underflow()
                        break
                    a = &stack[sp - 2]
                    b = &stack[sp - 1]
                    if a.tag == T_INT and b.tag == T_INT:
                        c = a.i == b.i
                    else:
                        c = self._equal(a, b)
                        vclear(a)
                        vclear(b)
                    if op == OP_NEQ:
                        c = not c
                    a.tag = T_BOOL
                    a.i = c
                    sp -= 1
                elif op == OP_POP:
                    if sp <= 0:
                        err = verr.stack_underflow()
                        break
                    sp -= 1
                    vclear(&stack[sp])
                elif op == OP_DUP:
                    if sp <= 0:
                        err = verr.stack_underflow()
                        break
                    if sp >= C_MAX_STACK:
                        err = verr.stack_overflow(MAX_STACK)
                        break
                    vcopy(&stack[sp], &stack[sp - 1])
                    sp += 1
                elif op == OP_NEG:
                    if sp <= 0:
                        err = verr.stack_underflow()
                        break
                    a = &stack[sp - 1]
                    if a.tag == T_INT:
                        if a.i == I64_MIN_C:
                            err = verr.overflow("negation")
                            break
                        a.i = -a.i
                    elif a.tag == T_FLOAT:
                        a.f = -a.f
                    else:
                        err = verr.type_error("numeric", vtype_name(a))
                        break
                elif op == OP_NOT:
                    if sp <= 0:
                        err = verr.stack_underflow()
                        break
                    a = &stack[sp - 1]
                    c = not truthy(a)
                    vclear(a)
                    a.tag = T_BOOL
                    a.i = c
                elif op == OP_AND or op == OP_OR:
                    if sp < 2:
                        err = verr.stack_underflow()
                        break
                    a = &stack[sp - 2]
                    b = &stack[sp - 1]
                    if op == OP_AND:
                        c = truthy(a) and truthy(b)
                    else:
                        c = truthy(a) or truthy(b)
                    vclear(a)
                    vclear(b)
                    a.tag = T_BOOL
                    a.i = c
                    sp -= 1
                elif op == OP_CONCAT:
                    if sp < 2:
                        err = verr.stack_underflow()
                        break
                    a = &stack[sp - 2]
                    b = &stack[sp - 1]
                    if a.tag != T_OBJ or type(<object>a.o) is not str:
                        err = verr.type_error("String", vtype_name(a))
                        break
                    if b.tag != T_OBJ or type(<object>b.o) is not str:
                        err = verr.type_error("String", vtype_name(b))
                        break
                    n = PyUnicode_GET_LENGTH(<object>a.o) + PyUnicode_GET_LENGTH(<object>b.o)
                    self.work += n
                    if self.work > self.max_work:
                        err = self._work_error()
                        break
                    if n > C_MAX_STR_CHARS_FAST:
                        _check_str_len(_utf8_len(<object>a.o) + _utf8_len(<object>b.o))
                    o = PyUnicode_Concat(<object>a.o, <object>b.o)
                    vclear(a)
                    vclear(b)
                    sp -= 1
                    a.tag = T_OBJ
                    a.o = <PyObject*>o
                    _incref(a.o)
                    o = None
                    self.alloc_bytes += 49 + n
                    if self.alloc_bytes >= self.next_walk:
                        self.sp = sp
                        self._memory_walk()
                elif op == OP_INTTOSTRING:
                    if sp <= 0:
                        err = verr.stack_underflow()
                        break
                    a = &stack[sp - 1]
                    if a.tag != T_INT:
                        err = verr.type_error("Int", vtype_name(a))
                        break
                    a.o = bor_int_to_str(a.i)
                    a.tag = T_OBJ
                    self.alloc_bytes += 70
                elif op == OP_STRINGLEN:
                    if sp <= 0:
                        err = verr.stack_underflow()
                        break
                    a = &stack[sp - 1]
                    if a.tag != T_OBJ or type(<object>a.o) is not str:
                        err = verr.type_error("String", vtype_name(a))
                        break
                    if PyUnicode_IS_ASCII(<object>a.o):
                        n = PyUnicode_GET_LENGTH(<object>a.o)
                    else:
                        n = len((<object>a.o).encode("utf-8", "surrogatepass"))
                    vclear(a)
                    a.tag = T_INT
                    a.i = n
                elif op == OP_GETFIELD:
                    if sp <= 0:
                        err = verr.stack_underflow()
                        break
                    a = &stack[sp - 1]
                    if a.tag != T_OBJ or not (bor_is_record(a.o) if REC_FAST else type(<object>a.o) is Record):
                        err = verr.type_error("Record", vtype_name(a))
                        break
                    if REC_FAST:
                        o = <object>bor_rec_fields(a.o)
                    else:
                        o = (<object>a.o).fields
                    k = ins[1]
                    if k >= PyTuple_GET_SIZE(o):
                        err = verr.type_error("valid field index", "out of bounds")
                        break
                    tmp.tag = T_UNIT
                    from_py(&tmp, <object>PyTuple_GET_ITEM(o, k))
                    o = None
                    vclear(a)
                    a[0] = tmp
                elif op == OP_MAKERECORD or op == OP_MAKELIST:
                    n = ins[2] if op == OP_MAKERECORD else ins[1]
                    if sp < n:
                        err = verr.stack_underflow()
                        break
                    pt = PyTuple_New_raw(n)
                    for k in range(n):
                        PyTuple_SET_ITEM_raw(pt, k, take_owned(&stack[sp - n + k]))
                    sp -= <int>n
                    if op == OP_MAKERECORD:
                        if REC_FAST:
                            pt = bor_new_record(PyLong_FromLongLong_raw(ins[1]), pt)
                        else:
                            o = Record(ins[1], <object>pt)
                            _decref(pt)
                            pt = <PyObject*>o
                            _incref(pt)
                            o = None
                    stack[sp].tag = T_OBJ
                    stack[sp].o = pt
                    sp += 1
                    self.alloc_bytes += 120 + 8 * n
                    if self.alloc_bytes >= self.next_walk:
                        self.sp = sp
                        self._memory_walk()
                elif op == OP_MAKEENUM:
                    if sp <= 0:
                        err = verr.stack_underflow()
                        break
                    a = &stack[sp - 1]
                    o = to_py(a)
                    x = ins[1]
                    y = ins[2]
                    if x == SOME_TID and y == 1:
                        o = Some(o)
                    elif x == RESULT_TID and y == 0:
                        o = Ok(o)
                    elif x == RESULT_TID and y == 1:
                        o = Err(o)
                    else:
                        o = Enum(x, y, o)
                    vclear(a)
                    a.tag = T_OBJ
                    a.o = <PyObject*>o
                    _incref(a.o)
                    o = None
                    self.alloc_bytes += 64
                elif op == OP_MATCH:
                    if sp <= 0:
                        err = verr.stack_underflow()
                        break
                    k = ins[1]
                    if k >= self.fn_ntables[func]:
                        err = verr.match_exhausted()
                        break
                    a = &stack[sp - 1]
                    target = self._match(a, self.fn_tables[func] + k)
                    if target < 0:
                        err = verr.match_exhausted()
                        break
                    ip = target
                elif op == OP_LISTLEN or op == OP_LISTGET:
                    self.sp = sp
                    self._list_op(op)
                    sp = self.sp
                elif op == OP_COLD:
                    self.sp = sp
                    self._cold(<int>ins[1])
                    sp = self.sp
                elif op == OP_PUSH_STORE:
                    self.sp = sp
                    if not self._push_into(&loc[ins[2]]):
                        self._cold(<int>ins[1])
                    sp = self.sp
                elif op == OP_FINISH:
                    if sp > 0:
                        sp -= 1
                        self.result = to_py(&stack[sp])
                        vclear(&stack[sp])
                    else:
                        self.result = None
                    status = FINISHED
                    break
                elif op == OP_HALT:
                    if sp > 0:
                        sp -= 1
                        self.result = to_py(&stack[sp])
                        vclear(&stack[sp])
                    else:
                        self.result = None
                    self.frames[self.nframes - 1].ip = ip
                    status = FINISHED
                    break
                elif op == OP_NOP:
                    pass
                else:
                    self.sp = sp
                    self.frames[self.nframes - 1].ip = ip
                    self.steps = steps
                    r = self._slow_op(op, ins, func)
                    sp = self.sp
                    if r == 1:       # blocked on receive
                        ip -= 1
                        status = BLOCKED
                        break
                    if self.nframes > 0:
                        loc = &self.locals[self.frames[self.nframes - 1].locals_base]
        finally:
            self.sp = sp
            self.steps = steps
            if self.nframes > 0:
                self.frames[self.nframes - 1].ip = ip
        if err is not None:
            raise err
        return status

    cdef int64_t _match(self, Val* v, int64_t table) except? -2:
        """Pop v and push its unwrapped value; returns the arm target or -1 (no match)."""
        # a value without a tag of its own hits only the catch-all arms
        cdef int64_t tag = MATCH_ANY, k, start, n, at, t, code
        cdef int64_t itag = MATCH_ANY   # exact Int tag (codegen.match_tag_int), else none
        cdef object payload = None
        cdef object o
        cdef int64_t etype = -1, evar = -1
        if v.tag == T_BOOL:
            tag = 1 if v.i else 0
        elif v.tag == T_INT:
            if 0 <= v.i < INT_TAG_LIMIT_C:
                itag = -INT_TAG_BASE_C - v.i
        elif v.tag == T_OBJ:
            o = <object>v.o
            t_ = type(o)
            if t_ is Enum:
                tag = o.variant
                etype = o.type_id
                evar = o.variant
                payload = o.payload
            elif t_ is OptNone:
                tag = MATCH_NONE
            elif t_ is Some:
                tag = MATCH_SOME
                payload = o.value
            elif t_ is Ok:
                tag = MATCH_OK
                payload = o.value
            elif t_ is Err:
                tag = MATCH_ERR
                payload = o.value
        start = self.tbl_start[table]
        n = self.tbl_len[table]
        for k in range(n):
            at = self.arms[2 * (start + k)]
            if at == tag or at == MATCH_ANY or at == itag:
                break
            if at <= -EXACT_TAG_BASE and etype >= 0:
                code = -at - EXACT_TAG_BASE
                if code // VARIANTS_PER_TYPE == etype and code % VARIANTS_PER_TYPE == evar:
                    break
        else:
            return -1
        if tag == MATCH_SOME or tag == MATCH_OK or tag == MATCH_ERR or etype >= 0:
            vclear(v)
            from_py(v, payload)
        return self.arms[2 * (start + k) + 1]

    cdef int _equal(self, Val* a, Val* b) except -1:
        """Structural equality; comparing two heap values (possibly large) also checks the
        wall clock and cancellation."""
        cdef bint c = vals_equal(a, b)
        if a.tag == T_OBJ and b.tag == T_OBJ and (self.max_wall_ms_obj is not None
                                                   or self.cancel_event is not None):
            err = self._wall_check()
            if err is not None:
                raise err
        return c

    cdef int _list_op(self, int op) except -1:
        """ListLen / ListGet with a C fast path for lists (tuples), else the builtin."""
        cdef Val* s = self.stack
        cdef Val* a
        cdef Val* b
        cdef Val tmp
        cdef int64_t n
        if op == OP_LISTLEN:
            if self.sp <= 0:
                raise verr.stack_underflow()
            a = &s[self.sp - 1]
            if a.tag == T_OBJ and type(<object>a.o) is tuple:
                n = PyTuple_GET_SIZE(<object>a.o)
                vclear(a)
                a.tag = T_INT
                a.i = n
                return 0
            return self._cold(OP_LISTLEN)
        if self.sp < 2:
            raise verr.stack_underflow()
        a = &s[self.sp - 2]
        b = &s[self.sp - 1]
        if b.tag == T_INT and a.tag == T_OBJ and type(<object>a.o) is tuple:
            n = PyTuple_GET_SIZE(<object>a.o)
            if b.i < 0 or b.i >= n:
                raise verr.index_out_of_bounds(b.i, n)
            tmp.tag = T_UNIT
            from_py(&tmp, <object>PyTuple_GET_ITEM(<object>a.o, b.i))
            vclear(a)
            a[0] = tmp
            self.sp -= 1
            return 0
        return self._cold(OP_LISTGET)

    cdef int64_t _builder_items_size(self, object o):
        """What _memory_walk adds for the items of builder tuple `o`, or -1 (not a builder,
        or an item whose size depends on what else the walk saw)."""
        cdef int k
        cdef PyObject* p = <PyObject*>o
        for k in range(BLD_SLOTS):
            if self.bld[k] == p:
                return self.bld_sub[k]
        return -1

    cdef int _push_into(self, Val* dst) except -1:
        """`x = ListPush(x, v)` / `x = ListAppend(x, v)`, then StoreLocal, in amortised O(1).

        The op is followed by StoreLocal into `dst`, which overwrites the local anyway. When
        the list operand is a tuple held only by that local and this operand (plus this
        machine's builder slot), nothing else can ever observe it, so the local is cleared
        early and the element written into spare capacity (or the list moved into a new
        builder with doubled capacity). Returns 0, touching nothing, when any condition
        fails or the result would differ in any way (length limit, a memory walk or trace
        charge landing before the StoreLocal): the caller then runs the ordinary copy."""
        cdef Val* s = self.stack
        cdef PyObject* t
        cdef PyObject* nt
        cdef PyObject* v
        cdef PyObject* old
        cdef Py_ssize_t n, k, cap
        cdef int slot = -1
        cdef int64_t charge, ghost = 0, item, sub, sz
        cdef bint walk
        if self.sp < 2:
            return 0
        if s[self.sp - 2].tag != T_OBJ or dst.tag != T_OBJ or dst.o != s[self.sp - 2].o:
            return 0
        t = dst.o
        if not PyTuple_CheckExact_raw(t):
            return 0
        n = Py_SIZE_raw(t)
        if n + 1 > MAX_COLLECTION_LEN:
            return 0
        for k in range(BLD_SLOTS):
            if self.bld[k] == t:
                slot = <int>k
        if Py_REFCNT_raw(t) != (3 if slot >= 0 else 2):
            return 0
        charge = 56 + 8 * (n + 1)
        walk = self.alloc_bytes + charge >= self.next_walk
        if (self.tracing and self.trace_total < self.trace_keep
                and self.alloc_bytes + charge + TRACE_ENTRY_BYTES >= self.next_walk):
            return 0        # a walk at the StoreLocal's trace line would miss the old list
        if walk:
            # the copying path walks with the old list still in the local: count it as a
            # ghost, which needs its items' size to be independent of the rest of the walk
            if slot < 0 or self.bld_sub[slot] < 0:
                return 0
            ghost = 56 + 8 * n + self.bld_sub[slot]
        # the local's reference goes now (its StoreLocal is the next op)
        dst.tag = T_UNIT
        _decref(t)
        v = take_owned(&s[self.sp - 1])
        self.sp -= 1
        item = 32 if PyLong_CheckExact_raw(v) else cf_size(<object>v, 0)
        if slot >= 0 and n < self.bld_cap[slot]:
            PyTuple_SET_ITEM_raw(t, n, v)
            Py_SET_SIZE_raw(t, n + 1)
            if self.bld_sub[slot] >= 0:
                self.bld_sub[slot] = -1 if item < 0 else self.bld_sub[slot] + item
        else:
            cap = 2 * (n + 1)
            if cap < 16:
                cap = 16
            try:
                nt = PyTuple_New_raw(cap)
            except BaseException:
                _decref(v)
                raise
            if slot >= 0:
                sub = self.bld_sub[slot]
            else:
                sub = 0
            for k in range(n):
                _incref(PyTuple_GET_ITEM_raw(t, k))
                PyTuple_SET_ITEM_raw(nt, k, PyTuple_GET_ITEM_raw(t, k))
                if slot < 0 and sub >= 0:
                    sz = cf_size(<object>PyTuple_GET_ITEM_raw(t, k), 0)
                    sub = -1 if sz < 0 else sub + sz
            sub = -1 if (sub < 0 or item < 0) else sub + item
            PyTuple_SET_ITEM_raw(nt, n, v)
            Py_SET_SIZE_raw(nt, n + 1)
            if slot < 0:
                slot = self.bld_next
                self.bld_next = (self.bld_next + 1) % BLD_SLOTS
            old = self.bld[slot]
            self.bld[slot] = nt
            self.bld_cap[slot] = cap
            self.bld_sub[slot] = sub
            _incref(nt)
            s[self.sp - 1].o = nt          # the operand's reference moves to the new tuple
            _decref(t)
            if old != NULL:
                _decref(old)
        if walk:
            self.ghost = ghost
            try:
                self._charge(charge)
            finally:
                self.ghost = 0
        else:
            self.alloc_bytes += charge
        if self.max_wall_ms_obj is not None or self.cancel_event is not None:
            err = self._wall_check()
            if err is not None:
                raise err
        return 1

    cdef int _cold(self, int tag) except -1:
        """A builtin on Python values: pop its operands, push its result."""
        cdef int n, k
        cdef Val* s = self.stack
        n, fn = COLD_OPS[tag]
        if self.sp < n:
            raise verr.stack_underflow()
        args = [to_py(&s[self.sp - n + k]) for k in range(n)]
        if tag in WORK_INPUTS:
            self._spend(sum([work_size(a) for a in args]))
        for k in range(n):
            vclear(&s[self.sp - n + k])
        self.sp -= n
        res = fn(*args)
        args = None
        from_py(&s[self.sp], res)
        self.sp += 1
        if tag in WORK_RESULTS:
            self._spend(work_size(res))
        self._charge(approx_size(res))
        if self.max_wall_ms_obj is not None or self.cancel_event is not None:
            # builtins can be slow (large strings and lists): check limits after each one
            err = self._wall_check()
            if err is not None:
                raise err
        return 0

    cdef int64_t _slow_op(self, int op, int64_t* ins, int func) except -1:
        """Rare ops (actors, contracts, capabilities, UI, globals, failures)."""
        cdef Val* s = self.stack
        cdef Val tmp
        cdef int64_t k, n
        cdef Frame* fr
        if op == OP_FAIL:
            if ins[2] == 1:
                if self.sp <= 0:
                    raise verr.stack_underflow()
                self.sp -= 1
                vclear(&s[self.sp])
            raise self.fail_msgs[ins[1]]
        if op == OP_EMITUI:
            if self.sp <= 0:
                raise verr.stack_underflow()
            self.sp -= 1
            tree = to_py(&s[self.sp])
            vclear(&s[self.sp])
            log = getattr(self._gw(), "log", None)
            if log is not None:
                log.ui_emit(tree)
            self.ui_output.append(tree)
            self._charge(EVENT_BYTES)
            return 0
        if op == OP_ASSERT:
            if self.sp <= 0:
                raise verr.stack_underflow()
            self.sp -= 1
            passed = truthy(&s[self.sp])
            vclear(&s[self.sp])
            kind = "requires" if ins[2] == 0 else "ensures"
            self._contract_log(self.fn_names[func], kind, ins[3], passed)
            self._charge(EVENT_BYTES)
            if not passed:
                if ins[1] < self.nconsts:
                    message = display(to_py(&self.consts[ins[1]]))
                else:
                    message = "contract violation"
                fr = &self.frames[self.nframes - 1]
                raise verr.contract_violation(message, self._counterexample(func, fr.locals_base))
            return 0
        if op == OP_GUARDSEAL:
            if self.sp < 2:
                raise verr.stack_underflow()
            self.sp -= 1
            label = to_py(&s[self.sp])
            vclear(&s[self.sp])
            self.sp -= 1
            passed = truthy(&s[self.sp])
            vclear(&s[self.sp])
            label_text = label if type(label) is str else display(label)
            self._contract_log(label_text, "output", 0, passed)
            self._charge(EVENT_BYTES)
            if not passed:
                raise verr.contract_violation(f"output guard `{label_text}` failed", [])
            return 0
        if op == OP_CAPCALL:
            from boruna.core.capabilities import by_id
            cap = by_id(ins[1])
            if cap is None:
                raise verr.unknown_capability(ins[1])
            gw = self._gw()
            declared = self.fn_caps[func]
            if cap.id not in declared:
                raise verr.capability_denied(cap.wire_name)
            n = ins[2]
            if self.sp < n:
                raise verr.stack_underflow()
            args = [to_py(&s[self.sp - n + k]) for k in range(n)]
            for k in range(n):
                vclear(&s[self.sp - n + k])
            self.sp -= n
            res = normalize_value(gw.call(declared, cap.id, args))
            if self.sp >= C_MAX_STACK:
                raise verr.stack_overflow(MAX_STACK)
            from_py(&s[self.sp], res)
            self.sp += 1
            self._charge(approx_size(res) + 2 * EVENT_BYTES)
            return 0
        if op == OP_SPAWNACTOR:
            if self.sp >= C_MAX_STACK:
                raise verr.stack_overflow(MAX_STACK)
            aid = ActorId(self.next_spawn_id)
            self.next_spawn_id += 1
            self.spawn_requests.append(ins[1])
            self._charge(64)
            from_py(&s[self.sp], aid)
            self.sp += 1
            return 0
        if op == OP_SENDMSG:
            if self.sp < 2:
                raise verr.stack_underflow()
            msg = to_py(&s[self.sp - 1])
            target = to_py(&s[self.sp - 2])
            vclear(&s[self.sp - 1])
            vclear(&s[self.sp - 2])
            self.sp -= 2
            if type(target) is not ActorId:
                raise verr.type_error("ActorId", type_name(target))
            self.outgoing.append((target.id, msg))
            self._charge(64)
            return 0
        if op == OP_RECEIVEMSG:
            if self.mailbox:
                msg = self.mailbox.popleft()
            elif self.in_actor:
                return 1
            else:
                msg = None
            if self.sp >= C_MAX_STACK:
                raise verr.stack_overflow(MAX_STACK)
            from_py(&s[self.sp], msg)
            self.sp += 1
            return 0
        if op == OP_LOADGLOBAL:
            if self.sp >= C_MAX_STACK:
                raise verr.stack_overflow(MAX_STACK)
            vcopy(&s[self.sp], &self.globals_[ins[1]])
            self.sp += 1
            return 0
        if op == OP_STOREGLOBAL:
            if self.sp <= 0:
                raise verr.stack_underflow()
            self.sp -= 1
            vclear(&self.globals_[ins[1]])
            self.globals_[ins[1]] = s[self.sp]
            return 0
        if op == OP_GETFIELDNAMED:
            if self.sp <= 0:
                raise verr.stack_underflow()
            rec = to_py(&s[self.sp - 1])
            if type(rec) is not Record:
                raise verr.type_error("Record", type_name(rec))
            name = self.named_fields[ins[1]]
            types = self.module.types
            pos = -1
            if 0 <= rec.type_id < len(types) and types[rec.type_id].is_record:
                names = types[rec.type_id].member_names()
                if name in names:
                    pos = names.index(name)
            if pos < 0 or pos >= len(rec.fields):
                raise verr.type_error("valid field index", "out of bounds")
            tmp.tag = T_UNIT
            from_py(&tmp, rec.fields[pos])
            vclear(&s[self.sp - 1])
            s[self.sp - 1] = tmp
            return 0
        raise verr.bytecode_error(f"unknown opcode {op}")


cdef inline int64_t _cdiv(int64_t a, int64_t b):
    return a // b

cdef inline int64_t _cmod(int64_t a, int64_t b):
    return a % b

def _debug(ins):
    try:
        return debug_form(ins)
    except Exception:
        return repr(ins)
