# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# The interpreter loop: step counting and checkpoints, the switch over opcodes (the
# fast path), match tables, traces, wall clock and cancellation checks.

cdef int64_t FINISH_CODE[4]
FINISH_CODE[0] = OP_FINISH
FINISH_CODE[1] = 0
FINISH_CODE[2] = 0
FINISH_CODE[3] = 0


cdef void _drop_frames(Machine self) noexcept:
    cdef int64_t k
    for k in range(self.lp):
        vclear(&self.locals[k])
    self.lp = 0
    self.nframes = 0


cdef object _wall_check(Machine self):
    cdef object lim = self.max_wall_ms_obj
    PyErr_CheckSignals()
    if self.cancel_event is not None and self.cancel_event.is_set():
        self.cancelled = True
    if self.cancelled:
        return VmError("execution cancelled", "cancelled")
    if lim is not None:
        elapsed = (_time.monotonic() - self.wall_start) * 1000.0
        if elapsed > lim:
            return verr.wall_time_exceeded(lim)
    return None


cdef int _trace(Machine self, int func, int64_t ip, int sp) except -1:
    """Record one dispatched op: keep the first `trace_limit` lines, count them all."""
    self.trace.append(f"[{self.fn_names[func]}:{ip}] {self.dbg[func][ip]}  "
                      f"stack_depth={sp}")
    _charge(self, TRACE_ENTRY_BYTES)
    self.trace_total += 1
    return 0


cdef object _loop(Machine self, int64_t budget):
    cdef Val* stack = self.stack
    cdef int sp = self.sp
    cdef Val* loc
    cdef Val* v
    cdef Val* a
    cdef Val* b
    cdef Val tmp
    cdef Frame* fr
    cdef int64_t* cur
    cdef int64_t* ins
    cdef int64_t ip
    cdef int func
    cdef int op
    cdef int64_t steps = self.steps
    cdef int64_t max_steps = self.max_steps
    cdef int64_t slice_end
    cdef int64_t check_at, next_cp, m
    cdef int64_t x, y, r, k, n, argc, target, tag, base
    cdef double fx, fy
    cdef bint tracing = self.tracing
    cdef bint c, hit
    cdef object err = None
    cdef object status = PAUSED
    cdef object o, o2
    cdef PyObject* pt

    if budget > 0:
        slice_end = steps + budget
    else:
        slice_end = I64_MAX_C
    if self.nframes > 0:
        fr = &self.frames[self.nframes - 1]
        func = fr.func
        ip = fr.ip
        cur = &self.code[self.fn_start[func] * W]
        loc = &self.locals[fr.locals_base]
    else:
        func = -1
        ip = 0
        cur = FINISH_CODE
        loc = self.locals
    m = (steps // 1024 + 1) * 1024 - 1       # next s >= steps with (s + 1) % 1024 == 0
    next_cp = min(slice_end, min(max_steps, m))
    check_at = next_cp
    if tracing:
        check_at = steps        # a traced machine passes check_at at every step

    try:
        while True:
            if steps >= check_at:
                if steps >= next_cp:
                    if steps >= slice_end:
                        status = PAUSED
                        break
                    if steps >= max_steps:
                        steps += 1
                        err = verr.step_limit(max_steps)
                        break
                    if (steps + 1) % 1024 == 0:
                        err = _wall_check(self)
                        if err is not None:
                            steps += 1
                            break
                    m = ((steps + 1) // 1024 + 1) * 1024 - 1
                    next_cp = min(slice_end, min(max_steps, m))
                check_at = next_cp
                if tracing:
                    # every dispatched op is traced: real tags, and the load-time rewrites
                    # of real ops (OP_FAIL, OP_COLD, OP_PUSH_STORE); only the implicit
                    # return and the finishing iteration (OP_IMPLICIT_RET, OP_FINISH) have
                    # no trace line (docs/spec/vm.md §4.7). The step is counted first.
                    check_at = steps + 1
                    op = <int>cur[ip * W]
                    if op < OP_IMPLICIT_RET or op >= OP_FAIL:
                        steps += 1
                        if self.trace_total < self.trace_keep:
                            _trace(self, func, ip, sp)
                        else:
                            self.trace_total += 1
                        steps -= 1
            steps += 1
            ins = cur + ip * W
            op = <int>ins[0]
            ip += 1

            if op == OP_LOADLOCAL:
                if sp >= C_MAX_STACK:
                    err = verr.stack_overflow(MAX_STACK)
                    break
                if ins[3]:       # the slot's last read (vm/reuse.pxi): the value moves
                    stack[sp] = loc[ins[1]]
                    loc[ins[1]].tag = T_UNIT
                else:
                    vcopy(&stack[sp], &loc[ins[1]])
                sp += 1
            elif (op == OP_SUPER_CMPJ or op == OP_SUPER_ARITH or op == OP_SUPER_CMPJ_L
                  or op == OP_SUPER_ARITH_L):
                a = &loc[ins[1]]
                if op == OP_SUPER_CMPJ or op == OP_SUPER_ARITH:
                    b = &self.consts[ins[2]]
                else:
                    b = &loc[ins[2]]
                # the three further steps pass no checkpoint, need no stack error, and the
                # operands are Ints (and the sum fits), or for Eq/Neq two Strings on a machine
                # without a wall clock or cancellation (their Eq would check those): run them
                # at once, else LoadLocal
                if steps + 2 < check_at and sp + 1 < C_MAX_STACK:
                    k = ins[3]
                    if k == OP_LISTLEN:
                        # `i < ListLen(xs)` as a loop condition (LoadLocal i, LoadLocal xs,
                        # ListLen, Lt, JmpIfNot: 5 steps, a for loop's header) on an Int and a
                        # List, when the four further steps pass no checkpoint
                        if (steps + 3 < check_at and a.tag == T_INT and b.tag == T_OBJ
                                and PyTuple_CheckExact_raw(b.o)):
                            steps += 4
                            if a.i < Py_SIZE_raw(b.o):
                                ip += 4
                            else:
                                ip = cur[(ip + 3) * W + 1]
                            continue
                    elif op == OP_SUPER_CMPJ or op == OP_SUPER_CMPJ_L:
                        hit = True
                        if a.tag == T_INT and b.tag == T_INT:
                            x = a.i
                            y = b.i
                            if k == OP_LT:
                                c = x < y
                            elif k == OP_LTE:
                                c = x <= y
                            elif k == OP_GT:
                                c = x > y
                            elif k == OP_GTE:
                                c = x >= y
                            elif k == OP_EQ:
                                c = x == y
                            else:
                                c = x != y
                        elif (a.tag == T_OBJ and b.tag == T_OBJ
                              and type(<object>a.o) is str and type(<object>b.o) is str
                              and (k != OP_EQ and k != OP_NEQ
                                   or self.max_wall_ms_obj is None and self.cancel_event is None)):
                            if k == OP_EQ or k == OP_NEQ:
                                c = (a.o == b.o or (<str>a.o) == (<str>b.o)) == (k == OP_EQ)
                            else:
                                c = str_cmp(a.o, b.o, k)        # vm/values.pxi
                            # the strings' last reads (vm/reuse.pxi)
                            if self.movef[(ins - self.code) // W]:
                                vclear(a)
                            if op == OP_SUPER_CMPJ_L and self.movef[(ins - self.code) // W + 1]:
                                vclear(b)
                        else:
                            hit = False
                        if hit:
                            steps += 3
                            if c:
                                ip += 3
                            else:
                                ip = cur[(ip + 2) * W + 1]
                            continue
                    elif (a.tag == T_INT and b.tag == T_INT
                          and not (bor_add(a.i, b.i, &r) if k == OP_ADD else bor_sub(a.i, b.i, &r))):
                        steps += 3
                        v = &loc[cur[(ip + 2) * W + 1]]
                        vclear(v)
                        v.tag = T_INT
                        v.i = r
                        ip += 3
                        continue
                if sp >= C_MAX_STACK:
                    err = verr.stack_overflow(MAX_STACK)
                    break
                _load(self, &stack[sp], a, ins)
                sp += 1
            elif op == OP_SUPER_TESTJ:
                # LoadLocal(a) JmpIfNot/JmpIf on a Bool local, unless a checkpoint falls on the
                # jump, else LoadLocal
                a = &loc[ins[1]]
                if steps < check_at and sp < C_MAX_STACK and a.tag == T_BOOL:
                    steps += 1
                    if (a.i != 0) == (ins[3] == OP_JMPIF):
                        ip = ins[2]
                    else:
                        ip += 1
                    continue
                if sp >= C_MAX_STACK:
                    err = verr.stack_overflow(MAX_STACK)
                    break
                _load(self, &stack[sp], a, ins)
                sp += 1
            elif op == OP_SUPER_BINOP or op == OP_SUPER_LISTGET or op == OP_SUPER_FIELD:
                a = &loc[ins[1]]
                # the further steps pass no checkpoint, need no stack error, and the
                # operands are what the fast path expects: run them at once, else LoadLocal
                if op == OP_SUPER_BINOP:
                    b = &self.consts[ins[2]]
                    if ins[3] >= OP_EQ and ins[3] <= OP_GTE:
                        # a compare with a constant as a value (vm/fused.pxi)
                        if (steps + 1 < check_at and sp + 1 < C_MAX_STACK
                                and _const_cmp(self, a, b, ins, &stack[sp])):
                            steps += 2
                            ip += 2
                            sp += 1
                            continue
                    elif (steps + 1 < check_at and sp + 1 < C_MAX_STACK and a.tag == T_INT
                            and b.tag == T_INT):
                        k = ins[3]
                        if k == OP_ADD:
                            c = bor_add(a.i, b.i, &r)
                        elif k == OP_SUB:
                            c = bor_sub(a.i, b.i, &r)
                        elif k == OP_MUL:
                            c = bor_mul(a.i, b.i, &r)
                        else:
                            c = b.i == 0 or (a.i == I64_MIN_C and b.i == -1)
                            if not c:
                                r = _cmod(a.i, b.i)
                        if not c:
                            steps += 2
                            ip += 2
                            stack[sp].tag = T_INT
                            stack[sp].i = r
                            sp += 1
                            continue
                elif op == OP_SUPER_LISTGET:
                    b = &loc[ins[2]]
                    if (steps + 1 < check_at and sp + 1 < C_MAX_STACK and b.tag == T_INT
                            and a.tag == T_OBJ and PyTuple_CheckExact_raw(a.o)
                            and 0 <= b.i < Py_SIZE_raw(a.o)):
                        steps += 2
                        ip += 2
                        if ins[3] and steps < check_at:
                            # and the StoreLocal after it (vm/fused.pxi)
                            _listget_store(self, loc, a, b, ins, cur + ip * W)
                            steps += 1
                            ip += 1
                            continue
                        from_py(&stack[sp], <object>PyTuple_GET_ITEM_raw(a.o, b.i))
                        sp += 1
                        if self.movef[(ins - self.code) // W]:
                            vclear(a)       # the list's last read (vm/reuse.pxi)
                        continue
                elif (steps < check_at and sp < C_MAX_STACK and a.tag == T_OBJ and REC_FAST
                        and bor_is_record(a.o)
                        and ins[2] < PyTuple_GET_SIZE(<object>bor_rec_fields(a.o))):
                    steps += 1
                    ip += 1
                    if ins[W + 2] or self.movef[(ins - self.code) // W]:
                        # the record's last read, or a field that may be taken: the two
                        # single ops (vm/reuse.pxi)
                        _load(self, &stack[sp], a, ins)
                        v = &stack[sp]
                        sp += 1
                        if not (ins[W + 2] and _take_field(self, v, loc, ins + W)):
                            tmp.tag = T_UNIT
                            from_py(&tmp, <object>PyTuple_GET_ITEM_raw(bor_rec_fields(v.o), ins[2]))
                            vclear(v)
                            v[0] = tmp
                        continue
                    from_py(&stack[sp], <object>PyTuple_GET_ITEM_raw(bor_rec_fields(a.o), ins[2]))
                    sp += 1
                    continue
                if sp >= C_MAX_STACK:
                    err = verr.stack_overflow(MAX_STACK)
                    break
                _load(self, &stack[sp], a, ins)
                sp += 1
            elif (op == OP_SUPER_PUSHGET or op == OP_SUPER_CMP_L or op == OP_SUPER_STLDJ
                  or op == OP_SUPER_CMP2J or op == OP_SUPER_LISTCMP):
                # out of line (vm/fused.pxi); declined, the op the superinstruction replaced
                target = _fused(self, op, ins, loc, stack, sp, cur, ip, steps, check_at)
                if target >= 0:
                    sp += FUSED_SP[op - OP_SUPER_PUSHGET]
                    steps += FUSED_STEPS[op - OP_SUPER_PUSHGET]
                    ip = target
                    continue
                if op == OP_SUPER_STLDJ:
                    if sp <= 0:
                        err = verr.stack_underflow()
                        break
                    sp -= 1
                    vclear(&loc[ins[1]])
                    loc[ins[1]] = stack[sp]
                else:
                    if sp >= C_MAX_STACK:
                        err = verr.stack_overflow(MAX_STACK)
                        break
                    _load(self, &stack[sp], &loc[ins[1]], ins)
                    sp += 1
            elif op == OP_SUPER_PUSHL:
                # x = ListPush(x, v) (vm/fused.pxi), unless a checkpoint falls on its further
                # steps or the stack has no room for its loads, else LoadLocal
                if steps + 2 < check_at and sp + 2 <= C_MAX_STACK:
                    steps += 2
                    ip += 2
                    _load(self, &stack[sp], &loc[ins[1]], ins)
                    _load(self, &stack[sp + 1], &loc[ins[2]], ins + W)
                    sp += 2
                    sp = _push_local(self, loc, ins, sp)
                    steps += 1
                    ip += 1
                    continue
                if sp >= C_MAX_STACK:
                    err = verr.stack_overflow(MAX_STACK)
                    break
                _load(self, &stack[sp], &loc[ins[1]], ins)
                sp += 1
            elif op == OP_SUPER_JMP2:
                # a jump to a jump, unless a checkpoint falls on the second
                if steps < check_at:
                    steps += 1
                    ip = ins[2]
                else:
                    ip = ins[1]
            elif op == OP_PUSHCONST:
                if sp >= C_MAX_STACK:
                    err = verr.stack_overflow(MAX_STACK)
                    break
                vcopy(&stack[sp], &self.consts[ins[1]])
                sp += 1
            elif op == OP_STORELOCAL:
                if sp <= 0:
                    err = verr.stack_underflow()
                    break
                sp -= 1
                vclear(&loc[ins[1]])
                if ins[2]:      # a dead store (vm/reuse.pxi): the value is dropped
                    vclear(&stack[sp])
                else:
                    loc[ins[1]] = stack[sp]
            elif op == OP_ADD or op == OP_SUB or op == OP_MUL:
                if sp < 2:
                    err = verr.stack_underflow()
                    break
                a = &stack[sp - 2]
                b = &stack[sp - 1]
                if a.tag == T_INT and b.tag == T_INT:
                    if op == OP_ADD:
                        if bor_add(a.i, b.i, &r):
                            err = verr.overflow("addition")
                            break
                    elif op == OP_SUB:
                        if bor_sub(a.i, b.i, &r):
                            err = verr.overflow("subtraction")
                            break
                    else:
                        if bor_mul(a.i, b.i, &r):
                            err = verr.overflow("multiplication")
                            break
                    a.i = r
                    sp -= 1
                elif (a.tag == T_INT or a.tag == T_FLOAT) and (b.tag == T_INT or b.tag == T_FLOAT):
                    fx = a.f if a.tag == T_FLOAT else <double>a.i
                    fy = b.f if b.tag == T_FLOAT else <double>b.i
                    if op == OP_ADD:
                        a.f = fx + fy
                    elif op == OP_SUB:
                        a.f = fx - fy
                    else:
                        a.f = fx * fy
                    a.tag = T_FLOAT
                    sp -= 1
                else:
                    err = verr.type_error("numeric", vtype_name(b) if (a.tag == T_INT or a.tag == T_FLOAT) else vtype_name(a))
                    sp -= 2
                    vclear(a)
                    vclear(b)
                    break
            elif op == OP_LT or op == OP_LTE or op == OP_GT or op == OP_GTE:
                if sp < 2:
                    err = verr.stack_underflow()
                    break
                a = &stack[sp - 2]
                b = &stack[sp - 1]
                if a.tag == T_INT and b.tag == T_INT:
                    x = a.i
                    y = b.i
                    if op == OP_LT:
                        c = x < y
                    elif op == OP_LTE:
                        c = x <= y
                    elif op == OP_GT:
                        c = x > y
                    else:
                        c = x >= y
                elif a.tag == T_FLOAT and b.tag == T_FLOAT:
                    fx = a.f
                    fy = b.f
                    if fx != fx or fy != fy:      # NaN compares as Equal
                        c = op == OP_LTE or op == OP_GTE
                    elif op == OP_LT:
                        c = fx < fy
                    elif op == OP_LTE:
                        c = fx <= fy
                    elif op == OP_GT:
                        c = fx > fy
                    else:
                        c = fx >= fy
                elif (a.tag == T_OBJ and b.tag == T_OBJ and type(<object>a.o) is str
                      and type(<object>b.o) is str):
                    c = str_cmp(a.o, b.o, op)       # vm/values.pxi
                else:
                    err = verr.type_error("comparable", vtype_name(a))
                    break
                vclear(a)
                vclear(b)
                a.tag = T_BOOL
                a.i = c
                sp -= 1
            elif op == OP_JMPIFNOT or op == OP_JMPIF:
                if sp <= 0:
                    err = verr.stack_underflow()
                    break
                sp -= 1
                v = &stack[sp]
                if v.tag == T_BOOL:
                    c = v.i != 0
                else:
                    c = truthy(v)
                    vclear(v)
                if c == (op == OP_JMPIF):
                    ip = ins[1]
            elif op == OP_JMP:
                ip = ins[1]
            elif op == OP_CALL or op == OP_CALLINDIRECT or op == OP_SUPER_CALLV:
                if op == OP_SUPER_CALLV:
                    # LoadLocal(f) CallIndirect: the call when f is a function reference and
                    # the CallIndirect passes no checkpoint, else the LoadLocal alone
                    v = &loc[ins[1]]
                    if sp >= C_MAX_STACK:
                        err = verr.stack_overflow(MAX_STACK)
                        break
                    if steps >= check_at or v.tag != T_OBJ or Py_TYPE_raw(v.o) != FNREF_T:
                        _load(self, &stack[sp], v, ins)
                        sp += 1
                        continue
                    target = slot_int(v.o, FNREF_IDX_OFF, "index")
                    if self.movef[(ins - self.code) // W]:
                        vclear(v)       # the function value's last read (vm/reuse.pxi)
                    argc = ins[2]
                    steps += 1
                    ip += 1
                elif op == OP_CALLINDIRECT:
                    argc = ins[1]
                    if sp <= 0:
                        err = verr.stack_underflow()
                        break
                    v = &stack[sp - 1]
                    if v.tag != T_OBJ or Py_TYPE_raw(v.o) != FNREF_T:
                        err = verr.type_error("function reference", vtype_name(v))
                        break
                    target = slot_int(v.o, FNREF_IDX_OFF, "index")
                    sp -= 1
                    vclear(v)
                else:
                    target = ins[1]
                    argc = ins[2]
                if sp < argc:
                    err = verr.stack_underflow()
                    break
                if target < 0 or target >= self.nfuncs:
                    err = verr.invalid_function(target)
                    break
                if self.nframes >= C_MAX_DEPTH:
                    err = verr.stack_overflow(MAX_CALL_DEPTH)
                    break
                n = self.fn_nlocals[target]
                if self.lp + n > self.locals_cap:
                    base = self.frames[self.nframes - 1].locals_base if self.nframes else 0
                    if not _ensure_locals(self, n):
                        err = _locals_error(self)
                        break
                    loc = &self.locals[base]
                self.frames[self.nframes - 1].ip = ip
                base = self.lp
                for k in range(n):
                    self.locals[base + k].tag = T_UNIT
                sp -= <int>argc
                for k in range(argc):
                    if k < n:
                        self.locals[base + k] = stack[sp + k]
                    else:
                        vclear(&stack[sp + k])
                self.lp = base + n
                fr = &self.frames[self.nframes]
                self.nframes += 1
                fr.func = <int>target
                fr.ip = 0
                fr.stack_base = sp
                fr.locals_base = base
                func = <int>target
                cur = &self.code[self.fn_start[func] * W]
                loc = &self.locals[base]
                ip = 0
            elif op == OP_RET or op == OP_IMPLICIT_RET:
                fr = &self.frames[self.nframes - 1]
                if op == OP_RET and sp > fr.stack_base:
                    sp -= 1
                    tmp = stack[sp]
                else:
                    tmp.tag = T_UNIT
                while sp > fr.stack_base:
                    sp -= 1
                    vclear(&stack[sp])
                if sp >= C_MAX_STACK:
                    vclear(&tmp)
                    err = verr.stack_overflow(MAX_STACK)
                    break
                for k in range(fr.locals_base, self.lp):
                    vclear(&self.locals[k])
                self.lp = fr.locals_base
                stack[sp] = tmp
                sp += 1
                self.nframes -= 1
                if self.nframes == 0:
                    func = -1
                    cur = FINISH_CODE
                    ip = 0
                    loc = self.locals
                else:
                    fr = &self.frames[self.nframes - 1]
                    func = fr.func
                    ip = fr.ip
                    cur = &self.code[self.fn_start[func] * W]
                    loc = &self.locals[fr.locals_base]
            elif op == OP_MOD or op == OP_DIV:
                if sp < 2:
                    err = verr.stack_underflow()
                    break
                a = &stack[sp - 2]
                b = &stack[sp - 1]
                if op == OP_DIV:
                    if (b.tag == T_INT and b.i == 0) or (b.tag == T_FLOAT and b.f == 0.0):
                        err = verr.division_by_zero()
                        break
                    if a.tag == T_INT and b.tag == T_INT:
                        if a.i == I64_MIN_C and b.i == -1:
                            err = verr.overflow("division")
                            break
                        a.i = _cdiv(a.i, b.i)
                        sp -= 1
                    elif (a.tag == T_INT or a.tag == T_FLOAT) and (b.tag == T_INT or b.tag == T_FLOAT):
                        fx = a.f if a.tag == T_FLOAT else <double>a.i
                        fy = b.f if b.tag == T_FLOAT else <double>b.i
                        a.f = fx / fy
                        a.tag = T_FLOAT
                        sp -= 1
                    else:
                        err = verr.type_error("numeric", vtype_name(b) if (a.tag == T_INT or a.tag == T_FLOAT) else vtype_name(a))
                        break
                else:
                    if a.tag == T_INT and b.tag == T_INT:
                        if b.i == 0:
                            err = verr.division_by_zero()
                            break
                        if a.i == I64_MIN_C and b.i == -1:
                            err = verr.overflow("remainder")
                            break
                        a.i = _cmod(a.i, b.i)
                        sp -= 1
                    else:
                        err = verr.type_error("Int", vtype_name(b) if a.tag == T_INT else vtype_name(a))
                        break
            elif op == OP_EQ or op == OP_NEQ:
                if sp < 2:
                    err = verr.stack_underflow()
                    break
                a = &stack[sp - 2]
                b = &stack[sp - 1]
                if a.tag == T_INT and b.tag == T_INT:
                    c = a.i == b.i
                else:
                    c = _equal(self, a, b)
                    vclear(a)
                    vclear(b)
                if op == OP_NEQ:
                    c = not c
                a.tag = T_BOOL
                a.i = c
                sp -= 1
            elif op == OP_POP:
                if sp <= 0:
                    err = verr.stack_underflow()
                    break
                sp -= 1
                vclear(&stack[sp])
            elif op == OP_DUP:
                if sp <= 0:
                    err = verr.stack_underflow()
                    break
                if sp >= C_MAX_STACK:
                    err = verr.stack_overflow(MAX_STACK)
                    break
                vcopy(&stack[sp], &stack[sp - 1])
                sp += 1
            elif op == OP_NEG:
                if sp <= 0:
                    err = verr.stack_underflow()
                    break
                a = &stack[sp - 1]
                if a.tag == T_INT:
                    if a.i == I64_MIN_C:
                        err = verr.overflow("negation")
                        break
                    a.i = -a.i
                elif a.tag == T_FLOAT:
                    a.f = -a.f
                else:
                    err = verr.type_error("numeric", vtype_name(a))
                    break
            elif op == OP_NOT:
                if sp <= 0:
                    err = verr.stack_underflow()
                    break
                a = &stack[sp - 1]
                c = not truthy(a)
                vclear(a)
                a.tag = T_BOOL
                a.i = c
            elif op == OP_AND or op == OP_OR:
                if sp < 2:
                    err = verr.stack_underflow()
                    break
                a = &stack[sp - 2]
                b = &stack[sp - 1]
                if op == OP_AND:
                    c = truthy(a) and truthy(b)
                else:
                    c = truthy(a) or truthy(b)
                vclear(a)
                vclear(b)
                a.tag = T_BOOL
                a.i = c
                sp -= 1
            elif op == OP_CONCAT:
                if sp < 2:
                    err = verr.stack_underflow()
                    break
                a = &stack[sp - 2]
                b = &stack[sp - 1]
                if a.tag != T_OBJ or type(<object>a.o) is not str:
                    err = verr.type_error("String", vtype_name(a))
                    break
                if b.tag != T_OBJ or type(<object>b.o) is not str:
                    err = verr.type_error("String", vtype_name(b))
                    break
                n = PyUnicode_GET_LENGTH(<object>a.o) + PyUnicode_GET_LENGTH(<object>b.o)
                self.work += n
                if self.work > self.max_work:
                    err = _work_error(self)
                    break
                if n > C_MAX_STR_CHARS_FAST:
                    _check_str_len(_utf8_len(<object>a.o) + _utf8_len(<object>b.o))
                o = PyUnicode_Concat(<object>a.o, <object>b.o)
                vclear(a)
                vclear(b)
                sp -= 1
                a.tag = T_OBJ
                a.o = <PyObject*>o
                _incref(a.o)
                o = None
                self.alloc_bytes += 49 + n
                if self.alloc_bytes >= self.next_walk:
                    self.sp = sp
                    _memory_walk(self)
            elif op == OP_INTTOSTRING:
                if sp <= 0:
                    err = verr.stack_underflow()
                    break
                a = &stack[sp - 1]
                if a.tag != T_INT:
                    err = verr.type_error("Int", vtype_name(a))
                    break
                a.o = bor_int_to_str(a.i)
                a.tag = T_OBJ
                self.alloc_bytes += 70
            elif op == OP_STRINGLEN:
                if sp <= 0:
                    err = verr.stack_underflow()
                    break
                a = &stack[sp - 1]
                if a.tag != T_OBJ or type(<object>a.o) is not str:
                    err = verr.type_error("String", vtype_name(a))
                    break
                if PyUnicode_IS_ASCII(<object>a.o):
                    n = PyUnicode_GET_LENGTH(<object>a.o)
                else:
                    n = len((<object>a.o).encode("utf-8", "surrogatepass"))
                vclear(a)
                a.tag = T_INT
                a.i = n
            elif op == OP_GETFIELD:
                if sp <= 0:
                    err = verr.stack_underflow()
                    break
                a = &stack[sp - 1]
                if a.tag != T_OBJ or not (bor_is_record(a.o) if REC_FAST else type(<object>a.o) is Record):
                    err = verr.type_error("Record", vtype_name(a))
                    break
                if ins[2] and _take_field(self, a, loc, ins):
                    continue
                if REC_FAST:
                    o = <object>bor_rec_fields(a.o)
                else:
                    o = (<object>a.o).fields
                k = ins[1]
                if k >= PyTuple_GET_SIZE(o):
                    err = verr.type_error("valid field index", "out of bounds")
                    break
                tmp.tag = T_UNIT
                from_py(&tmp, <object>PyTuple_GET_ITEM(o, k))
                o = None
                vclear(a)
                a[0] = tmp
            elif op == OP_MAKERECORD or op == OP_MAKELIST:
                n = ins[2] if op == OP_MAKERECORD else ins[1]
                if sp < n:
                    err = verr.stack_underflow()
                    break
                pt = PyTuple_New_raw(n)
                for k in range(n):
                    PyTuple_SET_ITEM_raw(pt, k, take_owned(&stack[sp - n + k]))
                sp -= <int>n
                if op == OP_MAKERECORD:
                    if REC_FAST:
                        pt = bor_new_record(PyLong_FromLongLong_raw(ins[1]), pt)
                    else:
                        o = Record(ins[1], <object>pt)
                        _decref(pt)
                        pt = <PyObject*>o
                        _incref(pt)
                        o = None
                stack[sp].tag = T_OBJ
                stack[sp].o = pt
                sp += 1
                self.alloc_bytes += 120 + 8 * n
                if self.alloc_bytes >= self.next_walk:
                    self.sp = sp
                    _memory_walk(self)
            elif op == OP_MAKEENUM:
                if sp <= 0:
                    err = verr.stack_underflow()
                    break
                a = &stack[sp - 1]
                o = new_enum(ins[1], ins[2], a)
                a.tag = T_OBJ
                a.o = <PyObject*>o
                _incref(a.o)
                o = None
                self.alloc_bytes += 64
            elif op == OP_MATCH:
                if sp <= 0:
                    err = verr.stack_underflow()
                    break
                k = ins[1]
                if k >= self.fn_ntables[func]:
                    err = verr.match_exhausted()
                    break
                a = &stack[sp - 1]
                target = _match(self, a, self.fn_tables[func] + k)
                if target < 0:
                    err = verr.match_exhausted()
                    break
                ip = target
            elif op == OP_LISTLEN or op == OP_LISTGET:
                if op == OP_LISTGET and sp >= 2:
                    a = &stack[sp - 2]
                    b = &stack[sp - 1]
                    if (b.tag == T_INT and a.tag == T_OBJ and PyTuple_CheckExact_raw(a.o)
                            and 0 <= b.i < Py_SIZE_raw(a.o)):
                        tmp.tag = T_UNIT
                        from_py(&tmp, <object>PyTuple_GET_ITEM_raw(a.o, b.i))
                        vclear(a)
                        a[0] = tmp
                        sp -= 1
                        continue
                self.sp = sp
                _list_op(self, op)
                sp = self.sp
            elif op == OP_COLD:
                self.sp = sp
                _cold(self, <int>ins[1])
                sp = self.sp
            elif op == OP_PUSH_STORE:
                self.sp = sp
                if ins[1] == OP_MAPSET or ins[1] == OP_MAPREMOVE:
                    if not _reuse_map(self, <int>ins[1]):
                        _cold(self, <int>ins[1])
                elif not _reuse_list(self) and not _push_into(self, &loc[ins[2]]):
                    _cold(self, <int>ins[1])
                sp = self.sp
            elif op == OP_FINISH:
                if sp > 0:
                    sp -= 1
                    self.result = to_py(&stack[sp])
                    vclear(&stack[sp])
                else:
                    self.result = None
                status = FINISHED
                break
            elif op == OP_HALT:
                if sp > 0:
                    sp -= 1
                    self.result = to_py(&stack[sp])
                    vclear(&stack[sp])
                else:
                    self.result = None
                self.frames[self.nframes - 1].ip = ip
                status = FINISHED
                break
            elif op == OP_NOP:
                pass
            else:
                self.sp = sp
                self.frames[self.nframes - 1].ip = ip
                self.steps = steps
                r = _slow_op(self, op, ins, func)
                sp = self.sp
                if r == 1:       # blocked on receive
                    ip -= 1
                    status = BLOCKED
                    break
                if r == 2:       # a delegated capability call (vm/snapshot.pxi)
                    status = AWAITING
                    break
                if self.nframes > 0:
                    loc = &self.locals[self.frames[self.nframes - 1].locals_base]
    finally:
        self.sp = sp
        self.steps = steps
        if self.nframes > 0:
            self.frames[self.nframes - 1].ip = ip
    if err is not None:
        raise err
    return status


cdef int64_t _match(Machine self, Val* v, int64_t table) except? -2:
    """Pop v and push its unwrapped value; returns the arm target or -1 (no match)."""
    # a value without a tag of its own hits only the catch-all arms
    cdef int64_t tag = MATCH_ANY, k, start, n, at, t, code
    cdef int64_t itag = MATCH_ANY   # exact Int tag (codegen.match_tag_int), else none
    cdef object payload = None
    cdef PyObject* p
    cdef PyObject* t_
    cdef int64_t etype = -1, evar = -1
    if v.tag == T_BOOL:
        tag = 1 if v.i else 0
    elif v.tag == T_INT:
        if 0 <= v.i < INT_TAG_LIMIT_C:
            itag = -INT_TAG_BASE_C - v.i
    elif v.tag == T_OBJ:
        p = v.o
        t_ = Py_TYPE_raw(p)
        if t_ == ENUM_T:
            tag = slot_int(p, ENUM_VAR_OFF, "variant")
            etype = slot_int(p, ENUM_TID_OFF, "type_id")
            evar = tag
            payload = slot_get(p, ENUM_PAY_OFF, "payload")
        elif t_ == NONE_T:
            tag = MATCH_NONE
        elif t_ == SOME_T or t_ == OK_T or t_ == ERR_T:
            tag = MATCH_SOME if t_ == SOME_T else (MATCH_OK if t_ == OK_T else MATCH_ERR)
            payload = slot_get(p, WRAP_VAL_OFF, "value")
    start = self.tbl_start[table]
    n = self.tbl_len[table]
    for k in range(n):
        at = self.arms[2 * (start + k)]
        if at == tag or at == MATCH_ANY or at == itag:
            break
        if at <= -EXACT_TAG_BASE and etype >= 0:
            code = -at - EXACT_TAG_BASE
            if code // VARIANTS_PER_TYPE == etype and code % VARIANTS_PER_TYPE == evar:
                break
    else:
        return -1
    if tag == MATCH_SOME or tag == MATCH_OK or tag == MATCH_ERR or etype >= 0:
        vclear(v)
        from_py(v, payload)
    return self.arms[2 * (start + k) + 1]


cdef int _equal(Machine self, Val* a, Val* b) except -1:
    """Structural equality; comparing two heap values (possibly large) also checks the
    wall clock and cancellation."""
    cdef bint c = vals_equal(a, b)
    if a.tag == T_OBJ and b.tag == T_OBJ and (self.max_wall_ms_obj is not None
                                               or self.cancel_event is not None):
        err = _wall_check(self)
        if err is not None:
            raise err
    return c


cdef inline int64_t _cdiv(int64_t a, int64_t b) noexcept:
    return a // b

cdef inline int64_t _cmod(int64_t a, int64_t b) noexcept:
    return a % b
