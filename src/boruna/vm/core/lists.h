/* Part of the VM extension (boruna/_vm.pyx): the list builders' start and growth, shared by
   vm/lists.pxi (`_bld_append`) and the loop's C core (vm/core/dispatch.h `bor_list_push`).

   A list builder is a tuple this machine allocated with room to spare: its visible size
   (Py_SIZE) is the List's length, and slot `k` of the machine's builder table records it
   (`bld[k]`, one reference), its capacity `cap[k]` (what growth decisions and snapshots
   read), its items' size for the memory walk `sub[k]` (or -1) and when it last grew `use[k]`.

   The capacity recorded is the one the doubling rule gives (4, then 2 * (n + 1)); the tuple
   may have more room than that (a recycled one, below), never less. Nothing here charges
   memory or work: the callers do, from the List's length alone, so the accounting does not
   depend on which tuple holds the items. */
#ifndef BORUNA_VM_LISTS_H
#define BORUNA_VM_LISTS_H

/* a dead builder (only its slot holds it) whose recorded capacity is at most this is reused
   as the tuple of the next new builder instead of being freed (no free and allocation per
   short-lived list); a larger one is freed, so a small list never keeps a large allocation */
#define BOR_BLD_RECYCLE_MAX 10

/* The slot a new builder takes: the first empty one or one whose list only the slot still
   holds (dead), else the least recently grown (vm/lists.pxi `_bld_victim`, which snapshots
   write as `bld_next`). */
static inline int bor_bld_victim(PyObject* const* bld, const int64_t* use, int nbld) {
    int k, best = 0;
    /* (two passes: a free slot is the common case, and its pass reads no clocks) */
    for (k = 0; k < nbld; k++) {
        if (bld[k] == NULL || Py_REFCNT(bld[k]) == 1) return k;
    }
    for (k = 1; k < nbld; k++) {
        if (use[k] < use[best]) best = k;
    }
    return best;
}

/* The first push onto an empty List: a new builder holding `v` alone (a stolen reference;
   `item` its size for the memory walk, or -1), in the victim slot, marked as just grown.
   Returns the caller's new reference to it; the caller's reference to the empty List stays
   the caller's. NULL with an exception set (v released, nothing else changed). */
static PyObject* bor_bld_start(PyObject** bld, Py_ssize_t* cap, int64_t* sub, int64_t* use,
                               int64_t* clock, int* hint, int nbld, PyObject* v, int64_t item) {
    int k = bor_bld_victim(bld, use, nbld);
    PyObject* old = bld[k];
    PyObject* t;
    PyObject* x;
    Py_ssize_t j;
    if (old != NULL && Py_REFCNT(old) == 1 && cap[k] <= BOR_BLD_RECYCLE_MAX) {
        /* the dead List's tuple becomes the new one: nothing but the slot can see it */
        t = old;
        for (j = Py_SIZE(t) - 1; j >= 0; j--) {
            x = PyTuple_GET_ITEM(t, j);
            PyTuple_SET_ITEM(t, j, NULL);
            Py_SET_SIZE(t, j);
            Py_XDECREF(x);
        }
        /* (the garbage collector may have stopped tracking it while it held only scalars) */
        if (!PyObject_GC_IsTracked(t)) PyObject_GC_Track(t);
        old = NULL;
    } else {
        t = PyTuple_New(4);
        if (t == NULL) { Py_DECREF(v); return NULL; }
    }
    PyTuple_SET_ITEM(t, 0, v);
    Py_SET_SIZE(t, 1);
    *hint = k;
    *clock += 1;
    use[k] = *clock;
    bld[k] = t;
    cap[k] = 4;
    sub[k] = item;
    Py_INCREF(t);
    Py_XDECREF(old);
    return t;
}

/* Builder `k` (List `t`, `n` items, at its recorded capacity, held by the caller and the slot
   only) grown to capacity 2 * (n + 1) with `v` appended (a stolen reference; `item` its size
   for the memory walk, or -1): the tuple is reallocated (its items move with it, no reference
   count changes; as _PyTuple_Resize does, but keeping the tuple on failure). Returns the
   caller's new reference (the caller's reference to `t` is consumed); NULL with an exception
   set (v released, nothing else changed). */
static PyObject* bor_bld_grow(PyObject** bld, Py_ssize_t* cap, int64_t* sub, int k,
                              Py_ssize_t n, PyObject* v, int64_t item) {
    PyObject* t = bld[k];
    Py_ssize_t c = 2 * (n + 1);
    PyObject* nt;
    int tracked = PyObject_GC_IsTracked(t);
    if (c < 4) c = 4;
    /* (the collector must not see the tuple while it moves) */
    if (tracked) PyObject_GC_UnTrack(t);
    nt = (PyObject*)_PyObject_GC_Resize((PyVarObject*)t, c);
    if (nt == NULL) {
        if (tracked) PyObject_GC_Track(t);
        Py_DECREF(v);
        return NULL;
    }
    /* the new room is empty (a tuple's items past its size are NULL) */
    memset(&PyTuple_GET_ITEM(nt, n), 0, (size_t)(c - n) * sizeof(PyObject*));
    PyTuple_SET_ITEM(nt, n, v);
    Py_SET_SIZE(nt, n + 1);
    PyObject_GC_Track(nt);
    bld[k] = nt;
    cap[k] = c;
    sub[k] = (sub[k] < 0 || item < 0) ? -1 : sub[k] + item;
    return nt;
}

#endif
