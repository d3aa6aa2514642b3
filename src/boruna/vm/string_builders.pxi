# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# String building: `s = s ++ t` (Concat) on an ASCII String nothing but the operand holds
# appends `t` into room this machine over-allocated (vm/core/strings.h) instead of copying
# `s`, so building a String of n characters by appends costs O(n), however the String is held
# (a local, a parameter, a record field: the moves and field takes of vm/reuse.pxi leave the
# operand its only holder). Any other holder gets the ordinary copy (vm/loop.pxi).

STR_IN_PLACE = True
"""Whether Concat appends into String builders (off: every Concat copies; the tests compare)."""

cdef enum:
    SBLD_MIN = 64           # a shorter result is copied, no builder
    SBLD_STEP = 1048576     # the room doubles up to this many characters, then grows by it


cdef inline int _sbld_slot(Machine self, PyObject* s) noexcept:
    cdef int k
    for k in range(SBLD_SLOTS):
        if self.sbld[k] == s:
            return k
    return -1


cdef int _sbld_victim(Machine self) noexcept:
    """The slot a new String builder takes: the first empty one or one whose String only the
    slot still holds (dead), else the least recently grown."""
    cdef int k, best = 0
    for k in range(SBLD_SLOTS):
        if self.sbld[k] == NULL or Py_REFCNT_raw(self.sbld[k]) == 1:
            return k
        if self.sbld_use[k] < self.sbld_use[best]:
            best = k
    return best


cdef int _sbld_release_dead(Machine self) noexcept:
    """Let go of the builders whose String nothing but the slot holds (a memory walk and a
    snapshot call this: a dead builder's room is not kept past them)."""
    cdef int k
    for k in range(SBLD_SLOTS):
        if self.sbld[k] != NULL and Py_REFCNT_raw(self.sbld[k]) == 1:
            _decref(self.sbld[k])
            self.sbld[k] = NULL
    return 0


cdef inline bint _str_alone(Machine self, PyObject* s) noexcept:
    """Whether nothing but the operand (and its builder slot) holds the String `s`: a Concat
    onto it lets it go, so the machine's live values grow by the right String only."""
    return Py_REFCNT_raw(s) == (2 if _sbld_slot(self, s) >= 0 else 1)


cdef int _str_concat(Machine self, Val* a, Val* b, int64_t n) except -1:
    """Concat of the Strings in `a` and `b` (type-checked; `n` the result's length) when `a`
    is an ASCII String only the operand holds (and its builder slot) and `b` is ASCII:
    1 with the result in `a` (`b` untouched: the caller pops it), 2 when the work limit is
    met (the charge spent, nothing else changed), 0 when not taken (nothing changed).

    In the room of `a`'s builder: spends `b`'s length as work. Otherwise, for a result of
    SBLD_MIN characters or more, a new builder with room for the result plus as much again (at
    most SBLD_STEP more) takes `a`'s place: it spends the copy's work (the result's length).
    Either way it charges the allocation accounting `b`'s length, as a copy onto a String only
    the operand holds does (vm/loop.pxi), so memory walks fall where the copying VM's do."""
    cdef PyObject* s = a.o
    cdef PyObject* t = b.o
    cdef PyObject* nb
    cdef int k
    cdef Py_ssize_t cap
    if not self.str_mutates or n > C_MAX_STRING_BYTES:     # (ASCII: a byte a character)
        return 0
    k = _sbld_slot(self, s)
    if Py_REFCNT_raw(s) != (2 if k >= 0 else 1) or not bor_str_writable(s) \
            or not bor_str_ascii(t):
        return 0
    if k >= 0 and n <= self.sbld_cap[k]:
        self.work += n - PyUnicode_GET_LENGTH(<object>s)
        if self.work > self.max_work:
            return 2
        bor_str_append(s, t)
        self.alloc_bytes += PyUnicode_GET_LENGTH(<object>t)
        self.sbld_clock += 1
        self.sbld_use[k] = self.sbld_clock
        return 1
    if n < SBLD_MIN:
        return 0
    self.work += n
    if self.work > self.max_work:
        return 2
    cap = n + (n if n < SBLD_STEP else SBLD_STEP)
    nb = bor_str_with_room(s, t, cap)
    if k < 0:
        k = _sbld_victim(self)
    if self.sbld[k] != NULL:
        _decref(self.sbld[k])
    _incref(nb)
    self.sbld[k] = nb
    self.sbld_cap[k] = cap
    self.sbld_clock += 1
    self.sbld_use[k] = self.sbld_clock
    a.o = nb            # the operand's reference; its old String is let go
    _decref(s)
    self.alloc_bytes += PyUnicode_GET_LENGTH(<object>t)
    return 1
