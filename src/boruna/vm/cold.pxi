# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# Builtins on Python values (the cold path): operands popped, the implementation of
# vm/builtins.py called, its result pushed and charged.

cdef int _cold(Machine self, int tag) except -1:
    """A builtin on Python values: pop its operands, push its result."""
    cdef int n, k
    cdef Val* s = self.stack
    n, fn = COLD_OPS[tag]
    if self.sp < n:
        raise verr.stack_underflow()
    args = [to_py(&s[self.sp - n + k]) for k in range(n)]
    if tag in WORK_INPUTS:
        _spend(self, sum([work_size(a) for a in args]))
    for k in range(n):
        vclear(&s[self.sp - n + k])
    self.sp -= n
    res = fn(*args)
    args = None
    if self.sp >= C_MAX_STACK:       # a builtin of no operands pushes onto a full stack
        raise verr.stack_overflow(MAX_STACK)
    from_py(&s[self.sp], res)
    self.sp += 1
    if tag in WORK_RESULTS:
        _spend(self, work_size(res))
    _charge(self, approx_size(res))
    if self.max_wall_ms_obj is not None or self.cancel_event is not None:
        # builtins can be slow (large strings and lists): check limits after each one
        err = _wall_check(self)
        if err is not None:
            raise err
    return 0
