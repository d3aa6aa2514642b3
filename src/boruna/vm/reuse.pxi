# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# Reuse of values nothing else holds (Perceus / Lean 4 style, decided at run time by the
# reference count): a local's last read moves its value out (the local is left Unit), a
# field read from a record only the operand and locals that never read that field again
# hold takes the field out, and ListPush / ListAppend / ListConcat / MapSet / MapRemove on a list or map
# only their operand holds change it in place. The analysis runs once per function at load.

# a local's last read moves its value (False: every LoadLocal copies)
MOVES = True

_JUMPS = ("Jmp", "JmpIf", "JmpIfNot")


@cython.boundscheck(True)
@cython.wraparound(True)
def _reuse_plan(code, match_tables, arity):
    """The moves and field takes of one function's code (a list of instruction tuples).

    Returns (moves, takes): `moves` the pcs of LoadLocal whose slot is not read again before
    it is stored to (on every path) and of StoreLocal to a slot not read before the next
    store (the value is dropped, the slot left Unit), `takes` maps the pc of a GetField(k) to up to two
    slots whose every later read (before a store) is a GetField of a field other than k.
    Parameters are never moved nor listed when the function has an Assert (a failed
    contract displays them).

    Backward liveness per slot, iterated in reverse pc order to a fixed point (given up,
    with no moves or takes, past 50 rounds): what is live after a pc is one int, a bitset of
    B bits per slot the code names (slot i's bits at i * B): bit 0 = read whole, bit c =
    field column c read (a LoadLocal directly followed by GetField(k); one column per field
    index k the function reads so, in order of k). An instruction costs a few operations on
    that int, so the analysis grows with the code times the live slots / 64, not with the
    code times the live slots as copying a table of them per instruction did."""
    n = len(code)
    succ = [None] * n
    fields = [None] * n     # per LoadLocal pc: the GetField index right after, or -1
    named = set()           # the slots LoadLocal / StoreLocal name
    try:
        has_assert = False
        for pc in range(n):
            ins = code[pc]
            name = ins[0]
            if name in _JUMPS:
                t = ins[1]
                if type(t) is not int or t < 0:
                    return (), {}
                succ[pc] = (t,) if name == "Jmp" else (pc + 1, t)
            elif name == "Match":
                tab = ins[1]
                if type(tab) is not int or tab < 0 or tab >= len(match_tables):
                    succ[pc] = ()
                else:
                    # the targets as loading bounds them (vm/loading.pxi): below 0 is 0
                    succ[pc] = tuple(max(int(arm[1]), 0) for arm in match_tables[tab])
            elif name == "Ret" or name == "Halt":
                succ[pc] = ()
            else:
                if name == "Assert":
                    has_assert = True
                elif name == "LoadLocal" or name == "StoreLocal":
                    if len(ins) != 2 or type(ins[1]) is not int:
                        return (), {}
                    named.add(ins[1])
                succ[pc] = (pc + 1,)
            if name == "LoadLocal":
                nxt = code[pc + 1] if pc + 1 < n else None
                fields[pc] = (nxt[1] if nxt is not None and len(nxt) == 2 and nxt[0] == "GetField"
                              and type(nxt[1]) is int else -1)
    except Exception:       # a malformed instruction: its op fails at run time anyway
        return (), {}
    slots = sorted(named)
    index = {sl: i for i, sl in enumerate(slots)}
    column = {k: c + 1 for c, k in enumerate(sorted({k for k in fields if k is not None
                                                     and k >= 0}))}
    B = len(column) + 1
    full = (1 << B) - 1
    # per pc: a LoadLocal's bit (gen), a StoreLocal's slot shift (kill), else None
    gen = [None] * n
    kill = [None] * n
    for pc in range(n):
        name = code[pc][0]
        if name == "LoadLocal":
            k = fields[pc]
            gen[pc] = 1 << (index[code[pc][1]] * B + (0 if k < 0 else column[k]))
        elif name == "StoreLocal":
            kill[pc] = index[code[pc][1]] * B
    live_in = [0] * (n + 1)
    changed = True
    rounds = 0
    while changed:
        changed = False
        rounds += 1
        if rounds > 50:
            return (), {}
        for pc in range(n - 1, -1, -1):
            out = _merge(live_in, succ[pc], n)
            g = gen[pc]
            if g is not None:
                out |= g
            else:
                sh = kill[pc]
                if sh is not None and out >> sh & full:
                    out &= ~(full << sh)
            if out != live_in[pc]:
                live_in[pc] = out
                changed = True
    moves = []
    takes = {}
    every = 0               # bit 0 of every slot
    for i in range(len(slots)):
        every |= 1 << (i * B)
    params = 0              # bit 0 of every parameter's slot (never a holder with an Assert)
    if has_assert:
        for i, sl in enumerate(slots):
            if sl < arity:
                params |= 1 << (i * B)
    for pc in range(n):
        name = code[pc][0]
        if name == "StoreLocal" or name == "LoadLocal":
            sl = code[pc][1]
            if has_assert and sl < arity:
                continue
            if not _merge(live_in, succ[pc], n) >> (index[sl] * B) & full:
                moves.append(pc)        # a last read, or a dead store (the value is dropped)
        elif name == "GetField":
            if len(code[pc]) != 2:
                continue                # malformed: it fails at run time
            k = code[pc][1]
            if type(k) is not int:
                continue
            out = _merge(live_in, succ[pc], n)
            live = 0
            for c in range(B):
                live |= out >> c & every
            cands = live & ~(out & every) & ~params
            c = column.get(k)
            if c is not None:
                cands &= ~(out >> c & every)
            found = []
            while cands and len(found) < 2:
                low = cands & -cands
                found.append(slots[(low.bit_length() - 1) // B])
                cands ^= low
            takes[pc] = found
    return moves, takes


@cython.boundscheck(True)
@cython.wraparound(True)
def _merge(live_in, succs, n):
    """What is live after a pc: the union of what is live before each of its successors (a
    successor past the end, the implicit return, has nothing live)."""
    if len(succs) == 1:
        t = succs[0]
        return live_in[t] if t < n else 0
    out = 0
    for t in succs:
        if t < n:
            out |= live_in[t]
    return out


cdef inline void _load(Machine self, Val* dst, Val* src, int64_t* ins) noexcept:
    """LoadLocal of the instruction at `ins` (a superinstruction's first op run alone):
    a move when it is the slot's last read, else a copy."""
    bor_load(self.movef, self.code, dst, src, ins)     # vm/core/values.h


cdef Py_ssize_t MAP_UNSORTED_OFF = bor_slot_offset(MapValue.__dict__["_unsorted"])
if MAP_UNSORTED_OFF < 0:
    raise ImportError("boruna.core.values: MapValue needs a plain `_unsorted` slot")

# the classes, slots and type ids the C core's MakeEnum, Match and map builtins use
bor_core_init(ENUM_T, SOME_T, OK_T, ERR_T, <PyObject*>NONE, ENUM_TID_OFF, ENUM_VAR_OFF,
              ENUM_PAY_OFF, WRAP_VAL_OFF, SOME_TID, RESULT_TID, MAP_UNSORTED_OFF)


cdef int _reuse_list(Machine self) except -1:
    """ListPush / ListAppend on a List only the operand holds (and this machine's builder
    slot): the element goes into the list itself (`_bld_append`), no work spent, the
    allocation charge `_push_charge(n)`; with PUSH_IN_PLACE off the copy runs with the same
    charge (push_pend). The empty list starts a builder (the copy's work and charge). Returns
    0, touching nothing (but push_pend), when the list is held elsewhere or a limit could be
    hit (the caller then copies)."""
    cdef Val* s = self.stack
    cdef PyObject* t
    cdef PyObject* v
    cdef Py_ssize_t n
    cdef int slot
    cdef int64_t charge
    if self.sp < 2 or s[self.sp - 2].tag != T_OBJ:
        return 0
    t = s[self.sp - 2].o
    if not PyTuple_CheckExact_raw(t):
        return 0
    n = Py_SIZE_raw(t)
    if n + 1 > C_MAX_COLLECTION_LEN:
        return 0
    charge = _push_charge(n)
    if n == 0:
        if not self.push_mutates:
            return 0
        slot = -1
        if s[self.sp - 1].tag >= T_OBJ:
            _spend(self, work_size(to_py(&s[self.sp - 1])))
    else:
        slot = _bld_slot(self, t)
        if Py_REFCNT_raw(t) != (2 if slot >= 0 else 1):
            return 0
        if not self.push_mutates:
            self.push_pend = charge
            return 0
    v = take_owned(&s[self.sp - 1])
    self.sp -= 1
    # the operand's reference moves to the grown list
    s[self.sp - 1].o = _bld_append(self, t, slot, n, v)
    _charge(self, charge)
    if self.max_wall_ms_obj is not None or self.cancel_event is not None:
        err = _wall_check(self)
        if err is not None:
            raise err
    return 1


cdef int _reuse_concat(Machine self) except -1:
    """ListConcat of a non-empty List only the operand holds (and this machine's builder
    slot) with a List: the right list's elements go into the left list itself, one
    `_bld_append` each; work: the right list's length (the copy spent both lengths);
    charge: what as many pushes charge (`_push_charge` per element); with PUSH_IN_PLACE off
    the copy runs with the same charge (push_pend). Returns 0, touching nothing (but
    push_pend), when the left list is empty or held elsewhere, an operand is not a List,
    or the length limit could be hit (the caller then copies)."""
    cdef Val* s = self.stack
    cdef PyObject* t
    cdef PyObject* r
    cdef PyObject* v
    cdef Py_ssize_t n, k, j
    cdef int slot
    cdef int64_t charge = 0
    if self.sp < 2 or s[self.sp - 2].tag != T_OBJ or s[self.sp - 1].tag != T_OBJ:
        return 0
    t = s[self.sp - 2].o
    r = s[self.sp - 1].o
    if not PyTuple_CheckExact_raw(t) or not PyTuple_CheckExact_raw(r) or r == t:
        return 0
    n = Py_SIZE_raw(t)
    k = Py_SIZE_raw(r)
    if n == 0 or n + k > C_MAX_COLLECTION_LEN:
        return 0
    slot = _bld_slot(self, t)
    if Py_REFCNT_raw(t) != (2 if slot >= 0 else 1):
        return 0
    for j in range(k):
        charge += _push_charge(n + j)
    if not self.push_mutates:
        self.push_pend = charge
        return 0
    _spend(self, k)
    # the left operand's reference moves to the grown list; the right one is dropped
    for j in range(k):
        v = PyTuple_GET_ITEM_raw(r, j)
        _incref(v)
        s[self.sp - 2].o = _bld_append(self, s[self.sp - 2].o, slot, n + j, v)
        slot = _bld_slot(self, s[self.sp - 2].o)
    self.sp -= 1
    vclear(&s[self.sp])
    _charge(self, charge)
    if self.max_wall_ms_obj is not None or self.cancel_event is not None:
        err = _wall_check(self)
        if err is not None:
            raise err
    return 1


cdef int _reuse_map(Machine self, int tag) except -1:
    """MapSet / MapRemove on a Map only the operand holds, with a String key: the key is set
    or removed in the map itself (a new key appended: the map is marked unsorted, and
    core/values.py's MapValue puts it back in key order before anything reads the order).
    Work: the key's length (and the value's size); charge: 100 bytes for a new key, else 0;
    with MAP_IN_PLACE off the copy runs with the same charge. Returns 0, touching nothing
    (but push_pend), when the map is held elsewhere, an operand has another type or the
    length limit could be hit (the caller then copies)."""
    cdef Val* s = self.stack
    cdef int n = 3 if tag == OP_MAPSET else 2
    cdef PyObject* mp
    cdef PyObject* kp
    cdef PyObject* vp
    cdef PyObject* old
    cdef Py_ssize_t size0
    cdef int64_t charge = 0, work
    cdef bint present, known
    if self.sp < n or s[self.sp - n].tag != T_OBJ or s[self.sp - n + 1].tag != T_OBJ:
        return 0
    mp = s[self.sp - n].o
    kp = s[self.sp - n + 1].o
    if Py_TYPE_raw(mp) != MAPVALUE_T or not PyUnicode_CheckExact_raw(kp) or Py_REFCNT_raw(mp) != 1:
        return 0
    size0 = PyDict_Size_raw(mp)
    # a MapSet that cannot reach the length limit learns whether the key was new from the
    # size after setting it (one hash lookup, not two)
    known = tag != OP_MAPSET or size0 + 1 > C_MAX_COLLECTION_LEN or not MAP_IN_PLACE
    if known:
        present = PyDict_Contains_raw(mp, kp)
        if tag == OP_MAPSET and not present:
            if size0 + 1 > C_MAX_COLLECTION_LEN:
                return 0
            charge = 100
        if not MAP_IN_PLACE:
            self.push_pend = charge
            return 0
    work = PyUnicode_GET_LENGTH(<object>kp)
    if tag == OP_MAPSET and s[self.sp - 1].tag >= T_OBJ:
        work += work_size(to_py(&s[self.sp - 1]))
    _spend(self, work)
    if tag == OP_MAPSET:
        vp = take_owned(&s[self.sp - 1])
        self.sp -= 1
        try:
            PyDict_SetItem_raw(mp, kp, vp)
        finally:
            _decref(vp)
        if not known:
            present = PyDict_Size_raw(mp) == size0
            if not present:
                charge = 100
        if not present and size0 > 0:
            old = bor_slot(mp, MAP_UNSORTED_OFF)
            if old != Py_True_raw:
                _incref(Py_True_raw)
                bor_set_slot(mp, MAP_UNSORTED_OFF, Py_True_raw)
                if old != NULL:
                    _decref(old)
    elif present:
        PyDict_DelItem_raw(mp, kp)
    self.sp -= 1
    vclear(&s[self.sp])
    if charge:
        _charge(self, charge)
    if self.max_wall_ms_obj is not None or self.cancel_event is not None:
        err = _wall_check(self)
        if err is not None:
            raise err
    return 1
