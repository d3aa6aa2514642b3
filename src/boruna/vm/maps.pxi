# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# Maps in C: MapGet / MapContainsKey / MapLen on a map and a String key (MapSet /
# MapRemove in place on a map nothing else holds: vm/reuse.pxi `_reuse_map`).

cdef extern from "Python.h":
    PyObject* PyDict_GetItemWithError_raw "PyDict_GetItemWithError"(PyObject*, PyObject*) except? NULL
    int PyDict_Contains_raw "PyDict_Contains"(PyObject*, PyObject*) except -1
    int PyDict_SetItem_raw "PyDict_SetItem"(PyObject*, PyObject*, PyObject*) except -1
    int PyDict_DelItem_raw "PyDict_DelItem"(PyObject*, PyObject*) except -1
    Py_ssize_t PyDict_Size_raw "PyDict_Size"(PyObject*)

cdef PyObject* MAPVALUE_T = <PyObject*>MapValue

# maps set or removed in place (vm/reuse.pxi _reuse_map); False runs every MapSet/MapRemove as a copy
MAP_IN_PLACE = True
cdef int _map_fast(Machine self, int tag) except -1:
    """MapGet, MapContainsKey and MapLen on a map (and a String key) in C: the result,
    work and charge of `_cold`. Returns 0, touching nothing, for any other operands (the
    caller then runs `_cold`)."""
    cdef Val* s = self.stack
    cdef int n = 1 if tag == OP_MAPLEN else 2
    cdef Val* mv
    cdef Val* kv
    cdef PyObject* p
    cdef int64_t r
    if self.sp < n:
        return 0
    mv = &s[self.sp - n]
    if mv.tag != T_OBJ or Py_TYPE_raw(mv.o) != MAPVALUE_T:
        return 0
    if tag == OP_MAPLEN:
        r = PyDict_Size_raw(mv.o)
        vclear(mv)
        mv.tag = T_INT
        mv.i = r
    else:
        kv = &s[self.sp - 1]
        if kv.tag != T_OBJ or not PyUnicode_CheckExact_raw(kv.o):
            return 0
        if tag == OP_MAPGET:
            p = PyDict_GetItemWithError_raw(mv.o, kv.o)
            if p == NULL:
                p = make_none()
            else:
                _incref(p)
                p = make_some(p)
            vclear(kv)
            vclear(mv)
            mv.tag = T_OBJ
            mv.o = p
        else:
            r = PyDict_Contains_raw(mv.o, kv.o)
            vclear(kv)
            vclear(mv)
            mv.tag = T_BOOL
            mv.i = r
        self.sp -= 1
    _charge(self, 48)
    if self.max_wall_ms_obj is not None or self.cancel_event is not None:
        err = _wall_check(self)
        if err is not None:
            raise err
    return 1
