# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# The interpreter loop: step counting and checkpoints, the C core that runs the hot ops
# (vm/core/dispatch.h, threaded dispatch), the chain of the other ops, match tables, traces,
# wall clock and cancellation checks.

cdef extern from "vm/core/dispatch.h":
    enum:
        BOR_X_CHECK
        BOR_X_OP
        BOR_X_UNDERFLOW
        BOR_X_STACK
        BOR_X_DEPTH
        BOR_X_LOCALS
        BOR_X_ARITH
        BOR_X_DIV0
        BOR_X_TYPE
        BOR_X_BADFN
        BOR_X_CONV
        BOR_X_FIELD
        BOR_X_WALK
        BOR_X_WORK
        BOR_X_NOMATCH
        BOR_THREADED
        BOR_MF_SIZE
        BOR_SUPER_MOVE_A
        BOR_SUPER_MOVE_B
    ctypedef struct BorRun:
        Val* stack
        int sp
        Val* loc
        int64_t* cur
        int64_t ip
        int func
        int64_t steps
        int64_t check_at
        int plain
        int64_t* ins
        int64_t n
        Val* bad
        int want
        int drop
        Val* consts
        int64_t* code
        unsigned char* movef
        int64_t* finish_code
        Frame* frames
        int* nframes
        Val** locals
        int64_t* lp
        int64_t* locals_cap
        int64_t* alloc_bytes
        int64_t* next_walk
        int* machine_sp
        PyObject* machine
        int (*builtin)(PyObject*, int64_t*, Val*, int) except -1
        int (*push_get)(PyObject*, Val*, int64_t*) except -1
        int64_t* fn_start
        int64_t* fn_nlocals
        int nfuncs
        int64_t* work
        int64_t max_work
        int map_in_place
        int (*long_concat)(PyObject*, PyObject*) except -1
        BorStrBuilders* sb
        int64_t* fn_tables
        int64_t* fn_ntables
        int64_t* tbl_start
        int64_t* tbl_len
        int64_t* arms
        int64_t* tbl_fast
        PyObject** bld
        Py_ssize_t* bld_cap
        int64_t* bld_sub
        int64_t* bld_use
        int64_t* bld_clock
        int* bld_hint
        int nbld
        int push_mutates
    int bor_run(BorRun*) noexcept
    void bor_match_prep(const int64_t*, int64_t, int64_t*) noexcept
    void bor_core_init(PyObject*, PyObject*, PyObject*, PyObject*, PyObject*, Py_ssize_t,
                       Py_ssize_t, Py_ssize_t, Py_ssize_t, int64_t, int64_t, Py_ssize_t)
    # returns -1 for the exception the C core left set (so Cython raises it)
    int bor_pyerr "bor_fail"() except -1

# True when the C core was compiled with computed-goto dispatch (GCC/Clang), else a switch
THREADED_DISPATCH = bool(BOR_THREADED)

# the integer overflows the C core reports (BOR_OVF_* order) and the types it wants
# (BOR_WANT_* order)
_CORE_OVERFLOWS = ("addition", "subtraction", "multiplication", "negation", "division", "remainder")
_CORE_WANTS = ("numeric", "Int", "comparable", "function reference", "Record", "String")


cdef int _builtin_c(PyObject* machine, int64_t* ins, Val* loc, int sp) except -1:
    """A builtin (OP_COLD) or a builtin followed by its StoreLocal (OP_PUSH_STORE: in place
    when vm/reuse.pxi says so), called by the C core with the machine's stack top `sp` and
    frames up to date: returns the new stack top."""
    cdef Machine self = <Machine>machine
    self.sp = sp
    if ins[0] == OP_COLD:
        _cold(self, <int>ins[1])
    elif ins[1] == OP_MAPSET or ins[1] == OP_MAPREMOVE:
        if not _reuse_map(self, <int>ins[1]):
            _cold(self, <int>ins[1])
    elif not _reuse_list(self) and not _push_into(self, &loc[ins[2]]):
        _cold(self, <int>ins[1])
    return self.sp


cdef int _push_get_c(PyObject* machine, Val* loc, int64_t* ins) except -1:
    """vm/lists.pxi's in-place `x = ListPush(x, ListGet(l, i))`, for the C core (its stack
    top and frames up to date)."""
    return _push_get(<Machine>machine, loc, ins)


cdef int _long_concat_c(PyObject* a, PyObject* b) except -1:
    """The string limit on a long Concat (its UTF-8 size), for the C core."""
    _check_str_len(_utf8_len(<object>a) + _utf8_len(<object>b))
    return 0


cdef object _core_error(Machine self, BorRun* st, int rc):
    """The runtime error of the C core's exit `rc` (its details in `st`); a type error then
    pops and clears `st.drop` values, as the op did."""
    cdef object err
    cdef int k
    if rc == BOR_X_UNDERFLOW:
        return verr.stack_underflow()
    if rc == BOR_X_STACK:
        return verr.stack_overflow(MAX_STACK)
    if rc == BOR_X_DEPTH:
        return verr.stack_overflow(MAX_CALL_DEPTH)
    if rc == BOR_X_LOCALS:
        return _locals_error(self)
    if rc == BOR_X_ARITH:
        return verr.overflow(_CORE_OVERFLOWS[st.n])
    if rc == BOR_X_DIV0:
        return verr.division_by_zero()
    if rc == BOR_X_BADFN:
        return verr.invalid_function(st.n)
    if rc == BOR_X_CONV:
        return _conversion_error()
    if rc == BOR_X_FIELD:
        return verr.type_error("valid field index", "out of bounds")
    if rc == BOR_X_WORK:
        return _work_error(self)
    if rc == BOR_X_NOMATCH:
        return verr.match_exhausted()
    if rc == BOR_X_TYPE:
        err = verr.type_error(_CORE_WANTS[st.want], vtype_name(st.bad))
        for k in range(st.drop):
            st.sp -= 1
            vclear(&st.stack[st.sp])
        return err
    raise SystemError(f"VM core: unknown exit {rc}")

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
    cdef Val* v
    cdef Val* a
    cdef Val* b
    cdef Val tmp
    cdef int64_t* ins
    cdef int op
    cdef int rc
    cdef int64_t max_steps = self.max_steps
    cdef int64_t slice_end
    cdef int64_t next_cp, m
    cdef int64_t r, k, n, target
    cdef bint tracing = self.tracing
    cdef bint c
    cdef object err = None
    cdef object status = PAUSED
    cdef object o
    cdef PyObject* pt
    cdef Frame* fr
    cdef BorRun st      # the loop's registers (sp, ip, steps, ...) and the C core's view

    st.sp = self.sp
    st.steps = self.steps
    if budget > 0:
        slice_end = st.steps + budget
    else:
        slice_end = I64_MAX_C
    if self.nframes > 0:
        fr = &self.frames[self.nframes - 1]
        st.func = fr.func
        st.ip = fr.ip
        st.cur = &self.code[self.fn_start[st.func] * W]
        st.loc = &self.locals[fr.locals_base]
    else:
        st.func = -1
        st.ip = 0
        st.cur = FINISH_CODE
        st.loc = self.locals
    m = (st.steps // 1024 + 1) * 1024 - 1       # next s >= steps with (s + 1) % 1024 == 0
    next_cp = min(slice_end, min(max_steps, m))
    st.check_at = next_cp
    if tracing:
        st.check_at = st.steps        # a traced machine passes check_at at every step
    # the C core's view of the machine (vm/core/dispatch.h)
    st.stack = stack
    st.consts = self.consts
    st.code = self.code
    st.movef = self.movef
    st.finish_code = FINISH_CODE
    st.frames = self.frames
    st.nframes = &self.nframes
    st.locals = &self.locals
    st.lp = &self.lp
    st.locals_cap = &self.locals_cap
    st.alloc_bytes = &self.alloc_bytes
    st.fn_start = self.fn_start
    st.fn_nlocals = self.fn_nlocals
    st.nfuncs = self.nfuncs
    st.next_walk = &self.next_walk
    st.machine_sp = &self.sp
    st.machine = <PyObject*>self
    st.builtin = _builtin_c
    st.push_get = _push_get_c
    st.work = &self.work
    st.max_work = self.max_work
    st.map_in_place = MAP_IN_PLACE
    st.long_concat = _long_concat_c
    st.sb = &self.sb
    st.fn_tables = self.fn_tables
    st.fn_ntables = self.fn_ntables
    st.tbl_start = self.tbl_start
    st.tbl_len = self.tbl_len
    st.arms = self.arms
    st.tbl_fast = self.tbl_fast
    st.bld = self.bld
    st.bld_cap = self.bld_cap
    st.bld_sub = self.bld_sub
    st.bld_use = self.bld_use
    st.bld_clock = &self.bld_clock
    st.bld_hint = &self.bld_hint
    st.nbld = BLD_SLOTS
    st.push_mutates = self.push_mutates

    try:
        while True:
            if st.steps >= st.check_at:
                if st.steps >= next_cp:
                    if st.steps >= slice_end:
                        status = PAUSED
                        break
                    if st.steps >= max_steps:
                        st.steps += 1
                        err = verr.step_limit(max_steps)
                        break
                    if (st.steps + 1) % 1024 == 0:
                        err = _wall_check(self)
                        if err is not None:
                            st.steps += 1
                            break
                    m = ((st.steps + 1) // 1024 + 1) * 1024 - 1
                    next_cp = min(slice_end, min(max_steps, m))
                st.check_at = next_cp
                if tracing:
                    # every dispatched op is traced: real tags, and the load-time rewrites
                    # of real ops (OP_FAIL, OP_COLD, OP_PUSH_STORE); only the implicit
                    # return and the finishing iteration (OP_IMPLICIT_RET, OP_FINISH) have
                    # no trace line (docs/spec/vm.md §4.7). The step is counted first.
                    st.check_at = st.steps + 1
                    op = <int>st.cur[st.ip * W]
                    if op < OP_IMPLICIT_RET or op >= OP_FAIL:
                        st.steps += 1
                        if self.trace_total < self.trace_keep:
                            _trace(self, st.func, st.ip, st.sp)
                        else:
                            self.trace_total += 1
                        st.steps -= 1
            # the C core runs the op at ip and the ops after it up to check_at (threaded
            # dispatch, vm/core/dispatch.h); it returns at a checkpoint, an error, or an op
            # it leaves to the chain below (its step counted, ip past it)
            st.plain = self.max_wall_ms_obj is None and self.cancel_event is None
            rc = bor_run(&st)
            if rc == BOR_X_CHECK:
                continue
            ins = st.ins
            if rc != BOR_X_OP:
                if rc == BOR_X_WALK:    # the op ran, and allocated past the next walk
                    self.sp = st.sp
                    _memory_walk(self)
                    continue
                if rc < 0:
                    bor_pyerr()         # raises the exception the C core left set
                err = _core_error(self, &st, rc)
                break
            op = <int>ins[0]

            if op == OP_EQ or op == OP_NEQ:
                # the operands the C core leaves here: anything but two Ints
                a = &stack[st.sp - 2]
                b = &stack[st.sp - 1]
                c = _equal(self, a, b)
                vclear(a)
                vclear(b)
                if op == OP_NEQ:
                    c = not c
                a.tag = T_BOOL
                a.i = c
                st.sp -= 1
            elif op == OP_LISTLEN or op == OP_LISTGET:
                # ListLen, and ListGet but for the C core's fast path (vm/lists.pxi)
                self.sp = st.sp
                _list_op(self, op)
                st.sp = self.sp
            elif op == OP_FINISH:
                if st.sp > 0:
                    st.sp -= 1
                    self.result = to_py(&stack[st.sp])
                    vclear(&stack[st.sp])
                else:
                    self.result = None
                status = FINISHED
                break
            elif op == OP_HALT:
                if st.sp > 0:
                    st.sp -= 1
                    self.result = to_py(&stack[st.sp])
                    vclear(&stack[st.sp])
                else:
                    self.result = None
                self.frames[self.nframes - 1].ip = st.ip
                status = FINISHED
                break
            else:
                self.sp = st.sp
                self.frames[self.nframes - 1].ip = st.ip
                self.steps = st.steps
                r = _slow_op(self, op, ins, st.func)
                st.sp = self.sp
                if r == 1:       # blocked on receive
                    st.ip -= 1
                    status = BLOCKED
                    break
                if r == 2:       # a delegated capability call (vm/snapshot.pxi)
                    status = AWAITING
                    break
                if self.nframes > 0:
                    st.loc = &self.locals[self.frames[self.nframes - 1].locals_base]
    finally:
        self.sp = st.sp
        self.steps = st.steps
        if self.nframes > 0:
            self.frames[self.nframes - 1].ip = st.ip
    if err is not None:
        raise err
    return status


cdef int _equal(Machine self, Val* a, Val* b) except -1:
    """Structural equality; comparing two heap values (possibly large) also checks the
    wall clock and cancellation."""
    cdef bint c = vals_equal(a, b)
    if a.tag >= T_OBJ and b.tag >= T_OBJ and (self.max_wall_ms_obj is not None
                                               or self.cancel_event is not None):
        err = _wall_check(self)
        if err is not None:
            raise err
    return c


cdef inline int64_t _cdiv(int64_t a, int64_t b) noexcept:
    return a // b

cdef inline int64_t _cmod(int64_t a, int64_t b) noexcept:
    return a % b
