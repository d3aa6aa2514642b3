/* Part of the VM extension (boruna/_vm.pyx): the String builders' C helpers, declared in
   vm/string_builders.pxi. A String builder is an ASCII `str` this machine allocated with room
   to spare: its visible length (PyASCIIObject.length, NUL after it) is the String's, its
   allocation `cap` characters, so `s = s ++ t` on a builder nothing else holds writes `t` into
   the room instead of copying `s` (docs/compatibility.md, "Strings nothing else holds").

   Only compact ASCII strings qualify: their text is their UTF-8 (no cached UTF-8 copy to keep
   in step), one byte a character (the room is counted in bytes), and they carry nothing but
   their length and their cached hash, which an append resets. */
#ifndef BORUNA_VM_STRINGS_H
#define BORUNA_VM_STRINGS_H

#include <string.h>

/* An exact str that is compact ASCII, not interned, and (before 3.12) has no cached wchar
   copy: a text this machine may write into when nothing else holds it. */
static inline int bor_str_writable(PyObject* s) {
    if (!PyUnicode_CheckExact(s) || !PyUnicode_IS_COMPACT_ASCII(s) || PyUnicode_CHECK_INTERNED(s))
        return 0;
#if PY_VERSION_HEX < 0x030C0000
    if (((PyASCIIObject*)s)->wstr != NULL) return 0;
#endif
    return 1;
}

/* An exact str whose characters are all ASCII (one byte each). */
static inline int bor_str_ascii(PyObject* s) {
    if (!PyUnicode_CheckExact(s)) return 0;
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(s) < 0) { PyErr_Clear(); return 0; }
#endif
    return PyUnicode_IS_ASCII(s);
}

/* A new ASCII str holding a then b, with room for `cap` characters (cap >= len a + len b):
   a new reference, or NULL with an exception set. */
static inline PyObject* bor_str_with_room(PyObject* a, PyObject* b, Py_ssize_t cap) {
    Py_ssize_t la = PyUnicode_GET_LENGTH(a), lb = PyUnicode_GET_LENGTH(b);
    PyObject* s = PyUnicode_New(cap, 127);
    char* d;
    if (s == NULL) return NULL;
    d = (char*)PyUnicode_DATA(s);
    memcpy(d, PyUnicode_DATA(a), (size_t)la);
    memcpy(d + la, PyUnicode_DATA(b), (size_t)lb);
    d[la + lb] = 0;
    ((PyASCIIObject*)s)->length = la + lb;
    return s;
}

/* Append the ASCII str b to the builder s, which has room for it. */
static inline void bor_str_append(PyObject* s, PyObject* b) {
    Py_ssize_t la = PyUnicode_GET_LENGTH(s), lb = PyUnicode_GET_LENGTH(b);
    char* d = (char*)PyUnicode_DATA(s);
    memcpy(d + la, PyUnicode_DATA(b), (size_t)lb);
    d[la + lb] = 0;
    ((PyASCIIObject*)s)->length = la + lb;
    ((PyASCIIObject*)s)->hash = -1;
}

#endif
