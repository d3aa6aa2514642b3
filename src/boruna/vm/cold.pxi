# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# Builtins on Python values (the cold path): operands popped, the implementation of
# vm/builtins.py called, its result pushed and charged.

from boruna.core.unicode import trim as _u_trim

# White_Space of boruna.core.unicode (the pinned Unicode tables) among the ASCII characters
cdef bint ASCII_WS[128]
for _c in range(128):
    ASCII_WS[_c] = _u_trim(chr(_c)) == ""

# whether a builtin tag is in WORK_INPUTS / WORK_RESULTS (tags < 256, the builtin range)
cdef bint WORK_IN[256]
cdef bint WORK_OUT[256]
for _c in range(256):
    WORK_IN[_c] = _c in WORK_INPUTS
    WORK_OUT[_c] = _c in WORK_RESULTS


cdef inline bint _ascii_trimmed(str s, Py_ssize_t* lo, Py_ssize_t* hi) noexcept:
    """The bounds of ASCII `s` without its leading and trailing White_Space."""
    cdef const char* d
    cdef Py_ssize_t n, a = 0, b
    d = <const char*>PyUnicode_1BYTE_DATA_raw(s)
    n = PyUnicode_GET_LENGTH(s)
    b = n
    while a < b and ASCII_WS[<unsigned char>d[a]]:
        a += 1
    while b > a and ASCII_WS[<unsigned char>d[b - 1]]:
        b -= 1
    lo[0] = a
    hi[0] = b
    return True


cdef inline bint _ascii_parse_i64(str s, Py_ssize_t a, Py_ssize_t b, int64_t* out) noexcept:
    """Rust `str::parse::<i64>` of the ASCII characters s[a:b]: optional sign, then ASCII
    digits only, in range."""
    cdef const char* d = <const char*>PyUnicode_1BYTE_DATA_raw(s)
    cdef bint neg = False
    cdef int64_t r = 0
    cdef int dig
    if a < b and (d[a] == 43 or d[a] == 45):    # '+' / '-'
        neg = d[a] == 45
        a += 1
    if a >= b:
        return False
    while a < b:
        dig = d[a] - 48
        if dig < 0 or dig > 9:
            return False
        if bor_mul(r, 10, &r):
            return False
        if (bor_sub(r, dig, &r) if neg else bor_add(r, dig, &r)):
            return False
        a += 1
    out[0] = r
    return True


cdef int _cold_fast(Machine self, int tag) except -1:
    """ParseInt and StringTrim on ASCII strings, StrStartsWith / StringStartsWith on
    strings, in C; the same work, result and charge as `_cold`. Returns 0, touching
    nothing, for any other operands (the caller then runs `_cold`)."""
    cdef Val* s = self.stack
    cdef Val* a
    cdef Py_ssize_t lo, hi
    cdef int64_t v = 0
    cdef object res
    if tag == OP_PARSEINT or tag == OP_STRINGTRIM:
        if self.sp < 1:
            return 0
        a = &s[self.sp - 1]
        if a.tag != T_OBJ or type(<object>a.o) is not str or not PyUnicode_IS_ASCII(<object>a.o):
            return 0
        if WORK_IN[tag]:
            _spend(self, PyUnicode_GET_LENGTH(<object>a.o))
        _ascii_trimmed(<str>a.o, &lo, &hi)
        if tag == OP_PARSEINT:
            if not _ascii_parse_i64(<str>a.o, lo, hi, &v):
                v = 0
            vclear(a)
            a.tag = T_INT
            a.i = v
            _charge(self, 48)
        else:
            res = (<str>a.o)[lo:hi]
            vclear(a)
            from_py(a, res)
            if WORK_OUT[tag]:
                _spend(self, PyUnicode_GET_LENGTH(res))
            _charge(self, 49 + PyUnicode_GET_LENGTH(res))
    elif tag == OP_STRSTARTSWITH or tag == OP_STRINGSTARTSWITH:
        if self.sp < 2:
            return 0
        a = &s[self.sp - 2]
        if (a.tag != T_OBJ or s[self.sp - 1].tag != T_OBJ or type(<object>a.o) is not str
                or type(<object>s[self.sp - 1].o) is not str):
            return 0
        if WORK_IN[tag]:
            _spend(self, PyUnicode_GET_LENGTH(<object>a.o)
                   + PyUnicode_GET_LENGTH(<object>s[self.sp - 1].o))
        v = (<str>a.o).startswith(<str>s[self.sp - 1].o)
        self.sp -= 1
        vclear(&s[self.sp])
        vclear(a)
        a.tag = T_BOOL
        a.i = v
        _charge(self, 48)
    else:
        return 0
    if self.max_wall_ms_obj is not None or self.cancel_event is not None:
        err = _wall_check(self)
        if err is not None:
            raise err
    return 1


cdef extern from "Python.h":
    PyObject* PyUnicode_Split_raw "PyUnicode_Split"(PyObject*, PyObject*, Py_ssize_t) except NULL
    PyObject* PyUnicode_Join_raw "PyUnicode_Join"(PyObject*, PyObject*) except NULL
    PyObject* PyList_AsTuple_raw "PyList_AsTuple"(PyObject*) except NULL
    bint PyUnicode_CheckExact_raw "PyUnicode_CheckExact"(PyObject*)


cdef int _split_join_fast(Machine self, int tag) except -1:
    """StringSplit on Strings with a non-empty separator and StringJoin of a List of
    Strings, in C: the result, work and charge of `_cold`. Returns 0, touching nothing, for
    other operands or where a size limit could be hit (the caller then runs `_cold`)."""
    cdef Val* s = self.stack
    cdef Val* a
    cdef Val* b
    cdef PyObject* r
    cdef PyObject* lst
    cdef Py_ssize_t k, n, total
    cdef bint ascii
    if self.sp < 2:
        return 0
    a = &s[self.sp - 2]
    b = &s[self.sp - 1]
    if a.tag != T_OBJ or b.tag != T_OBJ or not PyUnicode_CheckExact_raw(b.o):
        return 0
    if tag == OP_STRINGSPLIT:
        # count + 1 pieces <= len + 1 <= MAX_COLLECTION_LEN: the length check cannot fail
        if (not PyUnicode_CheckExact_raw(a.o) or PyUnicode_GET_LENGTH(<object>b.o) == 0
                or PyUnicode_GET_LENGTH(<object>a.o) >= C_MAX_COLLECTION_LEN):
            return 0
        _spend(self, PyUnicode_GET_LENGTH(<object>a.o) + PyUnicode_GET_LENGTH(<object>b.o))
        lst = PyUnicode_Split_raw(a.o, b.o, -1)
        try:
            r = PyList_AsTuple_raw(lst)
        finally:
            _decref(lst)
        n = PyTuple_GET_SIZE(<object>r)
    else:
        if not PyTuple_CheckExact_raw(a.o):
            return 0
        n = PyTuple_GET_SIZE(<object>a.o)
        total = PyUnicode_GET_LENGTH(<object>b.o) * (n - 1 if n > 1 else 0)
        ascii = PyUnicode_IS_ASCII(<object>b.o)
        for k in range(n):
            if not PyUnicode_CheckExact_raw(PyTuple_GET_ITEM_raw(a.o, k)):
                return 0
            total += PyUnicode_GET_LENGTH(<object>PyTuple_GET_ITEM_raw(a.o, k))
            if ascii and not PyUnicode_IS_ASCII(<object>PyTuple_GET_ITEM_raw(a.o, k)):
                ascii = False
        # past a quarter of the byte limit the result's UTF-8 size decides: all-ASCII text
        # has one byte per character (over the limit, `_cold` raises the limit's error)
        if total > C_MAX_STR_CHARS_FAST and (not ascii or total > C_MAX_STRING_BYTES):
            return 0
        _spend(self, n + PyUnicode_GET_LENGTH(<object>b.o))
        r = PyUnicode_Join_raw(b.o, a.o)
        n = PyUnicode_GET_LENGTH(<object>r)
    vclear(b)
    vclear(a)
    self.sp -= 1
    a.tag = T_OBJ
    a.o = r
    _spend(self, n)
    _charge(self, 56 + 8 * n if tag == OP_STRINGSPLIT else 49 + n)
    if self.max_wall_ms_obj is not None or self.cancel_event is not None:
        err = _wall_check(self)
        if err is not None:
            raise err
    return 1


cdef int _cold(Machine self, int tag) except -1:
    """A builtin on Python values: pop its operands, push its result."""
    cdef int n, k
    cdef Val* s = self.stack
    cdef int64_t pend
    if self.push_pend < 0:      # not yet tried by OP_PUSH_STORE
        if tag == OP_LISTPUSH or tag == OP_LISTAPPEND:
            if _reuse_list(self):
                return 0
        elif tag == OP_LISTCONCAT:
            if _reuse_concat(self):
                return 0
        elif tag == OP_MAPSET or tag == OP_MAPREMOVE:
            if _reuse_map(self, tag):
                return 0
    pend = self.push_pend
    self.push_pend = -1
    if (tag == OP_PARSEINT or tag == OP_STRINGTRIM or tag == OP_STRSTARTSWITH
            or tag == OP_STRINGSTARTSWITH) and _cold_fast(self, tag):
        return 0
    if (tag == OP_MAPGET or tag == OP_MAPCONTAINSKEY or tag == OP_MAPLEN) and _map_fast(self, tag):
        return 0
    if (tag == OP_STRINGSPLIT or tag == OP_STRINGJOIN) and _split_join_fast(self, tag):
        return 0
    if (tag == OP_LISTTAIL or tag == OP_LISTLEN or tag == OP_LISTHEAD or tag == OP_LISTISEMPTY
            or tag == OP_LISTGET) and _view_op(self, tag):
        return 0
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
    if tag == OP_LISTTAIL and type(res) is tuple and PyTuple_GET_SIZE(res) >= VIEW_MIN:
        pend = VIEW_CHARGE      # (what the view's tail charges: vm/lists.pxi `_view_op`)
    _charge(self, pend if pend >= 0 else approx_size(res))
    if self.max_wall_ms_obj is not None or self.cancel_event is not None:
        # builtins can be slow (large strings and lists): check limits after each one
        err = _wall_check(self)
        if err is not None:
            raise err
    return 0
