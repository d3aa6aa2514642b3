/* Part of the VM extension: the C core of the interpreter loop (docs/architecture.md, "The
   VM loop"), included by vm/loop.pxi. It needs what the Cython side defines before it: the
   value types (core/values.h), the checked arithmetic of _vm.pxd, the opcode constants
   BOR_OP_* (generated into vm/opcodes.pxi from bytecode/opcodes.py) and the limits
   (vm/limits_c.pxi).

   bor_run() runs the hot ops with threaded dispatch (GCC/Clang computed goto: each op ends
   in its own indirect jump through `labels`; other compilers get a `switch`). It dispatches
   the op at `ip` unconditionally (the caller has done the checkpoint for it), then each
   further op while `steps < check_at`, counting one step per dispatched op exactly as the
   Cython loop does. It returns to the Cython loop (vm/loop.pxi, `_loop`) with
     BOR_X_CHECK  the next op would pass `check_at` (nothing pending: the Cython loop runs the
                  checkpoint: slice end, max_steps, wall clock/cancellation, trace line);
     BOR_X_OP     the op at `ins` is one this core does not run (or not for these operands):
                  its step is counted and ip is past it; the Cython loop runs it;
     an error     the op at `ins` failed (its step counted); the Cython loop builds the error
                  (one constructor per error text, in boruna.core.errors) from the code and
                  `want` / `bad` / `n` / `drop`;
     -1           a Python exception is set.
   An op is implemented once: an op this core handles is not in the Cython loop's chain, or
   only for the operands this core hands over (Eq/Neq on non-Ints, ListGet's slow path). */
#ifndef BORUNA_VM_DISPATCH_H
#define BORUNA_VM_DISPATCH_H

#include "lists.h"      /* the list builders' start and growth (bor_list_push) */

/* for the helpers bor_run must keep inline (GCC's inliner gives up on some as bor_run grows,
   and a call per op costs more than the helper: tools/vmcount shows it) */
#if defined(__GNUC__) || defined(__clang__)
#define BOR_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define BOR_ALWAYS_INLINE inline
#endif

enum {
    BOR_X_CHECK = 0, BOR_X_OP = 1,
    BOR_X_UNDERFLOW = 2,    /* stack underflow */
    BOR_X_STACK = 3,        /* operand stack overflow */
    BOR_X_DEPTH = 4,        /* call depth overflow */
    BOR_X_LOCALS = 5,       /* local slots limit */
    BOR_X_ARITH = 6,        /* integer overflow; n: BOR_OVF_* */
    BOR_X_DIV0 = 7,         /* division by zero */
    BOR_X_TYPE = 8,         /* type error: wanted `want` (BOR_WANT_*), got the type of `bad`;
                               then `drop` stack values are popped and cleared */
    BOR_X_BADFN = 9,        /* invalid function index n */
    BOR_X_CONV = 10,        /* an int outside i64 read from a List or a Record */
    BOR_X_FIELD = 11,       /* GetField: a field index past the record's fields (or fields
                               that are not a List: bor_rec_tuple) */
    BOR_X_WALK = 12,        /* not an error: the op allocated past the next memory walk, which
                               the Cython loop runs (vm/memory.pxi) before going on */
    BOR_X_WORK = 13,        /* the work limit (the units are spent) */
    BOR_X_NOMATCH = 14      /* Match: no arm for the value (or no such table) */
};
/* The last word of a superinstruction that reads its loads' move flags in its fused path
   (OP_SUPER_CMPJ, OP_SUPER_CMPJ_L, OP_SUPER_BINOP, OP_SUPER_LISTGET; vm/loading.pxi _fuse):
   its low 16 bits are what it held before (the fused op's tag, or OP_SUPER_LISTGET's
   "a StoreLocal follows" 0 / 1), BOR_SUPER_MOVE_A / _B whether its first / second LoadLocal
   is the slot's last read (`movef` of that instruction: the same flag, in the word the op reads
   anyway). OP_SUPER_FIELD and OP_SUPER_CALLV keep their LoadLocal's own flag word (ins[3]). */
enum { BOR_SUPER_K = 0xFFFF, BOR_SUPER_MOVE_A = 1 << 16, BOR_SUPER_MOVE_B = 1 << 17 };
enum { BOR_OVF_ADD = 0, BOR_OVF_SUB = 1, BOR_OVF_MUL = 2, BOR_OVF_NEG = 3, BOR_OVF_DIV = 4,
       BOR_OVF_REM = 5 };
enum { BOR_WANT_NUMERIC = 0, BOR_WANT_INT = 1, BOR_WANT_COMPARABLE = 2, BOR_WANT_FNREF = 3,
       BOR_WANT_RECORD = 4, BOR_WANT_STRING = 5 };

typedef struct {
    /* the loop's registers (in and out) */
    Val* stack;
    int sp;
    Val* loc;
    int64_t* cur;
    int64_t ip;
    int func;
    int64_t steps;
    int64_t check_at;
    int plain;                 /* no wall clock and no cancellation event */
    /* out: the instruction of a BOR_X_OP or error exit, and the error's details */
    int64_t* ins;
    int64_t n;
    Val* bad;
    int want;
    int drop;
    /* the machine */
    Val* consts;
    int64_t* code;
    unsigned char* movef;
    int64_t* finish_code;
    Frame* frames;
    int* nframes;
    Val** locals;
    int64_t* lp;
    int64_t* locals_cap;
    int64_t* alloc_bytes;
    int64_t* next_walk;
    int* machine_sp;           /* the machine's own stack top (what a memory walk reads) */
    PyObject* machine;
    /* vm/loop.pxi's builtin ops (OP_COLD, OP_PUSH_STORE: vm/cold.pxi, vm/reuse.pxi), called
       with the machine's frames and locals up to date: the new stack top, or -1 (an
       exception set) */
    int (*builtin)(PyObject* machine, int64_t* ins, Val* loc, int sp);
    /* vm/lists.pxi's `x = ListPush(x, ListGet(l, i))` in place: 1 ran, 0 declined, -1 */
    int (*push_get)(PyObject* machine, Val* loc, int64_t* ins);
    int64_t* fn_start;
    int64_t* fn_nlocals;
    int nfuncs;
    /* the work units builtins spent and their limit (Concat, the map builtins), whether
       MapSet/MapRemove may change a map in place (vm/maps.pxi MAP_IN_PLACE) */
    int64_t* work;
    int64_t max_work;
    int map_in_place;
    /* vm/loop.pxi's check of a long Concat's UTF-8 size (the string limit): 0, or -1 with
       the limit's error set */
    int (*long_concat)(PyObject* a, PyObject* b);
    BorStrBuilders* sb;        /* the machine's String builders (core/strings.h) */
    /* the match tables (vm/loading.pxi): per function its first table and their count; per
       table its first arm and arm count; per arm (tag, target) */
    int64_t* fn_tables;
    int64_t* fn_ntables;
    int64_t* tbl_start;
    int64_t* tbl_len;
    int64_t* arms;
    int64_t* tbl_fast;         /* per table its BOR_MF_SIZE targets (bor_match_prep) */
    /* the machine's list builders (vm/lists.pxi: the lists grown in place, their capacity,
       their items' size for the memory walk, when each was last grown, the clock, the slot
       found last) and whether pushes may grow a list in place (PUSH_IN_PLACE) */
    PyObject** bld;
    Py_ssize_t* bld_cap;
    int64_t* bld_sub;
    int64_t* bld_use;
    int64_t* bld_clock;
    int* bld_hint;
    int nbld;
    int push_mutates;
} BorRun;

/* the value classes the core builds and reads through their __slots__ (vm/values.pxi, set
   once by bor_core_init): Enum, Some / Ok / Err, the None singleton, their slots' offsets,
   the reserved type ids of Option and Result, and MapValue's `_unsorted` slot */
static PyObject *bor_enum_t, *bor_some_t, *bor_ok_t, *bor_errw_t, *bor_none_obj;
static Py_ssize_t bor_enum_tid_off, bor_enum_var_off, bor_enum_pay_off, bor_wrap_off;
static Py_ssize_t bor_map_unsorted_off;
static int64_t bor_some_tid, bor_result_tid;

static void bor_core_init(PyObject* enum_t, PyObject* some_t, PyObject* ok_t, PyObject* err_t,
                          PyObject* none_obj, Py_ssize_t tid_off, Py_ssize_t var_off,
                          Py_ssize_t pay_off, Py_ssize_t wrap_off, int64_t some_tid,
                          int64_t result_tid, Py_ssize_t unsorted_off) {
    bor_enum_t = enum_t;
    bor_some_t = some_t;
    bor_ok_t = ok_t;
    bor_errw_t = err_t;
    bor_none_obj = none_obj;
    bor_enum_tid_off = tid_off;
    bor_enum_var_off = var_off;
    bor_enum_pay_off = pay_off;
    bor_wrap_off = wrap_off;
    bor_some_tid = some_tid;
    bor_result_tid = result_tid;
    bor_map_unsorted_off = unsorted_off;
}

/* int slot `name` (at `off`) of o, read as the Cython side's slot_int reads it (an unset
   slot: the attribute; then the int conversion): 0, or -1 with an exception set */
static inline int bor_slot_int(PyObject* o, Py_ssize_t off, const char* name, int64_t* r) {
    PyObject* p = *(PyObject**)((char*)o + off);
    long long v;
    if (p != NULL && PyLong_CheckExact(p) && bor_small_long(p, &v)) { *r = (int64_t)v; return 0; }
    if (p != NULL) {
        Py_INCREF(p);
    } else {
        p = PyObject_GetAttrString(o, name);
        if (p == NULL) return -1;
    }
    v = PyLong_AsLongLong(p);
    Py_DECREF(p);
    if (v == -1 && PyErr_Occurred()) return -1;
    *r = (int64_t)v;
    return 0;
}

/* The match dispatch of each table, computed once at load time (vm/loading.pxi): per kind of
   value, the target of the first arm that hits it, or -1 for none. Slots 0 .. BOR_MF_NVAR - 1:
   the tag k (an Enum of variant k, a Bool for 0 / 1); then None, Some, Ok, Err, and the values
   whose tag is the catch-all's (Float, Unit, String, ...; an Int too when no arm has a tag at
   or below -BOR_EXACT_TAG_BASE); BOR_MF_SLOW is 1 when some arm has such a tag (an exact
   (type, variant) or an Int's tag): Enums and Ints then take the arms in order. */
enum { BOR_MF_NVAR = 8, BOR_MF_NONE = 8, BOR_MF_SOME = 9, BOR_MF_OK = 10, BOR_MF_ERR = 11,
       BOR_MF_OTHER = 12, BOR_MF_SLOW = 13, BOR_MF_SIZE = 16 };

/* the target of the first of the n arms at `arms` whose tag is `tag` or the catch-all; -1 */
static int64_t bor_first_arm(const int64_t* arms, int64_t n, int64_t tag) {
    int64_t k;
    for (k = 0; k < n; k++)
        if (arms[2 * k] == tag || arms[2 * k] == BOR_MATCH_ANY) return arms[2 * k + 1];
    return -1;
}

/* table `out` (BOR_MF_SIZE slots) for the n arms at `arms` */
static void bor_match_prep(const int64_t* arms, int64_t n, int64_t* out) {
    int64_t k;
    for (k = 0; k < BOR_MF_SIZE; k++) out[k] = -1;
    for (k = 0; k < BOR_MF_NVAR; k++) out[k] = bor_first_arm(arms, n, k);
    out[BOR_MF_NONE] = bor_first_arm(arms, n, BOR_MATCH_NONE);
    out[BOR_MF_SOME] = bor_first_arm(arms, n, BOR_MATCH_SOME);
    out[BOR_MF_OK] = bor_first_arm(arms, n, BOR_MATCH_OK);
    out[BOR_MF_ERR] = bor_first_arm(arms, n, BOR_MATCH_ERR);
    out[BOR_MF_OTHER] = bor_first_arm(arms, n, BOR_MATCH_ANY);
    out[BOR_MF_SLOW] = 0;
    for (k = 0; k < n; k++)
        if (arms[2 * k] <= -BOR_EXACT_TAG_BASE) out[BOR_MF_SLOW] = 1;
}

/* Match on `v` with table `table` (the arms tried in order: an arm's tag equal to the value's,
   the catch-all, an Int's exact tag, an Enum's exact (type, variant) tag): the arm's target
   with v unwrapped (a Some / Ok / Err or an Enum's payload); -1 when no arm matches
   (touching nothing), -2 with an exception set, -3 when the payload is an int outside i64
   (v is then Unit). bor_match_arm takes the table's precomputed dispatch where it applies. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int64_t bor_match_slow(BorRun* st, Val* v, int64_t table) {
    int64_t tag = BOR_MATCH_ANY, itag = BOR_MATCH_ANY, etype = -1, evar = -1;
    int64_t k, start, n, at, code;
    PyObject* payload = NULL;
    PyObject* p;
    PyObject* t;
    Val tmp;
    int c;
    if (v->tag == BOR_T_BOOL) {
        tag = v->i ? 1 : 0;
    } else if (v->tag == BOR_T_INT) {
        if (0 <= v->i && v->i < BOR_INT_TAG_LIMIT) itag = -BOR_INT_TAG_BASE - v->i;
    } else if (v->tag == BOR_T_OBJ) {
        p = v->o;
        t = (PyObject*)Py_TYPE(p);
        if (t == bor_enum_t) {
            if (bor_slot_int(p, bor_enum_var_off, "variant", &tag) < 0) return -2;
            if (bor_slot_int(p, bor_enum_tid_off, "type_id", &etype) < 0) return -2;
            evar = tag;
            payload = *(PyObject**)((char*)p + bor_enum_pay_off);
            if (payload == NULL) {
                payload = PyObject_GetAttrString(p, "payload");
                if (payload == NULL) return -2;
                Py_DECREF(payload);     /* (a slot always set from here on) */
            }
        } else if (t == (PyObject*)bor_none_type) {
            tag = BOR_MATCH_NONE;
        } else if (t == bor_some_t || t == bor_ok_t || t == bor_errw_t) {
            tag = t == bor_some_t ? BOR_MATCH_SOME : (t == bor_ok_t ? BOR_MATCH_OK : BOR_MATCH_ERR);
            payload = *(PyObject**)((char*)p + bor_wrap_off);
            if (payload == NULL) {
                payload = PyObject_GetAttrString(p, "value");
                if (payload == NULL) return -2;
                Py_DECREF(payload);
            }
        }
    }
    start = st->tbl_start[table];
    n = st->tbl_len[table];
    for (k = 0; k < n; k++) {
        at = st->arms[2 * (start + k)];
        if (at == tag || at == BOR_MATCH_ANY || at == itag) break;
        if (at <= -BOR_EXACT_TAG_BASE && etype >= 0) {
            code = -at - BOR_EXACT_TAG_BASE;
            if (code / BOR_VARIANTS_PER_TYPE == etype && code % BOR_VARIANTS_PER_TYPE == evar) break;
        }
    }
    if (k == n) return -1;
    if (payload != NULL && (tag == BOR_MATCH_SOME || tag == BOR_MATCH_OK || tag == BOR_MATCH_ERR
                            || etype >= 0)) {
        tmp.tag = BOR_T_UNIT;
        c = bor_from_py(&tmp, payload);     /* (tmp holds its own reference to the payload) */
        bor_vclear(v);
        if (c) return -3;
        BOR_VMOVE(v, &tmp);
    }
    return st->arms[2 * (start + k) + 1];
}

/* The arm of table `table` that takes v, as bor_match_slow finds it, without unwrapping:
   its target (>= 0) with *payload the payload to unwrap into v (a borrowed reference: a
   Some / Ok / Err's value or an Enum's) or NULL when v stays as it is; the slow cases
   (exact and Int tags, variants past BOR_MF_NVAR, unusual slots) run bor_match_slow, which
   unwraps itself (*payload NULL); -1, -2 and -3 as bor_match_slow. The caller unwraps, or
   lets v go whole when the arm's first op pops it (op_match). */
static inline int64_t bor_match_arm(BorRun* st, Val* v, int64_t table, PyObject** payload) {
    const int64_t* mf = st->tbl_fast + BOR_MF_SIZE * table;
    PyObject *p, *t, *pv, *pt;
    long long var, tid;
    *payload = NULL;
    if (v->tag == BOR_T_BOOL) return mf[v->i ? 1 : 0];
    if (v->tag != BOR_T_OBJ) {
        if (v->tag != BOR_T_INT || !mf[BOR_MF_SLOW]) return mf[BOR_MF_OTHER];
        return bor_match_slow(st, v, table);
    }
    p = v->o;
    t = (PyObject*)Py_TYPE(p);
    if (t == bor_enum_t) {
        /* an Enum whose type and variant are small Ints, the variant one the table covers */
        pv = *(PyObject**)((char*)p + bor_enum_var_off);
        pt = *(PyObject**)((char*)p + bor_enum_tid_off);
        *payload = *(PyObject**)((char*)p + bor_enum_pay_off);
        if (mf[BOR_MF_SLOW] || pv == NULL || pt == NULL || *payload == NULL
                || !PyLong_CheckExact(pv) || !PyLong_CheckExact(pt)
                || !bor_small_long(pv, &var) || !bor_small_long(pt, &tid)
                || var < 0 || var >= BOR_MF_NVAR || tid < 0) {
            *payload = NULL;
            return bor_match_slow(st, v, table);
        }
        return mf[var];
    }
    if (t == (PyObject*)bor_none_type) return mf[BOR_MF_NONE];
    if (t != bor_some_t && t != bor_ok_t && t != bor_errw_t) return mf[BOR_MF_OTHER];
    *payload = *(PyObject**)((char*)p + bor_wrap_off);
    if (*payload == NULL) return bor_match_slow(st, v, table);
    return mf[t == bor_some_t ? BOR_MF_SOME : t == bor_ok_t ? BOR_MF_OK : BOR_MF_ERR];
}

/* MapGet / MapContainsKey / MapLen on a Map and a String key (vm/maps.pxi `_map_fast`, the
   same result; the caller charges its 48 bytes): the new stack top, -2 for other operands
   (touching nothing), -1 with an exception set */
static int bor_map_read(Val* stack, int sp, int64_t tag) {
    int n = tag == BOR_OP_MAPLEN ? 1 : 2;
    Val *mv, *kv;
    PyObject* p;
    int64_t r;
    if (sp < n) return -2;
    mv = &stack[sp - n];
    if (mv->tag != BOR_T_OBJ || Py_TYPE(mv->o) != bor_map_type) return -2;
    if (tag == BOR_OP_MAPLEN) {
        r = PyDict_GET_SIZE(mv->o);
        bor_vclear(mv);
        mv->tag = BOR_T_INT;
        mv->i = r;
        return sp;
    }
    kv = &stack[sp - 1];
    if (kv->tag != BOR_T_OBJ || !PyUnicode_CheckExact(kv->o)) return -2;
    if (tag == BOR_OP_MAPGET) {
        p = PyDict_GetItemWithError(mv->o, kv->o);
        if (p == NULL) {
            if (PyErr_Occurred()) return -1;
            p = bor_none_obj;
            Py_INCREF(p);
        } else {
            Py_INCREF(p);
            p = bor_pooled_some(bor_some_t, bor_wrap_off, p);
            if (p == NULL) return -1;
        }
        bor_vclear(kv);
        bor_vclear(mv);
        mv->tag = BOR_T_OBJ;
        mv->o = p;
    } else {
        r = PyDict_Contains(mv->o, kv->o);
        if (r < 0) return -1;
        bor_vclear(kv);
        bor_vclear(mv);
        mv->tag = BOR_T_BOOL;
        mv->i = r;
    }
    return sp - 1;
}

/* The helpers below run an op out of line (keeping bor_run's registers free) and return the
   new stack top, ORed with BOR_WALKF when the op allocated past the next memory walk;
   BOR_DECLINED when the operands are not theirs (touching nothing); -1 with an exception set;
   or BOR_HX(code) for the error exit `code`. */
#define BOR_WALKF (1 << 20)
#define BOR_DECLINED (-2)
#define BOR_HX(code) (-100 - (code))

/* a charge of `n` bytes (vm/memory.pxi _charge): BOR_WALKF when a memory walk is due */
static inline int bor_charge(BorRun* st, int64_t n) {
    *st->alloc_bytes += n;
    return *st->alloc_bytes >= *st->next_walk ? BOR_WALKF : 0;
}

/* MapSet in place (vm/reuse.pxi `_reuse_map`, its result, work and charge) on a Map only its
   operand holds, a String key and a value that is not a heap value, when the map cannot
   reach the length limit and the work limit is not reached; charged 100 bytes for a new key */
static int bor_map_set(BorRun* st, Val* stack, int sp) {
    Val *mv, *kv, *vv;
    PyObject *mp, *kp, *vp, *old;
    Py_ssize_t size0;
    int64_t work;
    int rc;
    if (sp < 3 || !st->map_in_place) return BOR_DECLINED;
    mv = &stack[sp - 3];
    kv = &stack[sp - 2];
    vv = &stack[sp - 1];
    if (mv->tag != BOR_T_OBJ || kv->tag != BOR_T_OBJ || vv->tag >= BOR_T_OBJ) return BOR_DECLINED;
    mp = mv->o;
    kp = kv->o;
    if (Py_TYPE(mp) != bor_map_type || !PyUnicode_CheckExact(kp) || Py_REFCNT(mp) != 1)
        return BOR_DECLINED;
    size0 = PyDict_GET_SIZE(mp);
    if (size0 + 1 > C_MAX_COLLECTION_LEN) return BOR_DECLINED;
    work = PyUnicode_GET_LENGTH(kp);
    if (*st->work + work > st->max_work) return BOR_DECLINED;
    *st->work += work;
    vp = bor_take_owned(vv);
    if (vp == NULL) return -1;
    rc = PyDict_SetItem(mp, kp, vp);
    Py_DECREF(vp);
    if (rc < 0) return -1;
    bor_vclear(kv);
    if (PyDict_GET_SIZE(mp) == size0) return sp - 2;
    if (size0 > 0) {
        old = *(PyObject**)((char*)mp + bor_map_unsorted_off);
        if (old != Py_True) {
            Py_INCREF(Py_True);
            *(PyObject**)((char*)mp + bor_map_unsorted_off) = Py_True;
            Py_XDECREF(old);
        }
    }
    return (sp - 2) | bor_charge(st, 100);
}

/* ListPush / ListAppend onto a List only its operand and its builder hold (or onto an empty
   List, held anywhere) of an Int, Float, Bool, Unit or String, no memory walk due
   (vm/reuse.pxi `_reuse_list` and vm/lists.pxi `_bld_append`: in the builder's room, a new
   builder for the empty List, or the builder grown (core/lists.h); the same builder
   bookkeeping, the element's size for the memory walk (vm/memory.pxi `cf_size`: 32 for a
   value that is not a heap value, 49 + its length for a String shorter than 256 characters,
   else -1), the work of the empty List's push (a String's length: declined when it would
   pass the work limit, whose error the Cython path raises) and the charge `_push_charge(n)`);
   other heap values BOR_DECLINED */
static int bor_list_push(BorRun* st, Val* stack, int sp) {
    Val *lv, *vv;
    PyObject *t, *v, *o;
    Py_ssize_t n;
    int64_t charge, item = 32, work = 0;
    int k = -1;
    if (sp < 2 || !st->push_mutates) return BOR_DECLINED;
    lv = &stack[sp - 2];
    vv = &stack[sp - 1];
    if (lv->tag != BOR_T_OBJ || !PyTuple_CheckExact(lv->o)) return BOR_DECLINED;
    if (vv->tag >= BOR_T_OBJ) {
        if (!PyUnicode_CheckExact(vv->o)) return BOR_DECLINED;
        work = PyUnicode_GET_LENGTH(vv->o);
        item = work >= 256 ? -1 : 49 + work;
    }
    t = lv->o;
    n = Py_SIZE(t);
    if (n + 1 > C_MAX_COLLECTION_LEN) return BOR_DECLINED;
    if (n > 0) {
        if (Py_REFCNT(t) != 2) return BOR_DECLINED;
        k = *st->bld_hint;
        if (st->bld[k] != t) {
            for (k = 0; k < st->nbld && st->bld[k] != t; k++) {}
            if (k == st->nbld) return BOR_DECLINED;
        }
    } else if (vv->tag >= BOR_T_OBJ && *st->work + work > st->max_work) {
        return BOR_DECLINED;
    }
    charge = n + 1 <= 16 || ((n + 1) & n) == 0 ? 56 + 8 * (n + 1) : 8;
    if (*st->alloc_bytes + charge >= *st->next_walk) return BOR_DECLINED;
    if (vv->tag == BOR_T_INT) {
        v = bor_box_int(vv->i);
        if (v == NULL) return -1;
        vv->tag = BOR_T_UNIT;
    } else {
        v = bor_take_owned(vv);
        if (v == NULL) return -1;
    }
    if (k < 0) {
        *st->work += work;
        o = bor_bld_start(st->bld, st->bld_cap, st->bld_sub, st->bld_use, st->bld_clock,
                          st->bld_hint, st->nbld, v, item);
        if (o == NULL) return -1;
        Py_DECREF(t);           /* the operand's reference to the empty List */
        lv->o = o;
    } else {
        *st->bld_hint = k;
        *st->bld_clock += 1;
        st->bld_use[k] = *st->bld_clock;
        if (n < st->bld_cap[k]) {
            PyTuple_SET_ITEM(t, n, v);
            Py_SET_SIZE(t, n + 1);
            if (st->bld_sub[k] >= 0) st->bld_sub[k] = item < 0 ? -1 : st->bld_sub[k] + item;
        } else {
            o = bor_bld_grow(st->bld, st->bld_cap, st->bld_sub, k, n, v, item);
            if (o == NULL) return -1;
            lv->o = o;
        }
    }
    *st->alloc_bytes += charge;
    return sp - 1;
}

/* MapGet on a Map and a String key and the Match after it (`next`, no checkpoint between: 2
   steps), on a machine without a wall clock or cancellation: what the two ops leave (the value
   MapGet's Some would hold, unwrapped without making the Some; its 48 bytes charged), with the Match's
   target in st->n. BOR_DECLINED, touching nothing, when the charge makes a memory walk due,
   when no arm takes the result or the value is an int outside i64 (the two ops then run, and
   fail, alone); else the new stack top, or -1 with an exception set */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int bor_map_get_match(BorRun* st, const int64_t* next, Val* stack, int sp, int func) {
    Val *mv, *kv;
    PyObject* p;
    const int64_t* mf;
    Val tmp;
    if (!st->plain || sp < 2 || next[1] < 0 || next[1] >= st->fn_ntables[func]
            || *st->alloc_bytes + 48 >= *st->next_walk)
        return BOR_DECLINED;
    mv = &stack[sp - 2];
    kv = &stack[sp - 1];
    if (mv->tag != BOR_T_OBJ || Py_TYPE(mv->o) != bor_map_type || kv->tag != BOR_T_OBJ
            || !PyUnicode_CheckExact(kv->o))
        return BOR_DECLINED;
    mf = st->tbl_fast + BOR_MF_SIZE * (st->fn_tables[func] + next[1]);
    p = PyDict_GetItemWithError(mv->o, kv->o);
    if (p == NULL) {
        if (PyErr_Occurred()) return -1;
        if (mf[BOR_MF_NONE] < 0) return BOR_DECLINED;
        st->n = mf[BOR_MF_NONE];
        tmp.tag = BOR_T_OBJ;
        tmp.o = bor_none_obj;
        Py_INCREF(bor_none_obj);
    } else {
        if (mf[BOR_MF_SOME] < 0) return BOR_DECLINED;
        tmp.tag = BOR_T_UNIT;
        if (bor_from_py(&tmp, p)) return BOR_DECLINED;
        st->n = mf[BOR_MF_SOME];
    }
    bor_vclear(kv);
    bor_vclear(mv);
    BOR_VMOVE(mv, &tmp);
    *st->alloc_bytes += 48;
    return sp - 1;
}

/* StringJoin of a List of two or more Strings, they and the separator compact ASCII, the
   result within the string limit (vm/cold.pxi `_split_join_fast`, the same result: a new
   str; the work of the list's length plus the separator's, then the result's length; charged
   49 + its length; the machine's stack top written, as the builtin's call wrote it): one pass
   over the items for their lengths, one copying them. BOR_DECLINED, touching nothing, for
   other operands or when the work would pass its limit (the Cython path then raises the
   error where it spends) */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int bor_string_join(BorRun* st, Val* stack, int sp) {
    Val *a, *b;
    PyObject *t, *sep, *it, *r;
    Py_ssize_t n, k, ls, li, total;
    const char* ps;
    char* d;
    if (sp < 2) return BOR_DECLINED;
    a = &stack[sp - 2];
    b = &stack[sp - 1];
    if (a->tag != BOR_T_OBJ || b->tag != BOR_T_OBJ || !PyTuple_CheckExact(a->o)
            || !PyUnicode_CheckExact(b->o) || !PyUnicode_IS_COMPACT_ASCII(b->o))
        return BOR_DECLINED;
    t = a->o;
    sep = b->o;
    n = PyTuple_GET_SIZE(t);
    if (n < 2) return BOR_DECLINED;     /* (PyUnicode_Join hands back a lone item itself) */
    ls = PyUnicode_GET_LENGTH(sep);
    total = ls * (n - 1);
    for (k = 0; k < n; k++) {
        it = PyTuple_GET_ITEM(t, k);
        if (!PyUnicode_CheckExact(it) || !PyUnicode_IS_COMPACT_ASCII(it)) return BOR_DECLINED;
        total += PyUnicode_GET_LENGTH(it);
    }
    if (total > C_MAX_STRING_BYTES || *st->work + (n + ls) + total > st->max_work)
        return BOR_DECLINED;
    r = PyUnicode_New(total, 127);
    if (r == NULL) return -1;
    if (total > 0) {
        d = (char*)PyUnicode_DATA(r);
        ps = (const char*)PyUnicode_DATA(sep);
        for (k = 0; k < n; k++) {
            if (k > 0 && ls > 0) {
                if (ls == 1) *d = *ps;
                else memcpy(d, ps, (size_t)ls);
                d += ls;
            }
            it = PyTuple_GET_ITEM(t, k);
            li = PyUnicode_GET_LENGTH(it);
            memcpy(d, PyUnicode_DATA(it), (size_t)li);
            d += li;
        }
    }
    *st->work += (n + ls) + total;
    Py_DECREF(sep);
    b->tag = BOR_T_UNIT;
    Py_DECREF(t);
    a->o = r;
    *st->machine_sp = sp - 1;
    return (sp - 1) | bor_charge(st, 49 + total);
}

/* the builtins the core runs itself, on a machine without a wall clock or cancellation
   (which a builtin checks after it): MapGet / MapContainsKey / MapLen (charged 48 bytes, as
   _map_fast), MapSet and ListPush / ListAppend in place, StringJoin (bor_string_join);
   others BOR_DECLINED */
#define BOR_FAST_BUILTIN(k) ((k) == BOR_OP_LISTPUSH || (k) == BOR_OP_LISTAPPEND \
                             || ((k) >= BOR_OP_MAPGET && (k) <= BOR_OP_MAPLEN) \
                             || (k) == BOR_OP_STRINGJOIN)
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int bor_builtin_fast(BorRun* st, const int64_t* ins, Val* stack, int sp) {
    int64_t k = ins[1];
    int c;
    if (!st->plain) return BOR_DECLINED;
    if (k == BOR_OP_LISTPUSH || k == BOR_OP_LISTAPPEND) return bor_list_push(st, stack, sp);
    if (ins[0] == BOR_OP_COLD) {
        if (k == BOR_OP_STRINGJOIN) return bor_string_join(st, stack, sp);
        if (k != BOR_OP_MAPGET && k != BOR_OP_MAPCONTAINSKEY && k != BOR_OP_MAPLEN)
            return BOR_DECLINED;
        c = bor_map_read(stack, sp, k);
        if (c < 0) return c;
        return c | bor_charge(st, 48);
    }
    if (k == BOR_OP_MAPSET) return bor_map_set(st, stack, sp);
    return BOR_DECLINED;
}

/* Concat of two Strings (work: both lengths; a long result's UTF-8 size checked against the
   string limit; charged 49 + n bytes, or the right String's length when the left one is let
   go): into the room of a String builder (core/strings.h bor_str_concat), two non-empty ASCII
   Strings without an intermediate object (bor_ascii_concat), others by PyUnicode_Concat */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int bor_concat(BorRun* st, Val* stack, int sp) {
    Val *a, *b;
    PyObject* o;
    int64_t n, charge;
    int c, k;
    if (sp < 2) return BOR_HX(BOR_X_UNDERFLOW);
    a = &stack[sp - 2];
    b = &stack[sp - 1];
    if (a->tag != BOR_T_OBJ || !PyUnicode_CheckExact(a->o)
            || b->tag != BOR_T_OBJ || !PyUnicode_CheckExact(b->o)) {
        st->want = BOR_WANT_STRING;
        st->bad = a->tag != BOR_T_OBJ || !PyUnicode_CheckExact(a->o) ? a : b;
        st->drop = 0;
        return BOR_HX(BOR_X_TYPE);
    }
    n = PyUnicode_GET_LENGTH(a->o) + PyUnicode_GET_LENGTH(b->o);
    /* the charge: what the live values grow by, the right String when the left one is let go
       (nothing but the operand holds it), else the whole new String */
    k = bor_sbld_slot(st->sb, a->o);
    if (Py_REFCNT(a->o) == (k >= 0 ? 2 : 1)) {
        charge = PyUnicode_GET_LENGTH(b->o);
        /* appended into a String builder (core/strings.h) when it can be */
        c = bor_str_concat(st->sb, k, a, b, n, C_MAX_STRING_BYTES, st->work, st->max_work);
    } else {
        charge = 49 + n;
        c = 0;
    }
    if (c < 0) return -1;
    if (c == 2) return BOR_HX(BOR_X_WORK);
    if (c == 1) {
        bor_vclear(b);
        return (sp - 1) | bor_charge(st, charge);
    }
    *st->work += n;
    if (*st->work > st->max_work) return BOR_HX(BOR_X_WORK);
    if (n > C_MAX_STRING_BYTES / 4 && st->long_concat(a->o, b->o) < 0) return -1;
    /* two non-empty ASCII Strings (PyUnicode_Concat hands back the other operand for the
       empty one): in place into the one only its operand holds, else one new str */
    if (PyUnicode_GET_LENGTH(a->o) > 0 && PyUnicode_GET_LENGTH(b->o) > 0 && a->o != b->o
            && PyUnicode_IS_COMPACT_ASCII(a->o) && PyUnicode_IS_COMPACT_ASCII(b->o)) {
        if (bor_ascii_concat(a, b) < 0) return -1;
        return (sp - 1) | bor_charge(st, charge);
    }
    o = PyUnicode_Concat(a->o, b->o);
    if (o == NULL) return -1;
    bor_vclear(a);
    bor_vclear(b);
    a->tag = BOR_T_OBJ;
    a->o = o;
    return (sp - 1) | bor_charge(st, charge);
}

/* MakeEnum(type, variant) on the top value: Some / Ok / Err for their reserved type ids, else
   an Enum (charged 64 bytes, no memory walk: as the Cython loop always did) */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int bor_make_enum(BorRun* st, const int64_t* ins, Val* stack, int sp) {
    PyObject *t, *o, *p1, *p2;
    Val* a;
    if (sp <= 0) return BOR_HX(BOR_X_UNDERFLOW);
    a = &stack[sp - 1];
    t = bor_enum_t;
    if (ins[1] == bor_some_tid && ins[2] == 1) t = bor_some_t;
    else if (ins[1] == bor_result_tid && ins[2] == 0) t = bor_ok_t;
    else if (ins[1] == bor_result_tid && ins[2] == 1) t = bor_errw_t;
    o = ((PyTypeObject*)t)->tp_alloc((PyTypeObject*)t, 0);
    if (o == NULL) return -1;
    if (t == bor_enum_t) {
        p1 = PyLong_FromLongLong((long long)ins[1]);
        p2 = p1 == NULL ? NULL : PyLong_FromLongLong((long long)ins[2]);
        if (p2 == NULL) { Py_XDECREF(p1); Py_DECREF(o); return -1; }
        *(PyObject**)((char*)o + bor_enum_tid_off) = p1;
        *(PyObject**)((char*)o + bor_enum_var_off) = p2;
        p1 = bor_take_owned(a);
        if (p1 == NULL) { Py_DECREF(o); return -1; }
        *(PyObject**)((char*)o + bor_enum_pay_off) = p1;
    } else {
        p1 = bor_take_owned(a);
        if (p1 == NULL) { Py_DECREF(o); return -1; }
        *(PyObject**)((char*)o + bor_wrap_off) = p1;
    }
    /* a payload that holds no other object (an Int, Float, Bool, Unit or String) cannot put
       the value in a reference cycle: the collector need not look at it (CPython untracks
       such tuples the same way), which keeps its young generation small while a program
       builds many of them */
    p1 = *(PyObject**)((char*)o + (t == bor_enum_t ? bor_enum_pay_off : bor_wrap_off));
    if (PyLong_CheckExact(p1) || PyUnicode_CheckExact(p1) || p1 == Py_None || PyBool_Check(p1)
            || PyFloat_CheckExact(p1))
        PyObject_GC_UnTrack(o);
    a->tag = BOR_T_OBJ;
    a->o = o;
    *st->alloc_bytes += 64;
    return sp;
}

/* the function index of FnRef `o`, as reading its `index` attribute would (-1 and an
   exception set on failure) */
static inline int bor_fnref_index(PyObject* o, int64_t* r) {
    PyObject* p = *(PyObject**)((char*)o + bor_fnref_idx_off);
    long long v;
    if (p != NULL && PyLong_CheckExact(p) && bor_small_long(p, &v)) { *r = v; return 0; }
    if (p != NULL) {
        Py_INCREF(p);
    } else {
        p = PyObject_GetAttrString(o, "index");
        if (p == NULL) return -1;
    }
    v = PyLong_AsLongLong(p);
    Py_DECREF(p);
    if (v == -1 && PyErr_Occurred()) return -1;
    *r = v;
    return 0;
}

/* Lt / Lte / Gt / Gte (`k`) of two exact str, as str's comparison (bor_str_order); two
   one-character compact ASCII strings first, by their one byte each (what bor_str_order finds
   for them); out of line, so the string paths cost the Int paths of bor_run nothing */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int bor_str_cmp(PyObject* a, PyObject* b, int64_t k) {
    int c;
    if (PyUnicode_IS_COMPACT_ASCII(a) && PyUnicode_IS_COMPACT_ASCII(b)
            && ((PyASCIIObject*)a)->length == 1 && ((PyASCIIObject*)b)->length == 1) {
        int x = *(const unsigned char*)((PyASCIIObject*)a + 1);
        int y = *(const unsigned char*)((PyASCIIObject*)b + 1);
        return k == BOR_OP_LT ? x < y : k == BOR_OP_LTE ? x <= y : k == BOR_OP_GT ? x > y : x >= y;
    }
    c = bor_str_order(a, b);
    return k == BOR_OP_LT ? c < 0 : k == BOR_OP_LTE ? c <= 0 : k == BOR_OP_GT ? c > 0 : c >= 0;
}

/* GetField(ins[1]) taking the field out of the record `rec` (vm/reuse.pxi's plan: ins[2] - 2
   and ins[3] - 1 are locals that never read this field again, negative for none): whether it
   may, that is when nothing but `held` references and those locals hold the record, nothing but
   the record holds its fields, and the field is a List, Map, Record or writable String (worth
   reusing: core/strings.h). The GetField's operand is one of the `held` references once it is
   loaded; before a copying load (the local then holds it alone) `held` is 0. */
static BOR_ALWAYS_INLINE int bor_field_takable(PyObject* rec, const Val* loc,
                                               const int64_t* ins, Py_ssize_t held) {
    PyObject* flds = bor_rec_tuple(rec);
    PyObject* item;
    int64_t c;
    if (flds == NULL || Py_REFCNT(flds) != 1 || ins[1] >= Py_SIZE(flds)) return 0;
    item = PyTuple_GET_ITEM(flds, ins[1]);
    if (!(PyTuple_CheckExact(item) || Py_TYPE(item) == bor_map_type || bor_is_record(item)
          || bor_str_writable(item) || bor_is_view(item)))
        return 0;
    c = ins[2] - 2;
    if (c >= 0 && loc[c].tag >= BOR_T_OBJ && loc[c].o == rec) held++;
    c = ins[3] - 1;
    if (c >= 0 && loc[c].tag >= BOR_T_OBJ && loc[c].o == rec) held++;
    return Py_REFCNT(rec) == held;
}

/* GetField(ins[1]) on the record in the operand `a`, taking the field out when
   bor_field_takable says it may: the field's slot is left Unit (None) and `a` becomes the
   field (the record's reference dropped); 1. Else 0, touching nothing. */
static BOR_ALWAYS_INLINE int bor_take_field(Val* a, const Val* loc, const int64_t* ins) {
    PyObject* rec = a->o;
    PyObject* flds;
    PyObject* item;
    if (!bor_field_takable(rec, loc, ins, 1)) return 0;
    flds = bor_rec_fields(rec);
    item = PyTuple_GET_ITEM(flds, ins[1]);
    Py_INCREF(Py_None);
    PyTuple_SET_ITEM(flds, ins[1], Py_None);
    a->tag = bor_is_view(item) ? BOR_T_VIEW : BOR_T_OBJ;
    a->o = item;        /* the field's reference moves to the operand */
    Py_DECREF(rec);
    return 1;
}

/* -1 (the Cython side raises the exception the core left set) */
static int bor_fail(void) { return -1; }

#if defined(BOR_NO_THREADED)
#define BOR_THREADED 0
#elif defined(__GNUC__) || defined(__clang__)
#define BOR_THREADED 1
#else
#define BOR_THREADED 0
#endif

/* the values in [p, e) let go and left Unit; out of line, so that the paths that clear
   values only when some are heap values (Call's extra arguments, Ret's slots and the stack
   above its result) keep no call, and no register spills around one, in bor_run */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void bor_vclear_range(Val* p, Val* e) {
    for (; p < e; p++) bor_vclear(p);
}

/* bor_from_py with an exact int of at most one digit inline (the common List element or
   field; GCC keeps bor_from_py a call in bor_run): its result (1: an int outside i64) */
static BOR_ALWAYS_INLINE int bor_from_py_k(Val* d, PyObject* p) {
    long long v;
    if (PyLong_CheckExact(p) && bor_small_long(p, &v)) {
        d->tag = BOR_T_INT;
        d->i = v;
        return 0;
    }
    return bor_from_py(d, p);
}

/* The items and length of the List in `v`, a tuple or a List view (vm/core/views.h): its
   first item's address, or NULL for any other value. A tuple is looked at first, as the ops
   did before views, so its path costs what it did. */
static BOR_ALWAYS_INLINE PyObject** bor_list_items(const Val* v, Py_ssize_t* n) {
    if (v->tag == BOR_T_OBJ) {
        if (!PyTuple_CheckExact(v->o)) return NULL;
        *n = Py_SIZE(v->o);
        return ((PyTupleObject*)v->o)->ob_item;
    }
    if (v->tag != BOR_T_VIEW) return NULL;
    *n = bor_view_len(v->o);
    return ((PyTupleObject*)BOR_VIEW(v->o)->base)->ob_item + BOR_VIEW(v->o)->off;
}

/* bor_vclear inlined in bor_run (GCC keeps it a call there otherwise: a call per clear) */
#define BOR_VCLEAR(p) do { Val* vc_ = (p); \
        if (vc_->tag >= BOR_T_OBJ) Py_DECREF(vc_->o); \
        vc_->tag = BOR_T_UNIT; } while (0)

/* GCC merges the identical dispatch tails of the ops into one indirect jump (cross-jumping,
   and GCSE hoisting the fetch), which undoes the threading: each op keeps its own */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-crossjumping", "no-gcse")))
#endif
static int bor_run(BorRun* st) {
    Val* stack = st->stack;
    int sp = st->sp;
    Val* loc = st->loc;
    int64_t* cur = st->cur;
    /* the next instruction, a pointer (st->ip and the frames' ip are indexes into the
       function's code: converted at the entry, the exits, calls and returns only) */
    int64_t* pc = cur + st->ip * BOR_W;
    int func = st->func;
    /* the steps left before the checkpoint (check_at - steps): one register, counted down,
       instead of the step count and the limit it was compared with at every dispatch; the
       step count, check_at - left, is written back at the exit */
    int64_t left = st->check_at - st->steps;
    const unsigned char* movef = st->movef;
    const int64_t* code = st->code;
    Val* consts = st->consts;
    Frame* frames = st->frames;
    /* the machine's frame count, local slots and their top, in registers while the core runs
       (nothing else touches them meanwhile); written back at every exit */
    int nframes = *st->nframes;
    Val* locals = *st->locals;
    int64_t lp = *st->lp;
    int64_t locals_cap = *st->locals_cap;
    int64_t* ins;
    int64_t op;
    int rc = BOR_X_OP;
    Val *a, *b, *v;
    Val tmp;
    Frame* fr;
    int64_t x, y, r, k, n, argc, target, base;
    double fx, fy;
    int c, hit;

#if BOR_THREADED
    /* the dispatch table: every op this core runs has its label, any other tag exits */
    static void* labels[BOR_NUM_OPS] = {
        [0 ... BOR_NUM_OPS - 1] = &&op_exit,
        [BOR_OP_LOADLOCAL] = &&op_loadlocal,
        [BOR_OP_PUSHCONST] = &&op_pushconst,
        [BOR_OP_STORELOCAL] = &&op_storelocal,
        [BOR_OP_POP] = &&op_pop,
        [BOR_OP_DUP] = &&op_dup,
        [BOR_OP_ADD] = &&op_add,
        [BOR_OP_SUB] = &&op_sub,
        [BOR_OP_MUL] = &&op_mul,
        [BOR_OP_DIV] = &&op_div,
        [BOR_OP_MOD] = &&op_mod,
        [BOR_OP_NEG] = &&op_neg,
        [BOR_OP_LT] = &&op_lt,
        [BOR_OP_LTE] = &&op_lte,
        [BOR_OP_GT] = &&op_gt,
        [BOR_OP_GTE] = &&op_gte,
        [BOR_OP_EQ] = &&op_eq,
        [BOR_OP_NEQ] = &&op_neq,
        [BOR_OP_NOT] = &&op_not,
        [BOR_OP_AND] = &&op_and,
        [BOR_OP_OR] = &&op_or,
        [BOR_OP_JMP] = &&op_jmp,
        [BOR_OP_JMPIF] = &&op_jmpif,
        [BOR_OP_JMPIFNOT] = &&op_jmpifnot,
        [BOR_OP_CALL] = &&op_call,
        [BOR_OP_CALLINDIRECT] = &&op_callindirect,
        [BOR_OP_SUPER_CALLV] = &&op_super_callv,
        [BOR_OP_RET] = &&op_ret,
        [BOR_OP_IMPLICIT_RET] = &&op_implicit_ret,
        [BOR_OP_NOP] = &&op_nop,
        [BOR_OP_LISTGET] = &&op_listget,
        [BOR_OP_COLD] = &&op_cold,
        [BOR_OP_PUSH_STORE] = &&op_push_store,
        [BOR_OP_GETFIELD] = &&op_getfield,
        [BOR_OP_SUPER_FIELD] = &&op_super_field,
        [BOR_OP_MAKERECORD] = &&op_makerecord,
        [BOR_OP_MAKELIST] = &&op_makelist,
        [BOR_OP_STRINGLEN] = &&op_stringlen,
        [BOR_OP_INTTOSTRING] = &&op_inttostring,
        [BOR_OP_LISTLEN] = &&op_listlen,
        [BOR_OP_SUPER_LISTCMP] = &&op_super_listcmp,
        [BOR_OP_SUPER_PUSHGET] = &&op_super_pushget,
        [BOR_OP_SUPER_CMP_L] = &&op_super_cmp_l,
        [BOR_OP_SUPER_CMP2J] = &&op_super_cmp2j,
        [BOR_OP_SUPER_STLDJ] = &&op_super_stldj,
        [BOR_OP_SUPER_CMPJ] = &&op_super_cmpj,
        [BOR_OP_SUPER_CMPJ_L] = &&op_super_cmpj_l,
        [BOR_OP_SUPER_ARITH] = &&op_super_arith,
        [BOR_OP_SUPER_ARITH_L] = &&op_super_arith_l,
        [BOR_OP_SUPER_BINOP] = &&op_super_binop,
        [BOR_OP_SUPER_LISTGET] = &&op_super_listget,
        [BOR_OP_SUPER_TESTJ] = &&op_super_testj,
        [BOR_OP_SUPER_JMP2] = &&op_super_jmp2,
        [BOR_OP_SUPER_PUSHL] = &&op_super_pushl,
        [BOR_OP_SUPER_STLD] = &&op_super_stld,
        [BOR_OP_SUPER_JMPRET] = &&op_super_jmpret,
        [BOR_OP_CONCAT] = &&op_concat,
        [BOR_OP_MAKEENUM] = &&op_makeenum,
        [BOR_OP_MATCH] = &&op_match,
    };
#define TARGET(label, tag) label:
#define DISPATCH() goto *labels[op]
#define DEFAULT_TARGET op_exit:
#else
#define TARGET(label, tag) case tag:
#define DISPATCH() goto dispatch_switch
#define DEFAULT_TARGET default:
#endif
    /* ROOM(k): k more steps fit before the checkpoint (steps + k < check_at); COUNT(k): k
       more steps counted; AT(i): instruction i of the current function; IP_INDEX(): the index
       of the next instruction (pc's, as the Cython side keeps it) */
#define ROOM(k) (left > (k))
#define COUNT(k) (left -= (k))
#define AT(i) (cur + (i) * BOR_W)
#define IP_INDEX() ((int64_t)((size_t)(pc - cur) / BOR_W))
    /* the next op: out to the Cython loop at a checkpoint, else count its step and jump (the
       count first: the decrement's own sign is the test, and the exit gives the step back) */
#define NEXT() do { \
        if (--left < 0) { left++; rc = BOR_X_CHECK; goto out; } \
        FETCH(); DISPATCH(); } while (0)
#define FETCH() do { ins = pc; op = ins[0]; pc += BOR_W; } while (0)
#define EXIT(code) do { rc = (code); goto out; } while (0)
/* LoadLocal(w[1]) onto the stack, moving the value when it is the slot's last read (w[3],
   vm/reuse.pxi); StoreLocal(w[1]) of the popped top, dropping it for a dead store (w[2]).
   The stack's bounds are the caller's to check. */
#define LOAD_LOCAL(w) do { \
    if ((w)[3]) { BOR_VMOVE(&stack[sp], &loc[(w)[1]]); loc[(w)[1]].tag = BOR_T_UNIT; } \
    else bor_vcopy(&stack[sp], &loc[(w)[1]]); \
    sp++; } while (0)
#define STORE_LOCAL(w) do { \
    sp--; \
    BOR_VCLEAR(&loc[(w)[1]]); \
    if ((w)[2]) BOR_VCLEAR(&stack[sp]); \
    else BOR_VMOVE(&loc[(w)[1]], &stack[sp]); } while (0)
    /* the end of an op run by a helper (its result `c`: see BOR_WALKF) */
#define HELPER_DONE(c) do { \
        if ((c) < 0) EXIT((c) == -1 ? -1 : -100 - (c)); \
        sp = (c) & (BOR_WALKF - 1); \
        if ((c) & BOR_WALKF) EXIT(BOR_X_WALK); \
        NEXT(); } while (0)
    /* the StoreLocal at pc (or the StoreLocal-LoadLocal pair) run by the op before it, which
       left the value to store on the stack (sp > 0), unless a checkpoint falls between: a
       binding after a Match, an in-place builtin's result stored (not after a Ret: the
       check cost call-heavy code more than the stores it saved, fib27 +2 %) */
#define FOLD_STORE() do { \
        if (pc[0] == BOR_OP_STORELOCAL && ROOM(0)) { \
            COUNT(1); ins = pc; pc += BOR_W; STORE_LOCAL(ins); NEXT(); } \
        if (pc[0] == BOR_OP_SUPER_STLD && ROOM(1)) { \
            COUNT(2); ins = pc; pc += 2 * BOR_W; STORE_LOCAL(ins); LOAD_LOCAL(ins + BOR_W); \
            NEXT(); } \
        } while (0)

    COUNT(1);
    FETCH();
    DISPATCH();
#if !BOR_THREADED
dispatch_switch:
    switch (op) {
#endif

    TARGET(op_loadlocal, BOR_OP_LOADLOCAL) {
        if (sp >= C_MAX_STACK) EXIT(BOR_X_STACK);
        LOAD_LOCAL(ins);
        NEXT();
    }
    TARGET(op_pushconst, BOR_OP_PUSHCONST) {
        if (sp >= C_MAX_STACK) EXIT(BOR_X_STACK);
        bor_vcopy(&stack[sp], &consts[ins[1]]);
        sp++;
        NEXT();
    }
    TARGET(op_storelocal, BOR_OP_STORELOCAL) {
        if (sp <= 0) EXIT(BOR_X_UNDERFLOW);
        STORE_LOCAL(ins);
        NEXT();
    }
    TARGET(op_super_stld, BOR_OP_SUPER_STLD) {
        /* StoreLocal(a) and the plain LoadLocal after it (vm/loading.pxi), unless a
           checkpoint falls on the LoadLocal; else StoreLocal(a) alone. The load pushes back
           what the store popped: the stack has room */
        if (sp <= 0) EXIT(BOR_X_UNDERFLOW);
        STORE_LOCAL(ins);
        if (ROOM(0)) {
            int64_t* w = ins + BOR_W;
            COUNT(1);
            pc += BOR_W;
            LOAD_LOCAL(w);
        }
        NEXT();
    }
    TARGET(op_pop, BOR_OP_POP) {
        if (sp <= 0) EXIT(BOR_X_UNDERFLOW);
        sp--;
        BOR_VCLEAR(&stack[sp]);
        NEXT();
    }
    TARGET(op_dup, BOR_OP_DUP) {
        if (sp <= 0) EXIT(BOR_X_UNDERFLOW);
        if (sp >= C_MAX_STACK) EXIT(BOR_X_STACK);
        bor_vcopy(&stack[sp], &stack[sp - 1]);
        sp++;
        NEXT();
    }

    /* Add / Sub / Mul: checked on Ints, Floats (or an Int and a Float) as doubles */
    TARGET(op_add, BOR_OP_ADD)
    TARGET(op_sub, BOR_OP_SUB)
    TARGET(op_mul, BOR_OP_MUL) {
        if (sp < 2) EXIT(BOR_X_UNDERFLOW);
        a = &stack[sp - 2];
        b = &stack[sp - 1];
        if (a->tag == BOR_T_INT && b->tag == BOR_T_INT) {
            if (op == BOR_OP_ADD) {
                if (bor_add(a->i, b->i, &r)) { st->n = BOR_OVF_ADD; EXIT(BOR_X_ARITH); }
            } else if (op == BOR_OP_SUB) {
                if (bor_sub(a->i, b->i, &r)) { st->n = BOR_OVF_SUB; EXIT(BOR_X_ARITH); }
            } else {
                if (bor_mul(a->i, b->i, &r)) { st->n = BOR_OVF_MUL; EXIT(BOR_X_ARITH); }
            }
            a->i = r;
            sp--;
        } else if ((a->tag == BOR_T_INT || a->tag == BOR_T_FLOAT) && (b->tag == BOR_T_INT || b->tag == BOR_T_FLOAT)) {
            fx = a->tag == BOR_T_FLOAT ? a->f : (double)a->i;
            fy = b->tag == BOR_T_FLOAT ? b->f : (double)b->i;
            if (op == BOR_OP_ADD) a->f = fx + fy;
            else if (op == BOR_OP_SUB) a->f = fx - fy;
            else a->f = fx * fy;
            a->tag = BOR_T_FLOAT;
            sp--;
        } else {
            st->want = BOR_WANT_NUMERIC;
            st->bad = (a->tag == BOR_T_INT || a->tag == BOR_T_FLOAT) ? b : a;
            st->drop = 2;
            EXIT(BOR_X_TYPE);
        }
        NEXT();
    }
    TARGET(op_div, BOR_OP_DIV) {
        if (sp < 2) EXIT(BOR_X_UNDERFLOW);
        a = &stack[sp - 2];
        b = &stack[sp - 1];
        if ((b->tag == BOR_T_INT && b->i == 0) || (b->tag == BOR_T_FLOAT && b->f == 0.0)) EXIT(BOR_X_DIV0);
        if (a->tag == BOR_T_INT && b->tag == BOR_T_INT) {
            if (a->i == INT64_MIN && b->i == -1) { st->n = BOR_OVF_DIV; EXIT(BOR_X_ARITH); }
            a->i = a->i / b->i;
            sp--;
        } else if ((a->tag == BOR_T_INT || a->tag == BOR_T_FLOAT) && (b->tag == BOR_T_INT || b->tag == BOR_T_FLOAT)) {
            fx = a->tag == BOR_T_FLOAT ? a->f : (double)a->i;
            fy = b->tag == BOR_T_FLOAT ? b->f : (double)b->i;
            a->f = fx / fy;
            a->tag = BOR_T_FLOAT;
            sp--;
        } else {
            st->want = BOR_WANT_NUMERIC;
            st->bad = (a->tag == BOR_T_INT || a->tag == BOR_T_FLOAT) ? b : a;
            st->drop = 0;
            EXIT(BOR_X_TYPE);
        }
        NEXT();
    }
    TARGET(op_mod, BOR_OP_MOD) {
        if (sp < 2) EXIT(BOR_X_UNDERFLOW);
        a = &stack[sp - 2];
        b = &stack[sp - 1];
        if (a->tag == BOR_T_INT && b->tag == BOR_T_INT) {
            if (b->i == 0) EXIT(BOR_X_DIV0);
            if (a->i == INT64_MIN && b->i == -1) { st->n = BOR_OVF_REM; EXIT(BOR_X_ARITH); }
            a->i = a->i % b->i;
            sp--;
        } else {
            st->want = BOR_WANT_INT;
            st->bad = a->tag == BOR_T_INT ? b : a;
            st->drop = 0;
            EXIT(BOR_X_TYPE);
        }
        NEXT();
    }
    TARGET(op_neg, BOR_OP_NEG) {
        if (sp <= 0) EXIT(BOR_X_UNDERFLOW);
        a = &stack[sp - 1];
        if (a->tag == BOR_T_INT) {
            if (a->i == INT64_MIN) { st->n = BOR_OVF_NEG; EXIT(BOR_X_ARITH); }
            a->i = -a->i;
        } else if (a->tag == BOR_T_FLOAT) {
            a->f = -a->f;
        } else {
            st->want = BOR_WANT_NUMERIC;
            st->bad = a;
            st->drop = 0;
            EXIT(BOR_X_TYPE);
        }
        NEXT();
    }

    /* Lt / Lte / Gt / Gte on two Ints, two Floats (NaN compares as Equal) or two Strings */
    TARGET(op_lt, BOR_OP_LT)
    TARGET(op_lte, BOR_OP_LTE)
    TARGET(op_gt, BOR_OP_GT)
    TARGET(op_gte, BOR_OP_GTE) {
        if (sp < 2) EXIT(BOR_X_UNDERFLOW);
        a = &stack[sp - 2];
        b = &stack[sp - 1];
        if (a->tag == BOR_T_INT && b->tag == BOR_T_INT) {
            x = a->i;
            y = b->i;
            c = op == BOR_OP_LT ? x < y : op == BOR_OP_LTE ? x <= y : op == BOR_OP_GT ? x > y : x >= y;
        } else if (a->tag == BOR_T_FLOAT && b->tag == BOR_T_FLOAT) {
            fx = a->f;
            fy = b->f;
            if (fx != fx || fy != fy) c = op == BOR_OP_LTE || op == BOR_OP_GTE;
            else c = op == BOR_OP_LT ? fx < fy : op == BOR_OP_LTE ? fx <= fy
                     : op == BOR_OP_GT ? fx > fy : fx >= fy;
        } else if (a->tag == BOR_T_OBJ && b->tag == BOR_T_OBJ && PyUnicode_CheckExact(a->o)
                   && PyUnicode_CheckExact(b->o)) {
            c = bor_str_cmp(a->o, b->o, op);
            Py_DECREF(a->o);        /* (the only operands with something to let go) */
            Py_DECREF(b->o);
        } else {
            st->want = BOR_WANT_COMPARABLE;
            st->bad = a;
            st->drop = 0;
            EXIT(BOR_X_TYPE);
        }
        b->tag = BOR_T_UNIT;
        a->tag = BOR_T_BOOL;
        a->i = c;
        sp--;
        NEXT();
    }
    /* Eq / Neq on two Ints; other operands: the Cython loop (structural equality) */
    TARGET(op_eq, BOR_OP_EQ)
    TARGET(op_neq, BOR_OP_NEQ) {
        if (sp < 2) EXIT(BOR_X_UNDERFLOW);
        a = &stack[sp - 2];
        b = &stack[sp - 1];
        if (a->tag != BOR_T_INT || b->tag != BOR_T_INT) EXIT(BOR_X_OP);
        c = (a->i == b->i) == (op == BOR_OP_EQ);
        a->tag = BOR_T_BOOL;
        a->i = c;
        sp--;
        NEXT();
    }
    TARGET(op_not, BOR_OP_NOT) {
        if (sp <= 0) EXIT(BOR_X_UNDERFLOW);
        a = &stack[sp - 1];
        c = !bor_truthy(a);
        BOR_VCLEAR(a);
        a->tag = BOR_T_BOOL;
        a->i = c;
        NEXT();
    }
    TARGET(op_and, BOR_OP_AND)
    TARGET(op_or, BOR_OP_OR) {
        if (sp < 2) EXIT(BOR_X_UNDERFLOW);
        a = &stack[sp - 2];
        b = &stack[sp - 1];
        if (a->tag == BOR_T_BOOL && b->tag == BOR_T_BOOL) {
            /* (two Bools: nothing to let go) */
            c = op == BOR_OP_AND ? a->i && b->i : a->i || b->i;
        } else {
            if (op == BOR_OP_AND) c = bor_truthy(a) && bor_truthy(b);
            else c = bor_truthy(a) || bor_truthy(b);
            BOR_VCLEAR(a);
            BOR_VCLEAR(b);
        }
        a->tag = BOR_T_BOOL;
        a->i = c;
        sp--;
        NEXT();
    }

    TARGET(op_jmp, BOR_OP_JMP) {
        pc = AT(ins[1]);
        NEXT();
    }
    TARGET(op_jmpif, BOR_OP_JMPIF)
    TARGET(op_jmpifnot, BOR_OP_JMPIFNOT) {
        if (sp <= 0) EXIT(BOR_X_UNDERFLOW);
        sp--;
        v = &stack[sp];
        if (v->tag == BOR_T_BOOL) {
            c = v->i != 0;
        } else {
            c = bor_truthy(v);
            BOR_VCLEAR(v);
        }
        if (c == (op == BOR_OP_JMPIF)) pc = AT(ins[1]);
        NEXT();
    }

    /* calls: a direct call, a call through a function value on the stack, and LoadLocal(f)
       CallIndirect fused (when f is a function reference and no checkpoint falls on the
       CallIndirect; else the LoadLocal alone); all three set up the frame the same way */
    TARGET(op_super_callv, BOR_OP_SUPER_CALLV) {
        v = &loc[ins[1]];
        if (sp >= C_MAX_STACK) EXIT(BOR_X_STACK);
        if (!ROOM(0) || v->tag != BOR_T_OBJ || Py_TYPE(v->o) != bor_fnref_type) {
            bor_load(movef, code, &stack[sp], v, ins);
            sp++;
            NEXT();
        }
        if (bor_fnref_index(v->o, &target) < 0) EXIT(-1);
        if (ins[3]) {                   /* the function value's last read (its LoadLocal's flag) */
            Py_DECREF(v->o);
            v->tag = BOR_T_UNIT;
        }
        argc = ins[2];
        COUNT(1);
        pc += BOR_W;
        goto do_call;
    }
    TARGET(op_callindirect, BOR_OP_CALLINDIRECT) {
        argc = ins[1];
        if (sp <= 0) EXIT(BOR_X_UNDERFLOW);
        v = &stack[sp - 1];
        if (v->tag != BOR_T_OBJ || Py_TYPE(v->o) != bor_fnref_type) {
            st->want = BOR_WANT_FNREF;
            st->bad = v;
            st->drop = 0;
            EXIT(BOR_X_TYPE);
        }
        if (bor_fnref_index(v->o, &target) < 0) EXIT(-1);
        sp--;
        BOR_VCLEAR(v);
        goto do_call;
    }
    TARGET(op_call, BOR_OP_CALL) {
        target = ins[1];
        argc = ins[2];
    do_call:
        if (sp < argc) EXIT(BOR_X_UNDERFLOW);
        /* (one unsigned compare: a negative index is out of range too) */
        if ((uint64_t)target >= (uint64_t)st->nfuncs) { st->n = target; EXIT(BOR_X_BADFN); }
        if (nframes >= C_MAX_CALL_DEPTH) EXIT(BOR_X_DEPTH);
        n = st->fn_nlocals[target];
        if (lp + n > locals_cap) {
            /* (through copies: the registers' own addresses are never taken, which would
               keep them in memory for the whole of bor_run) */
            Val* grown = locals;
            int64_t cap = locals_cap;
            base = nframes ? frames[nframes - 1].locals_base : 0;
            if (!bor_ensure_locals(&grown, &cap, lp, n, C_MAX_LOCAL_SLOTS, st->alloc_bytes)) {
                locals = grown;
                locals_cap = cap;
                EXIT(BOR_X_LOCALS);
            }
            locals = grown;
            locals_cap = cap;
            loc = &locals[base];
        }
        frames[nframes - 1].ip = IP_INDEX();
        base = lp;
        v = &locals[base];
        sp -= (int)argc;
        /* the arguments move into the first slots, the other slots start Unit, and extra
           arguments (more than the function has slots) are dropped */
        r = argc < n ? argc : n;
        if (r == 1) {                   /* (the common one- and two-argument calls: no loop) */
            BOR_VMOVE(&v[0], &stack[sp]);
            k = 1;
        } else if (r == 2) {
            BOR_VMOVE(&v[0], &stack[sp]);
            BOR_VMOVE(&v[1], &stack[sp + 1]);
            k = 2;
        } else {
            for (k = 0; k < r; k++) BOR_VMOVE(&v[k], &stack[sp + k]);
        }
        for (; k < n; k++) v[k].tag = BOR_T_UNIT;
        if (argc > n) bor_vclear_range(&stack[sp + n], &stack[sp + argc]);
        lp = base + n;
        fr = &frames[nframes];
        nframes++;
        func = (int)target;
        cur = &st->code[st->fn_start[func] * BOR_W];
        fr->func = func;
        fr->code = cur;
        fr->ip = 0;
        fr->stack_base = sp;
        fr->locals_base = base;
        loc = v;
        pc = cur;
        NEXT();
    }
    TARGET(op_super_jmpret, BOR_OP_SUPER_JMPRET) {
        /* a jump to a Ret (an if or match expression's value returned), unless a checkpoint
           falls on the Ret: the Ret run here, pc past it as after its own fetch */
        pc = AT(ins[1]);
        if (!ROOM(0)) NEXT();
        COUNT(1);
        pc += BOR_W;
        op = BOR_OP_RET;
        goto do_ret;
    }
    TARGET(op_ret, BOR_OP_RET)
    TARGET(op_implicit_ret, BOR_OP_IMPLICIT_RET) {
    do_ret:
        fr = &frames[nframes - 1];
        if (op == BOR_OP_RET && sp > fr->stack_base) {
            sp--;
            BOR_VMOVE(&tmp, &stack[sp]);
        } else {
            tmp.tag = BOR_T_UNIT;
            tmp.i = 0;
        }
        /* the values above the frame's stack base let go (out of line: bor_vclear_range) */
        if (sp > fr->stack_base) {
            bor_vclear_range(&stack[fr->stack_base], &stack[sp]);
            sp = fr->stack_base;
        }
        if (sp >= C_MAX_STACK) {
            bor_vclear_range(&tmp, &tmp + 1);
            EXIT(BOR_X_STACK);
        }
        /* the frame's slots let go (loc: the frame's first slot), once one holds a heap value
           (the scan itself calls nothing); the slots are left Unit, which nothing reads: no
           slot at or above lp is read, a call sets every slot it takes */
        for (v = loc, b = locals + lp; v < b; v++)
            if (v->tag >= BOR_T_OBJ) {
                bor_vclear_range(v, b);
                break;
            }
        lp = fr->locals_base;
        BOR_VMOVE(&stack[sp], &tmp);
        sp++;
        nframes--;
        if (nframes == 0) {
            func = -1;
            cur = st->finish_code;
            pc = cur;
            loc = locals;
        } else {
            fr = &frames[nframes - 1];
            func = fr->func;
            cur = fr->code;
            pc = AT(fr->ip);
            loc = &locals[fr->locals_base];
        }
        NEXT();
    }
    TARGET(op_nop, BOR_OP_NOP) {
        NEXT();
    }
    /* ListGet on a List (or a view) and an index in range; else the Cython loop
       (vm/lists.pxi) */
    TARGET(op_listget, BOR_OP_LISTGET) {
        PyObject** items;
        Py_ssize_t len;
        if (sp < 2) EXIT(BOR_X_OP);
        a = &stack[sp - 2];
        b = &stack[sp - 1];
        if (b->tag != BOR_T_INT || (items = bor_list_items(a, &len)) == NULL
                || b->i < 0 || b->i >= len)
            EXIT(BOR_X_OP);
        tmp.tag = BOR_T_UNIT;
        if (bor_from_py_k(&tmp, items[b->i])) EXIT(BOR_X_CONV);
        BOR_VCLEAR(a);
        BOR_VMOVE(a, &tmp);
        sp--;
        NEXT();
    }

    /* Records: GetField, and LoadLocal(a) GetField(b) fused (unless a checkpoint falls on the
       GetField); a field may be taken out of a record nothing else holds (vm/reuse.pxi) */
    TARGET(op_getfield, BOR_OP_GETFIELD) {
        PyObject* flds;
        if (sp <= 0) EXIT(BOR_X_UNDERFLOW);
        a = &stack[sp - 1];
        if ((a->tag != BOR_T_OBJ && a->tag != BOR_T_VREC) || !bor_is_record(a->o)) {
            st->want = BOR_WANT_RECORD;
            st->bad = a;
            st->drop = 0;
            EXIT(BOR_X_TYPE);
        }
        if (ins[2] && bor_take_field(a, loc, ins)) NEXT();
        flds = bor_rec_tuple(a->o);
        if (flds == NULL || ins[1] >= PyTuple_GET_SIZE(flds)) EXIT(BOR_X_FIELD);
        tmp.tag = BOR_T_UNIT;
        if (bor_from_py_k(&tmp, PyTuple_GET_ITEM(flds, ins[1]))) EXIT(BOR_X_CONV);
        BOR_VCLEAR(a);
        BOR_VMOVE(a, &tmp);
        NEXT();
    }
    TARGET(op_super_field, BOR_OP_SUPER_FIELD) {
        PyObject* flds;
        a = &loc[ins[1]];
        if (ROOM(0) && sp < C_MAX_STACK && (a->tag == BOR_T_OBJ || a->tag == BOR_T_VREC)
                && bor_is_record(a->o) && (flds = bor_rec_tuple(a->o)) != NULL
                && ins[2] < PyTuple_GET_SIZE(flds)) {
            COUNT(1);
            pc += BOR_W;
            if (ins[3] || (ins[BOR_W + 2] && bor_field_takable(a->o, loc, ins + BOR_W, 0))) {
                /* the record's last read, or a field the GetField takes (the test before
                   the copying load: bor_field_takable; ins[3]: the LoadLocal's move flag):
                   the two single ops */
                bor_load(movef, code, &stack[sp], a, ins);
                v = &stack[sp];
                sp++;
                if (!(ins[BOR_W + 2] && bor_take_field(v, loc, ins + BOR_W))) {
                    tmp.tag = BOR_T_UNIT;
                    if (bor_from_py(&tmp, PyTuple_GET_ITEM(bor_rec_fields(v->o), ins[2])))
                        EXIT(BOR_X_CONV);
                    BOR_VCLEAR(v);
                    BOR_VMOVE(v, &tmp);
                }
                NEXT();
            }
            if (bor_from_py_k(&stack[sp], PyTuple_GET_ITEM(flds, ins[2])))
                EXIT(BOR_X_CONV);
            sp++;
            NEXT();
        }
        if (sp >= C_MAX_STACK) EXIT(BOR_X_STACK);
        bor_load(movef, code, &stack[sp], a, ins);
        sp++;
        NEXT();
    }
    /* MakeRecord / MakeList: the top n values moved into a new tuple (charged 120 + 8n bytes;
       past the next memory walk the Cython loop runs it); a record keeps a List view as its
       field as it is (the record is then BOR_T_VREC: vm/core/views.h) */
    TARGET(op_makerecord, BOR_OP_MAKERECORD)
    TARGET(op_makelist, BOR_OP_MAKELIST) {
        PyObject* pt;
        int vtag = BOR_T_OBJ;
        n = op == BOR_OP_MAKERECORD ? ins[2] : ins[1];
        if (sp < n) EXIT(BOR_X_UNDERFLOW);
        pt = PyTuple_New(n);
        if (pt == NULL) EXIT(-1);
        for (k = 0; k < n; k++) {
            PyObject* item;
            v = &stack[sp - n + k];
            if (v->tag == BOR_T_VIEW && op == BOR_OP_MAKERECORD) {
                item = v->o;
                v->tag = BOR_T_UNIT;
                vtag = BOR_T_VREC;
            } else {
                item = bor_take_owned(v);
                if (item == NULL) { Py_DECREF(pt); EXIT(-1); }
            }
            PyTuple_SET_ITEM(pt, k, item);
        }
        sp -= (int)n;
        if (op == BOR_OP_MAKERECORD) {
            pt = bor_new_record(PyLong_FromLongLong(ins[1]), pt);
            if (pt == NULL) EXIT(-1);
        }
        stack[sp].tag = vtag;
        stack[sp].o = pt;
        sp++;
        *st->alloc_bytes += 120 + 8 * n;
        if (*st->alloc_bytes >= *st->next_walk) EXIT(BOR_X_WALK);
        NEXT();
    }
    /* StringLen (UTF-8 bytes) and IntToString */
    TARGET(op_stringlen, BOR_OP_STRINGLEN) {
        if (sp <= 0) EXIT(BOR_X_UNDERFLOW);
        a = &stack[sp - 1];
        if (a->tag != BOR_T_OBJ || !PyUnicode_CheckExact(a->o)) {
            st->want = BOR_WANT_STRING;
            st->bad = a;
            st->drop = 0;
            EXIT(BOR_X_TYPE);
        }
        if (PyUnicode_IS_ASCII(a->o)) {
            n = PyUnicode_GET_LENGTH(a->o);
        } else {
            PyObject* bytes = PyUnicode_AsEncodedString(a->o, "utf-8", "surrogatepass");
            if (bytes == NULL) EXIT(-1);
            n = PyBytes_GET_SIZE(bytes);
            Py_DECREF(bytes);
        }
        BOR_VCLEAR(a);
        a->tag = BOR_T_INT;
        a->i = n;
        NEXT();
    }
    TARGET(op_inttostring, BOR_OP_INTTOSTRING) {
        PyObject* str;
        if (sp <= 0) EXIT(BOR_X_UNDERFLOW);
        a = &stack[sp - 1];
        if (a->tag != BOR_T_INT) {
            st->want = BOR_WANT_INT;
            st->bad = a;
            st->drop = 0;
            EXIT(BOR_X_TYPE);
        }
        str = bor_int_to_str(a->i);
        if (str == NULL) EXIT(-1);
        a->o = str;
        a->tag = BOR_T_OBJ;
        *st->alloc_bytes += 70;
        NEXT();
    }

    /* the builtins: run in Cython (vm/cold.pxi, vm/reuse.pxi) without leaving the core */
    TARGET(op_cold, BOR_OP_COLD)
    TARGET(op_push_store, BOR_OP_PUSH_STORE) {
        if (ins[1] == BOR_OP_MAPGET && pc[0] == BOR_OP_MATCH && ROOM(0)
                && op == BOR_OP_COLD) {
            c = bor_map_get_match(st, pc, stack, sp, func);
            if (c == -1) EXIT(-1);
            if (c != BOR_DECLINED) {
                sp = c;
                COUNT(1);
                pc = AT(st->n);
                FOLD_STORE();       /* a `Some(v) =>` arm's binding */
                NEXT();
            }
        }
        if (BOR_FAST_BUILTIN(ins[1])) {
            c = bor_builtin_fast(st, ins, stack, sp);
            if (c != BOR_DECLINED) {
                /* `x = MapSet(x, k, v)` / `x = ListPush(x, v)` done in place: the StoreLocal
                   after it (or the StoreLocal-LoadLocal pair) runs here, unless a checkpoint
                   or a memory walk falls between (the stack holds the result: sp > 0) */
                if (c >= 0 && !(c & BOR_WALKF) && op == BOR_OP_PUSH_STORE) {
                    sp = c;
                    FOLD_STORE();
                    NEXT();
                }
                HELPER_DONE(c);
            }
        }
        *st->nframes = nframes;
        *st->locals = locals;
        *st->lp = lp;
        *st->locals_cap = locals_cap;
        c = st->builtin(st->machine, ins, loc, sp);
        if (c < 0) EXIT(-1);
        sp = c;
        NEXT();
    }

    /* Concat and MakeEnum (bor_concat, bor_make_enum) */
    TARGET(op_concat, BOR_OP_CONCAT) {
        c = bor_concat(st, stack, sp);
        HELPER_DONE(c);
    }
    TARGET(op_makeenum, BOR_OP_MAKEENUM) {
        c = bor_make_enum(st, ins, stack, sp);
        HELPER_DONE(c);
    }
    /* Match on the top value with the function's table ins[1] (bor_match_arm: the arm and its payload) */
    TARGET(op_match, BOR_OP_MATCH) {
        PyObject* pay;
        long long pi;
        if (sp <= 0) EXIT(BOR_X_UNDERFLOW);
        if (ins[1] >= st->fn_ntables[func]) EXIT(BOR_X_NOMATCH);
        v = &stack[sp - 1];
        r = bor_match_arm(st, v, st->fn_tables[func] + ins[1], &pay);
        if (r < 0) EXIT(r == -1 ? BOR_X_NOMATCH : r == -2 ? -1 : BOR_X_CONV);
        pc = AT(r);
        /* an arm that starts by popping what the Match leaves (a `_` payload, an arm without
           one): the two steps, the matched value let go whole, its payload never read, unless
           a checkpoint falls on the Pop or the payload is an Int of more than one digit (it may
           be past i64, whose read is the Match's error: run unfused) */
        if (pc[0] == BOR_OP_POP && ROOM(1)
                && (pay == NULL || !PyLong_CheckExact(pay) || bor_small_long(pay, &pi))) {
            BOR_VCLEAR(v);
            sp--;
            COUNT(1);
            pc += BOR_W;
            NEXT();
        }
        if (pay != NULL) {
            tmp.tag = BOR_T_UNIT;
            if (bor_from_py_k(&tmp, pay)) {     /* (tmp holds its own reference to it) */
                BOR_VCLEAR(v);
                EXIT(BOR_X_CONV);
            }
            BOR_VCLEAR(v);
            BOR_VMOVE(v, &tmp);
        }
        /* an arm that starts by binding what the Match leaves (`Some(v) =>`) */
        FOLD_STORE();
        NEXT();
    }

    /* ListLen on a List (or a view); else the Cython loop (the builtin) */
    TARGET(op_listlen, BOR_OP_LISTLEN) {
        Py_ssize_t len;
        if (sp <= 0) EXIT(BOR_X_OP);
        a = &stack[sp - 1];
        if (bor_list_items(a, &len) == NULL) EXIT(BOR_X_OP);
        *st->machine_sp = sp;       /* as ListLen always did (a later walk reads it) */
        n = len;
        BOR_VCLEAR(a);
        a->tag = BOR_T_INT;
        a->i = n;
        NEXT();
    }

    /* the superinstructions (bytecode/opcodes.py PSEUDO_OPS; written by vm/loading.pxi): each
       runs its whole sequence when no checkpoint falls among its further steps, the stack
       has room and the operands are what it handles; else its first op alone */
    TARGET(op_super_cmpj, BOR_OP_SUPER_CMPJ)
    TARGET(op_super_arith, BOR_OP_SUPER_ARITH) {
        b = &consts[ins[2]];
        goto super4;
    }
    TARGET(op_super_cmpj_l, BOR_OP_SUPER_CMPJ_L)
    TARGET(op_super_arith_l, BOR_OP_SUPER_ARITH_L) {
        b = &loc[ins[2]];
    super4:
        a = &loc[ins[1]];
        if (ROOM(2) && sp + 1 < C_MAX_STACK) {
            k = ins[3] & BOR_SUPER_K;
            if (k == BOR_OP_LISTLEN) {
                /* `i < ListLen(xs)` as a loop condition (LoadLocal i, LoadLocal xs, ListLen,
                   Lt, JmpIfNot: 5 steps, a for loop's header) on an Int and a List */
                Py_ssize_t len;
                if (ROOM(3) && a->tag == BOR_T_INT && bor_list_items(b, &len) != NULL) {
                    COUNT(4);
                    if (a->i < len) pc += 4 * BOR_W;
                    else pc = AT(pc[3 * BOR_W + 1]);
                    NEXT();
                }
            } else if (op == BOR_OP_SUPER_CMPJ || op == BOR_OP_SUPER_CMPJ_L) {
                hit = 1;
                if (a->tag == BOR_T_INT && b->tag == BOR_T_INT) {
                    x = a->i;
                    y = b->i;
                    c = k == BOR_OP_LT ? x < y : k == BOR_OP_LTE ? x <= y : k == BOR_OP_GT ? x > y
                        : k == BOR_OP_GTE ? x >= y : k == BOR_OP_EQ ? x == y : x != y;
                } else if (a->tag == BOR_T_OBJ && b->tag == BOR_T_OBJ && PyUnicode_CheckExact(a->o)
                           && PyUnicode_CheckExact(b->o)
                           && ((k != BOR_OP_EQ && k != BOR_OP_NEQ) || st->plain)) {
                    /* two Strings: their order, or Eq/Neq on a machine without a wall clock
                       or cancellation (their Eq would check those) */
                    if (k == BOR_OP_EQ || k == BOR_OP_NEQ) {
                        c = a->o == b->o ? 1 : PyObject_RichCompareBool(a->o, b->o, Py_EQ);
                        if (c < 0) EXIT(-1);
                        c = c == (k == BOR_OP_EQ);
                    } else {
                        c = bor_str_cmp(a->o, b->o, k);
                    }
                    /* the strings' last reads (vm/reuse.pxi) */
                    if (ins[3] & BOR_SUPER_MOVE_A) BOR_VCLEAR(a);
                    if (ins[3] & BOR_SUPER_MOVE_B) BOR_VCLEAR(b);
                } else {
                    hit = 0;
                }
                if (hit) {
                    COUNT(3);
                    if (c) pc += 3 * BOR_W;
                    else pc = AT(pc[2 * BOR_W + 1]);
                    NEXT();
                }
            } else if (a->tag == BOR_T_INT && b->tag == BOR_T_INT
                       && !(k == BOR_OP_ADD ? bor_add(a->i, b->i, &r) : bor_sub(a->i, b->i, &r))) {
                COUNT(3);
                v = &loc[pc[2 * BOR_W + 1]];
                BOR_VCLEAR(v);
                v->tag = BOR_T_INT;
                v->i = r;
                pc += 3 * BOR_W;
                /* a plain Jmp after it (a loop's back edge) runs too, unless a checkpoint
                   falls on it */
                if (pc[0] == BOR_OP_JMP && ROOM(0)) {
                    COUNT(1);
                    pc = AT(pc[1]);
                }
                NEXT();
            }
        }
        if (sp >= C_MAX_STACK) EXIT(BOR_X_STACK);
        bor_load(movef, code, &stack[sp], a, ins);
        sp++;
        NEXT();
    }
    TARGET(op_super_testj, BOR_OP_SUPER_TESTJ) {
        /* LoadLocal(a) JmpIfNot/JmpIf on a Bool local, unless a checkpoint falls on the jump */
        a = &loc[ins[1]];
        if (ROOM(0) && sp < C_MAX_STACK && a->tag == BOR_T_BOOL) {
            COUNT(1);
            if ((a->i != 0) == (ins[3] == BOR_OP_JMPIF)) pc = AT(ins[2]);
            else pc += BOR_W;
            NEXT();
        }
        if (sp >= C_MAX_STACK) EXIT(BOR_X_STACK);
        bor_load(movef, code, &stack[sp], a, ins);
        sp++;
        NEXT();
    }
    TARGET(op_super_binop, BOR_OP_SUPER_BINOP) {
        /* LoadLocal(a) PushConst(b) and Add/Sub/Mul/Mod on two Ints, or a compare (not before
           a JmpIfNot) as a Bool: two Ints, or two Strings (Eq/Neq only on a machine without a
           wall clock or cancellation, whose Eq would check those; the local let go when its
           read moves) */
        a = &loc[ins[1]];
        b = &consts[ins[2]];
        if (ROOM(1) && sp + 1 < C_MAX_STACK) {
            k = ins[3] & BOR_SUPER_K;
            if (a->tag == BOR_T_INT && b->tag == BOR_T_INT) {
                x = a->i;
                y = b->i;
                n = BOR_T_INT;
                if (k == BOR_OP_ADD) c = bor_add(x, y, &r);
                else if (k == BOR_OP_SUB) c = bor_sub(x, y, &r);
                else if (k == BOR_OP_MUL) c = bor_mul(x, y, &r);
                else if (k == BOR_OP_MOD) {
                    c = y == 0 || (x == INT64_MIN && y == -1);
                    if (!c) r = x % y;
                } else {
                    c = 0;
                    n = BOR_T_BOOL;
                    r = k == BOR_OP_LT ? x < y : k == BOR_OP_LTE ? x <= y : k == BOR_OP_GT ? x > y
                        : k == BOR_OP_GTE ? x >= y : k == BOR_OP_EQ ? x == y : x != y;
                }
                if (!c) {
                    COUNT(2);
                    pc += 2 * BOR_W;
                    stack[sp].tag = (int)n;
                    stack[sp].i = r;
                    sp++;
                    NEXT();
                }
            } else if (k >= BOR_OP_EQ && a->tag == BOR_T_OBJ && b->tag == BOR_T_OBJ
                       && PyUnicode_CheckExact(a->o) && PyUnicode_CheckExact(b->o)
                       && ((k != BOR_OP_EQ && k != BOR_OP_NEQ) || st->plain)) {
                if (k == BOR_OP_EQ || k == BOR_OP_NEQ) {
                    c = a->o == b->o ? 1 : PyObject_RichCompareBool(a->o, b->o, Py_EQ);
                    if (c < 0) EXIT(-1);
                    c = c == (k == BOR_OP_EQ);
                } else {
                    c = bor_str_cmp(a->o, b->o, k);
                }
                if (ins[3] & BOR_SUPER_MOVE_A) BOR_VCLEAR(a);   /* the string's last read */
                COUNT(2);
                pc += 2 * BOR_W;
                stack[sp].tag = BOR_T_BOOL;
                stack[sp].i = c;
                sp++;
                NEXT();
            }
        }
        if (sp >= C_MAX_STACK) EXIT(BOR_X_STACK);
        bor_load(movef, code, &stack[sp], a, ins);
        sp++;
        NEXT();
    }
    TARGET(op_super_listget, BOR_OP_SUPER_LISTGET) {
        PyObject** items;
        Py_ssize_t len;
        a = &loc[ins[1]];
        b = &loc[ins[2]];
        if (ROOM(1) && sp + 1 < C_MAX_STACK && b->tag == BOR_T_INT
                && (items = bor_list_items(a, &len)) != NULL && 0 <= b->i && b->i < len) {
            COUNT(2);
            pc += 2 * BOR_W;
            if ((ins[3] & BOR_SUPER_K) && ROOM(0)) {
                /* `let x = ListGet(l, i)` (ins[3]: a plain StoreLocal follows, vm/loading.pxi):
                   the element goes straight into the local, as the two ops would leave it (the
                   list let go first when its read moves, a dead store drops the element) */
                int64_t* w = pc;
                tmp.tag = BOR_T_UNIT;
                if (bor_from_py_k(&tmp, items[b->i])) EXIT(BOR_X_CONV);
                if (ins[3] & BOR_SUPER_MOVE_A) BOR_VCLEAR(a);   /* the list's last read */
                v = &loc[w[1]];
                BOR_VCLEAR(v);
                if (w[2]) BOR_VCLEAR(&tmp);                       /* a dead store */
                else BOR_VMOVE(v, &tmp);
                COUNT(1);
                pc += BOR_W;
                NEXT();
            }
            if (bor_from_py_k(&stack[sp], items[b->i])) EXIT(BOR_X_CONV);
            sp++;
            if (ins[3] & BOR_SUPER_MOVE_A) BOR_VCLEAR(a);   /* the list's last read */
            NEXT();
        }
        if (sp >= C_MAX_STACK) EXIT(BOR_X_STACK);
        bor_load(movef, code, &stack[sp], a, ins);
        sp++;
        NEXT();
    }
    TARGET(op_super_listcmp, BOR_OP_SUPER_LISTCMP) {
        /* OP_SUPER_LISTGET(a, b) OP_SUPER_LISTGET Lt/Lte/Gt/Gte (c = tag), 7 steps: a compare of
           two List elements, when both are Lists, both indexes in them and both elements
           Ints, and no checkpoint falls among the further 6 steps; else LoadLocal(a) */
        if (ROOM(5) && sp + 3 <= C_MAX_STACK) {
            int64_t* w = pc + 2 * BOR_W;
            Val* i1 = &loc[ins[2]];
            Val* i2 = &loc[w[2]];
            a = &loc[ins[1]];
            b = &loc[w[1]];
            PyObject **t1, **t2;
            Py_ssize_t n1, n2;
            if (i1->tag == BOR_T_INT && i2->tag == BOR_T_INT
                    && (t1 = bor_list_items(a, &n1)) != NULL && (t2 = bor_list_items(b, &n2)) != NULL
                    && i1->i >= 0 && i1->i < n1 && i2->i >= 0 && i2->i < n2) {
                PyObject* e1 = t1[i1->i];
                PyObject* e2 = t2[i2->i];
                if (PyLong_CheckExact(e1) && PyLong_CheckExact(e2) && bor_long_i64(e1, &x)
                        && bor_long_i64(e2, &y)) {
                    k = ins[3];
                    stack[sp].tag = BOR_T_BOOL;
                    stack[sp].i = k == BOR_OP_LT ? x < y : k == BOR_OP_LTE ? x <= y
                                  : k == BOR_OP_GT ? x > y : x >= y;
                    sp++;
                    COUNT(6);
                    pc += 6 * BOR_W;
                    NEXT();
                }
            }
        }
        if (sp >= C_MAX_STACK) EXIT(BOR_X_STACK);
        bor_load(movef, code, &stack[sp], &loc[ins[1]], ins);
        sp++;
        NEXT();
    }
    TARGET(op_super_pushl, BOR_OP_SUPER_PUSHL) {
        /* x = ListPush(x, v): LoadLocal(a) LoadLocal(b) OP_PUSH_STORE(ListPush, a)
           StoreLocal(a), 4 steps, unless a checkpoint falls on its further steps or the stack
           has no room for its loads; else LoadLocal(a). The push runs as OP_PUSH_STORE does
           (in place or copied, the same charges and errors, vm/reuse.pxi) */
        if (ROOM(2) && sp + 2 <= C_MAX_STACK) {
            int64_t* w = ins + BOR_W;
            COUNT(2);
            pc += 2 * BOR_W;
            /* the two loads (their move flags: each LoadLocal's own word, ins[3] and w[3],
               which no rewrite of vm/loading.pxi's _fuse changes for this sequence) */
            LOAD_LOCAL(ins);
            LOAD_LOCAL(w);
            /* the push in C, else the builtin (with the machine's frames and locals up to
               date) */
            c = st->plain ? bor_list_push(st, stack, sp) : BOR_DECLINED;
            if (c == BOR_DECLINED) {
                *st->nframes = nframes;
                *st->locals = locals;
                *st->lp = lp;
                *st->locals_cap = locals_cap;
                c = st->builtin(st->machine, ins + 2 * BOR_W, loc, sp);
            }
            if (c < 0) EXIT(-1);
            /* the StoreLocal */
            sp = c;
            w = ins + 3 * BOR_W;
            STORE_LOCAL(w);
            COUNT(1);
            pc += BOR_W;
            NEXT();
        }
        if (sp >= C_MAX_STACK) EXIT(BOR_X_STACK);
        bor_load(movef, code, &stack[sp], &loc[ins[1]], ins);
        sp++;
        NEXT();
    }
    TARGET(op_super_pushget, BOR_OP_SUPER_PUSHGET) {
        /* x = ListPush(x, ListGet(l, i)) (6 steps) when vm/lists.pxi's _push_get can run it in
           place and no checkpoint falls among the further 5 steps; else LoadLocal(a) */
        if (ROOM(4) && sp + 3 <= C_MAX_STACK) {
            *st->nframes = nframes;
            *st->locals = locals;
            *st->lp = lp;
            *st->locals_cap = locals_cap;
            c = st->push_get(st->machine, loc, ins);
            if (c < 0) EXIT(-1);
            if (c) {
                COUNT(5);
                pc += 5 * BOR_W;
                NEXT();
            }
        }
        if (sp >= C_MAX_STACK) EXIT(BOR_X_STACK);
        bor_load(movef, code, &stack[sp], &loc[ins[1]], ins);
        sp++;
        NEXT();
    }
    /* LoadLocal LoadLocal Lt/Lte/Gt/Gte on two Int locals to a Bool (3 steps), alone or two
       of them joined by And/Or before JmpIfNot (8 steps); else LoadLocal(a) */
    TARGET(op_super_cmp_l, BOR_OP_SUPER_CMP_L)
    TARGET(op_super_cmp2j, BOR_OP_SUPER_CMP2J) {
        a = &loc[ins[1]];
        b = &loc[ins[2]];
        if (ROOM(op == BOR_OP_SUPER_CMP_L ? 1 : 6) && sp + 2 <= C_MAX_STACK
                && a->tag == BOR_T_INT && b->tag == BOR_T_INT) {
            k = ins[3];
            x = a->i;
            y = b->i;
            c = k == BOR_OP_LT ? x < y : k == BOR_OP_LTE ? x <= y : k == BOR_OP_GT ? x > y : x >= y;
            if (op == BOR_OP_SUPER_CMP_L) {
                stack[sp].tag = BOR_T_BOOL;
                stack[sp].i = c;
                sp++;
                COUNT(2);
                pc += 2 * BOR_W;
                NEXT();
            } else {
                /* the OP_SUPER_CMP_L at pc + 2, And/Or at pc + 5, JmpIfNot at pc + 6 */
                int64_t* w = pc + 2 * BOR_W;
                Val* a2 = &loc[w[1]];
                Val* b2 = &loc[w[2]];
                if (a2->tag == BOR_T_INT && b2->tag == BOR_T_INT) {
                    k = w[3];
                    x = a2->i;
                    y = b2->i;
                    hit = k == BOR_OP_LT ? x < y : k == BOR_OP_LTE ? x <= y : k == BOR_OP_GT ? x > y
                          : x >= y;
                    COUNT(7);
                    if (pc[5 * BOR_W] == BOR_OP_AND ? (c && hit) : (c || hit)) pc += 7 * BOR_W;
                    else pc = AT(pc[6 * BOR_W + 1]);
                    NEXT();
                }
            }
        }
        if (sp >= C_MAX_STACK) EXIT(BOR_X_STACK);
        bor_load(movef, code, &stack[sp], a, ins);
        sp++;
        NEXT();
    }
    TARGET(op_super_stldj, BOR_OP_SUPER_STLDJ) {
        /* StoreLocal(a) LoadLocal(a) JmpIfNot(b) (3 steps): the local gets the value and the
           branch tests it; else StoreLocal(a) */
        if (ROOM(1) && sp > 0) {
            a = &loc[ins[1]];
            BOR_VMOVE(&tmp, a);
            c = bor_truthy(&stack[sp - 1]);
            BOR_VMOVE(a, &stack[sp - 1]);
            BOR_VCLEAR(&tmp);
            sp--;
            COUNT(2);
            pc = c ? pc + 2 * BOR_W : AT(ins[2]);
            NEXT();
        }
        if (sp <= 0) EXIT(BOR_X_UNDERFLOW);
        sp--;
        BOR_VCLEAR(&loc[ins[1]]);
        BOR_VMOVE(&loc[ins[1]], &stack[sp]);
        NEXT();
    }
    TARGET(op_super_jmp2, BOR_OP_SUPER_JMP2) {
        /* a jump to a jump, unless a checkpoint falls on the second */
        if (ROOM(0)) {
            COUNT(1);
            pc = AT(ins[2]);
        } else {
            pc = AT(ins[1]);
        }
        NEXT();
    }

    DEFAULT_TARGET
        rc = BOR_X_OP;
#if !BOR_THREADED
    }
#endif
out:
    *st->nframes = nframes;
    *st->locals = locals;
    *st->lp = lp;
    *st->locals_cap = locals_cap;
    st->sp = sp;
    st->loc = loc;
    st->cur = cur;
    st->ip = IP_INDEX();
    st->func = func;
    st->steps = st->check_at - left;
    st->ins = ins;
    return rc;
#undef TARGET
#undef DISPATCH
#undef DEFAULT_TARGET
#undef NEXT
#undef FETCH
#undef ROOM
#undef COUNT
#undef AT
#undef IP_INDEX
#undef EXIT
#undef HELPER_DONE
}

#endif
