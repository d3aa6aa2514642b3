# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# Tagged values (Val: Int/Float/Bool/Unit unboxed, else a Python object with manual
# reference counting): moving values in and out, truthiness, type names, equality.

cdef bint REC_FAST = False
try:
    REC_FAST = bor_init_record(Record, Record.__dict__["type_id"], Record.__dict__["fields"]) == 1
except Exception:
    REC_FAST = False
# the loop's C core (vm/core/dispatch.h) reads and builds Records through their slots only
if not REC_FAST:
    raise ImportError("boruna.core.values: Record needs plain __slots__ (type_id, fields)")

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


# vclear / vcopy / truthy and the conversion from a Python value are C (vm/core/values.h,
# declared in _vm.pxd): the classes they look at are handed over once here
bor_values_init(<PyObject*>MapValue, NONE_T, ERR_T, FNREF_T, FNREF_IDX_OFF)

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
    if t == T_VIEW:
        return _view_tuple(v.o)
    if t == T_VREC:
        bor_vrec_normalize(v.o)     # (its views made tuples: the slot may keep the tag)
    return <object>v.o


cdef object _view_tuple(PyObject* o):
    """A view's items as a tuple (vm/core/views.h: kept as the view's base, so a view read
    again this way is not copied again)."""
    cdef PyObject* r = bor_view_tuple(o)
    res = <object>r
    _decref(r)
    return res

cdef object _conversion_error():
    return VmError("integer overflow in conversion", "overflow")


cdef inline int from_py(Val* d, object o) except -1:
    """Store Python value `o` into the empty slot `d`."""
    if bor_from_py(d, <PyObject*>o):
        raise _conversion_error()
    return 0


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
    if t == T_VIEW:
        return "List"
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


cdef bint vals_equal(Val* a, Val* b) except -1:
    if a.tag == T_VIEW or b.tag == T_VIEW or a.tag == T_VREC or b.tag == T_VREC:
        # (a view equals the List of its items, which may be a tuple)
        return values_equal(to_py(a), to_py(b))
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
# the singleton. Only a Some of an Int, Float, Bool or Unit is pooled: an unused pooled Some
# keeps its value until it is reused or the slice ends, and a List, Map or String it kept
# would count as a second holder to the in-place paths (vm/reuse.pxi), whose choice (and the
# work it spends) would then depend on where the run was sliced.
cdef extern from *:
    """
    #define BOR_SOME_POOL 4
    static PyObject* bor_some_pool[BOR_SOME_POOL];
    /* a Some(v) for `type` with its value slot at `off` (steals v): for a number, Bool or
       Unit a pooled one nobody else holds, else a new one (pooled while the pool has room) */
    static PyObject* bor_pooled_some(PyObject* type, Py_ssize_t off, PyObject* v) {
        PyObject* o;
        PyObject* old;
        int k;
        if (!PyLong_CheckExact(v) && !PyFloat_CheckExact(v) && v != Py_True && v != Py_False
                && v != Py_None) {
            o = ((PyTypeObject*)type)->tp_alloc((PyTypeObject*)type, 0);
            if (o == NULL) { Py_DECREF(v); return NULL; }
            *(PyObject**)((char*)o + off) = v;
            return o;
        }
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
