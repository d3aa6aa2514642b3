/* Part of the VM extension (boruna/_vm.pyx): the String builders, declared in _vm.pxd, used
   by the Concat op, memory walks and snapshots (vm/string_builders.pxi). A String builder is
   an ASCII `str` this machine allocated with room to spare: its visible length (PyASCIIObject.length, NUL after it) is the String's, its
   allocation `cap` characters, so `s = s ++ t` on a builder nothing else holds writes `t` into
   the room instead of copying `s` (docs/compatibility.md, "Strings nothing else holds").

   Only compact ASCII strings qualify: their text is their UTF-8 (no cached UTF-8 copy to keep
   in step), one byte a character (the room is counted in bytes), and they carry nothing but
   their length and their cached hash, which an append resets. */
#ifndef BORUNA_VM_STRINGS_H
#define BORUNA_VM_STRINGS_H

#include <string.h>

/* An exact str that is compact ASCII, not interned, and (before 3.12) has no cached wchar
   copy: a text this machine may write into when nothing else holds it. */
static inline int bor_str_writable(PyObject* s) {
    if (!PyUnicode_CheckExact(s) || !PyUnicode_IS_COMPACT_ASCII(s) || PyUnicode_CHECK_INTERNED(s))
        return 0;
#if PY_VERSION_HEX < 0x030C0000
    if (((PyASCIIObject*)s)->wstr != NULL) return 0;
#endif
    return 1;
}

/* An exact str whose characters are all ASCII (one byte each). */
static inline int bor_str_ascii(PyObject* s) {
    if (!PyUnicode_CheckExact(s)) return 0;
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(s) < 0) { PyErr_Clear(); return 0; }
#endif
    return PyUnicode_IS_ASCII(s);
}

/* A new ASCII str holding a then b, with room for `cap` characters (cap >= len a + len b):
   a new reference, or NULL with an exception set. */
static inline PyObject* bor_str_with_room(PyObject* a, PyObject* b, Py_ssize_t cap) {
    Py_ssize_t la = PyUnicode_GET_LENGTH(a), lb = PyUnicode_GET_LENGTH(b);
    PyObject* s = PyUnicode_New(cap, 127);
    char* d;
    if (s == NULL) return NULL;
    d = (char*)PyUnicode_DATA(s);
    memcpy(d, PyUnicode_DATA(a), (size_t)la);
    memcpy(d + la, PyUnicode_DATA(b), (size_t)lb);
    d[la + lb] = 0;
    ((PyASCIIObject*)s)->length = la + lb;
    return s;
}

/* Append the ASCII str b to the builder s, which has room for it. */
static inline void bor_str_append(PyObject* s, PyObject* b) {
    Py_ssize_t la = PyUnicode_GET_LENGTH(s), lb = PyUnicode_GET_LENGTH(b);
    char* d = (char*)PyUnicode_DATA(s);
    memcpy(d + la, PyUnicode_DATA(b), (size_t)lb);
    d[la + lb] = 0;
    ((PyASCIIObject*)s)->length = la + lb;
    ((PyASCIIObject*)s)->hash = -1;
}

/* Grow the writable compact ASCII str *p (bor_str_writable) that nothing but its holder
   references to n >= its length characters, its text kept: in its own allocation when the
   allocator's block has room, else moved (*p updated), as PyUnicode_Resize grows such a str;
   the cached hash reset (nothing else holds the str). 0, or -1 with an exception set (the str
   unchanged). Builds that track every object (Py_TRACE_REFS) or have no GIL resize through
   PyUnicode_Resize itself. */
static inline int bor_str_grow(PyObject** p, Py_ssize_t n) {
#if defined(Py_TRACE_REFS) || defined(Py_GIL_DISABLED)
    return PyUnicode_Resize(p, n);
#else
    PyObject* r;
    if ((size_t)n > (size_t)PY_SSIZE_T_MAX - sizeof(PyASCIIObject) - 1) {
        PyErr_NoMemory();
        return -1;
    }
    r = (PyObject*)PyObject_Realloc(*p, sizeof(PyASCIIObject) + (size_t)n + 1);
    if (r == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    ((PyASCIIObject*)r)->length = n;
    ((PyASCIIObject*)r)->hash = -1;
    ((char*)PyUnicode_DATA(r))[n] = 0;
    *p = r;
    return 0;
#endif
}

/* Concat of the non-empty compact ASCII strs in the operands a and b (their objects
   distinct), not through a builder: the text and the str state PyUnicode_Concat gives (a
   compact ASCII str of their length, no cached hash, not interned, one reference: the
   operand's), written without an intermediate object where one operand is the only holder
   of a writable str (bor_str_writable, reference count 1): that str is grown (bor_str_grow)
   and the other's characters are written after (a) or before (b) its own. Else a new str.
   0 with the result in a and b Unit (its str let go), or -1 with an exception set (a and b
   unchanged). */
static inline int bor_ascii_concat(Val* a, Val* b) {
    PyObject* s = a->o;
    PyObject* t = b->o;
    PyObject* r;
    Py_ssize_t la = PyUnicode_GET_LENGTH(s), lb = PyUnicode_GET_LENGTH(t);
    char* d;
    if (Py_REFCNT(s) == 1 && bor_str_writable(s)) {
        if (bor_str_grow(&a->o, la + lb) < 0) return -1;
        d = (char*)PyUnicode_DATA(a->o);
        memcpy(d + la, PyUnicode_DATA(t), (size_t)lb);
        Py_DECREF(t);
    } else if (Py_REFCNT(t) == 1 && bor_str_writable(t)) {
        if (bor_str_grow(&b->o, la + lb) < 0) return -1;
        d = (char*)PyUnicode_DATA(b->o);
        memmove(d + la, d, (size_t)lb);
        memcpy(d, PyUnicode_DATA(s), (size_t)la);
        a->o = b->o;
        Py_DECREF(s);
    } else {
        r = PyUnicode_New(la + lb, 127);
        if (r == NULL) return -1;
        d = (char*)PyUnicode_DATA(r);
        memcpy(d, PyUnicode_DATA(s), (size_t)la);
        memcpy(d + la, PyUnicode_DATA(t), (size_t)lb);
        a->o = r;
        Py_DECREF(s);
        Py_DECREF(t);
    }
    b->tag = BOR_T_UNIT;
    return 0;
}

/* A machine's String builders: the strs it allocated with room (one strong reference each),
   their room in characters, when each last grew; `on`: STR_IN_PLACE when the module was
   loaded. */
#define BOR_SBLD_SLOTS 4
#define BOR_SBLD_MIN 64           /* a shorter result is copied, no builder */
#define BOR_SBLD_STEP 1048576     /* the room doubles up to this many characters, then grows by it */

typedef struct {
    PyObject* s[BOR_SBLD_SLOTS];
    Py_ssize_t cap[BOR_SBLD_SLOTS];
    int64_t use[BOR_SBLD_SLOTS];
    int64_t clock;
    int on;
} BorStrBuilders;

static inline int bor_sbld_slot(BorStrBuilders* sb, PyObject* s) {
    int k;
    for (k = 0; k < BOR_SBLD_SLOTS; k++)
        if (sb->s[k] == s) return k;
    return -1;
}

/* The slot a new builder takes: the first empty one or one whose String only the slot still
   holds (dead), else the least recently grown. */
static inline int bor_sbld_victim(BorStrBuilders* sb) {
    int k, best = 0;
    for (k = 0; k < BOR_SBLD_SLOTS; k++) {
        if (sb->s[k] == NULL || Py_REFCNT(sb->s[k]) == 1) return k;
        if (sb->use[k] < sb->use[best]) best = k;
    }
    return best;
}

/* Let go of the builders whose String nothing but the slot holds (all of them: `all`). */
static inline void bor_sbld_release(BorStrBuilders* sb, int all) {
    int k;
    for (k = 0; k < BOR_SBLD_SLOTS; k++)
        if (sb->s[k] != NULL && (all || Py_REFCNT(sb->s[k]) == 1)) Py_CLEAR(sb->s[k]);
}

/* Concat of the Strings in a and b (type-checked; n the result's length, at most max_len)
   when nothing but the operand holds the ASCII String a (the caller found its builder slot k,
   or -1, and checked its reference count: 2 in a slot, else 1) and b is ASCII: 1 with the
   result in a (b untouched: the caller pops it), 2 when the work limit is met (the charge
   spent, nothing else changed), 0 when not taken (nothing changed), -1 with an exception.

   In the room of a's builder: spends b's length as work. Otherwise, for a result of
   BOR_SBLD_MIN characters or more, a new builder with room for the result plus as much again
   (at most BOR_SBLD_STEP more) takes a's place, spending the copy's work (the result's length).
   The caller charges the allocation accounting b's length either way, as for any Concat onto
   a String only the operand holds, so memory walks fall where the copying VM's do. */
static inline int bor_str_concat(BorStrBuilders* sb, int k, Val* a, Val* b, int64_t n,
                                 int64_t max_len, int64_t* work, int64_t max_work) {
    PyObject* s = a->o;
    PyObject* t = b->o;
    PyObject* nb;
    Py_ssize_t cap;
    if (!sb->on || n > max_len || !bor_str_writable(s) || !bor_str_ascii(t)) return 0;
    if (k >= 0 && n <= sb->cap[k]) {
        *work += n - PyUnicode_GET_LENGTH(s);
        if (*work > max_work) return 2;
        bor_str_append(s, t);
    } else {
        if (n < BOR_SBLD_MIN) return 0;
        *work += n;
        if (*work > max_work) return 2;
        cap = (Py_ssize_t)n + ((Py_ssize_t)n < BOR_SBLD_STEP ? (Py_ssize_t)n : BOR_SBLD_STEP);
        nb = bor_str_with_room(s, t, cap);
        if (nb == NULL) return -1;
        if (k < 0) k = bor_sbld_victim(sb);
        Py_XDECREF(sb->s[k]);
        Py_INCREF(nb);
        sb->s[k] = nb;
        sb->cap[k] = cap;
        a->o = nb;          /* the operand's reference; its old String is let go */
        Py_DECREF(s);
    }
    sb->clock += 1;
    sb->use[k] = sb->clock;
    return 1;
}

#endif
