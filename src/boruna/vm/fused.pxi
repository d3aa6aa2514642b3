# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# The superinstructions from OP_SUPER_PUSHGET on, out of line: `_fused` runs the whole
# sequence or declines, and the loop then adds the op's fixed stack and step deltas (or runs
# the op the superinstruction replaced, when declined). Keeping them out of the loop's switch
# keeps its other ops as fast as before.

# per op from OP_SUPER_PUSHGET (the order of bytecode/opcodes.py's PSEUDO_OPS): the stack
# change and the further steps of a sequence `_fused` ran
cdef int FUSED_SP[5]
cdef int FUSED_STEPS[5]
for _k, (_op, _sp, _steps) in enumerate([
        (OP_SUPER_PUSHGET, 0, 5), (OP_SUPER_CMP_L, 1, 2), (OP_SUPER_STLDJ, -1, 2),
        (OP_SUPER_CMP2J, 0, 7), (OP_SUPER_LISTCMP, 1, 6)]):
    assert _op == OP_SUPER_PUSHGET + _k
    FUSED_SP[_k] = _sp
    FUSED_STEPS[_k] = _steps


cdef inline bint _icmp(int64_t x, int64_t y, int64_t op) noexcept:
    """x op y for Lt/Lte/Gt/Gte on Ints."""
    if op == OP_LT:
        return x < y
    if op == OP_LTE:
        return x <= y
    if op == OP_GT:
        return x > y
    return x >= y


cdef int64_t _fused(Machine self, int op, int64_t* ins, Val* loc, Val* stack, int sp,
                    int64_t* cur, int64_t ip, int64_t steps, int64_t check_at) except -2:
    """Run the sequence superinstruction `op` stands for (its first op already counted at
    `steps`; `ip` is the next op's) when no checkpoint falls among its further steps, the
    stack has room and the operands are what it handles: returns the next ip, the stack
    written from `sp` on (the loop adds FUSED_SP / FUSED_STEPS). Else -1, touching nothing:
    the loop runs the op it replaced."""
    cdef int k = op - OP_SUPER_PUSHGET
    cdef Val* a
    cdef Val* b
    cdef Val tmp
    cdef int64_t* w
    cdef bint c, c2
    if steps + FUSED_STEPS[k] - 1 >= check_at:
        return -1
    if op == OP_SUPER_PUSHGET:
        # x = ListPush(x, ListGet(l, i)), room for the three pushes
        if sp + 3 <= C_MAX_STACK and _push_get(self, loc, ins):
            return ip + 5
        return -1
    if op == OP_SUPER_CMP_L or op == OP_SUPER_CMP2J:
        a = &loc[ins[1]]
        b = &loc[ins[2]]
        if sp + 2 > C_MAX_STACK or a.tag != T_INT or b.tag != T_INT:
            return -1
        c = _icmp(a.i, b.i, ins[3])
        if op == OP_SUPER_CMP_L:
            stack[sp].tag = T_BOOL
            stack[sp].i = c
            return ip + 2
        # and the OP_SUPER_CMP_L at ip + 2, And/Or at ip + 5, JmpIfNot at ip + 6
        w = cur + (ip + 2) * W
        a = &loc[w[1]]
        b = &loc[w[2]]
        if a.tag != T_INT or b.tag != T_INT:
            return -1
        c2 = _icmp(a.i, b.i, w[3])
        if (c and c2) if cur[(ip + 5) * W] == OP_AND else (c or c2):
            return ip + 7
        return cur[(ip + 6) * W + 1]
    if op == OP_SUPER_LISTCMP:
        if sp + 3 <= C_MAX_STACK and _list_cmp(loc, ins, cur + (ip + 2) * W, &stack[sp]):
            return ip + 6
        return -1
    if op == OP_SUPER_STLDJ:
        if sp <= 0:
            return -1
        # the local gets the value and the branch tests it: it leaves the stack
        a = &loc[ins[1]]
        tmp = a[0]
        c = truthy(&stack[sp - 1])
        a[0] = stack[sp - 1]
        vclear(&tmp)
        return ip + 2 if c else ins[2]
    return -1


cdef inline int _listget_store(Machine self, Val* loc, Val* a, Val* b, int64_t* ins,
                               int64_t* st) except -1:
    """OP_SUPER_LISTGET followed by a plain StoreLocal (`st`), `let x = ListGet(l, i)`: the
    element of List `a` at Int `b` (checked in bounds) goes straight into the local, as the
    two ops would leave it (the list let go first when its read moves, a dead store drops
    the element)."""
    cdef Val tmp
    cdef Val* d
    tmp.tag = T_UNIT
    from_py(&tmp, <object>PyTuple_GET_ITEM_raw(a.o, b.i))
    if self.movef[(ins - self.code) // W]:
        vclear(a)       # the list's last read (vm/reuse.pxi)
    d = &loc[st[1]]
    vclear(d)
    if st[2]:           # a dead store (vm/reuse.pxi)
        vclear(&tmp)
    else:
        d[0] = tmp
    return 0


cdef int _push_local(Machine self, Val* loc, int64_t* ins, int sp) except -1:
    """OP_SUPER_PUSHL, `x = ListPush(x, v)`, after the loop ran its two LoadLocals (`sp`
    counts them): OP_PUSH_STORE and its StoreLocal x run here as the loop would run them
    (the same in-place growth, vm/reuse.pxi, or copy, the same charges and errors), with the
    steps checked by the caller. Returns the stack height after."""
    cdef Val* s = self.stack
    cdef int64_t* ps = ins + 2 * W
    cdef int64_t* st = ins + 3 * W
    cdef Val* d
    self.sp = sp
    if not _reuse_list(self) and not _push_into(self, &loc[ps[2]]):
        _cold(self, <int>ps[1])
    sp = self.sp - 1
    d = &loc[st[1]]
    vclear(d)
    if st[2]:
        vclear(&s[sp])
    else:
        d[0] = s[sp]
    return sp


cdef inline bint _const_cmp(Machine self, Val* a, Val* b, int64_t* ins, Val* dst) noexcept:
    """OP_SUPER_BINOP with a compare (ins[3]: Eq/Neq/Lt/Lte/Gt/Gte), LoadLocal a, PushConst b
    and the compare not before a JmpIfNot: its Bool into the empty slot `dst` when both are
    Ints, or both Strings (Eq/Neq only on a machine without a wall clock or cancellation,
    whose Eq would check those); the local let go when its read moves. False, touching
    nothing, otherwise (the loop runs the LoadLocal)."""
    cdef int64_t k = ins[3]
    cdef bint c
    if a.tag == T_INT and b.tag == T_INT:
        if k == OP_EQ:
            c = a.i == b.i
        elif k == OP_NEQ:
            c = a.i != b.i
        else:
            c = _icmp(a.i, b.i, k)
    elif (a.tag == T_OBJ and b.tag == T_OBJ and type(<object>a.o) is str
            and type(<object>b.o) is str):
        if k == OP_EQ or k == OP_NEQ:
            if self.max_wall_ms_obj is not None or self.cancel_event is not None:
                return False
            c = (a.o == b.o or (<str>a.o) == (<str>b.o)) == (k == OP_EQ)
        else:
            c = str_cmp(a.o, b.o, k)
        if self.movef[(ins - self.code) // W]:
            vclear(a)           # the string's last read (vm/reuse.pxi)
    else:
        return False
    dst.tag = T_BOOL
    dst.i = c
    return True
