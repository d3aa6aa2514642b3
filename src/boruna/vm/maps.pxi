# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# Maps in C: MapGet / MapContainsKey / MapLen on a map and a String key, and
# `m = MapSet(m, k, v)` / `m = MapRemove(m, k)` in place when nothing else holds the map
# (in key order, or appended when the local is only ever read by these builtins).

cdef extern from "Python.h":
    PyObject* PyDict_GetItemWithError_raw "PyDict_GetItemWithError"(PyObject*, PyObject*) except? NULL
    int PyDict_Contains_raw "PyDict_Contains"(PyObject*, PyObject*) except -1
    int PyDict_SetItem_raw "PyDict_SetItem"(PyObject*, PyObject*, PyObject*) except -1
    int PyDict_DelItem_raw "PyDict_DelItem"(PyObject*, PyObject*) except -1
    Py_ssize_t PyDict_Size_raw "PyDict_Size"(PyObject*)

cdef PyObject* MAPVALUE_T = <PyObject*>MapValue

# maps set or removed in place (_map_into); False runs every MapSet/MapRemove as a copy
MAP_IN_PLACE = True
# in-place inserts into a map-only local append the key instead of keeping key order
# (_map_only_locals); False keeps every in-place map in key order
MAP_UNSORTED = True

# the builtins a map-only local's value may flow into (as their first operand)
_MAP_READERS = ("MapGet", "MapContainsKey", "MapLen")
_MAP_WRITERS = ("MapSet", "MapRemove")
# straight-line ops a map operand may wait under: (pops, pushes)
_STACK_EFFECTS = {"LoadLocal": (0, 1), "PushConst": (0, 1), "Dup": (1, 2)}
for _name in ("Add", "Sub", "Mul", "Div", "Mod", "Concat", "Eq", "Neq", "Lt", "Lte", "Gt", "Gte",
              "And", "Or"):
    _STACK_EFFECTS[_name] = (2, 1)
for _name in ("IntToString", "StringLen", "Neg", "Not"):
    _STACK_EFFECTS[_name] = (1, 1)


def _lends_map(code, j, slot):
    """Whether the value `LoadLocal(slot)` at `code[j]` pushes flows, through straight-line
    ops only, into the first operand of a map reader, or of MapSet/MapRemove whose result
    is stored back into `slot`."""
    depth = 0       # values above the loaded one
    for k in range(j + 1, min(len(code), j + 64)):
        ins = code[k]
        name = ins[0]
        info = OPCODES.get(name)
        if info is None:
            return False
        if info.path == COLD:
            pops = COLD_OPS[info.tag][0] if info.tag in COLD_OPS else -1
            pushes = 1
        elif name in _STACK_EFFECTS:
            pops, pushes = _STACK_EFFECTS[name]
        else:
            return False
        if pops < 0:
            return False
        if pops > depth:         # this op takes the loaded value
            if pops != depth + 1:
                return False
            if name in _MAP_READERS:
                return True
            return (name in _MAP_WRITERS and k + 1 < len(code)
                    and tuple(code[k + 1]) == ("StoreLocal", slot))
        depth += pushes - pops
    return False


def _map_only_locals(code, arity):
    """The local slots (parameters excepted: contract failures display them) whose every
    read is a LoadLocal that `_lends_map`: a map held there is never seen in any order, so
    in-place inserts may append keys (vm/maps.pxi `_map_into`)."""
    loaded = set()
    bad = set()
    try:
        for j, ins in enumerate(code):
            if len(ins) == 2 and ins[0] == "LoadLocal":
                slot = ins[1]
                loaded.add(slot)
                if slot in bad:
                    continue
                if type(slot) is not int or slot < arity or not _lends_map(code, j, slot):
                    bad.add(slot)
    except Exception:       # a malformed instruction: its op fails at run time anyway
        return set()
    return loaded - bad


cdef int _map_into(Machine self, Val* dst, int tag, int64_t unsorted) except -1:
    """`m = MapSet(m, k, v)` / `m = MapRemove(m, k)`, then StoreLocal, in place.

    As _push_into: the op is followed by StoreLocal into `dst`. When the map operand is a
    map held only by that local and this operand, nothing else can observe it, so the key
    is set or removed in the map itself: in sorted position, or appended when `unsorted`
    (the local is map-only, `_map_only_locals`: its map is only ever looked up, so its
    order is never seen; a copy of it is a new, sorted map). The work and the allocation
    charge are those of the copying builtin. Returns 0, touching nothing, when any
    condition fails or the result could differ (a wrong operand type, the length limit, a
    memory walk or a trace charge's walk landing before the StoreLocal): the caller then
    runs the ordinary copy."""
    cdef Val* s = self.stack
    cdef int n = 3 if tag == OP_MAPSET else 2
    cdef Val* mv
    cdef Val* kv
    cdef PyObject* mp
    cdef PyObject* kp
    cdef PyObject* vp
    cdef Py_ssize_t size, size0
    cdef int64_t charge, work
    cdef bint present
    if self.sp < n:
        return 0
    mv = &s[self.sp - n]
    kv = &s[self.sp - n + 1]
    if mv.tag != T_OBJ or dst.tag != T_OBJ or dst.o != mv.o or kv.tag != T_OBJ:
        return 0
    mp = mv.o
    kp = kv.o
    if Py_REFCNT_raw(mp) != 2:      # the local and this operand
        return 0
    if Py_TYPE_raw(mp) != MAPVALUE_T or not PyUnicode_CheckExact_raw(kp):
        return 0
    size0 = PyDict_Size_raw(mp)
    if tag == OP_MAPSET and unsorted:
        # the key is set wherever it goes: the checks take the larger of the two charges
        # (a copy, when they decline, charges the same), the size afterwards tells which
        present = False
        if size0 + 1 > C_MAX_COLLECTION_LEN:
            return 0
        size = size0 + 1
    else:
        present = PyDict_Contains_raw(mp, kp)
        size = size0
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
    work = size0 + PyUnicode_GET_LENGTH(<object>kp)
    if tag == OP_MAPSET and s[self.sp - 1].tag == T_OBJ:
        work += work_size(<object>s[self.sp - 1].o)
    _spend(self, work)
    if tag == OP_MAPSET:
        vp = take_owned(&s[self.sp - 1])
        self.sp -= 1
        try:
            if present or unsorted or size0 == 0 or <str>kp > next(reversed(<object>mp)):
                PyDict_SetItem_raw(mp, kp, vp)
            else:       # a new key before the last: re-insert the keys after it
                m = <object>mp
                k = <object>kp
                after = [(x, m.pop(x)) for x in [x for x in m if x > k]]
                m[k] = <object>vp
                m.update(after)
        finally:
            _decref(vp)
        charge = 232 + 100 * PyDict_Size_raw(mp)
    elif present:
        PyDict_DelItem_raw(mp, kp)
    self.sp -= 1
    vclear(&s[self.sp])
    self.alloc_bytes += charge
    if self.max_wall_ms_obj is not None or self.cancel_event is not None:
        err = _wall_check(self)
        if err is not None:
            raise err
    return 1


cdef int _map_fast(Machine self, int tag) except -1:
    """MapGet, MapContainsKey and MapLen on a map (and a String key) in C: the result,
    work and charge of `_cold`. Returns 0, touching nothing, for any other operands (the
    caller then runs `_cold`)."""
    cdef Val* s = self.stack
    cdef int n = 1 if tag == OP_MAPLEN else 2
    cdef Val* mv
    cdef Val* kv
    cdef PyObject* p
    cdef int64_t r
    if self.sp < n:
        return 0
    mv = &s[self.sp - n]
    if mv.tag != T_OBJ or Py_TYPE_raw(mv.o) != MAPVALUE_T:
        return 0
    if tag == OP_MAPLEN:
        r = PyDict_Size_raw(mv.o)
        vclear(mv)
        mv.tag = T_INT
        mv.i = r
    else:
        kv = &s[self.sp - 1]
        if kv.tag != T_OBJ or not PyUnicode_CheckExact_raw(kv.o):
            return 0
        if tag == OP_MAPGET:
            p = PyDict_GetItemWithError_raw(mv.o, kv.o)
            if p == NULL:
                p = make_none()
            else:
                _incref(p)
                p = make_some(p)
            vclear(kv)
            vclear(mv)
            mv.tag = T_OBJ
            mv.o = p
        else:
            r = PyDict_Contains_raw(mv.o, kv.o)
            vclear(kv)
            vclear(mv)
            mv.tag = T_BOOL
            mv.i = r
        self.sp -= 1
    _charge(self, 48)
    if self.max_wall_ms_obj is not None or self.cancel_event is not None:
        err = _wall_check(self)
        if err is not None:
            raise err
    return 1
