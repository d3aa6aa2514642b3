# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# The Machine class: its Python API (construction, set_entry, execute_bounded, run,
# cancel, deliver, properties; attributes are declared in _vm.pxd).

cdef class Machine:
    """One VM instance for one module (docs/spec/vm.md §4.1).

    `Machine(module, gateway=None, max_steps=10_000_000, trace=False, max_wall_ms=None,
    max_value_memory=MAX_VALUE_MEMORY, trace_limit=500)` (trace_limit: entries kept, at most
    10,000,000; `trace_total` counts them all);
    `set_entry(fn_index, args=())`, `execute_bounded(slice) -> FINISHED | PAUSED | FAILED |
    BLOCKED`, `run()`. Results: `steps`, `result`, `error`, `error_kind`, `ui_output`,
    `trace`, `trace_total`.
    """

    def __cinit__(self):
        self.stack = NULL
        self.frames = NULL
        self.locals = NULL
        self.consts = NULL
        self.globals_ = NULL
        self.code = NULL
        self.movef = NULL
        self.fn_start = NULL
        self.fn_len = NULL
        self.fn_nlocals = NULL
        self.fn_arity = NULL
        self.fn_tables = NULL
        self.fn_ntables = NULL
        self.tbl_start = NULL
        self.tbl_len = NULL
        self.arms = NULL
        self.tbl_fast = NULL
        self.sp = 0
        self.nframes = 0
        self.lp = 0
        self.nconsts = 0
        self.nglobals = 0
        self.push_pend = -1

    def __init__(self, module, *, gateway=None, max_steps=DEFAULT_MAX_STEPS, trace=False,
                 max_wall_ms=None, max_value_memory=MAX_VALUE_MEMORY, trace_limit=TRACE_LIMIT,
                 max_work=MAX_WORK):
        if self.stack != NULL:
            raise RuntimeError("Machine is already initialised")
        self.module = module
        self.gateway = gateway
        self.max_steps = max(0, min(int(max_steps), I64_MAX_C - 1))
        self.tracing = bool(trace)
        self.max_wall_ms_obj = max_wall_ms
        self.result = None
        self.error = None
        self.error_kind = None
        self.error_obj = None
        self.ui_output = []
        self.trace = []
        self.trace_total = 0
        self.trace_keep = max(0, min(int(trace_limit), MAX_TRACE_LIMIT))
        self.steps = 0
        self.alloc_bytes = 0
        self.mem_cap = max(0, int(max_value_memory))
        self.next_walk = min(C_WALK_MIN, self.mem_cap // 4)
        self.work = 0
        self.max_work = max(0, min(int(max_work), I64_MAX_C))
        self.cancelled = False
        self.started = False
        self.done = False
        self.in_actor = False
        self.wall_start = 0.0
        self.cancel_event = None
        from collections import deque
        self.mailbox = deque()
        self.outgoing = []
        self.spawn_requests = []
        self.next_spawn_id = 0
        self.actor_id = 0
        self.stack = <Val*>malloc(sizeof(Val) * C_MAX_STACK)
        self.frames = <Frame*>malloc(sizeof(Frame) * C_MAX_DEPTH)
        self.locals_cap = 256
        self.locals = <Val*>malloc(sizeof(Val) * self.locals_cap)
        if self.stack == NULL or self.frames == NULL or self.locals == NULL:
            raise MemoryError()
        _translate(self, module)

    def __dealloc__(self):
        cdef int64_t k
        if self.stack != NULL:
            for k in range(self.sp):
                vclear(&self.stack[k])
            free(self.stack)
        if self.locals != NULL:
            for k in range(self.lp):
                vclear(&self.locals[k])
            free(self.locals)
        if self.consts != NULL:
            for k in range(self.nconsts):
                vclear(&self.consts[k])
            free(self.consts)
        if self.globals_ != NULL:
            for k in range(self.nglobals):
                vclear(&self.globals_[k])
            free(self.globals_)
        for k in range(BLD_SLOTS):
            if self.bld[k] != NULL:
                _decref(self.bld[k])
                self.bld[k] = NULL
        bor_sbld_release(&self.sb, 1)
        free(self.frames)
        free(self.code)
        free(self.movef)
        free(self.fn_start)
        free(self.fn_len)
        free(self.fn_nlocals)
        free(self.fn_arity)
        free(self.fn_tables)
        free(self.fn_ntables)
        free(self.tbl_start)
        free(self.tbl_len)
        free(self.arms)
        free(self.tbl_fast)

    def set_entry(self, fn_index, args=()):
        """Push the entry frame (no step charged) if the call stack is empty."""
        cdef int64_t k, n, fi = -1
        if self.running:
            raise RuntimeError("Machine is already running (re-entrant or concurrent call)")
        if self.nframes != 0 or self.done:
            return
        if isinstance(fn_index, int):
            # the int's own value (an int subclass may compare as it likes; it indexes C arrays)
            try:
                fi = PyLong_AsLongLong(fn_index)
            except OverflowError:
                fi = -1
        if not 0 <= fi < self.nfuncs:
            self.started = True
            _set_error(self, verr.invalid_function(fn_index))
            self.done = True
            return
        # args that are not a sequence raise here, before the machine counts as started (a
        # started machine without frames would finish having run nothing)
        args = list(args)
        self.started = True
        n = self.fn_nlocals[fi]
        if not _ensure_locals(self, n):
            _set_error(self, _locals_error(self))
            self.done = True
            return
        for k in range(n):
            self.locals[self.lp + k].tag = T_UNIT
        try:
            for k in range(min(len(args), n)):
                from_py(&self.locals[self.lp + k], args[k])
        except Exception as exc:
            for k in range(n):
                vclear(&self.locals[self.lp + k])
            _set_error(self, exc)
            self.done = True
            return
        self.frames[0].func = fi
        self.frames[0].code = &self.code[self.fn_start[fi] * W]
        self.frames[0].ip = 0
        self.frames[0].stack_base = self.sp
        self.frames[0].locals_base = self.lp
        self.lp += n
        self.nframes = 1

    # snapshots and delegated capability calls (vm/snapshot.pxi)
    def snapshot(self):
        """The paused machine as bytes (docs/snapshots.md); SnapshotError if it is not paused."""
        return _snapshot(self)

    @classmethod
    def restore(cls, data, module, *, gateway=None, max_wall_ms=...):
        """A new machine for `module` in the state snapshot `data` holds; SnapshotError for
        a corrupted snapshot or one of another module, VM format or limits. `max_wall_ms`
        (default: the snapshot's) starts afresh: the wall clock is not part of the state."""
        return _restore(data, module, gateway, max_wall_ms, max_wall_ms is ...)

    @property
    def pending_call(self):
        """(capability wire name, args) of the delegated call the machine waits on, or None."""
        return _pending_call(self)

    def answer(self, result):
        """The delegated call's result; the next `execute_bounded` continues with it."""
        _answer(self, result)

    def cancel(self):
        """Stop at the next 1,024-step checkpoint with `execution cancelled`."""
        self.cancelled = True

    def deliver(self, msg):
        self.mailbox.append(msg)

    @property
    def finished(self):
        return self.done

    @property
    def call_depth(self):
        return self.nframes

    def run(self):
        """Run to completion from the module entry; returns the status."""
        if not self.started:
            self.set_entry(self.module.entry)
        return self.execute_bounded(0)

    def execute_bounded(self, slice_steps=0):
        """Run at most `slice_steps` steps (0 or None = no bound). Returns FINISHED, PAUSED,
        FAILED or BLOCKED. A pause costs no step; the next call resumes at the next op."""
        cdef int64_t budget
        if self.done:
            return FAILED if self.error is not None else FINISHED
        if self.pending is not None and not self.pending[2]:   # vm/snapshot.pxi
            return AWAITING
        if not self.started:
            self.set_entry(self.module.entry)
            if self.done:
                return FAILED
        if self.max_wall_ms_obj is not None and self.wall_start == 0.0:
            self.wall_start = _time.monotonic()
        budget = 0 if slice_steps is None else max(0, min(int(slice_steps), I64_MAX_C // 2))
        if self.running:
            raise RuntimeError("Machine is already running (re-entrant or concurrent call)")
        self.running = True
        try:
            if self.pending is not None:        # vm/snapshot.pxi: the answered call
                _complete_pending(self)
            status = _loop(self, budget)
        except Exception as exc:     # a VmError from a cold path, or an internal failure
            _set_error(self, exc)
            _record_frames(self)
            self.done = True
            if self.error_kind != "step_limit":
                _drop_frames(self)
            # the step limit stops the run between two instructions: its frames are kept,
            # so the stopped machine can be snapshotted (vm/snapshot.pxi: `_at_limit`) and
            # resumed with a raised max_steps
            return FAILED
        finally:
            self.running = False
            bor_some_pool_release(WRAP_VAL_OFF)
        if status == FAILED or status == FINISHED:
            self.done = True
            if status == FAILED:
                _drop_frames(self)
        return status


cdef void _record_frames(Machine self):
    """On the error path only: the (function index, pc) of each frame, innermost first,
    onto the error (`VmError.frames`): the instruction that failed, in outer frames the
    call; a limit checked before an instruction (steps, wall clock, cancel) names it."""
    cdef int k
    frames = [(self.frames[k].func, self.frames[k].ip - 1)
              for k in range(self.nframes - 1, -1, -1)]
    if frames and self.error_kind in _BEFORE_OP_KINDS:
        frames[0] = (frames[0][0], frames[0][1] + 1)
    self.error_obj.frames = tuple(frames)


_BEFORE_OP_KINDS = frozenset(("step_limit", "wall_time", "cancelled"))


cdef void _set_error(Machine self, err):
    if isinstance(err, VmError):
        self.error = err.message
        self.error_kind = err.kind
        self.error_obj = err
    else:
        self.error = f"internal error: {type(err).__name__}: {err}"
        self.error_kind = "internal"
        self.error_obj = VmError(self.error, "internal")
