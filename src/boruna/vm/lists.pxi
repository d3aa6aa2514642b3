# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# List building: ListLen/ListGet on tuples in C, and `x = ListPush(x, v)` grown in
# place in over-allocated builder tuples (amortised O(1)).

# in-place list building relies on tuples caching no hash (true through CPython 3.13)
import sys as _sys
PUSH_IN_PLACE = _sys.version_info < (3, 14)


cdef int _list_op(Machine self, int op) except -1:
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
        return _cold(self, OP_LISTLEN)
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
    return _cold(self, OP_LISTGET)


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


cdef int _push_into(Machine self, Val* dst) except -1:
    """`x = ListPush(x, v)` / `x = ListAppend(x, v)`, then StoreLocal, in amortised O(1).

    The op is followed by StoreLocal into `dst`, which overwrites the local anyway. When
    the list operand is a tuple held only by that local and this operand (plus this
    machine's builder slot), nothing else can ever observe it, so the local is cleared
    early and the element written into spare capacity (or the list moved into a new
    builder with doubled capacity). Returns 0, touching nothing, when any condition
    fails or the result would differ in any way (length limit, a memory walk or trace
    charge landing before the StoreLocal): the caller then runs the ordinary copy.
    Whenever the list is a tuple held only by that local and this operand, the charge is
    `_push_charge(n)` on either path (the copy, freed by the StoreLocal at once, adds no more
    live memory than growing in place): a declined push leaves it in `push_pend` for _cold."""
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
    if n + 1 > C_MAX_COLLECTION_LEN:
        return 0
    for k in range(BLD_SLOTS):
        if self.bld[k] == t:
            slot = <int>k
    if Py_REFCNT_raw(t) != (3 if slot >= 0 else 2):
        return 0
    charge = _push_charge(n)
    walk = self.alloc_bytes + charge >= self.next_walk
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


# maps set or removed in place (_map_into); False runs every MapSet/MapRemove as a copy
MAP_IN_PLACE = True


cdef int _map_into(Machine self, Val* dst, int tag) except -1:
    """`m = MapSet(m, k, v)` / `m = MapRemove(m, k)`, then StoreLocal, in place.

    As _push_into: the op is followed by StoreLocal into `dst`. When the map operand is a
    map held only by that local and this operand, nothing else can observe it, so the key
    is set (in sorted position) or removed in the map itself. The work and the allocation
    charge are those of the copying builtin. Returns 0, touching nothing, when any
    condition fails or the result could differ (a wrong operand type, the length limit, a
    memory walk or a trace charge's walk landing before the StoreLocal): the caller then
    runs the ordinary copy."""
    cdef Val* s = self.stack
    cdef int n = 3 if tag == OP_MAPSET else 2
    cdef Val* mv
    cdef Val* kv
    cdef Py_ssize_t size
    cdef int64_t charge, work
    cdef bint present
    if self.sp < n:
        return 0
    mv = &s[self.sp - n]
    kv = &s[self.sp - n + 1]
    if mv.tag != T_OBJ or dst.tag != T_OBJ or dst.o != mv.o or kv.tag != T_OBJ:
        return 0
    if Py_REFCNT_raw(mv.o) != 2:      # the local and this operand
        return 0
    m = <object>mv.o
    k = <object>kv.o
    if type(m) is not MapValue or type(k) is not str:
        return 0
    present = k in m
    size = len(m)
    if tag == OP_MAPSET:
        if not present:
            if size + 1 > C_MAX_COLLECTION_LEN:
                return 0
            size += 1
    elif present:
        size -= 1
    charge = 232 + 100 * size
    if self.alloc_bytes + charge >= self.next_walk:
        return 0
    if (self.tracing and self.trace_total < self.trace_keep
            and self.alloc_bytes + charge + TRACE_ENTRY_BYTES >= self.next_walk):
        return 0
    work = len(m) + len(k)
    if tag == OP_MAPSET and s[self.sp - 1].tag == T_OBJ:
        work += work_size(<object>s[self.sp - 1].o)
    _spend(self, work)
    if tag == OP_MAPSET:
        v = to_py(&s[self.sp - 1])
        if present or not m or k > next(reversed(m)):
            m[k] = v
        else:       # a new key before the last: re-insert the keys after it
            after = [(x, m.pop(x)) for x in [x for x in m if x > k]]
            m[k] = v
            m.update(after)
        v = None
    elif present:
        del m[k]
    for _ in range(n - 1):
        self.sp -= 1
        vclear(&s[self.sp])
    self.alloc_bytes += charge
    if self.max_wall_ms_obj is not None or self.cancel_event is not None:
        err = _wall_check(self)
        if err is not None:
            raise err
    return 1
