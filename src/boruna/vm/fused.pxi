# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# The superinstructions from OP_SUPER_PUSHGET on, out of line: `_fused` runs the whole
# sequence or declines, and the loop then adds the op's fixed stack and step deltas (or runs
# the op the superinstruction replaced, when declined). Keeping them out of the loop's switch
# keeps its other ops as fast as before.

# per op from OP_SUPER_PUSHGET (the order of bytecode/opcodes.py's PSEUDO_OPS): the stack
# change and the further steps of a sequence `_fused` ran
cdef int FUSED_SP[4]
cdef int FUSED_STEPS[4]
for _k, (_op, _sp, _steps) in enumerate([
        (OP_SUPER_PUSHGET, 0, 5), (OP_SUPER_CMP_L, 1, 2), (OP_SUPER_STLDJ, -1, 2),
        (OP_SUPER_CMP2J, 0, 7)]):
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

