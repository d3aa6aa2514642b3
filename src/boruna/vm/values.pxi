# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# Tagged values (Val: Int/Float/Bool/Unit unboxed, else a Python object with manual
# reference counting): moving values in and out, truthiness, type names, equality.

cdef bint REC_FAST = False
try:
    REC_FAST = bor_init_record(Record, Record.__dict__["type_id"], Record.__dict__["fields"]) == 1
except Exception:
    REC_FAST = False

# Enum, Some/Ok/Err and FnRef are built and read in C through their __slots__ (bor_slot):
# the classes and the slots' offsets, taken once from boruna.core.values
cdef PyObject* ENUM_T = <PyObject*>Enum
cdef PyObject* SOME_T = <PyObject*>Some
cdef PyObject* OK_T = <PyObject*>Ok
cdef PyObject* ERR_T = <PyObject*>Err
cdef PyObject* NONE_T = <PyObject*>OptNone
cdef PyObject* FNREF_T = <PyObject*>FnRef
cdef Py_ssize_t ENUM_TID_OFF = bor_slot_offset(Enum.type_id)
cdef Py_ssize_t ENUM_VAR_OFF = bor_slot_offset(Enum.variant)
cdef Py_ssize_t ENUM_PAY_OFF = bor_slot_offset(Enum.payload)
cdef Py_ssize_t WRAP_VAL_OFF = bor_slot_offset(Some.value)
cdef Py_ssize_t FNREF_IDX_OFF = bor_slot_offset(FnRef.index)
if (min(ENUM_TID_OFF, ENUM_VAR_OFF, ENUM_PAY_OFF, WRAP_VAL_OFF, FNREF_IDX_OFF) < 0
        or Ok.value is not Some.value or Err.value is not Some.value):
    raise ImportError("boruna.core.values: Enum, Some/Ok/Err and FnRef need plain __slots__")


cdef inline object slot_get(PyObject* p, Py_ssize_t off, str name):
    """Slot `name` (at `off`) of p; unset, the AttributeError of reading the attribute."""
    cdef PyObject* r = bor_slot(p, off)
    if r == NULL:
        return getattr(<object>p, name)
    return <object>r


cdef inline int64_t slot_int(PyObject* p, Py_ssize_t off, str name) except? -1:
    """Int slot `name` (at `off`) of p, read as attribute access and int conversion would."""
    cdef PyObject* r = bor_slot(p, off)
    cdef long long v
    if r != NULL and PyLong_CheckExact_raw(r) and bor_small_long(r, &v):
        return v
    return PyLong_AsLongLong(slot_get(p, off, name))


cdef object new_enum(int64_t tid, int64_t var, Val* payload):
    """MakeEnum's value: Some / Ok / Err for their reserved (type, variant), else
    Enum(tid, var, payload); moves `payload` out (Unit after)."""
    cdef PyObject* t = ENUM_T
    if tid == SOME_TID and var == 1:
        t = SOME_T
    elif tid == RESULT_TID and var == 0:
        t = OK_T
    elif tid == RESULT_TID and var == 1:
        t = ERR_T
    cdef object r = bor_alloc(t)
    if t == ENUM_T:
        bor_set_slot(<PyObject*>r, ENUM_TID_OFF, PyLong_FromLongLong_raw(tid))
        bor_set_slot(<PyObject*>r, ENUM_VAR_OFF, PyLong_FromLongLong_raw(var))
        bor_set_slot(<PyObject*>r, ENUM_PAY_OFF, take_owned(payload))
    else:
        bor_set_slot(<PyObject*>r, WRAP_VAL_OFF, take_owned(payload))
    return r


cdef inline void vclear(Val* v) noexcept:
    if v.tag == T_OBJ:
        _decref(v.o)
    v.tag = T_UNIT

cdef inline void vcopy(Val* dst, Val* src) noexcept:
    dst[0] = src[0]
    if src.tag == T_OBJ:
        _incref(src.o)

cdef inline object to_py(Val* v):
    cdef int t = v.tag
    if t == T_INT:
        return v.i
    if t == T_FLOAT:
        return v.f
    if t == T_BOOL:
        return True if v.i else False
    if t == T_UNIT:
        return None
    return <object>v.o

cdef extern from *:
    """
    /* Ints boxed when a value leaves a Val (into a list, record, enum, map or a result):
       0 <= v < BOR_INT_BOXES share one int object each, made on first use and kept for the
       process (ints have no identity in the language; CPython itself shares -5..256), so
       pushing the Ints a program computes does not allocate an object per element. */
    #define BOR_INT_BOXES 65536
    static PyObject* bor_int_boxes[BOR_INT_BOXES];
    static inline PyObject* bor_box_int(int64_t v) {
        PyObject* o;
        if ((uint64_t)v >= (uint64_t)BOR_INT_BOXES) return PyLong_FromLongLong((long long)v);
        o = bor_int_boxes[v];
        if (o == NULL) {
            o = PyLong_FromLongLong((long long)v);
            if (o == NULL) return NULL;
            bor_int_boxes[v] = o;
        }
        Py_INCREF(o);
        return o;
    }
    """
    PyObject* bor_box_int(int64_t) except NULL


cdef inline PyObject* take_owned(Val* v) except NULL:
    """Move `v` out as a new reference (v becomes Unit)."""
    cdef int t = v.tag
    cdef PyObject* r
    if t == T_OBJ:
        r = v.o
    elif t == T_INT:
        r = bor_box_int(v.i)
    elif t == T_FLOAT:
        r = PyFloat_FromDouble_raw(v.f)
    elif t == T_BOOL:
        r = Py_True_raw if v.i else Py_False_raw
        _incref(r)
    else:
        r = Py_None_raw
        _incref(r)
    v.tag = T_UNIT
    return r


cdef int from_py(Val* d, object o) except -1:
    """Store Python value `o` into the empty slot `d`."""
    cdef int overflow = 0
    cdef long long v
    cdef PyObject* p = <PyObject*>o
    if PyLong_CheckExact_raw(p):
        if bor_small_long(p, &v):
            d.tag = T_INT
            d.i = v
            return 0
        v = PyLong_AsLongLongAndOverflow(o, &overflow)
        if overflow != 0:
            raise VmError("integer overflow in conversion", "overflow")
        d.tag = T_INT
        d.i = v
    elif p == Py_True_raw or p == Py_False_raw:
        d.tag = T_BOOL
        d.i = 1 if p == Py_True_raw else 0
    elif PyFloat_CheckExact_raw(p):
        d.tag = T_FLOAT
        d.f = PyFloat_AS_DOUBLE_raw(p)
    elif p == Py_None_raw:
        d.tag = T_UNIT
    else:
        d.tag = T_OBJ
        d.o = p
        _incref(p)
    return 0

cdef inline bint truthy(Val* v) noexcept:
    cdef int t = v.tag
    if t == T_BOOL or t == T_INT:
        return v.i != 0
    if t == T_FLOAT:
        return v.f != 0.0
    if t == T_UNIT:
        return False
    return obj_truthy(<object>v.o)

cdef bint obj_truthy(object o) noexcept:
    t = type(o)
    if t is str or t is tuple or t is MapValue:
        return len(o) != 0
    if t is OptNone or t is Err:
        return False
    return True

cdef str vtype_name(Val* v):
    cdef int t = v.tag
    if t == T_INT:
        return "Int"
    if t == T_FLOAT:
        return "Float"
    if t == T_BOOL:
        return "Bool"
    if t == T_UNIT:
        return "Unit"
    return type_name(<object>v.o)


def values_equal(a, b):
    """Type-strict structural equality (docs/spec/vm.md §3.3); iterative, so any depth is safe."""
    work = [(a, b)]
    while work:
        x, y = work.pop()
        tx = type(x)
        if tx is not type(y):
            return False
        if tx is tuple:
            if len(x) != len(y):
                return False
            work.extend(zip(x, y))
        elif tx is Record:
            if x.type_id != y.type_id or len(x.fields) != len(y.fields):
                return False
            work.extend(zip(x.fields, y.fields))
        elif tx is Enum:
            if x.type_id != y.type_id or x.variant != y.variant:
                return False
            work.append((x.payload, y.payload))
        elif tx is Some or tx is Ok or tx is Err:
            work.append((x.value, y.value))
        elif tx is MapValue:
            if x.keys() != y.keys():
                return False
            work.extend((x[k], y[k]) for k in x)
        elif x != y:
            return False
    return True


cdef extern from *:
    """
    /* the order of two exact str by code points (what str's < > compare): -1, 0 or 1;
       one-byte strings compared with memcmp, others through PyUnicode_Compare (which
       cannot fail on two str) */
    static inline int bor_str_order(PyObject* a, PyObject* b) {
        Py_ssize_t la, lb;
        int c;
        if (a == b) return 0;
        if (PyUnicode_KIND(a) == PyUnicode_1BYTE_KIND && PyUnicode_KIND(b) == PyUnicode_1BYTE_KIND) {
            la = PyUnicode_GET_LENGTH(a);
            lb = PyUnicode_GET_LENGTH(b);
            c = memcmp(PyUnicode_1BYTE_DATA(a), PyUnicode_1BYTE_DATA(b), (size_t)(la < lb ? la : lb));
            if (c != 0) return c < 0 ? -1 : 1;
            return la < lb ? -1 : (la > lb ? 1 : 0);
        }
        c = PyUnicode_Compare(a, b);
        return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    """
    int bor_str_order(PyObject*, PyObject*) noexcept


cdef inline bint str_cmp(PyObject* a, PyObject* b, int64_t op) noexcept:
    """Lt/Lte/Gt/Gte (`op`) of two exact str, as Python's str comparison."""
    cdef int c = bor_str_order(a, b)
    if op == OP_LT:
        return c < 0
    if op == OP_LTE:
        return c <= 0
    if op == OP_GT:
        return c > 0
    return c >= 0


cdef bint vals_equal(Val* a, Val* b) except -1:
    if a.tag != b.tag:
        return False
    if a.tag == T_INT or a.tag == T_BOOL:
        return a.i == b.i
    if a.tag == T_FLOAT:
        return a.f == b.f
    if a.tag == T_UNIT:
        return True
    if type(<object>a.o) is str:
        if type(<object>b.o) is not str:
            return False
        return a.o == b.o or (<str>a.o) == (<str>b.o)
    return values_equal(<object>a.o, <object>b.o)


# Options built in C (MapGet): Some through its `value` slot (WRAP_VAL_OFF), reusing one of a
# few pooled Some objects that only the pool holds (reference count 1: nobody sees it), None
# the singleton.
cdef extern from *:
    """
    #define BOR_SOME_POOL 4
    static PyObject* bor_some_pool[BOR_SOME_POOL];
    /* a Some(v) for `type` with its value slot at `off` (steals v): a pooled one nobody else
       holds, else a new one, pooled while the pool has room */
    static PyObject* bor_pooled_some(PyObject* type, Py_ssize_t off, PyObject* v) {
        PyObject* o;
        PyObject* old;
        int k;
        for (k = 0; k < BOR_SOME_POOL; k++) {
            o = bor_some_pool[k];
            if (o != NULL && Py_REFCNT(o) == 1) {
                old = *(PyObject**)((char*)o + off);
                *(PyObject**)((char*)o + off) = v;
                Py_INCREF(o);
                Py_XDECREF(old);
                return o;
            }
        }
        o = ((PyTypeObject*)type)->tp_alloc((PyTypeObject*)type, 0);
        if (o == NULL) { Py_DECREF(v); return NULL; }
        *(PyObject**)((char*)o + off) = v;
        for (k = 0; k < BOR_SOME_POOL; k++) {
            if (bor_some_pool[k] == NULL) { Py_INCREF(o); bor_some_pool[k] = o; break; }
        }
        return o;
    }
    /* the values of the pool's unused Some objects let go (at the end of each run slice) */
    static void bor_some_pool_release(Py_ssize_t off) {
        PyObject* old;
        int k;
        for (k = 0; k < BOR_SOME_POOL; k++) {
            PyObject* o = bor_some_pool[k];
            if (o != NULL && Py_REFCNT(o) == 1) {
                old = *(PyObject**)((char*)o + off);
                Py_INCREF(Py_None);
                *(PyObject**)((char*)o + off) = Py_None;
                Py_XDECREF(old);
            }
        }
    }
    """
    PyObject* bor_pooled_some(PyObject*, Py_ssize_t, PyObject*) except NULL
    void bor_some_pool_release(Py_ssize_t) noexcept


cdef inline PyObject* make_some(PyObject* v) except NULL:
    """A new reference to Some(v); steals the reference to `v`."""
    return bor_pooled_some(SOME_T, WRAP_VAL_OFF, v)


cdef inline PyObject* make_none() noexcept:
    """A new reference to None (the NONE singleton)."""
    _incref(<PyObject*>NONE)
    return <PyObject*>NONE
