# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# Snapshots (docs/snapshots.md): a paused Machine written to bytes and read back, exactly, and
# capability calls delegated to the caller (a pending call the machine waits on).
#
# Format (version SNAPSHOT_FORMAT, all integers little-endian):
#   MAGIC (16 bytes) | u32 format version | u32 header length | header | heap | roots | SHA-256
# - header: canonical JSON (sorted keys, ASCII): the module's SHA-256 (of its .axbc image),
#   the VM build's limits, the counters (steps, work, memory accounting, trace), the frames,
#   the shapes of the stack/locals/globals/UI/mailbox/event-log sections, the pending call.
# - heap: every String, List, Record, Map, Enum, Some/Ok/Err, FnRef and ActorId reachable
#   from the roots, once each, children before parents (post-order: no forward reference, so
#   no cycle, and reading needs no recursion however deep the nesting). Shared values are
#   written once and stay shared (identity is state: it decides memory accounting and in-place
#   updates, so a restored machine has the very same sharing and snapshots to the same bytes);
#   maps in key order (a map-only local's unsorted map is never seen in any order), a module
#   constant as a reference to it.
# - roots: the slots of the stack, locals, globals, UI trees, mailbox, outgoing messages,
#   event-log values and the pending call, in that order. A List view (vm/core/views.h) is
#   written as what it is, a view of a List from an offset (kind H_VIEW): the tuple it shows
#   would be a new List, whose sharing, and so the reuse decisions after a restore, would
#   differ from the run's. A view is only ever a stack, local or global slot, or a field of
#   a Record that is such a slot (and nothing else).
# A slot is a tag byte: Unit, False, True, Int (zig-zag varint), Float (8 bytes), a heap
# reference (varint: how many objects back from the one being written), a module constant,
# None, or an Int beyond i64 (decimal text; only a host's event-log values hold those).
#
# The Machine's state is read by `_snapshot_state` and written by `_restore_state` only (the
# two functions to adapt when the Machine's fields change).

cimport cython
from libc.stdint cimport uint64_t
from libc.string cimport memcpy

import gc as _gc
import hashlib as _hashlib
import json as _json

from boruna.core.suspension import CapabilityDelegated, SnapshotError
from boruna.core.values import ActorId as _ActorId

SNAPSHOT_MAGIC = b"BORUNA-SNAPSHOT\x00"
SNAPSHOT_FORMAT = 1
# execute_bounded's status while a delegated capability call waits for `Machine.answer`
AWAITING = 4

cdef extern from "Python.h":
    object PyUnicode_DecodeUTF8(const char*, Py_ssize_t, const char*)
    object PyBytes_FromStringAndSize(const char*, Py_ssize_t)
    char* PyBytes_AS_STRING(object)

cdef extern from *:
    """
    #include <string.h>
    static inline void bor_put_f64(char* p, double d) { memcpy(p, &d, 8); }
    static inline double bor_get_f64(const char* p) { double d; memcpy(&d, p, 8); return d; }
    /* whether `p`, an exact str of at most one character, is CPython's shared object for its
       text (the empty str; a Latin-1 character's cached str) */
    static int bor_str_shared(PyObject* p) {
        Py_UCS4 ch;
        PyObject* c;
        if (PyUnicode_GET_LENGTH(p) == 0) return 1;
        ch = PyUnicode_READ_CHAR(p, 0);
        if (ch >= 256) return 0;
        c = PyUnicode_FromOrdinal((int)ch);
        if (c == NULL) { PyErr_Clear(); return 0; }
        Py_DECREF(c);
        return c == p;
    }
    /* a new str of the one character `ch` (not the shared one) */
    static PyObject* bor_str_own_char(Py_UCS4 ch) {
        PyObject* s = PyUnicode_New(1, ch);
        if (s == NULL) return NULL;
        PyUnicode_WRITE(PyUnicode_KIND(s), PyUnicode_DATA(s), 0, ch);
        return s;
    }
    """
    void bor_put_f64(char*, double) noexcept
    double bor_get_f64(const char*) noexcept
    bint bor_str_shared(PyObject*) noexcept
    object bor_str_own_char(Py_UCS4)

# slot tags
cdef enum:
    S_UNIT = 0
    S_FALSE = 1
    S_TRUE = 2
    S_INT = 3
    S_FLOAT = 4
    S_HEAP = 5
    S_CONST = 6
    S_NONE = 7
    S_BIGINT = 8

# varints: 7 bits a byte, the high bit set on every byte but the last
cdef enum:
    VARINT_BITS = 127
    VARINT_MORE = 128

# heap object kinds
cdef enum:
    H_STR = 1
    H_LIST = 2
    H_RECORD = 3
    H_ENUM = 4
    H_SOME = 5
    H_OK = 6
    H_ERR = 7
    H_MAP = 8
    H_ACTOR = 9
    H_FNREF = 10
    H_PYLIST = 11     # a Python list (an event's raw handler result)
    H_PYDICT = 12     # a plain dict with String keys (idem)
    H_VIEW = 13       # a List view: its offset, then its List (a slot or a slot's Record's field)
    H_CHAR = 14       # a one-character String that is an object of its own, not CPython's shared one

# what a heap object read back is, for where a List view may be (`_Dec.slot`): the bits of
# `_Dec.allow` say which of these the slot being read may refer to
cdef enum:
    M_PLAIN = 0       # anything without a view
    M_VIEW = 1        # a List view
    M_FIELDS = 2      # a List holding a view: only a Record's fields
    M_VREC = 3        # a Record whose fields hold a view: only a stack/local/global slot

cdef PyObject* ACTOR_T = <PyObject*>_ActorId


def _vm_fingerprint():
    """The VM build facts a snapshot must agree with to be read by this build."""
    return {"limits": dict(COMPILED_LIMITS), "event_bytes": EVENT_BYTES,
            "trace_entry_bytes": TRACE_ENTRY_BYTES}


def module_sha256(module):
    """Hex SHA-256 of the module's `.axbc` image: what ties a snapshot to its module."""
    from boruna.bytecode.axbc import to_bytes
    try:
        image = to_bytes(module)
    except Exception as exc:
        raise SnapshotError(f"cannot snapshot: the module has no .axbc image ({exc})") from None
    return _hashlib.sha256(image).hexdigest()


# ---------------------------------------------------------------- writing


@cython.final
cdef class _Out:
    """A growable byte buffer."""
    cdef char* p
    cdef Py_ssize_t n
    cdef Py_ssize_t cap

    def __cinit__(self):
        self.cap = 1 << 16
        self.n = 0
        self.p = <char*>malloc(self.cap)
        if self.p == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.p)

    cdef int room(self, Py_ssize_t extra) except -1:
        cdef Py_ssize_t c = self.cap
        cdef char* q
        if self.n + extra <= c:
            return 0
        while self.n + extra > c:
            c *= 2
        q = <char*>realloc(self.p, c)
        if q == NULL:
            raise MemoryError()
        self.p = q
        self.cap = c
        return 0

    cdef inline int byte(self, int b) except -1:
        if self.n + 1 > self.cap:
            self.room(1)
        self.p[self.n] = <char>b
        self.n += 1
        return 0

    cdef inline int uvar(self, uint64_t x) except -1:
        if self.n + 10 > self.cap:
            self.room(10)
        while x >= VARINT_MORE:
            self.p[self.n] = <char>((x & VARINT_BITS) | VARINT_MORE)
            self.n += 1
            x >>= 7
        self.p[self.n] = <char>x
        self.n += 1
        return 0

    cdef inline int ivar(self, int64_t x) except -1:
        return self.uvar((<uint64_t>x << 1) ^ <uint64_t>(x >> 63))

    cdef int raw(self, const char* s, Py_ssize_t k) except -1:
        self.room(k)
        memcpy(self.p + self.n, s, k)
        self.n += k
        return 0

    cdef int text(self, str s) except -1:
        cdef bytes b = s.encode("utf-8", "surrogatepass")
        self.uvar(len(b))
        self.raw(b, len(b))
        return 0

    cdef int f64(self, double d) except -1:
        self.room(8)
        bor_put_f64(self.p + self.n, d)
        self.n += 8
        return 0

    cdef bytes value(self):
        return PyBytes_FromStringAndSize(self.p, self.n)


cdef extern from "Python.h":
    PyObject* PyList_GET_ITEM_raw "PyList_GET_ITEM"(PyObject*, Py_ssize_t)
    Py_ssize_t PyList_GET_SIZE_raw "PyList_GET_SIZE"(PyObject*)
    PyObject* PyDict_GetItem_raw "PyDict_GetItem"(PyObject*, PyObject*)

cdef PyObject* TUPLE_T = <PyObject*>tuple
cdef PyObject* STR_T = <PyObject*>str
cdef PyObject* PYLIST_T = <PyObject*>list
cdef PyObject* PYDICT_T = <PyObject*>dict
cdef PyObject* INT_T = <PyObject*>int
cdef PyObject* FLOAT_T = <PyObject*>float
cdef PyObject* RECORD_T = <PyObject*>Record


cdef inline bint _is_scalar(PyObject* p) noexcept:
    cdef PyObject* t = Py_TYPE_raw(p)
    return (t == INT_T or t == FLOAT_T or p == Py_None_raw or p == Py_True_raw
            or p == Py_False_raw or p == <PyObject*>NONE)


cdef PyObject* EMPTY_TUPLE = <PyObject*>()


cdef inline bint _refcount_matters(PyObject* p) noexcept:
    """Whether vm/reuse.pxi, vm/lists.pxi and vm/string_builders.pxi decide anything by `p`'s
    reference count: a List (a Record's fields too), a Record, a Map (not the empty List:
    CPython shares it) or a String they may write into (not CPython's shared object for its
    text: `_tiny_str`)."""
    cdef PyObject* t = Py_TYPE_raw(p)
    return ((t == TUPLE_T and p != EMPTY_TUPLE) or t == RECORD_T or t == MAPVALUE_T
            or (t == STR_T and bor_str_writable(p) and not _tiny_str(p)))


cdef inline bint _tiny_str(PyObject* p) noexcept:
    """CPython's shared object for a String of at most one character (the empty String, a
    Latin-1 character's): written once per text, and read back as that shared object. A
    one-character String that is an object of its own (what `int_to_string(7)` makes) is
    written by identity like any other (kind H_CHAR) and read back as an object of its own:
    whether the left String of `++` is held elsewhere decides its charge (vm/core/dispatch.h
    `bor_concat`), so which of the two a run holds is state."""
    return (Py_TYPE_raw(p) == STR_T and PyUnicode_GET_LENGTH(<object>p) <= 1
            and bor_str_shared(p))


cdef object _map_keys(object o):
    """A map's keys in writing order: a Map's sorted, a plain dict's as they are."""
    keys = list(o)
    cdef Py_ssize_t k, n = len(keys)
    for k in range(n):
        if type(keys[k]) is not str:
            raise SnapshotError("cannot snapshot: a map key that is not a String")
    if type(o) is MapValue:
        for k in range(1, n):
            if not (<str>keys[k - 1] < <str>keys[k]):
                keys.sort()
                break
    return keys


@cython.final
cdef class _Enc:
    """Writes the heap: every object reachable from the roots once, children first (an
    explicit stack of borrowed pointers: the machine holds every object while it writes)."""
    cdef _Out out
    cdef dict memo          # address -> heap index (objects held more than once), -1 open
    cdef dict tiny          # a String of at most one character -> heap index
    cdef dict consts        # address -> index of a module constant object
    cdef int64_t nobj
    cdef PyObject** wobj    # the work stack: objects ...
    cdef int64_t* wst       # ... and their state: 0 to open, k > 0 open with k - 1 children
    cdef Py_ssize_t wtop, wcap
    cdef int64_t* idx       # heap indexes of written children, consumed by their parent
    cdef Py_ssize_t itop, icap
    cdef dict refs          # address -> references the machine's state accounts for (held())

    def __cinit__(self):
        self.out = _Out()
        self.memo = {}
        self.tiny = {}
        self.consts = {}
        self.refs = {}
        self.nobj = 0
        self.wcap = 1024
        self.icap = 1024
        self.wtop = 0
        self.itop = 0
        self.wobj = <PyObject**>malloc(sizeof(PyObject*) * self.wcap)
        self.wst = <int64_t*>malloc(sizeof(int64_t) * self.wcap)
        self.idx = <int64_t*>malloc(sizeof(int64_t) * self.icap)
        if self.wobj == NULL or self.wst == NULL or self.idx == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.wobj)
        free(self.wst)
        free(self.idx)

    cdef int wpush(self, PyObject* o, int64_t st) except -1:
        cdef void* q
        cdef void* r
        if self.wtop == self.wcap:
            q = realloc(self.wobj, sizeof(PyObject*) * self.wcap * 2)
            if q == NULL:
                raise MemoryError()
            self.wobj = <PyObject**>q
            r = realloc(self.wst, sizeof(int64_t) * self.wcap * 2)
            if r == NULL:
                raise MemoryError()
            self.wst = <int64_t*>r
            self.wcap *= 2
        self.wobj[self.wtop] = o
        self.wst[self.wtop] = st
        self.wtop += 1
        return 0

    cdef int ipush(self, int64_t i) except -1:
        cdef void* q
        if self.itop == self.icap:
            q = realloc(self.idx, sizeof(int64_t) * self.icap * 2)
            if q == NULL:
                raise MemoryError()
            self.idx = <int64_t*>q
            self.icap *= 2
        self.idx[self.itop] = i
        self.itop += 1
        return 0

    cdef int note(self, PyObject* p, int64_t k) except -1:
        """`k` more references to `p` that the machine's state accounts for (a List, Record
        or Map held more than once: reuse, vm/reuse.pxi, decides by its reference count)."""
        cdef size_t a
        if Py_REFCNT_raw(p) > 1 and _refcount_matters(p):
            a = <size_t>p
            self.refs[a] = self.refs.get(a, 0) + k
        return 0

    cdef inline int child(self, PyObject* c) except -1:
        """Push `c`, held by the object being opened, to be written before it."""
        self.note(c, 1)
        return self.wpush(c, 0)

    cdef list held(self, Machine m, set logged):
        """The heap indexes (ascending) of the Lists, Records and Maps that something outside
        the machine also holds (a host's argument, a handler's cache, ...): their reference
        count is more than the roots (each held by its owner and by the roots list: 2), the
        objects written (1 per reference) and the list and String builders (1) account for. Called after
        every root is written, while the roots list still holds them.

        Values the event log reaches (`logged`: a capability call's arguments and results,
        the pending call's) are left out: the log holds them for the whole run, in the restored
        machine too, so reuse declines them whoever else holds them, and a host's references
        to them (a journal, a handler's cache, a collected-later frame) are not state. Listing
        them made a step's snapshot differ between processes (a workflow step run locally and
        on a Dask worker)."""
        cdef int k
        cdef size_t a
        for k in range(BLD_SLOTS):
            if m.bld[k] != NULL:
                a = <size_t>m.bld[k]
                if a in self.refs:
                    self.refs[a] += 1
        for k in range(SBLD_SLOTS):
            if m.sb.s[k] != NULL:
                a = <size_t>m.sb.s[k]
                if a in self.refs:
                    self.refs[a] += 1
        out = []
        for a, n in self.refs.items():
            if Py_REFCNT_raw(<PyObject*>a) > <Py_ssize_t>n and a not in logged:
                out.append(self.memo[a])
        out.sort()
        return out

    cdef inline bint is_const(self, PyObject* p) except -1:
        return Py_REFCNT_raw(p) > 1 and not _tiny_str(p) and (<size_t>p) in self.consts

    cdef inline bint inline_(self, PyObject* p) except -1:
        """Whether `p` is written in its parent's slot (a scalar or a module constant)."""
        return _is_scalar(p) or self.is_const(p)

    cdef int64_t known(self, PyObject* p) except -2:
        """The heap index `p` already has, else -1 (an object held once has none yet)."""
        cdef PyObject* r
        if _tiny_str(p):
            r = PyDict_GetItem_raw(<PyObject*>self.tiny, p)
            return -1 if r == NULL else <int64_t>(<object>r)
        if Py_REFCNT_raw(p) > 1:
            v = self.memo.get(<size_t>p)
            if v is None:
                return -1
            if <int64_t>v < 0:
                raise SnapshotError("cannot snapshot: a value contains itself")
            return <int64_t>v
        return -1

    cdef int open_(self, PyObject* p) except -1:
        """Push open `p` and its children (in reverse, so they are written in order)."""
        cdef PyObject* t = Py_TYPE_raw(p)
        cdef PyObject* c
        cdef Py_ssize_t k, n
        cdef int64_t heap = 0
        cdef Py_ssize_t at
        if Py_REFCNT_raw(p) > 1 and not _tiny_str(p):
            self.memo[<size_t>p] = -1
        at = self.wtop
        self.wpush(p, 1)
        if t == TUPLE_T:
            n = PyTuple_GET_SIZE(<object>p)
            for k in range(n - 1, -1, -1):
                c = PyTuple_GET_ITEM_raw(p, k)
                if not self.inline_(c):
                    self.child(c)
                    heap += 1
        elif t == PYLIST_T:
            n = PyList_GET_SIZE_raw(p)
            for k in range(n - 1, -1, -1):
                c = PyList_GET_ITEM_raw(p, k)
                if not self.inline_(c):
                    self.child(c)
                    heap += 1
        elif t == STR_T or t == ACTOR_T or t == FNREF_T:
            pass
        elif t == RECORD_T or t == ENUM_T or t == SOME_T or t == OK_T or t == ERR_T:
            c = self.only_child(p)
            if not self.inline_(c):
                self.child(c)
                heap = 1
        elif bor_is_view(p):
            c = BOR_VIEW_BASE(p)
            if not self.inline_(c):
                self.child(c)
                heap = 1
        elif t == MAPVALUE_T or t == PYDICT_T:
            o = <object>p
            keys = _map_keys(o)
            for k in range(len(keys) - 1, -1, -1):
                key = keys[k]
                c = PyDict_GetItem_raw(p, <PyObject*>key)
                if not self.inline_(c):
                    self.child(c)
                    heap += 1
                c = <PyObject*>key      # the key: a String the map holds
                if not self.inline_(c):
                    self.child(c)
                    heap += 1
        else:
            raise SnapshotError(f"cannot snapshot a value of type {type(<object>p).__name__}")
        self.wst[at] = heap + 1
        return 0

    cdef PyObject* only_child(self, PyObject* p) except NULL:
        cdef PyObject* t = Py_TYPE_raw(p)
        cdef PyObject* c
        if t == RECORD_T:
            c = bor_rec_tuple(p)       # (a host's Record may have its slot unset)
            if c == NULL:
                raise SnapshotError("cannot snapshot: a Record's fields are not a List")
            return c
        if t == ENUM_T:
            c = bor_slot(p, ENUM_PAY_OFF)
        else:
            c = bor_slot(p, WRAP_VAL_OFF)
        if c == NULL:
            raise SnapshotError("cannot snapshot: a value with an unset slot")
        return c

    cdef int64_t put(self, object root) except -2:
        """Write `root` and everything under it; its heap index (-1: a scalar or constant,
        written inline by `slot`)."""
        cdef PyObject* p = <PyObject*>root
        cdef int64_t r, st
        if self.inline_(p):
            return -1
        self.note(p, 2)     # its owner's reference and the roots list's
        self.wpush(p, 0)
        while self.wtop > 0:
            self.wtop -= 1
            p = self.wobj[self.wtop]
            st = self.wst[self.wtop]
            if st == 0:
                r = self.known(p)
                if r >= 0:
                    self.ipush(r)
                else:
                    self.open_(p)
            else:
                self.emit(p, st - 1)
        self.itop -= 1
        return self.idx[self.itop]

    cdef int slot(self, PyObject* p, Py_ssize_t* j, int64_t here) except -1:
        """One slot: `p` inline, or a reference to its heap index (the next of `idx`)."""
        cdef _Out out = self.out
        cdef PyObject* t = Py_TYPE_raw(p)
        cdef int overflow = 0
        cdef long long v
        if t == INT_T:
            if bor_small_long(p, &v):
                out.byte(S_INT)
                out.ivar(v)
                return 0
            v = PyLong_AsLongLongAndOverflow(<object>p, &overflow)
            if overflow:
                out.byte(S_BIGINT)
                out.text(str(<object>p))
            else:
                out.byte(S_INT)
                out.ivar(v)
        elif p == Py_True_raw:
            out.byte(S_TRUE)
        elif p == Py_False_raw:
            out.byte(S_FALSE)
        elif p == Py_None_raw:
            out.byte(S_UNIT)
        elif t == FLOAT_T:
            out.byte(S_FLOAT)
            out.f64(PyFloat_AS_DOUBLE_raw(p))
        elif p == <PyObject*>NONE:
            out.byte(S_NONE)
        elif self.is_const(p):
            out.byte(S_CONST)
            out.uvar(<uint64_t>self.consts[<size_t>p])
        else:
            out.byte(S_HEAP)
            out.uvar(<uint64_t>(here - self.idx[j[0]]))
            j[0] += 1
        return 0

    cdef int emit(self, PyObject* p, int64_t n) except -1:
        """Write open object `p` whose `n` heap children's indexes end `self.idx`."""
        cdef Py_ssize_t start = self.itop - n
        cdef Py_ssize_t j = start
        cdef Py_ssize_t k, m
        cdef int64_t here = self.nobj
        cdef _Out out = self.out
        cdef PyObject* t = Py_TYPE_raw(p)
        if t == STR_T:
            out.byte(H_CHAR if PyUnicode_GET_LENGTH(<object>p) == 1 and not _tiny_str(p)
                     else H_STR)
            out.text(<str>p)
        elif t == TUPLE_T:
            out.byte(H_LIST)
            m = PyTuple_GET_SIZE(<object>p)
            out.uvar(m)
            for k in range(m):
                self.slot(PyTuple_GET_ITEM_raw(p, k), &j, here)
        elif t == PYLIST_T:
            out.byte(H_PYLIST)
            m = PyList_GET_SIZE_raw(p)
            out.uvar(m)
            for k in range(m):
                self.slot(PyList_GET_ITEM_raw(p, k), &j, here)
        elif t == RECORD_T:
            out.byte(H_RECORD)
            out.ivar(_as_i64((<object>p).type_id))
            self.slot(self.only_child(p), &j, here)
        elif t == ENUM_T:
            out.byte(H_ENUM)
            out.ivar(_as_i64((<object>p).type_id))
            out.ivar(_as_i64((<object>p).variant))
            self.slot(self.only_child(p), &j, here)
        elif t == SOME_T or t == OK_T or t == ERR_T:
            out.byte(H_SOME if t == SOME_T else (H_OK if t == OK_T else H_ERR))
            self.slot(self.only_child(p), &j, here)
        elif t == MAPVALUE_T or t == PYDICT_T:
            o = <object>p
            keys = _map_keys(o)
            out.byte(H_MAP if t == MAPVALUE_T else H_PYDICT)
            out.uvar(len(keys))
            for key in keys:
                self.slot(<PyObject*>key, &j, here)
                self.slot(PyDict_GetItem_raw(p, <PyObject*>key), &j, here)
        elif t == ACTOR_T:
            out.byte(H_ACTOR)
            out.ivar(_as_i64((<object>p).id))
        elif bor_is_view(p):
            out.byte(H_VIEW)
            out.uvar(<uint64_t>BOR_VIEW_OFF(p))
            self.slot(BOR_VIEW_BASE(p), &j, here)
        else:
            out.byte(H_FNREF)
            out.ivar(_as_i64((<object>p).index))
        self.itop = start
        self.nobj = here + 1
        if _tiny_str(p):
            self.tiny[<object>p] = here
        elif Py_REFCNT_raw(p) > 1:
            self.memo[<size_t>p] = here
        self.ipush(here)
        return 0


cdef int64_t _as_i64(object v) except? -1:
    if type(v) is not int:
        raise SnapshotError(f"cannot snapshot: an integer field holds {type(v).__name__}")
    try:
        return PyLong_AsLongLong(v)
    except OverflowError:
        raise SnapshotError("cannot snapshot: an integer field beyond 64 bits") from None

# ---------------------------------------------------------------- reading


@cython.final
cdef class _In:
    """A bounds-checked reader of a snapshot's bytes."""
    cdef bytes data
    cdef const char* p
    cdef Py_ssize_t pos
    cdef Py_ssize_t end

    def __cinit__(self, bytes data, Py_ssize_t start, Py_ssize_t end):
        self.data = data
        self.p = PyBytes_AS_STRING(data)
        self.pos = start
        self.end = end

    cdef int need(self, Py_ssize_t k) except -1:
        if k < 0 or self.end - self.pos < k:
            raise SnapshotError("malformed snapshot: truncated")
        return 0

    cdef inline int byte(self) except -1:
        self.need(1)
        self.pos += 1
        return <unsigned char>self.p[self.pos - 1]

    cdef uint64_t uvar(self) except? 18446744073709551615ULL:
        cdef uint64_t x = 0
        cdef int shift = 0
        cdef unsigned char b
        while True:
            self.need(1)
            b = <unsigned char>self.p[self.pos]
            self.pos += 1
            if shift == 63 and b > 1:
                raise SnapshotError("malformed snapshot: varint overflow")
            x |= (<uint64_t>(b & VARINT_BITS)) << shift
            if b < VARINT_MORE:
                return x
            shift += 7
            if shift > 63:
                raise SnapshotError("malformed snapshot: varint overflow")

    cdef inline int64_t ivar(self) except? -1:
        cdef uint64_t u = self.uvar()
        return <int64_t>((u >> 1) ^ (0 - (u & 1)))

    cdef Py_ssize_t count(self) except -1:
        """A length that the remaining bytes can hold (each element takes at least one)."""
        cdef uint64_t n = self.uvar()
        if n > <uint64_t>(self.end - self.pos):
            raise SnapshotError("malformed snapshot: a length beyond the data")
        return <Py_ssize_t>n

    cdef str text(self):
        cdef Py_ssize_t n = self.count()
        self.need(n)
        self.pos += n
        try:
            return PyUnicode_DecodeUTF8(self.p + self.pos - n, n, "surrogatepass")
        except UnicodeDecodeError:
            raise SnapshotError("malformed snapshot: text that is not UTF-8") from None

    cdef double f64(self) except? -1.0:
        self.need(8)
        self.pos += 8
        return bor_get_f64(self.p + self.pos - 8)


@cython.final
cdef class _Dec:
    """Reads the heap and the roots (objects in `objs`, by heap index)."""
    cdef _In src
    cdef list objs
    cdef list consts
    cdef dict builders      # heap index of a list builder's List -> its capacity
    cdef dict marks         # heap index -> M_VIEW / M_FIELDS / M_VREC (others: M_PLAIN)
    cdef int allow          # the marks (bits) the slot read now may refer to
    cdef int last           # the mark of what the last slot read referred to

    def __cinit__(self, _In src, list consts, dict builders):
        self.src = src
        self.objs = []
        self.consts = consts
        self.builders = builders
        self.marks = {}
        self.allow = 1 << M_PLAIN
        self.last = M_PLAIN

    cdef object slot(self, Py_ssize_t here):
        cdef int tag = self.src.byte()
        cdef uint64_t r
        self.last = M_PLAIN
        if tag == S_INT:
            return self.src.ivar()
        if tag == S_HEAP:
            r = self.src.uvar()
            if r == 0 or r > <uint64_t>here:
                raise SnapshotError("malformed snapshot: a reference out of range")
            self.last = M_PLAIN
            if self.marks:
                self.last = self.marks.get(here - <Py_ssize_t>r, M_PLAIN)
                if not (self.allow >> self.last) & 1:
                    raise SnapshotError("malformed snapshot: a List view inside a value")
            return self.objs[here - <Py_ssize_t>r]
        if tag == S_UNIT:
            return None
        if tag == S_TRUE:
            return True
        if tag == S_FALSE:
            return False
        if tag == S_FLOAT:
            return self.src.f64()
        if tag == S_NONE:
            return NONE
        if tag == S_CONST:
            r = self.src.uvar()
            if r >= <uint64_t>len(self.consts):
                raise SnapshotError("malformed snapshot: a constant out of range")
            return self.consts[r]
        if tag == S_BIGINT:
            text = self.src.text()
            try:
                return int(text)
            except ValueError:
                raise SnapshotError("malformed snapshot: a bad integer") from None
        raise SnapshotError(f"malformed snapshot: unknown slot tag {tag}")

    cdef int heap(self) except -1:
        cdef Py_ssize_t n = self.src.count()
        cdef Py_ssize_t k, j, m
        cdef int kind
        cdef int64_t a, b
        cdef PyObject* t
        cdef PyObject* r
        objs = self.objs
        for k in range(n):
            kind = self.src.byte()
            if kind == H_STR:
                o = self.src.text()
                if self.builders and k in self.builders:
                    o = _builder_str(o, self.builders[k])
            elif kind == H_CHAR:
                o = self.src.text()
                if len(o) != 1:
                    raise SnapshotError("malformed snapshot: a one-character String")
                o = bor_str_own_char(ord(o))
            elif kind == H_LIST and not (self.builders and k in self.builders):
                m = self.src.count()
                t = PyTuple_New_raw(m)
                o = <object>t
                _decref(t)
                self.allow = (1 << M_PLAIN) | (1 << M_VIEW)
                try:
                    for j in range(m):
                        v = self.slot(k)
                        if self.last == M_VIEW:
                            self.marks[k] = M_FIELDS
                        _incref(<PyObject*>v)
                        PyTuple_SET_ITEM_raw(t, j, <PyObject*>v)
                finally:
                    self.allow = 1 << M_PLAIN
            elif kind == H_LIST or kind == H_PYLIST:
                m = self.src.count()
                items = [self.slot(k) for j in range(m)]
                if kind == H_PYLIST:
                    o = items
                else:
                    o = _builder_tuple(items, self.builders[k])
            elif kind == H_RECORD:
                a = self.src.ivar()
                self.allow = (1 << M_PLAIN) | (1 << M_FIELDS)
                try:
                    f = self.slot(k)
                finally:
                    self.allow = 1 << M_PLAIN
                if self.last == M_FIELDS:
                    self.marks[k] = M_VREC
                if type(f) is not tuple:
                    raise SnapshotError("malformed snapshot: a Record without a fields List")
                if REC_FAST:
                    _incref(<PyObject*>f)
                    r = bor_new_record(PyLong_FromLongLong_raw(a), <PyObject*>f)
                    o = <object>r
                    _decref(r)
                else:
                    o = Record(a, f)
            elif kind == H_ENUM:
                a = self.src.ivar()
                b = self.src.ivar()
                o = Enum(a, b, self.slot(k))
            elif kind == H_SOME:
                o = Some(self.slot(k))
            elif kind == H_OK:
                o = Ok(self.slot(k))
            elif kind == H_ERR:
                o = Err(self.slot(k))
            elif kind == H_MAP or kind == H_PYDICT:
                m = self.src.count()
                o = MapValue.__new__(MapValue) if kind == H_MAP else {}
                last = None
                for j in range(m):
                    key = self.slot(k)
                    if type(key) is not str or (kind == H_MAP and last is not None
                                                and not key > last):
                        raise SnapshotError("malformed snapshot: map keys not sorted Strings")
                    if kind == H_PYDICT and key in o:
                        raise SnapshotError("malformed snapshot: a repeated key")
                    last = key
                    dict.__setitem__(o, key, self.slot(k))
            elif kind == H_ACTOR:
                o = _ActorId(self.src.ivar())
            elif kind == H_FNREF:
                o = FnRef(self.src.ivar())
            elif kind == H_VIEW:
                a = <int64_t>self.src.uvar()
                f = self.slot(k)
                if type(f) is not tuple or not 0 <= a < PyTuple_GET_SIZE(f):
                    raise SnapshotError("malformed snapshot: a List view")
                _incref(<PyObject*>f)
                r = bor_view_new(<PyObject*>f, a)
                o = <object>r
                _decref(r)
                self.marks[k] = M_VIEW
            else:
                raise SnapshotError(f"malformed snapshot: unknown object kind {kind}")
            objs.append(o)
        return 0

    cdef list roots(self):
        cdef Py_ssize_t n = self.src.count()
        cdef Py_ssize_t here = len(self.objs)
        # (`_restore_state` refuses a view, or a Record holding one, past the globals)
        self.allow = (1 << M_PLAIN) | (1 << M_VIEW) | (1 << M_VREC)
        try:
            return [self.slot(here) for _ in range(n)]
        finally:
            self.allow = 1 << M_PLAIN


cdef object _builder_tuple(list items, object cap):
    """A List of `items` allocated with room for `cap` (what _bld_append builds)."""
    cdef Py_ssize_t n = len(items), k
    cdef PyObject* t
    if type(cap) is not int or not (n <= cap and 4 <= cap <= 2 * C_MAX_COLLECTION_LEN + 16):
        raise SnapshotError("malformed snapshot: a list builder's capacity")
    t = PyTuple_New_raw(cap)
    for k in range(n):
        _incref(<PyObject*>items[k])
        PyTuple_SET_ITEM_raw(t, k, <PyObject*>items[k])
    Py_SET_SIZE_raw(t, n)
    o = <object>t
    _decref(t)
    return o


cdef object _builder_str(str text, object cap):
    """A String of `text` allocated with room for `cap` characters (what
    vm/string_builders.pxi builds)."""
    cdef PyObject* s
    if (type(cap) is not int or not bor_str_ascii(<PyObject*>text)
            or not (SBLD_MIN <= len(text) <= cap <= 2 * C_MAX_STRING_BYTES)):
        raise SnapshotError("malformed snapshot: a String builder")
    s = bor_str_with_room(<PyObject*>text, <PyObject*>"", cap)
    o = <object>s
    _decref(s)
    return o


# ---------------------------------------------------------------- the Machine's state
# The header is JSON a user can hand back edited (with its digest recomputed) and the event
# log any Python objects a gateway keeps: the functions below that index their lists do so
# with bounds checks on (the extension turns them off elsewhere), so a short list is a
# malformed snapshot, not a read past it.


@cython.boundscheck(True)
@cython.wraparound(True)
cdef object _event_shapes(list events, list roots):
    """Events as JSON shapes, their runtime values appended to `roots`: per field
    [key, 0, json value] | [key, 1] (one value) | [key, 2, n] (a list of n values)."""
    shapes = []
    for e in events:
        shape = []
        for key, value in e.items():
            t = type(value)
            if key in ("args", "result", "payload", "tree") or not (
                    value is None or t is str or t is bool or t is int):
                if t is list and key == "args":
                    shape.append([key, 2, len(value)])
                    roots.extend(value)
                else:
                    shape.append([key, 1])
                    roots.append(value)
            else:
                shape.append([key, 0, value])
        shapes.append(shape)
    return shapes


cdef bint _at_limit(Machine self):
    """The machine failed at its step limit and kept its frames (machine.pxi): the run stopped
    between two instructions and can go on from there with a raised `max_steps`."""
    return self.done and self.error_kind == "step_limit"


cdef inline object _slot_value(Val* v):
    """A slot's value as the snapshot writes it: a view, and a Record holding views, as they
    are (not made tuples)."""
    if v.tag == T_VIEW or v.tag == T_VREC:
        return <object>v.o
    return to_py(v)


cdef object _snapshot_state(Machine self):
    """(header dict, roots list): everything of the paused machine a restore needs."""
    cdef int64_t k
    cdef bint at_limit = _at_limit(self)
    if self.running:
        raise SnapshotError("cannot snapshot a running machine")
    if self.done and not at_limit:
        raise SnapshotError("cannot snapshot: the run has ended (nothing left to resume)")
    if self.cancelled:
        raise SnapshotError("cannot snapshot a cancelled run")
    roots = []
    for k in range(self.sp):
        roots.append(_slot_value(&self.stack[k]))
    for k in range(self.lp):
        roots.append(_slot_value(&self.locals[k]))
    for k in range(self.nglobals):
        roots.append(_slot_value(&self.globals_[k]))
    roots.extend(self.ui_output)
    roots.extend(self.mailbox)
    outgoing = []
    for aid, msg in self.outgoing:
        outgoing.append(aid)
        roots.append(msg)
    gw = self.gateway
    log = getattr(gw, "log", None)
    events = getattr(log, "events", None)
    logged_from = len(roots)
    shapes = _event_shapes(events, roots) if type(events) is list else []
    pending = None
    if self.pending is not None:
        from boruna.core.capabilities import by_id
        cap_id, args, answered, answer = self.pending
        cap = by_id(cap_id)
        pending = {"id": cap_id, "capability": cap.wire_name if cap is not None else "",
                   "nargs": len(args), "answered": bool(answered)}
        roots.extend(args)
        if answered:
            roots.append(answer)
    handler_state = None
    handler = getattr(gw, "handler", None)
    if hasattr(handler, "snapshot_state"):
        handler_state = handler.snapshot_state()
    usage = getattr(gw, "usage", None)
    header = {
        "format": SNAPSHOT_FORMAT, "module_sha256": module_sha256(self.module),
        "vm": _vm_fingerprint(),
        # at the step limit the failing step was counted, not run: the state is the one of a
        # slice ending at max_steps (the same bytes)
        "steps": self.steps - 1 if at_limit else self.steps,
        "max_steps": self.max_steps, "work": self.work,
        "max_work": self.max_work, "alloc_bytes": self.alloc_bytes,
        "next_walk": self.next_walk, "max_value_memory": self.mem_cap,
        "locals_cap": self.locals_cap,
        "trace": {"on": bool(self.tracing), "keep": self.trace_keep,
                  "total": self.trace_total, "lines": list(self.trace)},
        "started": bool(self.started), "in_actor": bool(self.in_actor),
        "next_spawn_id": self.next_spawn_id, "actor_id": self.actor_id,
        "spawn_requests": list(self.spawn_requests), "outgoing": outgoing,
        "max_wall_ms": self.max_wall_ms_obj,
        "frames": [[self.frames[k].func, self.frames[k].ip, self.frames[k].stack_base,
                    self.frames[k].locals_base] for k in range(self.nframes)],
        "sp": self.sp, "lp": self.lp, "globals": self.nglobals,
        "ui": len(self.ui_output), "mailbox": len(self.mailbox),
        "events": shapes, "drained": getattr(log, "_drained", 0) if log is not None else 0,
        "usage": dict(usage) if type(usage) is dict else {},
        "pending": pending, "handler_state": handler_state,
    }
    return header, roots, logged_from


cdef set _reached(list roots):
    """The addresses of every List, Record (and its fields), Map, Enum, Some/Ok/Err and
    String that `roots` reach (an explicit stack: no recursion however deep the nesting)."""
    cdef set seen = set()
    cdef list work = list(roots)
    cdef PyObject* p
    cdef PyObject* t
    while work:
        o = work.pop()
        p = <PyObject*>o
        if _is_scalar(p):
            continue
        a = <size_t>p
        if a in seen:
            continue
        seen.add(a)
        t = Py_TYPE_raw(p)
        if t == TUPLE_T or t == PYLIST_T:
            work.extend(o)
        elif t == RECORD_T:
            work.append(o.fields)
        elif t == MAPVALUE_T or t == PYDICT_T:
            work.extend(dict.keys(o))
            work.extend(dict.values(o))
        elif t == ENUM_T:
            work.append(o.payload)
        elif t == SOME_T or t == OK_T or t == ERR_T:
            work.append(o.value)
        elif bor_is_view(p):
            work.append(<object>BOR_VIEW_BASE(p))
    return seen


cdef bytes _snapshot(Machine self):
    """The machine's snapshot (the cyclic GC paused: values hold no cycles)."""
    enabled = _gc.isenabled()
    _gc.disable()
    try:
        return _write_snapshot(self)
    finally:
        if enabled:
            _gc.enable()


cdef bytes _write_snapshot(Machine self):
    cdef list at
    cdef Py_ssize_t j = 0
    cdef int k
    cdef _Enc enc = _Enc()
    header, roots, logged_from = _snapshot_state(self)
    for kc, c in enumerate(self.module.constants):
        if not _is_scalar(<PyObject*>c):
            enc.consts.setdefault(id(c), kc)
    at = []
    for r in roots:
        at.append(enc.put(r))
    r = None
    # the list builders (vm/lists.pxi) holding a List the snapshot holds: in-place growth,
    # and so the work and memory accounting, continue exactly as they would have
    builders = []
    for k in range(BLD_SLOTS):
        b = None
        if self.bld[k] != NULL:
            r = enc.memo.get(id(<object>self.bld[k]))
            if r is not None and r >= 0:
                b = [r, self.bld_cap[k], self.bld_sub[k]]
        builders.append(b)
    header["builders"] = builders
    header["bld_next"] = _bld_victim(self)
    # the String builders (vm/string_builders.pxi) holding a String the snapshot holds, with
    # their room and when they last grew (only when there are any: other snapshots' bytes
    # stay as they were); a dead builder is left out, as the victim choice treats it as empty
    sbuilders = []
    for k in range(SBLD_SLOTS):
        b = None
        if self.sb.s[k] != NULL and Py_REFCNT_raw(self.sb.s[k]) > 1:
            r = enc.memo.get(id(<object>self.sb.s[k]))
            if r is not None and r >= 0:
                b = [r, self.sb.cap[k], self.sb.use[k]]
        sbuilders.append(b)
    if any(b is not None for b in sbuilders):
        header["str_builders"] = sbuilders
        header["sbld_clock"] = self.sb.clock
    # values held outside the machine too: a restored run holds them once more (Machine.held)
    # so that reuse declines them as this run does; only when there are any (older snapshots
    # and runs nothing outside holds have the same bytes)
    held = enc.held(self, _reached(roots[logged_from:]) if enc.refs else set())
    if held:
        header["held"] = held
    heap_end = enc.out.n
    body = _Out()
    try:
        text = _json.dumps(header, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise SnapshotError(f"cannot snapshot: {exc}") from None
    hb = text.encode("ascii")
    body.raw(SNAPSHOT_MAGIC, len(SNAPSHOT_MAGIC))
    body.raw((<int>SNAPSHOT_FORMAT).to_bytes(4, "little"), 4)
    body.raw(len(hb).to_bytes(4, "little"), 4)
    body.raw(hb, len(hb))
    body.uvar(<uint64_t>enc.nobj)
    body.raw(enc.out.p, heap_end)
    # the roots, each a slot (a heap reference counts back from the end of the heap)
    enc.itop = 0
    for i in at:
        if i >= 0:
            enc.ipush(i)
    body.uvar(len(roots))
    tail = enc.out
    tail.n = 0
    for r in roots:
        enc.slot(<PyObject*>r, &j, enc.nobj)
    body.raw(tail.p, tail.n)
    data = body.value()
    return data + _hashlib.sha256(data).digest()


def snapshot_header(data):
    """The checked header of snapshot `data` (a dict), without reading its values."""
    return _read_header(data)[0]


@cython.boundscheck(True)
@cython.wraparound(True)
cdef object _read_header(object data):
    """(header, start of the heap) of `data`, after checking magic, version and digest."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise SnapshotError("a snapshot is bytes")
    data = bytes(data)
    cdef Py_ssize_t n = len(data)
    cdef Py_ssize_t m = len(SNAPSHOT_MAGIC)
    if n < m or data[:m] != SNAPSHOT_MAGIC:
        raise SnapshotError("not a Boruna snapshot (bad magic)")
    if n < m + 8 + 32:
        raise SnapshotError("malformed snapshot: truncated")
    version = int.from_bytes(data[m:m + 4], "little")
    if version != SNAPSHOT_FORMAT:
        raise SnapshotError(f"snapshot format version {version} is not supported: this VM "
                            f"reads version {SNAPSHOT_FORMAT}")
    if _hashlib.sha256(data[:n - 32]).digest() != data[n - 32:]:
        raise SnapshotError("snapshot is corrupted: its SHA-256 does not match its content")
    hlen = int.from_bytes(data[m + 4:m + 8], "little")
    if hlen > n - 32 - m - 8:
        raise SnapshotError("malformed snapshot: truncated")
    try:
        header = _json.loads(data[m + 8:m + 8 + hlen].decode("ascii"))
    except (ValueError, UnicodeDecodeError):
        raise SnapshotError("malformed snapshot: the header is not JSON") from None
    if type(header) is not dict:
        raise SnapshotError("malformed snapshot: the header is not an object")
    return header, m + 8 + hlen, data


def _check_int(header, key, lo, hi):
    v = header.get(key)
    if type(v) is not int or not lo <= v <= hi:
        raise SnapshotError(f"malformed snapshot: {key}")
    return v


cdef Machine _restore(object data, object module, object gateway, object max_wall_ms,
                      bint keep_wall):
    header, start, raw = _read_header(data)
    want = module_sha256(module)
    if header.get("module_sha256") != want:
        raise SnapshotError(f"snapshot is of another module (sha256 "
                            f"{str(header.get('module_sha256'))[:16]}...), not this one "
                            f"({want[:16]}...)")
    if header.get("vm") != _vm_fingerprint():
        raise SnapshotError(f"snapshot was taken under other VM limits ({header.get('vm')}); "
                            f"this VM has {_vm_fingerprint()}")
    enabled = _gc.isenabled()
    _gc.disable()
    try:
        return _restore_state(header, start, raw, module, gateway,
                              header.get("max_wall_ms") if keep_wall else max_wall_ms)
    except SnapshotError:
        raise
    except (KeyError, IndexError, TypeError, ValueError, OverflowError, AttributeError) as exc:
        raise SnapshotError(f"malformed snapshot: {type(exc).__name__}: {exc}") from None
    finally:
        if enabled:
            _gc.enable()


@cython.boundscheck(True)
@cython.wraparound(True)
def _check_frames(Machine m, dict header):
    """(frames, sp, lp, locals capacity) of `header`, checked against `m`'s module: contiguous
    locals, nested operand stacks, every index in its function."""
    cdef int64_t base = 0, sb = 0
    frames = header["frames"]
    sp = _check_int(header, "sp", 0, C_MAX_STACK)
    lp = _check_int(header, "lp", 0, C_MAX_LOCALS)
    cap = _check_int(header, "locals_cap", 256, C_MAX_LOCALS * 2)
    if type(frames) is not list or len(frames) > C_MAX_DEPTH or lp > cap or cap & (cap - 1):
        raise SnapshotError("malformed snapshot: frames")
    for fr in frames:
        if type(fr) is not list or len(fr) != 4 or any(type(x) is not int for x in fr):
            raise SnapshotError("malformed snapshot: a frame")
        if not (0 <= fr[0] < m.nfuncs and 0 <= fr[1] <= m.fn_len[fr[0]]
                and fr[3] == base and sb <= fr[2] <= sp):
            raise SnapshotError("malformed snapshot: a frame out of range")
        base += m.fn_nlocals[fr[0]]
        sb = fr[2]
    if base != lp:
        raise SnapshotError("malformed snapshot: locals do not match the frames")
    return frames, sp, lp, cap


@cython.boundscheck(True)
@cython.wraparound(True)
def _sections(dict header, list roots, sp, lp, nglob, nui, nmb, nout):
    """The root values cut into the machine's sections (stack, locals, globals, UI, mailbox,
    outgoing messages, events, the pending call), each as long as the header says."""
    pos = 0

    def take(count):
        nonlocal pos
        if type(count) is not int or count < 0 or pos + count > len(roots):
            raise SnapshotError("malformed snapshot: fewer values than its sections")
        pos += count
        return roots[pos - count:pos]

    out = {"stack": take(sp), "locals": take(lp), "globals": take(nglob), "ui": take(nui),
           "mailbox": take(nmb), "outgoing": take(nout)}
    events = []
    for shape in header["events"]:
        e = {}
        for field in shape:
            if field[1] == 0:
                e[field[0]] = field[2]
            elif field[1] == 1:
                e[field[0]] = take(1)[0]
            elif field[1] == 2:
                e[field[0]] = list(take(field[2]))
            else:
                raise SnapshotError("malformed snapshot: an event")
        events.append(e)
    out["events"] = events
    out["pending"] = None
    pending = header["pending"]
    if pending is not None:
        from boruna.core.capabilities import by_id
        args = list(take(pending["nargs"]))
        answered = pending["answered"] is True
        answer = take(1)[0] if answered else None
        if type(pending["id"]) is not int or by_id(pending["id"]) is None:
            raise SnapshotError("malformed snapshot: the pending call")
        out["pending"] = [pending["id"], args, answered, answer]
    if pos != len(roots):
        raise SnapshotError("malformed snapshot: more values than its sections")
    return out


@cython.boundscheck(True)
@cython.wraparound(True)
def _held(dict header, list objs):
    """The values the snapshotted run's Lists, Records and Maps had holders for outside the
    machine (header "held": ascending heap indexes), or None: the restored Machine holds each
    once more, so their reference counts, and reuse's decisions, are the run's."""
    held = header.get("held")
    if held is None:
        return None
    if type(held) is not list or not held:
        raise SnapshotError("malformed snapshot: held values")
    out = []
    last = -1
    for i in held:
        if type(i) is not int or not last < i < len(objs):
            raise SnapshotError("malformed snapshot: a held value")
        o = objs[i]
        if not _refcount_matters(<PyObject*>o):
            raise SnapshotError("malformed snapshot: a held value")
        out.append(o)
        last = i
    return out


cdef bint _holds_views(object o):
    """Whether `o` is a Record with a List view among its fields."""
    cdef PyObject* f
    cdef Py_ssize_t k
    if not bor_is_record(<PyObject*>o):
        return False
    f = bor_rec_tuple(<PyObject*>o)
    if f == NULL:
        return False
    for k in range(PyTuple_GET_SIZE(<object>f)):
        if bor_is_view(PyTuple_GET_ITEM_raw(f, k)):
            return True
    return False


cdef int _slot_from(Val* d, object o) except -1:
    """Store a restored slot value into the empty slot `d` (a List view, or a Record holding
    one, with its tag)."""
    if bor_is_view(<PyObject*>o) or _holds_views(o):
        _incref(<PyObject*>o)
        d.tag = T_VIEW if bor_is_view(<PyObject*>o) else T_VREC
        d.o = <PyObject*>o
        return 0
    return from_py(d, o)


@cython.boundscheck(True)
@cython.wraparound(True)
def _restore_state(dict header, Py_ssize_t start, bytes raw, module, gateway, max_wall_ms):
    """A new Machine for `module` in the state `header` and the values after `start` say:
    the one place that writes a restored Machine's fields (`_snapshot_state` reads them)."""
    cdef int64_t k
    cdef Machine m
    cdef Val* p
    I64 = I64_MAX_C
    trace = header["trace"]
    if type(trace) is not dict or type(trace.get("lines")) is not list:
        raise SnapshotError("malformed snapshot: trace")
    if max_wall_ms is not None and (type(max_wall_ms) not in (int, float)
                                    or not max_wall_ms >= 0):
        raise SnapshotError("malformed snapshot: max_wall_ms")
    m = Machine(module, gateway=gateway, max_steps=_check_int(header, "max_steps", 0, I64),
                trace=trace["on"] is True, max_wall_ms=max_wall_ms,
                max_value_memory=_check_int(header, "max_value_memory", 0, I64),
                trace_limit=_check_int(trace, "keep", 0, MAX_TRACE_LIMIT),
                max_work=_check_int(header, "max_work", 0, I64))
    builders = header["builders"]
    if type(builders) is not list or len(builders) != BLD_SLOTS:
        raise SnapshotError("malformed snapshot: list builders")
    caps = {}
    for b in builders:
        if b is not None:
            if type(b) is not list or len(b) != 3 or type(b[0]) is not int or b[0] in caps:
                raise SnapshotError("malformed snapshot: a list builder")
            caps[b[0]] = b[1]
    sbuilders = header.get("str_builders")
    if sbuilders is not None:
        if type(sbuilders) is not list or len(sbuilders) != SBLD_SLOTS:
            raise SnapshotError("malformed snapshot: String builders")
        for b in sbuilders:
            if b is not None:
                if (type(b) is not list or len(b) != 3 or type(b[0]) is not int or b[0] in caps
                        or type(b[2]) is not int):
                    raise SnapshotError("malformed snapshot: a String builder")
                caps[b[0]] = b[1]
    src = _In(raw, start, len(raw) - 32)
    dec = _Dec(src, list(module.constants), caps)
    dec.heap()
    roots = dec.roots()
    if src.pos != src.end:
        raise SnapshotError("malformed snapshot: bytes after the values")
    frames, sp, lp, cap = _check_frames(m, header)
    nglob = _check_int(header, "globals", 0, I64)
    nui = _check_int(header, "ui", 0, I64)
    nmb = _check_int(header, "mailbox", 0, I64)
    outgoing = header["outgoing"]
    if nglob != m.nglobals or type(outgoing) is not list:
        raise SnapshotError("malformed snapshot: globals")
    parts = _sections(header, roots, sp, lp, nglob, nui, nmb, len(outgoing))
    for o in roots[sp + lp + nglob:]:
        if bor_is_view(<PyObject*>o) or _holds_views(o):
            raise SnapshotError("malformed snapshot: a List view outside the machine's slots")
    stack_vals, local_vals, global_vals = parts["stack"], parts["locals"], parts["globals"]
    m.pending = parts["pending"]
    # locals: exactly the capacity the run had (its memory accounting counts it)
    if cap > m.locals_cap:
        p = <Val*>realloc(m.locals, sizeof(Val) * cap)
        if p == NULL:
            raise MemoryError()
        m.locals = p
    m.locals_cap = cap
    for k in range(sp):
        m.stack[k].tag = T_UNIT
        _slot_from(&m.stack[k], stack_vals[k])
        m.sp = k + 1
    for k in range(lp):
        m.locals[k].tag = T_UNIT
        _slot_from(&m.locals[k], local_vals[k])
        m.lp = k + 1
    for k in range(nglob):
        vclear(&m.globals_[k])
        _slot_from(&m.globals_[k], global_vals[k])
    for k, fr in enumerate(frames):
        m.frames[k].func = fr[0]
        m.frames[k].code = &m.code[m.fn_start[<int64_t>fr[0]] * W]
        m.frames[k].ip = fr[1]
        m.frames[k].stack_base = fr[2]
        m.frames[k].locals_base = fr[3]
    m.nframes = len(frames)
    for k, b in enumerate(builders):
        if b is not None:
            o = dec.objs[b[0]] if 0 <= b[0] < len(dec.objs) else None
            if type(o) is not tuple or type(b[2]) is not int:
                raise SnapshotError("malformed snapshot: a list builder")
            _incref(<PyObject*>o)
            m.bld[k] = <PyObject*>o
            m.bld_cap[k] = b[1]
            m.bld_sub[k] = max(-1, b[2])
    if sbuilders is not None:
        for k, b in enumerate(sbuilders):
            if b is not None:
                o = dec.objs[b[0]] if 0 <= b[0] < len(dec.objs) else None
                if type(o) is not str or b[0] not in caps:
                    raise SnapshotError("malformed snapshot: a String builder")
                _incref(<PyObject*>o)
                m.sb.s[k] = <PyObject*>o
                m.sb.cap[k] = b[1]
                m.sb.use[k] = b[2]
        m.sb.clock = _check_int(header, "sbld_clock", 0, I64)
    m.bld_next = _check_int(header, "bld_next", 0, BLD_SLOTS - 1)
    # the slot the next new builder takes stays the same (the others' order is not kept)
    for k in range(BLD_SLOTS):
        m.bld_use[k] = 1
    m.bld_use[m.bld_next] = 0
    m.bld_clock = 1
    m.held = _held(header, dec.objs)
    m.steps = _check_int(header, "steps", 0, I64)
    m.work = _check_int(header, "work", 0, I64)
    m.alloc_bytes = _check_int(header, "alloc_bytes", 0, I64)
    m.next_walk = _check_int(header, "next_walk", 0, I64)
    m.trace_total = _check_int(trace, "total", 0, I64)
    m.trace = [str(x) for x in trace["lines"]]
    m.started = header["started"] is True
    m.in_actor = header["in_actor"] is True
    m.next_spawn_id = _check_int(header, "next_spawn_id", 0, I64)
    m.actor_id = _check_int(header, "actor_id", -I64, I64)
    m.spawn_requests = [int(x) for x in header["spawn_requests"]]
    m.outgoing = [(int(aid), msg) for aid, msg in zip(outgoing, parts["outgoing"])]
    m.ui_output = list(parts["ui"])
    m.mailbox.extend(parts["mailbox"])
    gw = _gw(m)
    log = getattr(gw, "log", None)
    if log is not None and hasattr(log, "events"):
        log.events = parts["events"]
        if hasattr(log, "_drained"):
            log._drained = min(_check_int(header, "drained", 0, I64), len(log.events))
    if hasattr(gw, "usage"):
        gw.usage = {str(name): int(count) for name, count in header["usage"].items()}
    state = header.get("handler_state")
    handler = getattr(gw, "handler", None)
    if state is not None and hasattr(handler, "restore_state"):
        handler.restore_state(state)
    return m


# ---------------------------------------------------------------- delegated capability calls


cdef int64_t _delegate(Machine self, int64_t cap_id, list args) except -1:
    """OP_CAPCALL's handler delegated the call: the machine waits (AWAITING) with it pending."""
    self.pending = [cap_id, args, False, None]
    return 2


cdef object _pending_call(Machine self):
    if self.pending is None:
        return None
    from boruna.core.capabilities import by_id
    cap = by_id(self.pending[0])
    return (cap.wire_name if cap is not None else str(self.pending[0]), list(self.pending[1]))


cdef int _answer(Machine self, object result) except -1:
    if self.pending is None:
        raise RuntimeError("no capability call is waiting for an answer")
    if self.running:
        raise RuntimeError("Machine is already running (re-entrant or concurrent call)")
    self.pending[2] = True
    self.pending[3] = result
    return 0


cdef int _complete_pending(Machine self) except -1:
    """The rest of OP_CAPCALL with the caller's answer: logged as the call's result, pushed,
    charged as a handler's result is."""
    cap_id, args, answered, answer = self.pending
    self.pending = None
    gw = _gw(self)
    from boruna.core.capabilities import by_id
    cap = by_id(cap_id)
    complete = getattr(gw, "complete", None)
    raw = complete(cap, answer) if complete is not None else answer
    res = normalize_value(raw)
    if self.sp >= C_MAX_STACK:
        raise verr.stack_overflow(MAX_STACK)
    from_py(&self.stack[self.sp], res)
    self.sp += 1
    _charge(self, approx_size(res) + 2 * EVENT_BYTES)
    return 0
