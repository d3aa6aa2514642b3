/* Part of the VM extension (boruna/_vm.pyx), declared in _vm.pxd: list views, the value
   `list_tail` leaves so that consuming a List by tails costs O(1) a tail, not a copy of the
   rest. Included by vm/core/values.h (after Val).

   A view is a List's items base[off:] of a tuple `base`. It lives in a value slot (the
   stack, locals, globals), tagged BOR_T_VIEW, or as a field of a Record that itself lives
   only in value slots, tagged BOR_T_VREC (so that `S { ..s, c: list_tail(s.c) }` keeps it).
   Everything that moves a value out of a slot into another value or to Python
   (bor_take_owned, to_py) makes a view a tuple and a BOR_T_VREC record's views tuples
   first, so no list, map, Option, nested record, result, snapshot or host ever holds one.
   ListTail, ListLen, ListGet, ListHead, ListIsEmpty, `for` and GetField read them where they
   are (vm/lists.pxi `_view_op`, vm/core/dispatch.h `bor_list_items`).

   A view is never empty. Its visible items never change while anything else holds it: a tail
   moves a view forward in place only when its slot alone holds it (reference count 1), else
   it makes a new view of the same base. Making it a tuple (bor_view_tuple) keeps that tuple
   as its base (off 0: the view then stands for that tuple), so a view read again by
   something that wants a tuple is copied once, not at each read. When the view alone holds
   the base, a tail lets the dropped item go (its place holds None); once the dropped part
   is longer than the visible one, the visible items are copied into a new base (amortised
   O(1) a tail), so a view holds at most twice the slots it shows. */
#ifndef BORUNA_VM_VIEWS_H
#define BORUNA_VM_VIEWS_H

typedef struct {
    PyObject_HEAD
    PyObject* base;         /* a tuple (one reference) */
    Py_ssize_t off;         /* 0 <= off < Py_SIZE(base) */
} BorView;

static void bor_view_dealloc(PyObject* self) {
    Py_XDECREF(((BorView*)self)->base);
    PyObject_Free(self);
}

static PyTypeObject BorView_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "boruna._vm.ListView",
    .tp_basicsize = sizeof(BorView),
    .tp_dealloc = bor_view_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A List's items base[off:] (internal to the VM: never leaves a value slot).",
};

static int bor_view_ready(void) {
    return PyType_Ready(&BorView_Type);
}

#define BOR_VIEW(o) ((BorView*)(o))

static inline int bor_is_view(PyObject* o) {
    return Py_TYPE(o) == &BorView_Type;
}
#define BOR_VIEW_BASE(o) (BOR_VIEW(o)->base)
#define BOR_VIEW_OFF(o) (BOR_VIEW(o)->off)

/* a new view of base[off:] (steals `base`, also on failure) */
static PyObject* bor_view_new(PyObject* base, Py_ssize_t off) {
    BorView* v = (BorView*)PyObject_Malloc(sizeof(BorView));
    if (v == NULL) {
        Py_DECREF(base);
        return PyErr_NoMemory();
    }
    PyObject_Init((PyObject*)v, &BorView_Type);
    v->base = base;
    v->off = off;
    return (PyObject*)v;
}

static inline Py_ssize_t bor_view_len(PyObject* o) {
    return Py_SIZE(BOR_VIEW(o)->base) - BOR_VIEW(o)->off;
}

/* item i of the view (borrowed; 0 <= i < bor_view_len) */
static inline PyObject* bor_view_item(PyObject* o, Py_ssize_t i) {
    return PyTuple_GET_ITEM(BOR_VIEW(o)->base, BOR_VIEW(o)->off + i);
}

/* the view's items as a tuple (a new reference): its base once off is 0; else base[off:],
   which becomes its base (off 0). NULL with an exception set when the copy fails. */
static PyObject* bor_view_tuple(PyObject* o) {
    BorView* v = BOR_VIEW(o);
    PyObject* t;
    if (v->off != 0) {
        t = PyTuple_GetSlice(v->base, v->off, Py_SIZE(v->base));
        if (t == NULL) return NULL;
        Py_SETREF(v->base, t);
        v->off = 0;
    }
    Py_INCREF(v->base);
    return v->base;
}

/* the views among record `rec`'s fields replaced by the tuples they show (what a record held
   in a slot as BOR_T_VREC becomes when it leaves the slot; the fields tuple is changed in
   place: nothing can tell a view from its tuple): 0, or -1 with an exception set */
static int bor_vrec_normalize(PyObject* rec) {
    PyObject* f = bor_rec_tuple(rec);
    PyObject *it, *t;
    Py_ssize_t k, n;
    if (f == NULL) return 0;
    n = Py_SIZE(f);
    for (k = 0; k < n; k++) {
        it = PyTuple_GET_ITEM(f, k);
        if (Py_TYPE(it) != &BorView_Type) continue;
        t = bor_view_tuple(it);
        if (t == NULL) return -1;
        PyTuple_SET_ITEM(f, k, t);
        Py_DECREF(it);
    }
    return 0;
}

/* the dropped item base[off] let go when nothing but the view holds the base */
static inline void bor_view_drop_first(BorView* w) {
    PyObject* old;
    if (Py_REFCNT(w->base) != 1) return;
    old = PyTuple_GET_ITEM(w->base, w->off);
    Py_INCREF(Py_None);
    PyTuple_SET_ITEM(w->base, w->off, Py_None);
    Py_DECREF(old);
}

/* ListTail on the value in slot `v`: a tuple of n items (n - 1 >= vmin) becomes a view of
   it from 1; a view moves forward one item (in place when the slot alone holds it, else a
   new view of the same base), or, when fewer than vmin items would be left, becomes the
   tuple of the rest. 0, or -1 with an exception set (the slot is then Unit). */
static int bor_list_tail(Val* v, Py_ssize_t vmin) {
    BorView* w;
    PyObject* t;
    Py_ssize_t n;
    if (v->tag == BOR_T_OBJ) {
        t = bor_view_new(v->o, 0);          /* (the slot's reference moves to the view) */
        if (t == NULL) {
            v->tag = BOR_T_UNIT;
            return -1;
        }
        v->tag = BOR_T_VIEW;
        v->o = t;
        bor_view_drop_first(BOR_VIEW(t));
        BOR_VIEW(t)->off = 1;
        return 0;
    }
    w = BOR_VIEW(v->o);
    n = bor_view_len(v->o);
    if (n - 1 < vmin) {
        t = PyTuple_GetSlice(w->base, w->off + 1, Py_SIZE(w->base));
        if (t == NULL) return -1;
        Py_DECREF(v->o);
        v->tag = BOR_T_OBJ;
        v->o = t;
        return 0;
    }
    if (Py_REFCNT(w) != 1) {
        Py_INCREF(w->base);
        t = bor_view_new(w->base, w->off + 1);
        if (t == NULL) return -1;
        Py_DECREF(v->o);
        v->o = t;
        w = BOR_VIEW(t);
    } else {
        bor_view_drop_first(w);
        w->off++;
    }
    if (w->off > n - 1) {
        /* more dropped than shown: the shown items copied into a new base */
        t = PyTuple_GetSlice(w->base, w->off, Py_SIZE(w->base));
        if (t == NULL) return -1;
        Py_SETREF(w->base, t);
        w->off = 0;
    }
    return 0;
}

#endif
