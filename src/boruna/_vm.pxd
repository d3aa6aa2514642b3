# cython: language_level=3
"""Declarations of the VM extension (boruna/_vm.pyx): the C API it uses, its tagged
value and frame structs, and the `Machine` class's C attributes. The code is in
_vm.pyx and the vm/*.pxi files it includes."""

from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy
from libc.stdint cimport int64_t
from cpython.ref cimport PyObject
from cpython.unicode cimport PyUnicode_Concat

cdef extern from "Python.h":
    void _incref "Py_INCREF"(PyObject*)
    void _decref "Py_DECREF"(PyObject*)
    Py_ssize_t PyUnicode_GET_LENGTH(object)
    int PyUnicode_IS_ASCII(object)
    void* PyUnicode_1BYTE_DATA_raw "PyUnicode_1BYTE_DATA"(object)
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
    long long PyLong_AsLongLong(object) except? -1
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
    /* the two-digit decimal texts of 0 .. 99, in order */
    static const char bor_digit_pairs[201] =
        "0001020304050607080910111213141516171819202122232425262728293031323334353637383940"
        "4142434445464748495051525354555657585960616263646566676869707172737475767778798081"
        "828384858687888990919293949596979899";
    /* decimal text of an i64 as a compact ASCII str (new reference); the digits are written
       two at a time from the end */
    static PyObject* bor_int_to_str(int64_t x) {
        char buf[24];
        int pos = 24, k;
        uint64_t u = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
        uint64_t q;
        while (u >= 100) {
            q = u / 100;
            k = (int)(u - q * 100) * 2;
            buf[--pos] = bor_digit_pairs[k + 1];
            buf[--pos] = bor_digit_pairs[k];
            u = q;
        }
        if (u >= 10) {
            k = (int)u * 2;
            buf[--pos] = bor_digit_pairs[k + 1];
            buf[--pos] = bor_digit_pairs[k];
        } else {
            buf[--pos] = (char)('0' + (int)u);
        }
        if (x < 0) buf[--pos] = '-';
        PyObject* s = PyUnicode_New(24 - pos, 127);
        if (s == NULL) return NULL;
        memcpy(PyUnicode_1BYTE_DATA(s), buf + pos, (size_t)(24 - pos));
        return s;
    }
    /* 1 and *r = the value when int `o` is compact (one digit), else 0 */
    static inline int bor_small_long(PyObject* o, long long* r) {
    #if PY_VERSION_HEX >= 0x030C0000
        if (!PyUnstable_Long_IsCompact((PyLongObject*)o)) return 0;
        *r = (long long)PyUnstable_Long_CompactValue((PyLongObject*)o);
        return 1;
    #else
        Py_ssize_t n = Py_SIZE(o);
        if (n < -1 || n > 1) return 0;
        *r = n == 0 ? 0 : (long long)n * (long long)((PyLongObject*)o)->ob_digit[0];
        return 1;
    #endif
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
    /* The other value classes (Enum, Some/Ok/Err, FnRef) are read and built the same way:
       the offset of a __slots__ member from its descriptor (-1: not a plain slot). */
    static Py_ssize_t bor_slot_offset(PyObject* d) {
        if (Py_TYPE(d) != &PyMemberDescr_Type) return -1;
        Py_ssize_t off = ((PyMemberDescrObject*)d)->d_member->offset;
        return off > 0 ? off : -1;
    }
    /* a slot's value, borrowed (NULL when unset) */
    static inline PyObject* bor_slot(PyObject* o, Py_ssize_t off) {
        return *(PyObject**)((char*)o + off);
    }
    /* a new instance of `type` (slots unset) */
    static inline PyObject* bor_alloc(PyObject* type) {
        return ((PyTypeObject*)type)->tp_alloc((PyTypeObject*)type, 0);
    }
    /* sets an unset slot, stealing v */
    static inline void bor_set_slot(PyObject* o, Py_ssize_t off, PyObject* v) {
        *(PyObject**)((char*)o + off) = v;
    }
    static inline PyObject* bor_rec_fields(PyObject* o) {
        return *(PyObject**)((char*)o + bor_rec_fields_off);
    }
    /* the fields of record `o` when they are a List (an exact tuple), else NULL: a host can
       leave the slot unset (Record.__new__) or set it to anything after construction, and
       the readers index it as a tuple */
    static inline PyObject* bor_rec_tuple(PyObject* o) {
        PyObject* f = *(PyObject**)((char*)o + bor_rec_fields_off);
        return f != NULL && PyTuple_CheckExact(f) ? f : NULL;
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
    PyObject* bor_rec_tuple(PyObject*)
    bint bor_small_long(PyObject*, long long*)
    Py_ssize_t bor_slot_offset(object)
    PyObject* bor_slot(PyObject*, Py_ssize_t)
    object bor_alloc(PyObject*)
    void bor_set_slot(PyObject*, Py_ssize_t, PyObject*)
    PyObject* Py_TYPE_raw "(PyObject*)Py_TYPE"(PyObject*)
    PyObject* bor_new_record(PyObject*, PyObject*) except NULL
    PyObject* bor_int_to_str(int64_t) except NULL
    int bor_add(int64_t a, int64_t b, int64_t *r)
    int bor_sub(int64_t a, int64_t b, int64_t *r)
    int bor_mul(int64_t a, int64_t b, int64_t *r)


cdef enum:
    BLD_SLOTS = 16    # list builders a machine keeps (_bld_append)


# the tagged value, the frame and the value helpers are C (vm/core/values.h), shared by the
# Cython code and the loop's C core (vm/core/dispatch.h)
cdef extern from "vm/core/values.h":
    enum:
        W "BOR_W"         # words per instruction: op, a, b, c
        VAL_CHARGE "BOR_VAL_CHARGE"   # bytes charged per local slot (memory accounting)
        T_UNIT "BOR_T_UNIT"
        T_BOOL "BOR_T_BOOL"
        T_INT "BOR_T_INT"
        T_FLOAT "BOR_T_FLOAT"
        T_OBJ "BOR_T_OBJ"
        T_VIEW "BOR_T_VIEW"   # a List view (vm/core/views.h): only ever in a Val slot
        T_VREC "BOR_T_VREC"   # a Record some of whose fields are List views (idem)
    ctypedef struct Val:
        int tag
        int64_t i
        double f
        PyObject* o
    ctypedef struct Frame:
        int func
        int64_t ip
        int stack_base
        int64_t locals_base
        int64_t* code
    void bor_values_init(PyObject*, PyObject*, PyObject*, PyObject*, Py_ssize_t)
    void vclear "bor_vclear"(Val*) noexcept
    void vcopy "bor_vcopy"(Val*, Val*) noexcept
    void bor_load(unsigned char*, int64_t*, Val*, Val*, int64_t*) noexcept
    bint truthy "bor_truthy"(Val*) noexcept
    int bor_from_py(Val*, PyObject*) noexcept
    PyObject* take_owned "bor_take_owned"(Val*) except NULL
    bint bor_ensure_locals(Val**, int64_t*, int64_t, int64_t, int64_t, int64_t*) noexcept


# List views (vm/core/views.h, included by values.h; vm/lists.pxi `_view_op`)
cdef extern from "vm/core/views.h":
    int bor_view_ready() except -1
    bint bor_is_view(PyObject*) noexcept
    PyObject* BOR_VIEW_BASE(PyObject*) noexcept      # (borrowed)
    Py_ssize_t BOR_VIEW_OFF(PyObject*) noexcept
    PyObject* bor_view_new(PyObject*, Py_ssize_t) except NULL     # (steals the List)
    Py_ssize_t bor_view_len(PyObject*) noexcept
    PyObject* bor_view_item(PyObject*, Py_ssize_t) noexcept
    PyObject* bor_view_tuple(PyObject*) except NULL
    int bor_list_tail(Val*, Py_ssize_t) except -1
    int bor_vrec_normalize(PyObject*) except -1


# the String builders (vm/core/strings.h, vm/string_builders.pxi)
cdef extern from "vm/core/strings.h":
    enum:
        SBLD_SLOTS "BOR_SBLD_SLOTS"
        SBLD_MIN "BOR_SBLD_MIN"
    ctypedef struct BorStrBuilders:
        PyObject* s[4]
        Py_ssize_t cap[4]
        int64_t use[4]
        int64_t clock
        int on
    bint bor_str_writable(PyObject*) noexcept
    bint bor_str_ascii(PyObject*) noexcept
    PyObject* bor_str_with_room(PyObject*, PyObject*, Py_ssize_t) except NULL
    void bor_sbld_release(BorStrBuilders*, int) noexcept


cdef class Machine:
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
    cdef unsigned char* movef    # per instruction: 1 = a LoadLocal that moves (vm/reuse.pxi)
    cdef int64_t* fn_start
    cdef int64_t* fn_len
    cdef int64_t* fn_nlocals
    cdef int64_t* fn_arity
    cdef int64_t* fn_tables      # per function: first table index in tbl_start
    cdef int64_t* fn_ntables
    cdef int64_t* tbl_start      # per table: first arm index in arms
    cdef int64_t* tbl_len
    cdef int64_t* arms           # (tag, target) pairs
    cdef int64_t* tbl_fast       # per table: its dispatch by kind of value (bor_match_prep)
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
    cdef int bld_next                   # (snapshots) the slot the next new builder takes
    cdef int64_t bld_use[BLD_SLOTS]     # when each builder was last grown (least recently
    cdef int64_t bld_clock              # used goes first: _bld_victim)
    cdef int bld_hint                   # the slot _bld_slot found last (looked at first)
    cdef bint push_mutates              # PUSH_IN_PLACE when the module was loaded
    cdef bint views                     # LIST_VIEWS when the module was loaded
    cdef BorStrBuilders sb              # String builders (vm/core/strings.h)
    cdef int64_t push_pend              # a declined _push_into's charge for _cold, or -1
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
    # vm/snapshot.pxi (issue 24): a delegated capability call [cap id, args, answered, answer]
    cdef object pending
    # vm/snapshot.pxi: a restored run's stand-ins for the holders outside the machine that the
    # snapshotted run's Lists, Records and Maps had (so reuse decides as it would have there)
    cdef list held
