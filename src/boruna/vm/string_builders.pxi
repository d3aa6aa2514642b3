# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# String building: `s = s ++ t` (Concat) on an ASCII String nothing but the operand holds
# appends `t` into room this machine over-allocated (vm/core/strings.h) instead of copying
# `s`, so building a String of n characters by appends costs O(n), however the String is held
# (a local, a parameter, a record field: the moves and field takes of vm/reuse.pxi leave the
# operand its only holder). Any other holder gets the ordinary copy (vm/loop.pxi).

STR_IN_PLACE = True
"""Whether Concat appends into String builders (off: every Concat copies; the tests compare)."""

cdef inline int _str_concat(Machine self, Val* a, Val* b, int64_t n) except -1:
    """Concat of the Strings in `a` and `b` (type-checked, `n` the result's length) into a
    String builder (vm/core/strings.h, bor_str_concat): 1 done (the result in `a`), 2 the work
    limit met, 0 not taken."""
    return bor_str_concat(&self.sb, a, b, n, C_MAX_STRING_BYTES, &self.work, self.max_work,
                          &self.alloc_bytes)
