# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# List building: ListLen/ListGet on tuples in C, and `x = ListPush(x, v)` grown in
# place in over-allocated builder tuples (amortised O(1)).

# in-place list building relies on tuples caching no hash (true through CPython 3.13)
import sys as _sys
PUSH_IN_PLACE = _sys.version_info < (3, 14)

# `list_tail` of a List of more than VIEW_MIN elements leaves a view of it (False: a copy)
LIST_VIEWS = True
cdef enum:
    VIEW_MIN = 32       # the fewest elements a view shows (a shorter rest is copied)
    VIEW_CHARGE = 48    # the allocation charge of a tail whose rest has VIEW_MIN or more
bor_view_ready()


cdef int _list_op(Machine self, int op) except -1:
    """ListLen / ListGet but for the C core's fast paths: ListGet's other cases for lists
    (tuples), else the builtin."""
    cdef Val* s = self.stack
    cdef Val* a
    cdef Val* b
    cdef Val tmp
    cdef int64_t n
    if op == OP_LISTLEN:
        # a List's length is the C core's (vm/core/dispatch.h); anything else the builtin's
        if self.sp <= 0:
            raise verr.stack_underflow()
        return _cold(self, OP_LISTLEN)
    if self.sp < 2:
        raise verr.stack_underflow()
    a = &s[self.sp - 2]
    b = &s[self.sp - 1]
    if a.tag == T_VIEW:
        return _view_op(self, OP_LISTGET) or _cold(self, OP_LISTGET)
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
    return _cold(self, OP_LISTGET)


cdef int _view_op(Machine self, int tag) except -1:
    """The list builtins that read a List view where it is (vm/core/views.h), ListTail
    making or moving one, and ListIsEmpty / ListHead on a tuple too: 1. Else 0, touching
    nothing (the builtin then runs on the view made a tuple, or on the tuple).

    ListTail of a tuple of more than VIEW_MIN elements, or of a view, spends no work and
    charges VIEW_CHARGE bytes when the rest has VIEW_MIN elements or more (a copying tail
    charges the same: `_cold`); the rest of a view shorter than that is copied, with the
    copy's work and charge. ListLen / ListGet / ListIsEmpty / ListHead on a view: the
    result, error and charge they have on the tuple of its items."""
    cdef Val* s = self.stack
    cdef Val* a
    cdef Py_ssize_t n
    cdef PyObject* item
    cdef Val tmp
    if self.sp < (2 if tag == OP_LISTGET else 1):
        return 0
    a = &s[self.sp - (2 if tag == OP_LISTGET else 1)]
    if tag == OP_LISTTAIL:
        if a.tag == T_OBJ:
            if (not self.views or not PyTuple_CheckExact_raw(a.o)
                    or Py_SIZE_raw(a.o) <= VIEW_MIN):
                return 0
        elif a.tag != T_VIEW:
            return 0
        n = Py_SIZE_raw(a.o) if a.tag == T_OBJ else bor_view_len(a.o)
        if n - 1 < VIEW_MIN:
            _spend(self, n)
        try:
            bor_list_tail(a, VIEW_MIN)
        except BaseException:
            self.sp -= 1        # (the slot is Unit or still the view: let go)
            vclear(a)
            raise
        _charge(self, VIEW_CHARGE if n - 1 >= VIEW_MIN else 56 + 8 * (n - 1))
    elif (tag == OP_LISTISEMPTY or tag == OP_LISTHEAD) and a.tag == T_OBJ:
        # (on a tuple as well: the builtin's result and charge without its call)
        if not PyTuple_CheckExact_raw(a.o):
            return 0
        n = Py_SIZE_raw(a.o)
        if tag == OP_LISTISEMPTY:
            vclear(a)
            a.tag = T_BOOL
            a.i = n == 0
            _charge(self, approx_size(n == 0))
        else:
            if n == 0:
                item = make_none()
            else:
                item = PyTuple_GET_ITEM_raw(a.o, 0)
                _incref(item)
                item = make_some(item)
            vclear(a)
            a.tag = T_OBJ
            a.o = item
            _charge(self, approx_size(<object>item))
    elif a.tag != T_VIEW:
        return 0
    elif tag == OP_LISTLEN:
        n = bor_view_len(a.o)
        vclear(a)
        a.tag = T_INT
        a.i = n
        return 1                # (no charge, no limit check: as the C core's ListLen)
    elif tag == OP_LISTGET:
        if s[self.sp - 1].tag != T_INT:
            return 0
        n = bor_view_len(a.o)
        if s[self.sp - 1].i < 0 or s[self.sp - 1].i >= n:
            raise verr.index_out_of_bounds(s[self.sp - 1].i, n)
        tmp.tag = T_UNIT
        from_py(&tmp, <object>bor_view_item(a.o, s[self.sp - 1].i))
        self.sp -= 1
        vclear(a)
        a[0] = tmp
        return 1                # (as `_list_op` on a tuple)
    elif tag == OP_LISTISEMPTY:
        vclear(a)               # (a view is never empty)
        a.tag = T_BOOL
        a.i = 0
        _charge(self, approx_size(False))
    elif tag == OP_LISTHEAD:
        item = bor_view_item(a.o, 0)
        _incref(item)
        item = make_some(item)
        vclear(a)
        a.tag = T_OBJ
        a.o = item
        _charge(self, approx_size(<object>item))
    else:
        return 0
    if self.max_wall_ms_obj is not None or self.cancel_event is not None:
        err = _wall_check(self)
        if err is not None:
            raise err
    return 1


cdef int64_t _builder_items_size(Machine self, object o) noexcept:
    """What _memory_walk adds for the items of builder tuple `o`, or -1 (not a builder,
    or an item whose size depends on what else the walk saw)."""
    cdef int k
    cdef PyObject* p = <PyObject*>o
    for k in range(BLD_SLOTS):
        if self.bld[k] == p:
            return self.bld_sub[k]
    return -1


cdef inline int64_t _push_charge(Py_ssize_t n):
    """The allocation charge of `x = ListPush(x, v)` on a list of `n` elements held only by
    `x`: what growing it in a builder allocates, amortised (a new tuple of the whole list when
    n + 1 is at most 16 or a power of two, else one 8-byte slot), so building a list of n
    elements charges O(n), not the O(n^2) of a copy per push."""
    n += 1
    if n <= 16 or (n & (n - 1)) == 0:
        return 56 + 8 * n
    return 8


cdef extern from "vm/core/values.h":
    bint bor_long_fits(PyObject*) noexcept
    bint bor_long_i64(PyObject*, int64_t*) noexcept

# the builders' start and growth are C, shared with the loop's C core (vm/core/lists.h)
cdef extern from "vm/core/lists.h":
    int bor_bld_victim(PyObject**, int64_t*, int) noexcept
    PyObject* bor_bld_start(PyObject**, Py_ssize_t*, int64_t*, int64_t*, int64_t*, int*, int,
                            PyObject*, int64_t) except NULL
    PyObject* bor_bld_grow(PyObject**, Py_ssize_t*, int64_t*, int, Py_ssize_t, PyObject*,
                           int64_t) except NULL


cdef PyObject* _bld_append(Machine self, PyObject* t, int slot, Py_ssize_t n,
                           PyObject* v) except NULL:
    """Append `v` (a stolen reference) to the list `t` of `n` elements, held only by the
    caller's reference (and builder `slot`, or -1): in its spare capacity, or moved into a
    new builder with doubled capacity. Returns the list as the caller's reference (on
    success the caller's reference to `t` is consumed)."""
    cdef PyObject* nt
    cdef PyObject* old
    cdef Py_ssize_t k, cap
    cdef int64_t item, sub, sz
    item = 32 if PyLong_CheckExact_raw(v) else cf_size(<object>v, 0)
    if slot >= 0 and n < self.bld_cap[slot]:
        PyTuple_SET_ITEM_raw(t, n, v)
        Py_SET_SIZE_raw(t, n + 1)
        if self.bld_sub[slot] >= 0:
            self.bld_sub[slot] = -1 if item < 0 else self.bld_sub[slot] + item
        return t
    if n == 0:
        # the empty List is left as it is (it may be held anywhere): a new builder
        nt = bor_bld_start(self.bld, self.bld_cap, self.bld_sub, self.bld_use, &self.bld_clock,
                           &self.bld_hint, BLD_SLOTS, v, item)
        _decref(t)
        return nt
    if slot >= 0:
        return bor_bld_grow(self.bld, self.bld_cap, self.bld_sub, slot, n, v, item)
    # a List no builder holds (only the caller does): copied into a new one
    cap = 2 * (n + 1)
    try:
        nt = PyTuple_New_raw(cap)
    except BaseException:
        _decref(v)
        raise
    sub = 0
    for k in range(n):
        _incref(PyTuple_GET_ITEM_raw(t, k))
        PyTuple_SET_ITEM_raw(nt, k, PyTuple_GET_ITEM_raw(t, k))
        if sub >= 0:
            sz = cf_size(<object>PyTuple_GET_ITEM_raw(t, k), 0)
            sub = -1 if sz < 0 else sub + sz
    sub = -1 if (sub < 0 or item < 0) else sub + item
    PyTuple_SET_ITEM_raw(nt, n, v)
    Py_SET_SIZE_raw(nt, n + 1)
    slot = _bld_victim(self)
    self.bld_hint = slot
    self.bld_clock += 1
    self.bld_use[slot] = self.bld_clock
    old = self.bld[slot]
    self.bld[slot] = nt
    self.bld_cap[slot] = cap
    self.bld_sub[slot] = sub
    _incref(nt)
    _decref(t)
    if old != NULL:
        _decref(old)
    return nt


cdef inline int _bld_slot(Machine self, PyObject* t) noexcept:
    """The builder slot holding `t` (marked as just used), or -1."""
    cdef int k = self.bld_hint
    if self.bld[k] != t:
        for k in range(BLD_SLOTS):
            if self.bld[k] == t:
                break
        else:
            return -1
        self.bld_hint = k
    self.bld_clock += 1
    self.bld_use[k] = self.bld_clock
    return k


cdef int _bld_victim(Machine self) noexcept:
    """The slot a new builder takes: the first empty one or one whose list only the slot
    still holds (dead), else the least recently grown (a list still being built keeps its
    builder while short-lived lists come and go, so a long list is not copied again each
    time BLD_SLOTS other lists were started). A snapshot writes this slot (`bld_next`) and
    a restore, which leaves the dead ones empty, picks the same one."""
    return bor_bld_victim(self.bld, self.bld_use, BLD_SLOTS)


cdef int _push_into(Machine self, Val* dst) except -1:
    """`x = ListPush(x, v)` / `x = ListAppend(x, v)`, then StoreLocal, in amortised O(1).

    The op is followed by StoreLocal into `dst`, which overwrites the local anyway. When
    the list operand is a tuple held only by that local and this operand (plus this
    machine's builder slot), nothing else can ever observe it, so the local is cleared
    early and the element written into spare capacity (or the list moved into a new
    builder with doubled capacity). The empty list is never changed (a new builder holds
    the element), so it may be held anywhere; its push spends the copy's work, the
    element's size. Returns 0, touching nothing, when any condition fails or the result
    would differ in any way (length limit, a memory walk or trace charge landing before
    the StoreLocal): the caller then runs the ordinary copy.
    Whenever the list is a tuple held only by that local and this operand, the charge is
    `_push_charge(n)` on either path (the copy, freed by the StoreLocal at once, adds no more
    live memory than growing in place): a declined push leaves it in `push_pend` for _cold."""
    cdef Val* s = self.stack
    cdef PyObject* t
    cdef PyObject* v
    cdef Py_ssize_t n
    cdef int slot
    cdef int64_t charge, ghost = 0
    cdef bint walk
    if self.sp < 2:
        return 0
    if s[self.sp - 2].tag != T_OBJ or dst.tag != T_OBJ or dst.o != s[self.sp - 2].o:
        return 0
    t = dst.o
    if not PyTuple_CheckExact_raw(t):
        return 0
    n = Py_SIZE_raw(t)
    if n + 1 > C_MAX_COLLECTION_LEN:
        return 0
    slot = _bld_slot(self, t)
    charge = _push_charge(n)
    walk = self.alloc_bytes + charge >= self.next_walk
    if n == 0:
        if (not self.push_mutates or walk or (self.tracing and self.trace_total < self.trace_keep
                and self.alloc_bytes + charge + TRACE_ENTRY_BYTES >= self.next_walk)):
            return 0
        if s[self.sp - 1].tag >= T_OBJ:
            _spend(self, work_size(to_py(&s[self.sp - 1])))
    else:
        if Py_REFCNT_raw(t) != (3 if slot >= 0 else 2):
            return 0
        if not self.push_mutates or (
                self.tracing and self.trace_total < self.trace_keep
                and self.alloc_bytes + charge + TRACE_ENTRY_BYTES >= self.next_walk):
            # (a walk at the StoreLocal's trace line would miss the old list)
            self.push_pend = charge
            return 0
        if walk:
            # the copying path walks with the old list still in the local: count it as a
            # ghost, which needs its items' size to be independent of the rest of the walk
            if slot < 0 or self.bld_sub[slot] < 0:
                self.push_pend = charge
                return 0
            ghost = 56 + 8 * n + self.bld_sub[slot]
    # the local's reference goes now (its StoreLocal is the next op)
    dst.tag = T_UNIT
    _decref(t)
    v = take_owned(&s[self.sp - 1])
    self.sp -= 1
    # the operand's reference moves to the grown list
    s[self.sp - 1].o = _bld_append(self, t, slot, n, v)
    if walk:
        self.ghost = ghost
        try:
            _charge(self, charge)
        finally:
            self.ghost = 0
    else:
        self.alloc_bytes += charge
    if self.max_wall_ms_obj is not None or self.cancel_event is not None:
        err = _wall_check(self)
        if err is not None:
            raise err
    return 1


cdef int _push_get(Machine self, Val* loc, int64_t* ins) except -1:
    """OP_SUPER_PUSHGET, `x = ListPush(x, ListGet(l, i))` (LoadLocal x, LoadLocal l,
    LoadLocal i, ListGet, ListPush, StoreLocal x) at once, the element moved from `l` to `x`
    without unboxing: when `l` is a List and `i` an index in it, and the push would grow `x`
    in place (`_push_into`) with no memory walk, wall clock or cancellation check due.
    Returns 0, touching nothing, otherwise (the caller runs the six one by one)."""
    cdef Val* x = &loc[ins[1]]
    cdef Val* l = &loc[ins[2]]
    cdef Val* i = &loc[ins[3]]
    cdef PyObject* t
    cdef PyObject* v
    cdef Py_ssize_t n
    cdef int slot
    cdef int64_t charge, work
    if (l.tag != T_OBJ or i.tag != T_INT or x.tag != T_OBJ or not self.push_mutates
            or self.max_wall_ms_obj is not None or self.cancel_event is not None):
        return 0
    if not PyTuple_CheckExact_raw(l.o) or i.i < 0 or i.i >= Py_SIZE_raw(l.o):
        return 0
    t = x.o
    if not PyTuple_CheckExact_raw(t):
        return 0
    n = Py_SIZE_raw(t)
    if n + 1 > C_MAX_COLLECTION_LEN:
        return 0
    v = PyTuple_GET_ITEM_raw(l.o, i.i)
    if PyLong_CheckExact_raw(v) and not bor_long_fits(v):
        return 0        # ListGet's conversion error
    slot = -1
    if n > 0:
        slot = _bld_slot(self, t)
        if Py_REFCNT_raw(t) != (2 if slot >= 0 else 1):
            return 0
    charge = _push_charge(n)
    if self.alloc_bytes + charge >= self.next_walk:
        return 0
    work = work_size(<object>v) if n == 0 else 0     # the empty list's push (_push_into)
    if self.work + work > self.max_work:
        return 0
    self.work += work
    _incref(v)
    x.o = _bld_append(self, t, slot, n, v)
    self.alloc_bytes += charge
    return 1
