/* Part of the VM extension (boruna/_vm.pyx), declared in _vm.pxd: the tagged value and the
   frame the interpreter works on, and the small value helpers both the Cython code and the
   C core (dispatch.h) use. Written once here; Cython declares them `cdef extern`.

   Val: Int/Float/Bool/Unit unboxed, any other value a Python object (`o`, one strong
   reference owned by the slot when tag >= BOR_T_OBJ: BOR_T_OBJ; BOR_T_VIEW, a List view;
   BOR_T_VREC, a Record some of whose fields are List views; vm/core/views.h). */
#ifndef BORUNA_VM_VALUES_H
#define BORUNA_VM_VALUES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { BOR_T_UNIT = 0, BOR_T_BOOL = 1, BOR_T_INT = 2, BOR_T_FLOAT = 3, BOR_T_OBJ = 4,
       BOR_T_VIEW = 5, BOR_T_VREC = 6 };

/* words per instruction in the translated code: op, a, b, c */
#define BOR_W 4

/* the payload is a union (16 bytes a value: a copy is two words, a cache line holds four
   values); every reader looks at the field its tag names */
typedef struct {
    int tag;
    union {
        int64_t i;
        double f;
        PyObject* o;
    };
} Val;

#include "views.h"

/* the bytes the memory accounting charges per local slot (vm/memory.pxi, the locals'
   growth): the size a Val had before its payload became a union, so that the accounting,
   and the limits programs meet, do not depend on the layout */
#define BOR_VAL_CHARGE 32

typedef struct {
    int func;
    int stack_base;
    int64_t ip;
    int64_t locals_base;
    /* the function's first instruction word (&code[fn_start[func] * W]): set with func by
       whoever sets func, so that a return finds its caller's code without reading fn_start */
    int64_t* code;
} Frame;

/* the value classes the helpers look at (set once by bor_values_init from
   boruna.core.values) */
static PyTypeObject* bor_map_type = NULL;      /* MapValue */
static PyTypeObject* bor_none_type = NULL;     /* OptNone */
static PyTypeObject* bor_err_type = NULL;      /* Err */
static PyTypeObject* bor_fnref_type = NULL;    /* FnRef */
static Py_ssize_t bor_fnref_idx_off = -1;      /* FnRef.index's slot */

static void bor_values_init(PyObject* map_t, PyObject* none_t, PyObject* err_t,
                            PyObject* fnref_t, Py_ssize_t fnref_idx_off) {
    bor_map_type = (PyTypeObject*)map_t;
    bor_none_type = (PyTypeObject*)none_t;
    bor_err_type = (PyTypeObject*)err_t;
    bor_fnref_type = (PyTypeObject*)fnref_t;
    bor_fnref_idx_off = fnref_idx_off;
}

/* A value moves field by field: its tag (4 bytes), then its payload (8 bytes), never as
   one 16-byte move. The ops write a slot's fields one at a time (an Add writes the payload
   of a slot whose tag is already Int, a Mul the payload and then the tag), and a 16-byte
   load of bytes that sit in more than one pending store cannot be forwarded from the store
   buffer: it waits until the stores reach the cache. A Call whose argument was just
   computed, a Ret of a sum and a StoreLocal after an op all did that with 16-byte copies
   (fib27 0.77, closrec 0.75, histo 0.85 of the time; docs/performance.md, "Issue 25,
   thirteenth round"). Every copy of a Val in the C core goes through here. */
#define BOR_VMOVE(d, s) do { Val* bor_vd_ = (d); const Val* bor_vs_ = (s); \
        bor_vd_->tag = bor_vs_->tag; bor_vd_->i = bor_vs_->i; } while (0)

static inline void bor_vclear(Val* v) {
    if (v->tag >= BOR_T_OBJ) Py_DECREF(v->o);
    v->tag = BOR_T_UNIT;
}

static inline void bor_vcopy(Val* dst, Val* src) {
    BOR_VMOVE(dst, src);
    if (src->tag >= BOR_T_OBJ) Py_INCREF(src->o);
}

/* LoadLocal of the instruction at `ins` (a superinstruction's first op run alone): a move
   when it is the slot's last read (movef, vm/reuse.pxi), else a copy */
static inline void bor_load(const unsigned char* movef, const int64_t* code, Val* dst, Val* src,
                            const int64_t* ins) {
    if (movef[(size_t)(ins - code) / BOR_W]) {
        BOR_VMOVE(dst, src);
        src->tag = BOR_T_UNIT;
    } else {
        bor_vcopy(dst, src);
    }
}

/* the truth of a heap value: empty String / List / Map, None and Err are false */
static int bor_obj_truthy(PyObject* o) {
    PyTypeObject* t = Py_TYPE(o);
    Py_ssize_t n;
    if (t == &PyUnicode_Type) return PyUnicode_GET_LENGTH(o) != 0;
    if (t == &PyTuple_Type) return PyTuple_GET_SIZE(o) != 0;
    if (t == bor_map_type) {
        n = PyObject_Size(o);
        if (n < 0) { PyErr_WriteUnraisable(o); return 0; }
        return n != 0;
    }
    if (t == bor_none_type || t == bor_err_type) return 0;
    return 1;
}

static inline int bor_truthy(Val* v) {
    switch (v->tag) {
    case BOR_T_BOOL: case BOR_T_INT: return v->i != 0;
    case BOR_T_FLOAT: return v->f != 0.0;
    case BOR_T_UNIT: return 0;
    case BOR_T_VIEW: return 1;      /* (a view is never empty) */
    default: return bor_obj_truthy(v->o);
    }
}

/* Store Python value `p` (borrowed) into the empty slot `d`: 0, or 1 when it is an int
   outside i64 (the caller raises the conversion error) */
static inline int bor_from_py(Val* d, PyObject* p) {
    long long v;
    int overflow = 0;
    if (PyLong_CheckExact(p)) {
        if (bor_small_long(p, &v)) {
            d->tag = BOR_T_INT;
            d->i = v;
            return 0;
        }
        v = PyLong_AsLongLongAndOverflow(p, &overflow);
        if (overflow != 0) return 1;
        d->tag = BOR_T_INT;
        d->i = v;
    } else if (p == Py_True || p == Py_False) {
        d->tag = BOR_T_BOOL;
        d->i = p == Py_True;
    } else if (PyFloat_CheckExact(p)) {
        d->tag = BOR_T_FLOAT;
        d->f = PyFloat_AS_DOUBLE(p);
    } else if (p == Py_None) {
        d->tag = BOR_T_UNIT;
        d->i = 0;                   /* (the whole value written: BOR_VMOVE copies the payload) */
    } else {
        /* (a view is only ever read from a record's fields: vm/core/views.h) */
        d->tag = Py_TYPE(p) == &BorView_Type ? BOR_T_VIEW : BOR_T_OBJ;
        d->o = p;
        Py_INCREF(p);
    }
    return 0;
}

/* the order of two exact str by code points (what str's < > compare): -1, 0 or 1;
   one-byte strings compared with memcmp, others through PyUnicode_Compare (which
   cannot fail on two str) */
static inline int bor_str_order(PyObject* a, PyObject* b) {
    Py_ssize_t la, lb;
    int c;
    const unsigned char *pa, *pb;
    Py_ssize_t m;
    if (a == b) return 0;
    if (PyUnicode_IS_COMPACT_ASCII(a) && PyUnicode_IS_COMPACT_ASCII(b)) {
        /* two compact ASCII strings (the common case): their bytes follow the header */
        pa = (const unsigned char*)((PyASCIIObject*)a + 1);
        pb = (const unsigned char*)((PyASCIIObject*)b + 1);
        la = ((PyASCIIObject*)a)->length;
        lb = ((PyASCIIObject*)b)->length;
        goto bytes;
    }
    if (PyUnicode_KIND(a) == PyUnicode_1BYTE_KIND && PyUnicode_KIND(b) == PyUnicode_1BYTE_KIND) {
        pa = PyUnicode_1BYTE_DATA(a);
        pb = PyUnicode_1BYTE_DATA(b);
        la = PyUnicode_GET_LENGTH(a);
        lb = PyUnicode_GET_LENGTH(b);
    bytes:
        m = la < lb ? la : lb;
        /* the first characters inline (one-character strings: no memcmp call) */
        if (m > 0 && pa[0] != pb[0]) return pa[0] < pb[0] ? -1 : 1;
        if (m > 1) {
            c = memcmp(pa + 1, pb + 1, (size_t)(m - 1));
            if (c != 0) return c < 0 ? -1 : 1;
        }
        return la < lb ? -1 : (la > lb ? 1 : 0);
    }
    c = PyUnicode_Compare(a, b);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

/* whether an exact int fits in an i64 (what from_py accepts) */
static inline int bor_long_fits(PyObject* o) {
    int overflow = 0;
#if PY_VERSION_HEX < 0x030C0000
    if (Py_SIZE(o) >= -1 && Py_SIZE(o) <= 1) return 1;
#endif
    PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) return 0;
    if (PyErr_Occurred()) { PyErr_Clear(); return 0; }
    return 1;
}
/* an exact int's value, when it fits in an i64 */
static inline int bor_long_i64(PyObject* o, int64_t* r) {
    int overflow = 0;
    long long v;
#if PY_VERSION_HEX < 0x030C0000
    Py_ssize_t n = Py_SIZE(o);
    if (n >= -1 && n <= 1) { *r = (int64_t)n * (int64_t)((PyLongObject*)o)->ob_digit[0]; return 1; }
#endif
    v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) return 0;
    if (v == -1 && PyErr_Occurred()) { PyErr_Clear(); return 0; }
    *r = (int64_t)v;
    return 1;
}

/* Ints boxed when a value leaves a Val (into a list, record, enum, map or a result):
   0 <= v < BOR_INT_BOXES share one int object each, made on first use and kept for the
   process (ints have no identity in the language; CPython itself shares -5..256), so
   pushing the Ints a program computes does not allocate an object per element. */
#define BOR_INT_BOXES 65536
static PyObject* bor_int_boxes[BOR_INT_BOXES];
static inline PyObject* bor_box_int(int64_t v) {
    PyObject* o;
    if ((uint64_t)v >= (uint64_t)BOR_INT_BOXES) return PyLong_FromLongLong((long long)v);
    o = bor_int_boxes[v];
    if (o == NULL) {
        o = PyLong_FromLongLong((long long)v);
        if (o == NULL) return NULL;
        bor_int_boxes[v] = o;
    }
    Py_INCREF(o);
    return o;
}

/* Move `v` out as a new reference (v becomes Unit; a view, its tuple); NULL with an
   exception set when a number cannot be boxed or a view's copy fails */
static inline PyObject* bor_take_owned(Val* v) {
    PyObject* r;
    switch (v->tag) {
    case BOR_T_OBJ: r = v->o; break;
    case BOR_T_VIEW:                /* a view leaves a slot as a tuple */
        r = bor_view_tuple(v->o);
        Py_DECREF(v->o);
        break;
    case BOR_T_VREC:                /* a record, its views' Lists in their place */
        r = v->o;
        if (bor_vrec_normalize(r) < 0) { Py_DECREF(r); r = NULL; }
        break;
    case BOR_T_INT: r = bor_box_int(v->i); break;
    case BOR_T_FLOAT: r = PyFloat_FromDouble(v->f); break;
    case BOR_T_BOOL: r = v->i ? Py_True : Py_False; Py_INCREF(r); break;
    default: r = Py_None; Py_INCREF(r); break;
    }
    v->tag = BOR_T_UNIT;
    return r;
}

/* room for `n` more local slots above `lp` (doubling the array, up to `max_slots`; the growth
   is charged to *alloc_bytes): 0 when refused */
static int bor_ensure_locals(Val** locals, int64_t* cap, int64_t lp, int64_t n,
                             int64_t max_slots, int64_t* alloc_bytes) {
    int64_t c;
    Val* p;
    if (lp + n <= *cap) return 1;
    if (lp + n > max_slots) return 0;
    c = *cap;
    while (c < lp + n) c *= 2;
    p = (Val*)realloc(*locals, sizeof(Val) * (size_t)c);
    if (p == NULL) return 0;
    *locals = p;
    *cap = c;
    *alloc_bytes += (int64_t)BOR_VAL_CHARGE * c / 2;
    return 1;
}

#endif
