# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# Memory and work accounting: approximate value sizes, allocation charges, the
# live-value walk that enforces max_value_memory, growth of the locals array, and the
# work budget of size-dependent builtins (max_work).

cdef inline int64_t work_size(object o) noexcept:
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


cdef PyObject* MSTR_T = <PyObject*>str
cdef PyObject* MTUPLE_T = <PyObject*>tuple
cdef PyObject* MMAPV_T = <PyObject*>MapValue
cdef PyObject* MRECORD_T = <PyObject*>Record


cdef int64_t cf_size(object o, int depth):
    """What _memory_walk adds for `o` when that does not depend on the rest of the walk
    (nothing in it is deduplicated by identity), else -1. Mirrors _memory_walk exactly.
    Reads records, lists and wrappers in C (their slots), no attribute lookups."""
    cdef int64_t total, x
    cdef PyObject* p = <PyObject*>o
    cdef PyObject* t = Py_TYPE_raw(p)
    cdef PyObject* items
    cdef PyObject* r
    cdef Py_ssize_t k, n
    if t == MSTR_T:
        if PyUnicode_GET_LENGTH(o) >= 256:
            return -1
        return 49 + PyUnicode_GET_LENGTH(o)
    if t == MTUPLE_T or t == MRECORD_T:
        if depth >= 4:
            return -1
        if t == MTUPLE_T:
            items = p
        elif REC_FAST and bor_rec_tuple(p) != NULL:
            items = bor_rec_tuple(p)
        else:
            return _cf_size_slow(o, depth)
        n = Py_SIZE_raw(items)
        if n >= 16:
            return -1
        total = (56 if t == MTUPLE_T else 120) + 8 * n
        for k in range(n):
            r = PyTuple_GET_ITEM_raw(items, k)
            if PyLong_CheckExact_raw(r):
                total += 32
                continue
            x = cf_size(<object>r, depth + 1)
            if x < 0:
                return -1
            total += x
        return total
    if t == MMAPV_T:
        return -1
    if t == SOME_T or t == OK_T or t == ERR_T or t == ENUM_T:
        if depth >= 4:
            return -1
        r = bor_slot(p, WRAP_VAL_OFF if t != ENUM_T else ENUM_PAY_OFF)
        if r == NULL:
            return _cf_size_slow(o, depth)
        x = cf_size(<object>r, depth + 1)
        return -1 if x < 0 else (48 if t != ENUM_T else 64) + x
    return 32


cdef int64_t _cf_size_slow(object o, int depth):
    """cf_size through attribute reads (a record or wrapper whose slots are not set)."""
    cdef int64_t total, x
    t = type(o)
    if t is tuple or t is Record:
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
    if t is Some or t is Ok or t is Err:
        x = cf_size(o.value, depth + 1)
        return -1 if x < 0 else 48 + x
    x = cf_size(o.payload, depth + 1)
    return -1 if x < 0 else 64 + x



cdef bint _ensure_locals(Machine self, int64_t n) noexcept:
    """Room for n more local slots (vm/core/values.h, shared with the loop's C core)."""
    return bor_ensure_locals(&self.locals, &self.locals_cap, self.lp, n, C_MAX_LOCALS,
                             &self.alloc_bytes)


cdef object _locals_error(Machine self):
    return VmError(f"memory limit exceeded: more than {MAX_LOCAL_SLOTS} local slots",
                   "memory_limit")


cdef int _charge(Machine self, int64_t n) except -1:
    self.alloc_bytes += n
    if self.alloc_bytes >= self.next_walk:
        _memory_walk(self)
    return 0


cdef object _work_error(Machine self):
    return VmError(f"work limit exceeded: builtins processed more than {self.max_work} "
                   "characters or elements", "work_limit")


cdef int _spend(Machine self, int64_t n) except -1:
    """Charge `n` work units; the work limit's VmError when they overrun `max_work`."""
    self.work += n
    if self.work > self.max_work:
        raise _work_error(self)
    return 0


cdef int _memory_walk(Machine self) except -1:
    cdef int64_t k, total = 0
    cdef Py_ssize_t n, j
    cdef int64_t cap = self.mem_cap
    bor_sbld_release(&self.sb, 0)     # dead String builders (vm/core/strings.h)
    roots = []
    for k in range(self.sp):
        if self.stack[k].tag >= T_OBJ:
            roots.append(<object>self.stack[k].o)
    for k in range(self.lp):
        if self.locals[k].tag >= T_OBJ:
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
    total += VAL_CHARGE * self.locals_cap
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
        if bor_is_view(<PyObject*>o) and BOR_VIEW_OFF(<PyObject*>o) == 0:
            # a view made a tuple stands for it (what its slots would hold without views)
            o = <object>BOR_VIEW_BASE(<PyObject*>o)
            t = tuple
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
                sub = _builder_items_size(self, o)
                if sub >= 0:
                    total += sub
                else:
                    work.extend(o)
            elif t is Record:
                work.extend(o.fields)
            else:
                work.extend(dict.values(o))     # no re-sort of an unsorted map
        elif t is Some or t is Ok or t is Err:
            total += 48
            work.append(o.value)
        elif t is Enum:
            total += 64
            work.append(o.payload)
        elif bor_is_view(<PyObject*>o):
            # a List view (vm/core/views.h) counts as the tuple of the items it shows
            n = bor_view_len(<PyObject*>o)
            if n >= 16:
                if id(o) in seen:
                    continue
                seen.add(id(o))
            total += 56 + 8 * n
            work.extend([<object>bor_view_item(<PyObject*>o, j) for j in range(n)])
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
