/* Codegen's expression core in C: `boruna.bytecode._emit`.
 *
 * `expr(gen, e, ctx)` emits the code of expression `e` into `gen`, a `codegen._FnGen`, as
 * `gen.expr(e, ctx)` would, and returns what that returns (True if it left a value); or it
 * emits nothing and returns None, and the Python emitter compiles `e` itself. Covered:
 * identifiers (a local's LoadLocal, a function's FnRef constant), Binary chains, the literals,
 * `None`, calls (a builtin's direct instruction, a known function's `Call`, `CallIndirect`),
 * field reads, unary operators, list literals and `Some`/`Ok`/`Err`, which leave exactly one
 * value in every context; `if` (in DISCARD context `expr_leaves_value` picks its branches'
 * context, as codegen.if_expr does) and blocks; `match` (its value, and its arms: one match
 * table, nested patterns (`match_nested`) or an Eq chain (`match_chain`), the last by
 * `gen.match_chain` when an arm lacks a field it reads);
 * record literals (in declaration order, of no record type, or with a spread) and variants.
 * `stmts(gen, stmts, ctx)` does the same for `gen.stmts(stmts, ctx)`: `let`, assignments,
 * `return` (without `ensures`), `while`, `for` and expression statements here, the others by
 * `gen.stmt`. `functions(mod, fns)` is `_Gen.generate`'s list of functions: `_FnGen`'s
 * prologue and `generate()`'s epilogue here (FnDef's and the slotted Function's fields read
 * and written at their slots' offsets), a function with `requires`, `ensures` or more
 * than 255 parameters by `_FnGen(mod, f).generate()`.
 * A sub-expression of a covered node that is not covered
 * itself (a `match`, a record, ...) is compiled by calling `gen.expr(sub, ctx)`, in the order
 * the Python emitter compiles it, so the instruction lists, the constant pool and the line
 * table come out the same.
 *
 * Whatever can fail is left to Python before anything of the node is emitted: an undefined
 * name, a call or spread the name check must see first (NameCheckNeeded), more than 255
 * arguments, items or fields, an unknown enum or variant, a numeric field name; the Python emitter then reaches the same error at the same
 * point (tests/bytecode/test_emit.py compares the two emitters).
 *
 * Depth: `active` counts the C frames of this core that are running (across the calls back
 * into Python); beyond C_NESTING the core hands every expression back, so deep nesting costs
 * a bounded C stack and compiles in Python as before.
 *
 * Nothing of codegen's tables is written here: `configure(...)` hands over the node classes
 * (whose slots are read through their member descriptors' offsets), `_FnGen`'s slot offsets,
 * and codegen.py's shared instructions and builtin table.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

/* how many frames of this core may run at once before it hands expressions back */
#define C_NESTING 200
#define SHARED_SLOTS 256
#define MAX_ITEMS 255
#define MAX_FIELDS 13

/* ---- the tables, from configure() ---------------------------------------------------- */

enum {
    K_BINARY, K_UNARY, K_IDENT, K_INT, K_FLOAT, K_STRING, K_BOOL, K_NONE, K_CALL, K_FIELD,
    K_LIST, K_SOME, K_OK, K_ERR, K_IF, K_BLOCK, K_EXPR_STMT, K_LET, K_ASSIGN, K_RETURN,
    K_MATCH, K_ARM, K_WILDCARD_PAT, K_IDENT_PAT, K_INT_PAT, K_STRING_PAT, K_SOME_PAT, K_OK_PAT,
    K_ERR_PAT, K_VARIANT_PAT, K_RECORD, K_ENUM_VARIANT, K_WHILE, K_FOR, K_FN_DEF, K_PARAM,
    K_BOOL_PAT, K_NONE_PAT, N_KINDS
};
/* FnDef's fields read here, by position */
enum { FN_NAME, FN_PARAMS, FN_CAPABILITIES = 3, FN_INTENT, FN_REQUIRES, FN_ENSURES, FN_BODY,
       FN_LINE = 9, FN_COL };
typedef struct {
    PyTypeObject *type;
    int nfields;
    Py_ssize_t offset[MAX_FIELDS];
} NodeClass;
static NodeClass kinds[N_KINDS];

/* _FnGen's slots read or written here */
enum {
    G_CODE, G_CONSTANTS, G_NAMES, G_LINES, G_LAST_LINE, G_LAST_COL, G_ARITIES, G_CAPS,
    G_FN_IDS, G_FIELD_SLOT, G_SHARED, G_NEXT_LOCAL, G_RETURN_JUMPS, G_TABLES, G_TYPE_IDS,
    G_TYPES, G_MEMBER_NAMES, G_INFO, G_FN, G_UNIT_SLOT, G_STUBS, G_LEAVES_MEMO, N_GEN
};
static Py_ssize_t gen_offset[N_GEN];
static PyTypeObject *gen_type;

static PyObject *bare;          /* op name -> its shared operand-free instruction */
static PyObject *load_local;    /* tuple: slot -> ("LoadLocal", slot), slot < SHARED_SLOTS */
static PyObject *store_local;   /* tuple: slot -> ("StoreLocal", slot), slot < SHARED_SLOTS */
static PyObject *ret;           /* ("Ret",) */
static PyObject *assign_error;  /* codegen._assign_error(s): raises the error of an Assign */
static PyObject *fixed_tags;    /* codegen._FIXED_TAGS: pattern class -> its tags */
static PyObject *pattern_binding;   /* walk.pattern_binding */
static PyObject *int_tag_limit; /* opcodes.INT_TAG_LIMIT */
static PyObject *make_list;     /* tuple: n -> ("MakeList", n), n <= MAX_ITEMS */
static PyObject *make_some, *make_ok, *make_err, *pop;
static PyObject *direct_calls;  /* builtin name -> (arity, instruction, capability or None) */
static PyObject *added_builtins;
static PyObject *none_value;    /* core.values.NONE */
static PyObject *fn_ref;        /* core.values.FnRef */
static PyObject *from_source_name;  /* capabilities.from_source_name */
static PyObject *function_cls;  /* module.Function */
static PyObject *leaves_value;  /* codegen.expr_leaves_value */
static PyObject *ctx_obj[3];    /* codegen.VALUE, DISCARD, TAIL */
static PyObject *jmp_if_not_0, *jmp_0;     /* placeholders, patched before the node ends */
static PyObject *s_push_const, *s_load_local, *s_call, *s_call_indirect, *s_get_field;
static PyObject *s_get_field_named, *s_expr, *s_block, *s_push_unit, *s_jmp, *s_jmp_if_not;
static PyObject *s_store_local, *s_stmt, *s_match, *s_arms, *s_pattern_tags, *s_match_chain;
static PyObject *s_match_nested, *s_make_record, *s_make_enum, *s_kind, *s_record, *s_enum;
static PyObject *s_jmp_op, *s_jmp_if_not_op, *s_list_len, *s_lt, *s_list_get, *s_add;
static PyObject *s_inner_pattern, *s_eq, *s_jump, *s_arm, *s_match_op;
static PyObject *any_arm;       /* codegen._ANY_ARM: MatchArm(MATCH_ANY, 0) */
/* the attribute names of `functions()` (FnDef, Param, Block, the module emitter, Function) */
enum {
    A_NAME, A_PARAMS, A_CAPABILITIES, A_INTENT, A_REQUIRES, A_ENSURES, A_BODY, A_STMTS,
    A_LINE, A_COL, A_ID, A_INFO, A_CONSTANTS, A_ARITIES, A_SHARED, A_LEAVES_MEMO, A_FN_IDS,
    A_FIELD_SLOT, A_TYPE_IDS, A_TYPES, A_MEMBER_NAMES, A_ARITY, A_LOCALS, A_CODE,
    A_CAPS_OUT, A_MATCH_TABLES, A_LINES, A_TARGET, A_GENERATE, A_PLACE_STUBS, A_STMTS_M,
    A_JMP, A_JMP_IF, A_JMP_IF_NOT, N_ATTRS
};
static PyObject *attr[N_ATTRS];
/* module.Function's slots (a slotted dataclass), in its fields' order */
enum { F_NAME, F_ARITY, F_LOCALS, F_CODE, F_CAPABILITIES, F_INTENT, F_MATCH_TABLES, F_LINES,
       N_FUNCTION };
static Py_ssize_t function_offset[N_FUNCTION];
static int configured = 0;
static long active = 0;

#define FIELD(o, k, i) (*(PyObject **)((char *)(o) + kinds[k].offset[i]))
#define LINE(o, k) FIELD(o, k, kinds[k].nfields - 2)
#define COL(o, k) FIELD(o, k, kinds[k].nfields - 1)
#define GEN(g, s) (*(PyObject **)((char *)(g) + gen_offset[s]))
/* the contexts, as codegen.py numbers them */
enum { VALUE, DISCARD, TAIL };

/* ---- instructions ------------------------------------------------------------------- */

/* append `ins` (a new reference, stolen; NULL: fail) to the code */
static int
append_new(PyObject *g, PyObject *ins)
{
    if (ins == NULL)
        return -1;
    int r = PyList_Append(GEN(g, G_CODE), ins);
    Py_DECREF(ins);
    return r;
}

static inline int
append(PyObject *g, PyObject *ins)
{
    return PyList_Append(GEN(g, G_CODE), ins);
}

/* `const(value)` and its PushConst; `value` a new reference, stolen */
static int
push_const(PyObject *g, PyObject *value)
{
    if (value == NULL)
        return -1;
    PyObject *constants = GEN(g, G_CONSTANTS);
    int r = PyList_Append(constants, value);
    Py_DECREF(value);
    if (r < 0)
        return -1;
    PyObject *index = PyLong_FromSsize_t(PyList_GET_SIZE(constants) - 1);
    if (index == NULL)
        return -1;
    PyObject *ins = PyTuple_Pack(2, s_push_const, index);
    Py_DECREF(index);
    return append_new(g, ins);
}

/* `mark(node)`: a line-table entry where the position changes */
static int
mark(PyObject *g, PyObject *node, int k)
{
    PyObject *line = LINE(node, k), *col = COL(node, k);
    if (line == NULL || col == NULL) {
        PyErr_SetString(PyExc_AttributeError, "_emit: a node without its position");
        return -1;
    }
    int changed = PyObject_RichCompareBool(col, GEN(g, G_LAST_COL), Py_NE);
    if (changed == 0)
        changed = PyObject_RichCompareBool(line, GEN(g, G_LAST_LINE), Py_NE);
    if (changed <= 0)
        return changed;
    Py_INCREF(line);
    Py_SETREF(GEN(g, G_LAST_LINE), line);
    Py_INCREF(col);
    Py_SETREF(GEN(g, G_LAST_COL), col);
    PyObject *lines = GEN(g, G_LINES);
    PyObject *pc = PyLong_FromSsize_t(PyList_GET_SIZE(GEN(g, G_CODE)));
    if (pc == NULL)
        return -1;
    int r = PyList_Append(lines, pc);
    Py_DECREF(pc);
    if (r < 0 || PyList_Append(lines, line) < 0 || PyList_Append(lines, col) < 0)
        return -1;
    return 0;
}

/* the operand-free instruction of op `op` (`_BARE[op]`; `missing_ok`: `_BARE.get(op, (op,))`) */
static int
append_op(PyObject *g, PyObject *op, int missing_ok)
{
    PyObject *ins = PyDict_GetItemWithError(bare, op);
    if (ins != NULL)
        return append(g, ins);
    if (PyErr_Occurred())
        return -1;
    if (!missing_ok) {
        PyErr_SetObject(PyExc_KeyError, op);
        return -1;
    }
    return append_new(g, PyTuple_Pack(1, op));
}

/* ---- expressions -------------------------------------------------------------------- */

/* emit() answers: LEFT (a value left on the stack), NOTHING (none left), HANDED_BACK
 * (nothing emitted), -1 (an exception) */
enum { HANDED_BACK = 0, LEFT = 1, NOTHING = 2 };

static int emit(PyObject *g, PyObject *e, int ctx);

/* a sub-expression in context `ctx`: here, or by `gen.expr(e, ctx)` where this core hands
 * it back */
static int
sub_in(PyObject *g, PyObject *e, int ctx)
{
    int r = emit(g, e, ctx);
    if (r != HANDED_BACK)
        return r;
    PyObject *left = PyObject_CallMethodObjArgs(g, s_expr, e, ctx_obj[ctx], NULL);
    if (left == NULL)
        return -1;
    r = PyObject_IsTrue(left);
    Py_DECREF(left);
    return r < 0 ? -1 : r ? LEFT : NOTHING;
}

static inline int
sub(PyObject *g, PyObject *e)
{
    return sub_in(g, e, VALUE);
}

static int
ident(PyObject *g, PyObject *e)
{
    PyObject *name = FIELD(e, K_IDENT, 0);
    if (name == NULL)
        return 0;
    PyObject *slot = PyDict_GetItemWithError(GEN(g, G_NAMES), name);
    if (slot != NULL) {
        Py_ssize_t s = PyLong_AsSsize_t(slot);
        if (s == -1 && PyErr_Occurred())
            return -1;
        if (s >= 0 && s < SHARED_SLOTS)
            return append(g, PyTuple_GET_ITEM(load_local, s)) < 0 ? -1 : 1;
        return append_new(g, PyTuple_Pack(2, s_load_local, slot)) < 0 ? -1 : 1;
    }
    if (PyErr_Occurred())
        return -1;
    PyObject *fid = PyDict_GetItemWithError(GEN(g, G_FN_IDS), name);
    if (fid == NULL)
        return PyErr_Occurred() ? -1 : 0;      /* undefined: Python raises the error */
    return push_const(g, PyObject_CallOneArg(fn_ref, fid)) < 0 ? -1 : 1;
}

/* a chain of Binary nodes nested through their left operands, innermost first */
static int
binary(PyObject *g, PyObject *e)
{
    PyObject *local[32], **chain = local;
    Py_ssize_t n = 0, cap = 32;
    PyObject *left = e;
    int r = -1;
    while (left != NULL && Py_TYPE(left) == kinds[K_BINARY].type) {
        if (n == cap) {
            PyObject **more = PyMem_Malloc(sizeof(PyObject *) * cap * 2);
            if (more == NULL) {
                PyErr_NoMemory();
                goto done;
            }
            memcpy(more, chain, sizeof(PyObject *) * n);
            if (chain != local)
                PyMem_Free(chain);
            chain = more;
            cap *= 2;
        }
        chain[n++] = left;
        left = FIELD(left, K_BINARY, 1);
    }
    if (left == NULL || sub(g, left) < 0)
        goto done;
    while (n > 0) {
        PyObject *node = chain[--n];
        PyObject *right = FIELD(node, K_BINARY, 2);
        PyObject *op = FIELD(node, K_BINARY, 0);
        if (right == NULL || op == NULL || sub(g, right) < 0 || mark(g, node, K_BINARY) < 0
                || append_op(g, op, 0) < 0)
            goto done;
    }
    r = 1;
done:
    if (r < 0 && !PyErr_Occurred())
        PyErr_SetString(PyExc_AttributeError, "_emit: a Binary node without its fields");
    if (chain != local)
        PyMem_Free(chain);
    return r;
}

/* the arguments (or items) of a call or list, each a sub-expression */
static int
each(PyObject *g, PyObject *items)
{
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items); i++)
        if (sub(g, PyList_GET_ITEM(items, i)) < 0)
            return -1;
    return 0;
}

static int
call(PyObject *g, PyObject *e)
{
    PyObject *func = FIELD(e, K_CALL, 0), *args = FIELD(e, K_CALL, 1);
    if (func == NULL || args == NULL || !PyList_CheckExact(args))
        return 0;
    Py_ssize_t n = PyList_GET_SIZE(args);
    PyObject *count = PyLong_FromSsize_t(n);
    if (count == NULL)
        return -1;
    int r = -1;
    if (Py_TYPE(func) == kinds[K_IDENT].type) {
        PyObject *name = FIELD(func, K_IDENT, 0);
        if (name == NULL) {
            r = 0;
            goto done;
        }
        PyObject *arities = GEN(g, G_ARITIES);
        if (arities != Py_None) {
            /* the name check's arity rule: its NameCheckNeeded is Python's to raise */
            PyObject *arity = PyDict_GetItemWithError(arities, name);
            if (arity == NULL && PyErr_Occurred())
                goto done;
            if (arity != NULL) {
                int differs = PyObject_RichCompareBool(arity, count, Py_NE);
                if (differs < 0)
                    goto done;
                if (differs) {
                    int local = PyDict_Contains(GEN(g, G_NAMES), name);
                    if (local < 0)
                        goto done;
                    if (!local) {
                        r = 0;
                        goto done;
                    }
                }
            }
        }
        PyObject *fn_ids = GEN(g, G_FN_IDS);
        PyObject *builtin = PyDict_GetItemWithError(direct_calls, name);
        if (builtin == NULL && PyErr_Occurred())
            goto done;
        if (builtin != NULL) {
            int direct = PyObject_RichCompareBool(PyTuple_GET_ITEM(builtin, 0), count, Py_EQ);
            if (direct < 0)
                goto done;
            if (direct) {
                int added = PySet_Contains(added_builtins, name);
                if (added < 0)
                    goto done;
                if (added && (added = PyDict_Contains(fn_ids, name)) < 0)
                    goto done;
                direct = !added;
            }
            if (direct) {
                if (each(g, args) < 0 || mark(g, e, K_CALL) < 0
                        || append(g, PyTuple_GET_ITEM(builtin, 1)) < 0)
                    goto done;
                PyObject *declared = PyTuple_GET_ITEM(builtin, 2);
                if (declared != Py_None) {
                    PyObject *caps = GEN(g, G_CAPS);
                    int has = PySequence_Contains(caps, declared);
                    if (has < 0 || (!has && PyList_Append(caps, declared) < 0))
                        goto done;
                }
                r = 1;
                goto done;
            }
        }
        PyObject *fid = PyDict_GetItemWithError(fn_ids, name);
        if (fid == NULL && PyErr_Occurred())
            goto done;
        if (fid != NULL) {
            if (n > MAX_ITEMS) {        /* Python raises it, after the arguments */
                r = 0;
                goto done;
            }
            Py_INCREF(fid);     /* the arguments' code could not drop it, but hold it */
            int ok = each(g, args) >= 0 && mark(g, e, K_CALL) >= 0
                     && append_new(g, PyTuple_Pack(3, s_call, fid, count)) >= 0;
            Py_DECREF(fid);
            r = ok ? 1 : -1;
            goto done;
        }
    }
    if (n > MAX_ITEMS) {
        r = 0;
        goto done;
    }
    if (each(g, args) < 0 || sub(g, func) < 0 || mark(g, e, K_CALL) < 0
            || append_new(g, PyTuple_Pack(2, s_call_indirect, count)) < 0)
        goto done;
    r = 1;
done:
    Py_DECREF(count);
    return r;
}

/* a numeric field name (`t.0`): codegen.field_access's own case, left to Python */
static int
numeric(PyObject *name)
{
    if (!PyUnicode_IS_ASCII(name) || PyUnicode_GET_LENGTH(name) == 0)
        return 0;
    const Py_UCS1 *c = PyUnicode_1BYTE_DATA(name);
    for (Py_ssize_t i = 0; i < PyUnicode_GET_LENGTH(name); i++)
        if (c[i] < '0' || c[i] > '9')
            return 0;
    return 1;
}

static int
field_access(PyObject *g, PyObject *e)
{
    PyObject *object = FIELD(e, K_FIELD, 0), *name = FIELD(e, K_FIELD, 1);
    if (object == NULL || name == NULL || !PyUnicode_CheckExact(name) || numeric(name))
        return 0;
    Py_INCREF(name);
    int r = -1;
    if (sub(g, object) < 0 || mark(g, e, K_FIELD) < 0)
        goto done;
    PyObject *slot = PyDict_GetItemWithError(GEN(g, G_FIELD_SLOT), name);
    if (slot == NULL && PyErr_Occurred())
        goto done;
    PyObject *ins;
    if (slot == NULL) {            /* no record type has the field */
        PyObject *zero = PyLong_FromLong(0);
        ins = zero == NULL ? NULL : PyTuple_Pack(2, s_get_field, zero);
        Py_XDECREF(zero);
    } else if (slot == Py_None) {
        ins = PyTuple_Pack(2, s_get_field_named, name);
    } else {
        ins = PyTuple_Pack(2, s_get_field, slot);
    }
    if (append_new(g, ins) < 0)
        goto done;
    r = 1;
done:
    Py_DECREF(name);
    return r;
}

/* `code[at] = shared.<table>[len(code)]` (a jump's target: the end of the code so far) */
static int
patch(PyObject *g, Py_ssize_t at, PyObject *table)
{
    PyObject *ops = PyObject_GetAttr(GEN(g, G_SHARED), table);
    if (ops == NULL)
        return -1;
    PyObject *code = GEN(g, G_CODE);
    PyObject *target = PyLong_FromSsize_t(PyList_GET_SIZE(code));
    PyObject *ins = target == NULL ? NULL : PyObject_GetItem(ops, target);
    Py_DECREF(ops);
    Py_XDECREF(target);
    if (ins == NULL)
        return -1;
    if (at >= PyList_GET_SIZE(code)) {
        Py_DECREF(ins);
        PyErr_SetString(PyExc_IndexError, "_emit: a jump to patch is gone");
        return -1;
    }
    return PyList_SetItem(code, at, ins);
}

static int statements(PyObject *g, PyObject *stmts, int ctx);

/* `gen.block(block, ctx)`: the names a `let` of the block adds go out of scope after it;
 * LEFT or NOTHING as `statements`, -1 on an exception */
static int
block_in(PyObject *g, PyObject *block, int ctx)
{
    PyObject *list = Py_TYPE(block) == kinds[K_BLOCK].type ? FIELD(block, K_BLOCK, 0) : NULL;
    if (list == NULL || !PyList_CheckExact(list) || active >= C_NESTING) {
        PyObject *left = PyObject_CallMethodObjArgs(g, s_block, block, ctx_obj[ctx], NULL);
        if (left == NULL)
            return -1;
        int r = PyObject_IsTrue(left);
        Py_DECREF(left);
        return r < 0 ? -1 : r ? LEFT : NOTHING;
    }
    PyObject *saved = NULL;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); i++)
        if (Py_TYPE(PyList_GET_ITEM(list, i)) == kinds[K_LET].type) {
            if ((saved = PyDict_Copy(GEN(g, G_NAMES))) == NULL)
                return -1;
            break;
        }
    Py_INCREF(list);
    active++;
    int r = statements(g, list, ctx);
    active--;
    Py_DECREF(list);
    if (saved != NULL) {
        if (r < 0)
            Py_DECREF(saved);
        else
            Py_SETREF(GEN(g, G_NAMES), saved);
    }
    return r;
}

/* `expr_leaves_value(e, gen.leaves_memo)` (Python's): 1, 0, or -1 on an exception */
static int
leaves(PyObject *g, PyObject *e)
{
    PyObject *r = PyObject_CallFunctionObjArgs(leaves_value, e, GEN(g, G_LEAVES_MEMO), NULL);
    if (r == NULL)
        return -1;
    int yes = PyObject_IsTrue(r);
    Py_DECREF(r);
    return yes;
}

/* the context of an `if`'s branches or a match's arms when `e` is compiled in `ctx`: in
 * DISCARD context VALUE where `expr_leaves_value` says `e` leaves one; -1 on an exception */
static int
context_of(PyObject *g, PyObject *e, int ctx)
{
    if (ctx != DISCARD)
        return ctx;
    int yes = leaves(g, e);
    return yes < 0 ? -1 : yes ? VALUE : DISCARD;
}

/* an `if` branch in context `ctx`: one expression statement compiles as that expression
 * in VALUE or TAIL context (as codegen.if_expr does), anything else by
 * `gen.block(block, ctx)` */
static int
branch(PyObject *g, PyObject *block, int ctx)
{
    PyObject *stmts = FIELD(block, K_BLOCK, 0);
    if (ctx != DISCARD && stmts != NULL && PyList_CheckExact(stmts) && PyList_GET_SIZE(stmts) == 1
            && Py_TYPE(PyList_GET_ITEM(stmts, 0)) == kinds[K_EXPR_STMT].type) {
        PyObject *inner = FIELD(PyList_GET_ITEM(stmts, 0), K_EXPR_STMT, 0);
        if (inner != NULL)
            return sub_in(g, inner, ctx) < 0 ? -1 : 0;
    }
    return block_in(g, block, ctx) < 0 ? -1 : 0;
}

/* codegen.if_expr (in DISCARD context the branches are VALUE when expr_leaves_value says
 * the `if` leaves one, as there) */
static int
if_expr(PyObject *g, PyObject *e, int ctx)
{
    PyObject *condition = FIELD(e, K_IF, 0), *then_block = FIELD(e, K_IF, 1);
    PyObject *else_block = FIELD(e, K_IF, 2);
    if (condition == NULL || then_block == NULL || else_block == NULL
            || Py_TYPE(then_block) != kinds[K_BLOCK].type
            || (else_block != Py_None && Py_TYPE(else_block) != kinds[K_BLOCK].type))
        return HANDED_BACK;
    int r = -1;
    Py_INCREF(e);
    if (sub(g, condition) < 0 || (ctx = context_of(g, e, ctx)) < 0)
        goto done;
    PyObject *code = GEN(g, G_CODE);
    if (PyList_Append(code, jmp_if_not_0) < 0)
        goto done;
    Py_ssize_t jf = PyList_GET_SIZE(code) - 1;
    if (branch(g, then_block, ctx) < 0)
        goto done;
    if (else_block == Py_None && ctx != VALUE) {
        r = patch(g, jf, s_jmp_if_not) < 0 ? -1 : NOTHING;
        goto done;
    }
    code = GEN(g, G_CODE);
    if (PyList_Append(code, jmp_0) < 0)
        goto done;
    Py_ssize_t jend = PyList_GET_SIZE(code) - 1;
    if (patch(g, jf, s_jmp_if_not) < 0)
        goto done;
    if (else_block == Py_None) {
        PyObject *none = PyObject_CallMethodNoArgs(g, s_push_unit);
        if (none == NULL)
            goto done;
        Py_DECREF(none);
    } else if (branch(g, else_block, ctx) < 0) {
        goto done;
    }
    if (patch(g, jend, s_jmp) < 0)
        goto done;
    r = ctx == VALUE ? LEFT : NOTHING;
done:
    Py_DECREF(e);
    return r;
}

static int bind(PyObject *g, PyObject *name);

/* `_arm_binder(p, type(p))`: the name pattern `p` binds (a new reference; None if none) */
static PyObject *
arm_binder(PyObject *p)
{
    PyTypeObject *t = Py_TYPE(p);
    PyObject *inner;
    if (t == kinds[K_IDENT_PAT].type)
        inner = p;
    else if (t == kinds[K_SOME_PAT].type || t == kinds[K_OK_PAT].type
             || t == kinds[K_ERR_PAT].type)
        inner = FIELD(p, K_SOME_PAT, 0);
    else if (t == kinds[K_VARIANT_PAT].type)
        inner = FIELD(p, K_VARIANT_PAT, 1);
    else
        Py_RETURN_NONE;
    if (inner == NULL) {
        PyErr_SetString(PyExc_AttributeError, "_emit: a pattern without its fields");
        return NULL;
    }
    if (Py_TYPE(inner) == kinds[K_IDENT_PAT].type) {
        PyObject *name = FIELD(inner, K_IDENT_PAT, 0);
        if (name == NULL) {
            PyErr_SetString(PyExc_AttributeError, "_emit: a pattern without its name");
            return NULL;
        }
        Py_INCREF(name);
        return name;
    }
    if (Py_TYPE(inner) == kinds[K_WILDCARD_PAT].type)
        Py_RETURN_NONE;
    return PyObject_CallOneArg(pattern_binding, inner);
}

/* `arm_body(body, arm_ctx)`: in DISCARD context a value the body leaves is popped */
static int
arm_body(PyObject *g, PyObject *body, int arm_ctx)
{
    int left = sub_in(g, body, arm_ctx);
    if (left < 0)
        return -1;
    return left == LEFT && arm_ctx == DISCARD ? append(g, pop) : 0;
}

/* `bound_arm_body(binder, body, arm_ctx)` */
static int
bound_arm_body(PyObject *g, PyObject *binder, PyObject *body, int arm_ctx)
{
    PyObject *previous = PyDict_GetItemWithError(GEN(g, G_NAMES), binder);
    if (previous == NULL && PyErr_Occurred())
        return -1;
    Py_XINCREF(previous);
    int r = -1;
    if (bind(g, binder) < 0 || arm_body(g, body, arm_ctx) < 0)
        goto done;
    PyObject *names = GEN(g, G_NAMES);      /* a block in the body may have put back a copy */
    r = previous == NULL ? PyDict_DelItem(names, binder)
        : PyDict_SetItem(names, binder, previous);
done:
    Py_XDECREF(previous);
    return r;
}

/* `shared.<table>[n]` (a new reference) */
static PyObject *
shared_op(PyObject *g, PyObject *table, Py_ssize_t n)
{
    PyObject *ops = PyObject_GetAttr(GEN(g, G_SHARED), table);
    if (ops == NULL)
        return NULL;
    PyObject *key = PyLong_FromSsize_t(n);
    PyObject *ins = key == NULL ? NULL : PyObject_GetItem(ops, key);
    Py_DECREF(ops);
    Py_XDECREF(key);
    return ins;
}

/* one arm's match-table entries: `shared.arms[tag, start]` for each of its pattern's tags */
static int
arm_entries(PyObject *g, PyObject *pat, PyObject *table, PyObject *shared_arms,
            Py_ssize_t start)
{
    PyObject *tags = PyDict_GetItemWithError(fixed_tags, (PyObject *)Py_TYPE(pat));
    if (tags != NULL)
        Py_INCREF(tags);
    else if (PyErr_Occurred() || (tags = PyObject_CallMethodOneArg(g, s_pattern_tags, pat))
                                 == NULL)
        return -1;
    PyObject *seq = PySequence_Fast(tags, "_emit: pattern tags are not a sequence");
    Py_DECREF(tags);
    if (seq == NULL)
        return -1;
    PyObject *target = PyLong_FromSsize_t(start);
    int r = target == NULL ? -1 : 0;
    for (Py_ssize_t k = 0; r == 0 && k < PySequence_Fast_GET_SIZE(seq); k++) {
        PyObject *key = PyTuple_Pack(2, PySequence_Fast_GET_ITEM(seq, k), target);
        PyObject *entry = key == NULL ? NULL : PyObject_GetItem(shared_arms, key);
        Py_XDECREF(key);
        r = entry == NULL ? -1 : PyList_Append(table, entry);
        Py_XDECREF(entry);
    }
    Py_XDECREF(target);
    Py_DECREF(seq);
    return r;
}

/* codegen.match_table: a match whose arms all check one level */
static int
match_table(PyObject *g, PyObject *arms, int arm_ctx)
{
    Py_ssize_t n = PyList_GET_SIZE(arms);
    PyObject *tables = GEN(g, G_TABLES), *code = GEN(g, G_CODE);
    Py_ssize_t *end_jumps = PyMem_Malloc(sizeof(Py_ssize_t) * (n > 0 ? n : 1));
    PyObject *table = PyList_New(0);
    PyObject *shared_arms = PyObject_GetAttr(GEN(g, G_SHARED), s_arms);
    PyObject *ins = NULL;
    int r = -1;
    if (end_jumps == NULL || table == NULL || shared_arms == NULL) {
        if (end_jumps == NULL)
            PyErr_NoMemory();
        goto done;
    }
    if ((ins = shared_op(g, s_match, PyList_GET_SIZE(tables))) == NULL
            || PyList_Append(code, ins) < 0 || PyList_Append(tables, table) < 0)
        goto done;
    Py_CLEAR(ins);
    Py_ssize_t jumps = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *arm = PyList_GET_ITEM(arms, i);
        PyObject *pat = FIELD(arm, K_ARM, 0), *body = FIELD(arm, K_ARM, 1);
        if (pat == NULL || body == NULL) {
            PyErr_SetString(PyExc_AttributeError, "_emit: a match arm without its fields");
            goto done;
        }
        if (arm_entries(g, pat, table, shared_arms, PyList_GET_SIZE(code)) < 0)
            goto done;
        PyObject *binder = arm_binder(pat);
        if (binder == NULL)
            goto done;
        int ok = binder == Py_None ? append(g, pop) >= 0 && arm_body(g, body, arm_ctx) >= 0
                 : bound_arm_body(g, binder, body, arm_ctx) >= 0;
        Py_DECREF(binder);
        if (!ok)
            goto done;
        if (i != n - 1) {
            if (PyList_Append(code, jmp_0) < 0)
                goto done;
            end_jumps[jumps++] = PyList_GET_SIZE(code) - 1;
        }
    }
    if ((ins = shared_op(g, s_jmp, PyList_GET_SIZE(code))) == NULL)
        goto done;
    for (Py_ssize_t k = 0; k < jumps; k++) {
        if (end_jumps[k] >= PyList_GET_SIZE(code)) {
            PyErr_SetString(PyExc_IndexError, "_emit: a jump to patch is gone");
            goto done;
        }
        Py_INCREF(ins);
        PyList_SetItem(code, end_jumps[k], ins);
    }
    r = 0;
done:
    PyMem_Free(end_jumps);
    Py_XDECREF(table);
    Py_XDECREF(shared_arms);
    Py_XDECREF(ins);
    return r;
}

/* ---- nested patterns (codegen.match_nested, inner_pattern) ----------------------------- */

static int call_method(PyObject *g, PyObject *name, PyObject *arg, PyObject *arg2);
static Py_ssize_t alloc(PyObject *g);
static int append_local(PyObject *g, PyObject *table, PyObject *name, Py_ssize_t slot);
static int put_jump(PyObject *g, Py_ssize_t at, PyObject *op, Py_ssize_t target);

/* `fixups.append(tuple)` of a new tuple (stolen; NULL: fail) */
static int
append_fixup(PyObject *fixups, PyObject *fix)
{
    if (fix == NULL)
        return -1;
    int r = PyList_Append(fixups, fix);
    Py_DECREF(fix);
    return r;
}

/* the payload pattern of a Some/Ok/Err/variant pattern `p` (borrowed; NULL if `p` has none
 * of those types) */
static PyObject *
payload(PyObject *p)
{
    PyTypeObject *t = Py_TYPE(p);
    if (t == kinds[K_SOME_PAT].type || t == kinds[K_OK_PAT].type || t == kinds[K_ERR_PAT].type)
        return FIELD(p, K_SOME_PAT, 0);
    if (t == kinds[K_VARIANT_PAT].type)
        return FIELD(p, K_VARIANT_PAT, 1);
    return NULL;
}

/* `inner_pattern(p, fixups)`: check and bind `p` against the value on top of the stack */
static int
inner_pattern(PyObject *g, PyObject *p, PyObject *fixups)
{
    PyTypeObject *t = Py_TYPE(p);
    /* 1: compared with Eq (a string, an integer beyond the tags); -1: Python's */
    int literal = t == kinds[K_STRING_PAT].type;
    if (t == kinds[K_INT_PAT].type) {
        PyObject *n = FIELD(p, K_INT_PAT, 0);
        literal = -1;
        if (n != NULL && PyLong_CheckExact(n)) {
            int overflow;
            long v = PyLong_AsLongAndOverflow(n, &overflow);
            literal = overflow || v < 0 || v >= PyLong_AsLong(int_tag_limit);
        }
    }
    if (active >= C_NESTING || literal < 0)
        return call_method(g, s_inner_pattern, p, fixups);
    if (t == kinds[K_IDENT_PAT].type) {
        PyObject *name = FIELD(p, K_IDENT_PAT, 0);
        return name == NULL ? call_method(g, s_inner_pattern, p, fixups) : bind(g, name);
    }
    if (t == kinds[K_WILDCARD_PAT].type)
        return append(g, pop);
    if (literal) {
        PyObject *value = FIELD(p, t == kinds[K_STRING_PAT].type ? K_STRING_PAT : K_INT_PAT, 0);
        if (value == NULL)
            return call_method(g, s_inner_pattern, p, fixups);
        Py_INCREF(value);
        if (push_const(g, value) < 0 || append_op(g, s_eq, 0) < 0
                || append(g, jmp_if_not_0) < 0)
            return -1;
        Py_ssize_t at = PyList_GET_SIZE(GEN(g, G_CODE)) - 1;
        return append_fixup(fixups, Py_BuildValue("(Oni)", s_jump, at, 1));
    }
    PyObject *tables = GEN(g, G_TABLES);
    Py_ssize_t index = PyList_GET_SIZE(tables);
    PyObject *table = PyList_New(0);
    if (table == NULL)
        return -1;
    int r = PyList_Append(tables, table);
    PyObject *ins = r < 0 ? NULL : shared_op(g, s_match, index);
    PyObject *shared_arms = ins == NULL ? NULL : PyObject_GetAttr(GEN(g, G_SHARED), s_arms);
    r = shared_arms == NULL || append(g, ins) < 0 ? -1
        : arm_entries(g, p, table, shared_arms, PyList_GET_SIZE(GEN(g, G_CODE)));
    Py_XDECREF(ins);
    Py_XDECREF(shared_arms);
    if (r == 0)
        r = PyList_Append(table, any_arm);
    if (r == 0)
        r = append_fixup(fixups, Py_BuildValue("(Onni)", s_arm, index,
                                               PyList_GET_SIZE(table) - 1, 0));
    Py_DECREF(table);
    if (r < 0)
        return -1;
    PyObject *inner = payload(p);
    if (inner != NULL && inner != Py_None) {
        Py_INCREF(inner);
        active++;
        r = inner_pattern(g, inner, fixups);
        active--;
        Py_DECREF(inner);
        return r;
    }
    return append(g, pop);
}

/* `_is_nested(p)`: a Some/Ok/Err/variant pattern whose payload pattern checks something */
static int
is_nested(PyObject *p)
{
    PyObject *inner = payload(p);
    if (inner == NULL)
        return 0;
    if (inner == Py_None && Py_TYPE(p) == kinds[K_VARIANT_PAT].type)
        return 0;
    PyTypeObject *kind = Py_TYPE(inner);
    return kind != kinds[K_IDENT_PAT].type && kind != kinds[K_WILDCARD_PAT].type;
}

/* one arm of `match_nested` (arm `i` of `n`, its stub's table `first + i + 1`) */
static int
nested_arm(PyObject *g, PyObject *e, PyObject *arm, int arm_ctx, Py_ssize_t scrut,
           Py_ssize_t next_table, PyObject *entries, PyObject *shared_arms)
{
    PyObject *pat = FIELD(arm, K_ARM, 0), *body = FIELD(arm, K_ARM, 1);
    if (pat == NULL || body == NULL) {
        PyErr_SetString(PyExc_AttributeError, "_emit: a match arm without its fields");
        return -1;
    }
    if (arm_entries(g, pat, entries, shared_arms, PyList_GET_SIZE(GEN(g, G_CODE))) < 0)
        return -1;
    PyObject *binder = arm_binder(pat), *previous = NULL, *fixups = NULL;
    if (binder == NULL)
        return -1;
    int r = -1;
    if (binder != Py_None) {
        previous = PyDict_GetItemWithError(GEN(g, G_NAMES), binder);
        if (previous == NULL && PyErr_Occurred())
            goto done;
        Py_XINCREF(previous);
    }
    if (is_nested(pat)) {
        if ((fixups = PyList_New(0)) == NULL)
            goto done;
        PyObject *inner = payload(pat);
        Py_INCREF(inner);
        active++;
        r = inner_pattern(g, inner, fixups);
        active--;
        Py_DECREF(inner);
        if (r < 0)
            goto done;
        r = -1;
    } else if ((binder == Py_None ? append(g, pop) : bind(g, binder)) < 0) {
        goto done;
    }
    if (arm_body(g, body, arm_ctx) < 0)
        goto done;
    if (binder != Py_None) {
        PyObject *names = GEN(g, G_NAMES);      /* a block in the body may have put back a copy */
        if ((previous == NULL ? PyDict_DelItem(names, binder)
             : PyDict_SetItem(names, binder, previous)) < 0)
            goto done;
    }
    if (next_table >= 0 && PyList_Append(GEN(g, G_CODE), jmp_0) < 0)
        goto done;
    r = 0;
    if (fixups != NULL && PyList_GET_SIZE(fixups) > 0) {
        /* offset 0: a value is still on the stack; offset 1: the stack is clean */
        PyObject *load = NULL, *match = NULL, *stub = NULL;
        if (scrut < SHARED_SLOTS) {
            load = PyTuple_GET_ITEM(load_local, scrut);
            Py_INCREF(load);
        } else {
            load = Py_BuildValue("(On)", s_load_local, scrut);
        }
        Py_ssize_t table = next_table >= 0 ? next_table : -next_table - 1;
        match = load == NULL ? NULL : shared_op(g, s_match, table);
        stub = match == NULL ? NULL : PyList_New(3);
        if (stub != NULL) {
            Py_INCREF(pop);
            PyList_SET_ITEM(stub, 0, pop);
            PyList_SET_ITEM(stub, 1, load);
            PyList_SET_ITEM(stub, 2, match);
            load = match = NULL;
        }
        Py_XDECREF(load);
        Py_XDECREF(match);
        PyObject *entry = stub == NULL ? NULL : PyTuple_Pack(3, fixups, stub, e);
        Py_XDECREF(stub);
        r = entry == NULL ? -1 : PyList_Append(GEN(g, G_STUBS), entry);
        Py_XDECREF(entry);
    }
done:
    Py_DECREF(binder);
    Py_XDECREF(previous);
    Py_XDECREF(fixups);
    return r;
}

/* codegen.match_nested: patterns nested deeper than one level, checked level by level */
static int
match_nested(PyObject *g, PyObject *e, PyObject *arms, int arm_ctx)
{
    Py_ssize_t n = PyList_GET_SIZE(arms);
    Py_ssize_t scrut = alloc(g);
    if (scrut < 0 || append_local(g, store_local, s_store_local, scrut) < 0
            || append_local(g, load_local, s_load_local, scrut) < 0)
        return -1;
    PyObject *tables = GEN(g, G_TABLES);
    Py_ssize_t first = PyList_GET_SIZE(tables);
    for (Py_ssize_t i = 0; i < n; i++)
        if (PyList_Append(tables, Py_None) < 0)
            return -1;
    PyObject *last = PyList_New(0);
    if (last == NULL)
        return -1;
    int r = PyList_Append(tables, last);
    Py_DECREF(last);
    PyObject *ins = r < 0 ? NULL : shared_op(g, s_match, first);
    if (ins == NULL || append(g, ins) < 0) {
        Py_XDECREF(ins);
        return -1;
    }
    Py_DECREF(ins);
    Py_ssize_t *marks = PyMem_Malloc(sizeof(Py_ssize_t) * 2 * (n > 0 ? n : 1));
    PyObject *entries = PyList_New(0);
    PyObject *shared_arms = PyObject_GetAttr(GEN(g, G_SHARED), s_arms);
    r = -1;
    if (marks == NULL || entries == NULL || shared_arms == NULL) {
        if (marks == NULL)
            PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t *offsets = marks, *end_jumps = marks + n, jumps = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        offsets[i] = PyList_GET_SIZE(entries);
        /* next_table: the stub's table; negative (-t - 1) for the last arm (no end jump) */
        Py_ssize_t next = i != n - 1 ? first + i + 1 : -(first + i + 1) - 1;
        if (nested_arm(g, e, PyList_GET_ITEM(arms, i), arm_ctx, scrut, next, entries,
                       shared_arms) < 0)
            goto done;
        if (i != n - 1)
            end_jumps[jumps++] = PyList_GET_SIZE(GEN(g, G_CODE)) - 1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *rest = PyList_GetSlice(entries, offsets[k], PyList_GET_SIZE(entries));
        if (rest == NULL || PyList_SetItem(tables, first + k, rest) < 0)
            goto done;
    }
    PyObject *code = GEN(g, G_CODE);
    if ((ins = shared_op(g, s_jmp, PyList_GET_SIZE(code))) == NULL)
        goto done;
    for (Py_ssize_t k = 0; k < jumps; k++) {
        Py_INCREF(ins);
        if (PyList_SetItem(code, end_jumps[k], ins) < 0) {
            Py_DECREF(ins);
            goto done;
        }
    }
    Py_DECREF(ins);
    r = 0;
done:
    PyMem_Free(marks);
    Py_XDECREF(entries);
    Py_XDECREF(shared_arms);
    return r;
}

/* ---- Eq chains (codegen.match_chain) ------------------------------------------------- */

/* the value a literal arm's pattern `p` is compared with (borrowed): a string, integer or
 * Bool pattern's value, None's NONE; NULL when `p` is none of those (or has no value) */
static PyObject *
literal_value(PyObject *p)
{
    PyTypeObject *t = Py_TYPE(p);
    if (t == kinds[K_NONE_PAT].type)
        return none_value;
    int k = t == kinds[K_STRING_PAT].type ? K_STRING_PAT : t == kinds[K_INT_PAT].type
            ? K_INT_PAT : t == kinds[K_BOOL_PAT].type ? K_BOOL_PAT : -1;
    return k < 0 ? NULL : FIELD(p, k, 0);
}

/* 1 if every arm of `arms` is one `match_chain` reads without an exception (an arm with
 * its pattern and body, a literal pattern's value, an identifier pattern's name), else 0:
 * Python's match_chain then compiles the arms */
static int
chain_covered(PyObject *arms)
{
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(arms); i++) {
        PyObject *arm = PyList_GET_ITEM(arms, i);
        if (Py_TYPE(arm) != kinds[K_ARM].type || FIELD(arm, K_ARM, 0) == NULL
                || FIELD(arm, K_ARM, 1) == NULL)
            return 0;
        PyObject *pat = FIELD(arm, K_ARM, 0);
        PyTypeObject *t = Py_TYPE(pat);
        if (t == kinds[K_IDENT_PAT].type ? FIELD(pat, K_IDENT_PAT, 0) == NULL
                : (t == kinds[K_STRING_PAT].type || t == kinds[K_INT_PAT].type
                   || t == kinds[K_BOOL_PAT].type) && literal_value(pat) == NULL)
            return 0;
    }
    return 1;
}

/* codegen.match_chain: the scrutinee in a slot, each literal arm an Eq and a JmpIfNot to
 * the next arm (rule-3 fixes: Bool/None literals compare too, a catch-all ends the match,
 * and when no arm matches and none is a catch-all, `no match found for value` out of line) */
static int
match_chain(PyObject *g, PyObject *e, PyObject *arms, int arm_ctx)
{
    Py_ssize_t n = PyList_GET_SIZE(arms);
    Py_ssize_t scrut = alloc(g);
    if (scrut < 0 || append_local(g, store_local, s_store_local, scrut) < 0)
        return -1;
    /* the arms' end jumps (Jmp), then at most one pending JmpIfNot */
    Py_ssize_t *end_jumps = PyMem_Malloc(sizeof(Py_ssize_t) * (n + 1));
    if (end_jumps == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t jumps = 0, pending = -1;
    int catchall = 0, r = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *arm = PyList_GET_ITEM(arms, i);
        PyObject *pat = FIELD(arm, K_ARM, 0), *body = FIELD(arm, K_ARM, 1);
        if (pending >= 0) {
            if (put_jump(g, pending, s_jmp_if_not_op, PyList_GET_SIZE(GEN(g, G_CODE))) < 0)
                goto done;
            pending = -1;
        }
        PyObject *value = literal_value(pat);
        if (value != NULL) {
            Py_INCREF(value);
            if (append_local(g, load_local, s_load_local, scrut) < 0 || push_const(g, value) < 0
                    || append_op(g, s_eq, 0) < 0 || append(g, jmp_if_not_0) < 0)
                goto done;
            pending = PyList_GET_SIZE(GEN(g, G_CODE)) - 1;
            if (arm_body(g, body, arm_ctx) < 0)
                goto done;
        } else {
            if (Py_TYPE(pat) == kinds[K_IDENT_PAT].type) {
                if (append_local(g, load_local, s_load_local, scrut) < 0
                        || bound_arm_body(g, FIELD(pat, K_IDENT_PAT, 0), body, arm_ctx) < 0)
                    goto done;
            } else if (arm_body(g, body, arm_ctx) < 0) {
                goto done;
            }
            catchall = 1;
        }
        if (i != n - 1) {
            if (append(g, jmp_0) < 0)
                goto done;
            end_jumps[jumps++] = PyList_GET_SIZE(GEN(g, G_CODE)) - 1;
        }
    }
    Py_ssize_t ends = jumps;        /* end_jumps[ends], if there, is the pending JmpIfNot */
    if (pending >= 0 && catchall) {
        end_jumps[jumps++] = pending;
    } else if (pending >= 0) {
        /* no arm matched: `LoadLocal(scrut); Match(an empty table)` after the function */
        PyObject *tables = GEN(g, G_TABLES);
        Py_ssize_t index = PyList_GET_SIZE(tables);
        PyObject *empty = PyList_New(0);
        int ok = empty != NULL && PyList_Append(tables, empty) == 0;
        Py_XDECREF(empty);
        PyObject *stub = ok ? Py_BuildValue("[(On)(On)]", s_load_local, scrut, s_match_op, index)
                         : NULL;
        PyObject *fixups = stub == NULL ? NULL : Py_BuildValue("[(Oni)]", s_jump, pending, 0);
        PyObject *entry = fixups == NULL ? NULL : PyTuple_Pack(3, fixups, stub, e);
        ok = entry != NULL && PyList_Append(GEN(g, G_STUBS), entry) == 0;
        Py_XDECREF(stub);
        Py_XDECREF(fixups);
        Py_XDECREF(entry);
        if (!ok)
            goto done;
    }
    Py_ssize_t end = PyList_GET_SIZE(GEN(g, G_CODE));
    for (Py_ssize_t k = 0; k < jumps; k++)
        if (put_jump(g, end_jumps[k], k < ends ? s_jmp_op : s_jmp_if_not_op, end) < 0)
            goto done;
    r = 0;
done:
    PyMem_Free(end_jumps);
    return r;
}

/* codegen.match_expr (in DISCARD context the arms are VALUE when expr_leaves_value says the
 * match leaves one, as there); the kind of match as it decides */
static int
match_expr(PyObject *g, PyObject *e, int ctx)
{
    PyObject *value = FIELD(e, K_MATCH, 0), *arms = FIELD(e, K_MATCH, 1);
    if (value == NULL || arms == NULL || !PyList_CheckExact(arms))
        return HANDED_BACK;
    int chain = 0, nested = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(arms); i++) {
        PyObject *arm = PyList_GET_ITEM(arms, i);
        if (Py_TYPE(arm) != kinds[K_ARM].type || FIELD(arm, K_ARM, 0) == NULL)
            return HANDED_BACK;
        PyObject *pat = FIELD(arm, K_ARM, 0);
        PyTypeObject *t = Py_TYPE(pat);
        if (t == kinds[K_STRING_PAT].type) {
            chain = 1;
            break;
        }
        if (t == kinds[K_INT_PAT].type) {
            PyObject *n = FIELD(pat, K_INT_PAT, 0);
            if (n == NULL || !PyLong_CheckExact(n))
                return HANDED_BACK;
            int overflow;
            long v = PyLong_AsLongAndOverflow(n, &overflow);
            long limit = PyLong_AsLong(int_tag_limit);
            if (overflow || v < 0 || v >= limit) {    /* not _table_int(value) */
                chain = 1;
                break;
            }
            continue;
        }
        if (nested)
            continue;
        PyObject *inner;
        if (t == kinds[K_SOME_PAT].type || t == kinds[K_OK_PAT].type
                || t == kinds[K_ERR_PAT].type)
            inner = FIELD(pat, K_SOME_PAT, 0);
        else if (t == kinds[K_VARIANT_PAT].type)
            inner = FIELD(pat, K_VARIANT_PAT, 1);
        else
            continue;
        if (inner == NULL)
            return HANDED_BACK;
        PyTypeObject *kind = Py_TYPE(inner);
        if (kind != kinds[K_IDENT_PAT].type && kind != kinds[K_WILDCARD_PAT].type
                && (inner != Py_None || t != kinds[K_VARIANT_PAT].type))
            nested = 1;
    }
    Py_INCREF(e);
    int r = -1;
    if ((ctx = context_of(g, e, ctx)) < 0 || sub(g, value) < 0 || mark(g, e, K_MATCH) < 0)
        goto done;
    if (chain && chain_covered(arms)) {
        if (match_chain(g, e, arms, ctx) < 0)
            goto done;
    } else if (chain) {
        PyObject *none = PyObject_CallMethodObjArgs(g, s_match_chain, e, ctx_obj[ctx], NULL);
        if (none == NULL)
            goto done;
        Py_DECREF(none);
    } else if (nested) {
        if (match_nested(g, e, arms, ctx) < 0)
            goto done;
    } else if (match_table(g, arms, ctx) < 0) {
        goto done;
    }
    r = ctx == VALUE ? LEFT : NOTHING;
done:
    Py_DECREF(e);
    return r;
}

/* the declaration `tid` names when it is of kind `kind` ("Record"/"Enum"): its member names
 * (borrowed), else NULL (-1 in *err on an exception) */
static PyObject *
declared(PyObject *g, PyObject *tid, PyObject *kind, int *err)
{
    *err = 0;
    Py_ssize_t t = PyLong_AsSsize_t(tid);
    PyObject *types = GEN(g, G_TYPES), *members = GEN(g, G_MEMBER_NAMES);
    if (t == -1 && PyErr_Occurred()) {
        *err = -1;
        return NULL;
    }
    if (t < 0 || t >= PyList_GET_SIZE(types) || t >= PyList_GET_SIZE(members)) {
        PyErr_SetString(PyExc_IndexError, "_emit: a type id past the module's types");
        *err = -1;
        return NULL;
    }
    PyObject *decl_kind = PyObject_GetAttr(PyList_GET_ITEM(types, t), s_kind);
    if (decl_kind == NULL) {
        *err = -1;
        return NULL;
    }
    int same = PyObject_RichCompareBool(decl_kind, kind, Py_EQ);
    Py_DECREF(decl_kind);
    if (same < 0)
        *err = -1;
    PyObject *names = PyList_GET_ITEM(members, t);
    if (same > 0 && !PyList_CheckExact(names)) {
        PyErr_SetString(PyExc_TypeError, "_emit: member names are not a list");
        *err = -1;
        return NULL;
    }
    return same > 0 ? names : NULL;
}

/* codegen.record_lit: a literal naming its fields in declaration order (or of no record
 * type), or with a spread; one in another order is Python's (it stores in slots first) */
static int
record_lit(PyObject *g, PyObject *e)
{
    PyObject *type_name = FIELD(e, K_RECORD, 0), *fields = FIELD(e, K_RECORD, 1);
    PyObject *spread = FIELD(e, K_RECORD, 2);
    if (type_name == NULL || fields == NULL || spread == NULL || !PyList_CheckExact(fields))
        return HANDED_BACK;
    Py_ssize_t n = PyList_GET_SIZE(fields);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *f = PyList_GET_ITEM(fields, i);
        if (!PyTuple_CheckExact(f) || PyTuple_GET_SIZE(f) != 2)
            return HANDED_BACK;
    }
    PyObject *tid = PyDict_GetItemWithError(GEN(g, G_TYPE_IDS), type_name);
    if (tid == NULL && PyErr_Occurred())
        return -1;
    int err = 0;
    PyObject *decl = tid == NULL ? NULL : declared(g, tid, s_record, &err);
    if (err)
        return -1;
    PyObject *type_id = tid != NULL ? tid : PyLong_FromLong(0);    /* a new reference */
    if (tid != NULL)
        Py_INCREF(type_id);
    if (type_id == NULL)
        return -1;
    Py_XINCREF(decl);
    int r = HANDED_BACK;
    PyObject *count = NULL;
    if (spread != Py_None) {
        Py_ssize_t m = decl == NULL ? 0 : PyList_GET_SIZE(decl);
        if (m > MAX_ITEMS)
            goto done;
        /* the name check's cases (a repeated or unknown field) are Python's to raise */
        for (Py_ssize_t i = 0; i < n && GEN(g, G_ARITIES) != Py_None; i++) {
            PyObject *name = PyTuple_GET_ITEM(PyList_GET_ITEM(fields, i), 0);
            int known = decl == NULL ? 0 : PySequence_Contains(decl, name);
            if (known <= 0) {
                r = known < 0 ? -1 : HANDED_BACK;
                goto done;
            }
            for (Py_ssize_t j = 0; j < i; j++) {
                int same = PyObject_RichCompareBool(
                    PyTuple_GET_ITEM(PyList_GET_ITEM(fields, j), 0), name, Py_EQ);
                if (same != 0) {
                    r = same < 0 ? -1 : HANDED_BACK;
                    goto done;
                }
            }
        }
        r = -1;
        if (sub(g, spread) < 0)
            goto done;
        /* base = self.alloc(), after the spread's code */
        PyObject *base = GEN(g, G_NEXT_LOCAL);
        Py_INCREF(base);
        Py_ssize_t b = PyLong_AsSsize_t(base);
        PyObject *next = b < 0 ? NULL : PyLong_FromSsize_t(b + 1);
        if (next == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "_emit: a negative next_local");
            Py_DECREF(base);
            goto done;
        }
        Py_SETREF(GEN(g, G_NEXT_LOCAL), next);
        int ok = (b < SHARED_SLOTS ? append(g, PyTuple_GET_ITEM(store_local, b))
                  : append_new(g, PyTuple_Pack(2, s_store_local, base))) >= 0;
        for (Py_ssize_t pos = 0; ok && pos < m; pos++) {
            PyObject *fname = PyList_GET_ITEM(decl, pos);
            PyObject *value = NULL;     /* the first override of fname (setdefault) */
            for (Py_ssize_t i = 0; i < n && value == NULL; i++) {
                PyObject *f = PyList_GET_ITEM(fields, i);
                int same = PyObject_RichCompareBool(PyTuple_GET_ITEM(f, 0), fname, Py_EQ);
                if (same < 0)
                    ok = 0;
                else if (same)
                    value = PyTuple_GET_ITEM(f, 1);
            }
            if (!ok)
                break;
            if (value != NULL) {
                ok = sub(g, value) >= 0;
            } else {
                PyObject *at = PyLong_FromSsize_t(pos);
                ok = at != NULL
                     && (b < SHARED_SLOTS ? append(g, PyTuple_GET_ITEM(load_local, b))
                         : append_new(g, PyTuple_Pack(2, s_load_local, base))) >= 0
                     && append_new(g, PyTuple_Pack(2, s_get_field, at)) >= 0;
                Py_XDECREF(at);
            }
        }
        Py_DECREF(base);
        if (!ok || (count = PyLong_FromSsize_t(m)) == NULL
                || append_new(g, PyTuple_Pack(3, s_make_record, type_id, count)) < 0)
            goto done;
        r = LEFT;
        goto done;
    }
    if (decl != NULL) {
        /* written == member_names[tid], else the declaration-order case: Python's */
        if (PyList_GET_SIZE(decl) != n)
            goto done;
        for (Py_ssize_t i = 0; i < n; i++) {
            int same = PyObject_RichCompareBool(PyTuple_GET_ITEM(PyList_GET_ITEM(fields, i), 0),
                                                PyList_GET_ITEM(decl, i), Py_EQ);
            if (same <= 0) {
                r = same < 0 ? -1 : HANDED_BACK;
                goto done;
            }
        }
    }
    if (n > MAX_ITEMS)
        goto done;
    r = -1;
    for (Py_ssize_t i = 0; i < n; i++)
        if (sub(g, PyTuple_GET_ITEM(PyList_GET_ITEM(fields, i), 1)) < 0)
            goto done;
    if ((count = PyLong_FromSsize_t(n)) == NULL
            || append_new(g, PyTuple_Pack(3, s_make_record, type_id, count)) < 0)
        goto done;
    r = LEFT;
done:
    Py_XDECREF(count);
    Py_XDECREF(decl);
    Py_DECREF(type_id);
    return r;
}

/* codegen.enum_variant; whatever it raises is Python's to raise */
static int
enum_variant(PyObject *g, PyObject *e)
{
    PyObject *enum_name = FIELD(e, K_ENUM_VARIANT, 0), *variant = FIELD(e, K_ENUM_VARIANT, 1);
    PyObject *payload = FIELD(e, K_ENUM_VARIANT, 2);
    if (enum_name == NULL || variant == NULL || payload == NULL)
        return HANDED_BACK;
    PyObject *tid = PyDict_GetItemWithError(GEN(g, G_TYPE_IDS), enum_name);
    if (tid == NULL)
        return PyErr_Occurred() ? -1 : HANDED_BACK;
    int err = 0;
    PyObject *names = declared(g, tid, s_enum, &err);
    if (names == NULL)
        return err ? -1 : HANDED_BACK;
    Py_ssize_t idx = -1;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(names) && idx < 0; i++) {
        int same = PyObject_RichCompareBool(PyList_GET_ITEM(names, i), variant, Py_EQ);
        if (same < 0)
            return -1;
        if (same)
            idx = i;
    }
    if (idx < 0 || idx > MAX_ITEMS)
        return HANDED_BACK;
    Py_INCREF(tid);
    int r = -1;
    PyObject *index = NULL;
    if (payload != Py_None ? sub(g, payload) < 0
            : (Py_INCREF(Py_None), push_const(g, Py_None) < 0))
        goto done;
    if ((index = PyLong_FromSsize_t(idx)) == NULL
            || append_new(g, PyTuple_Pack(3, s_make_enum, tid, index)) < 0)
        goto done;
    r = LEFT;
done:
    Py_XDECREF(index);
    Py_DECREF(tid);
    return r;
}

static int
dispatch(PyObject *g, PyObject *e, int ctx)
{
    PyTypeObject *t = Py_TYPE(e);
    if (t == kinds[K_IDENT].type)
        return ident(g, e);
    if (t == kinds[K_BINARY].type)
        return binary(g, e);
    if (t == kinds[K_INT].type || t == kinds[K_STRING].type || t == kinds[K_BOOL].type
            || t == kinds[K_FLOAT].type) {
        PyObject *value = FIELD(e, K_INT, 0);       /* every literal: (value, line, col) */
        if (value == NULL)
            return 0;
        Py_INCREF(value);
        return push_const(g, value) < 0 ? -1 : 1;
    }
    if (t == kinds[K_CALL].type)
        return call(g, e);
    if (t == kinds[K_IF].type)
        return if_expr(g, e, ctx);
    if (t == kinds[K_MATCH].type)
        return match_expr(g, e, ctx);
    if (t == kinds[K_RECORD].type)
        return record_lit(g, e);
    if (t == kinds[K_ENUM_VARIANT].type)
        return enum_variant(g, e);
    if (t == kinds[K_FIELD].type)
        return field_access(g, e);
    if (t == kinds[K_NONE].type) {
        Py_INCREF(none_value);
        return push_const(g, none_value) < 0 ? -1 : 1;
    }
    if (t == kinds[K_UNARY].type) {
        PyObject *op = FIELD(e, K_UNARY, 0), *inner = FIELD(e, K_UNARY, 1);
        if (op == NULL || inner == NULL)
            return 0;
        return sub(g, inner) < 0 || mark(g, e, K_UNARY) < 0 || append_op(g, op, 1) < 0
               ? -1 : 1;
    }
    if (t == kinds[K_LIST].type) {
        PyObject *items = FIELD(e, K_LIST, 0);
        if (items == NULL || !PyList_CheckExact(items) || PyList_GET_SIZE(items) > MAX_ITEMS)
            return 0;
        Py_ssize_t n = PyList_GET_SIZE(items);
        return each(g, items) < 0 || append(g, PyTuple_GET_ITEM(make_list, n)) < 0 ? -1 : 1;
    }
    if (t == kinds[K_SOME].type || t == kinds[K_OK].type || t == kinds[K_ERR].type) {
        int k = t == kinds[K_SOME].type ? K_SOME : t == kinds[K_OK].type ? K_OK : K_ERR;
        PyObject *inner = FIELD(e, k, 0);
        if (inner == NULL || sub(g, inner) < 0)
            return inner == NULL ? 0 : -1;
        if (k == K_SOME) {
            Py_INCREF(Py_True);
            if (push_const(g, Py_True) < 0 || append(g, pop) < 0)
                return -1;
        }
        return append(g, k == K_SOME ? make_some : k == K_OK ? make_ok : make_err) < 0 ? -1 : 1;
    }
    return 0;
}

/* ---- statements ----------------------------------------------------------------------- */

static int
call_method(PyObject *g, PyObject *name, PyObject *arg, PyObject *arg2)
{
    PyObject *r = PyObject_CallMethodObjArgs(g, name, arg, arg2, NULL);
    if (r == NULL)
        return -1;
    Py_DECREF(r);
    return 0;
}

/* `bind(name)`: the value on top of the stack into a new local slot named `name` */
static int
bind(PyObject *g, PyObject *name)
{
    PyObject *slot = GEN(g, G_NEXT_LOCAL);
    Py_ssize_t s = PyLong_AsSsize_t(slot);
    if (s == -1 && PyErr_Occurred())
        return -1;
    PyObject *next = PyLong_FromSsize_t(s + 1);
    if (next == NULL)
        return -1;
    Py_INCREF(slot);        /* the slot's number outlives next_local's reference to it */
    Py_SETREF(GEN(g, G_NEXT_LOCAL), next);
    int r = s >= 0 && s < SHARED_SLOTS ? append(g, PyTuple_GET_ITEM(store_local, s))
            : append_new(g, PyTuple_Pack(2, s_store_local, slot));
    if (r == 0)
        r = PyDict_SetItem(GEN(g, G_NAMES), name, slot);
    Py_DECREF(slot);
    return r;
}

/* `(op, target)`, a new tuple, appended (at == -1) or at `at` (as `patch`) */
static int
put_jump(PyObject *g, Py_ssize_t at, PyObject *op, Py_ssize_t target)
{
    PyObject *to = PyLong_FromSsize_t(target);
    PyObject *ins = to == NULL ? NULL : PyTuple_Pack(2, op, to);
    Py_XDECREF(to);
    if (at < 0)
        return append_new(g, ins);
    if (ins == NULL)
        return -1;
    return PyList_SetItem(GEN(g, G_CODE), at, ins);
}

/* `_local(name, slot)` appended: the shared tuple of `table` below SHARED_SLOTS */
static int
append_local(PyObject *g, PyObject *table, PyObject *name, Py_ssize_t slot)
{
    if (slot < SHARED_SLOTS)
        return append(g, PyTuple_GET_ITEM(table, slot));
    PyObject *n = PyLong_FromSsize_t(slot);
    PyObject *ins = n == NULL ? NULL : PyTuple_Pack(2, name, n);
    Py_XDECREF(n);
    return append_new(g, ins);
}

/* `alloc()`: the next local slot (-1 on an exception) */
static Py_ssize_t
alloc(PyObject *g)
{
    Py_ssize_t s = PyLong_AsSsize_t(GEN(g, G_NEXT_LOCAL));
    if (s == -1 && PyErr_Occurred())
        return -1;
    PyObject *next = PyLong_FromSsize_t(s + 1);
    if (next == NULL)
        return -1;
    Py_SETREF(GEN(g, G_NEXT_LOCAL), next);
    return s;
}

/* codegen.stmt's `while` */
static int
while_loop(PyObject *g, PyObject *s)
{
    PyObject *condition = FIELD(s, K_WHILE, 0), *body = FIELD(s, K_WHILE, 1);
    if (condition == NULL || body == NULL) {
        PyErr_SetString(PyExc_AttributeError, "_emit: a While without its fields");
        return -1;
    }
    Py_ssize_t top = PyList_GET_SIZE(GEN(g, G_CODE));
    if (mark(g, s, K_WHILE) < 0 || sub(g, condition) < 0 || append(g, jmp_if_not_0) < 0)
        return -1;
    Py_ssize_t exit = PyList_GET_SIZE(GEN(g, G_CODE)) - 1;
    if (block_in(g, body, DISCARD) < 0 || put_jump(g, -1, s_jmp_op, top) < 0)
        return -1;
    return put_jump(g, exit, s_jmp_if_not_op, PyList_GET_SIZE(GEN(g, G_CODE)));
}

/* `PushConst(const(n))` of a small int */
static int
push_int(PyObject *g, long n)
{
    return push_const(g, PyLong_FromLong(n));
}

/* codegen.stmt's `for` */
static int
for_loop(PyObject *g, PyObject *s)
{
    PyObject *var_name = FIELD(s, K_FOR, 0), *iter = FIELD(s, K_FOR, 1);
    PyObject *body = FIELD(s, K_FOR, 2);
    if (var_name == NULL || iter == NULL || body == NULL) {
        PyErr_SetString(PyExc_AttributeError, "_emit: a For without its fields");
        return -1;
    }
    if (sub(g, iter) < 0 || mark(g, s, K_FOR) < 0)
        return -1;
    Py_ssize_t lst = alloc(g), idx = lst < 0 ? -1 : alloc(g), var = idx < 0 ? -1 : alloc(g);
    if (var < 0)
        return -1;
    if (append_local(g, store_local, s_store_local, lst) < 0 || push_int(g, 0) < 0
            || append_local(g, store_local, s_store_local, idx) < 0)
        return -1;
    Py_ssize_t top = PyList_GET_SIZE(GEN(g, G_CODE));
    if (append_local(g, load_local, s_load_local, idx) < 0
            || append_local(g, load_local, s_load_local, lst) < 0
            || append_op(g, s_list_len, 0) < 0 || append_op(g, s_lt, 0) < 0
            || append(g, jmp_if_not_0) < 0)
        return -1;
    Py_ssize_t exit = PyList_GET_SIZE(GEN(g, G_CODE)) - 1;
    if (append_local(g, load_local, s_load_local, lst) < 0
            || append_local(g, load_local, s_load_local, idx) < 0
            || append_op(g, s_list_get, 0) < 0
            || append_local(g, store_local, s_store_local, var) < 0)
        return -1;
    PyObject *saved = PyDict_Copy(GEN(g, G_NAMES));
    PyObject *slot = saved == NULL ? NULL : PyLong_FromSsize_t(var);
    int r = slot == NULL ? -1 : PyDict_SetItem(GEN(g, G_NAMES), var_name, slot);
    Py_XDECREF(slot);
    if (r == 0)
        r = block_in(g, body, DISCARD);
    if (r < 0) {
        Py_XDECREF(saved);
        return -1;
    }
    Py_SETREF(GEN(g, G_NAMES), saved);
    if (append_local(g, load_local, s_load_local, idx) < 0 || push_int(g, 1) < 0
            || append_op(g, s_add, 0) < 0
            || append_local(g, store_local, s_store_local, idx) < 0
            || put_jump(g, -1, s_jmp_op, top) < 0)
        return -1;
    return put_jump(g, exit, s_jmp_if_not_op, PyList_GET_SIZE(GEN(g, G_CODE)));
}

/* one statement (`stmt(s)`): `let`, an assignment, `return`, `while` and `for` here, the
 * others by `gen.stmt(s)` */
static int
statement(PyObject *g, PyObject *s)
{
    PyTypeObject *t = Py_TYPE(s);
    if (t == kinds[K_WHILE].type)
        return while_loop(g, s);
    if (t == kinds[K_FOR].type)
        return for_loop(g, s);
    if (t == kinds[K_LET].type) {
        PyObject *value = FIELD(s, K_LET, 3), *name = FIELD(s, K_LET, 0);
        if (value != NULL && name != NULL)
            return sub(g, value) < 0 || bind(g, name) < 0 ? -1 : 0;
    } else if (t == kinds[K_ASSIGN].type) {
        PyObject *target = FIELD(s, K_ASSIGN, 0), *value = FIELD(s, K_ASSIGN, 1);
        if (target != NULL && value != NULL) {
            if (sub(g, value) < 0)
                return -1;
            PyObject *slot = PyDict_GetItemWithError(GEN(g, G_NAMES), target);
            if (slot == NULL) {
                if (!PyErr_Occurred()) {
                    PyObject *err = PyObject_CallOneArg(assign_error, s);
                    if (err != NULL) {
                        PyErr_SetObject((PyObject *)Py_TYPE(err), err);
                        Py_DECREF(err);
                    }
                }
                return -1;
            }
            Py_ssize_t n = PyLong_AsSsize_t(slot);
            if (n == -1 && PyErr_Occurred())
                return -1;
            return (n >= 0 && n < SHARED_SLOTS ? append(g, PyTuple_GET_ITEM(store_local, n))
                    : append_new(g, PyTuple_Pack(2, s_store_local, slot))) < 0 ? -1 : 0;
        }
    } else if (t == kinds[K_RETURN].type && GEN(g, G_RETURN_JUMPS) == Py_None) {
        PyObject *value = FIELD(s, K_RETURN, 0);
        if (value != NULL) {
            if (value == Py_None) {
                Py_INCREF(Py_None);
                if (push_const(g, Py_None) < 0)
                    return -1;
            } else if (sub(g, value) < 0) {
                return -1;
            }
            return append(g, ret);
        }
    } else if (t == kinds[K_EXPR_STMT].type) {
        PyObject *inner = FIELD(s, K_EXPR_STMT, 0);
        if (inner != NULL) {
            int r = sub_in(g, inner, DISCARD);
            return r < 0 ? -1 : r == LEFT ? append(g, pop) : 0;
        }
    }
    return call_method(g, s_stmt, s, NULL);
}

/* `stmts(stmts, ctx)`: LEFT if a value was left on the stack, else NOTHING */
static int
statements(PyObject *g, PyObject *stmts, int ctx)
{
    Py_ssize_t n = PyList_GET_SIZE(stmts);
    if (n == 0) {
        if (ctx != VALUE)
            return NOTHING;
        PyObject *none = PyObject_CallMethodNoArgs(g, s_push_unit);
        if (none == NULL)
            return -1;
        Py_DECREF(none);
        return LEFT;
    }
    for (Py_ssize_t i = 0; i < n - 1; i++)
        if (statement(g, PyList_GET_ITEM(stmts, i)) < 0)
            return -1;
    PyObject *last = PyList_GET_ITEM(stmts, n - 1);
    if (Py_TYPE(last) == kinds[K_EXPR_STMT].type && FIELD(last, K_EXPR_STMT, 0) != NULL) {
        int left = sub_in(g, FIELD(last, K_EXPR_STMT, 0), ctx);
        if (left < 0)
            return -1;
        if (ctx == DISCARD && left == LEFT)
            return append(g, pop) < 0 ? -1 : NOTHING;
        return left;
    }
    if (statement(g, last) < 0)
        return -1;
    int is_return = PyObject_IsInstance(last, (PyObject *)kinds[K_RETURN].type);
    if (is_return < 0)
        return -1;
    if (ctx == VALUE && !is_return) {
        PyObject *none = PyObject_CallMethodNoArgs(g, s_push_unit);
        if (none == NULL)
            return -1;
        Py_DECREF(none);
        return LEFT;
    }
    return ctx == VALUE ? LEFT : NOTHING;
}

/* 1: emitted; 0: handed back, nothing emitted; -1: an exception */
static int
emit(PyObject *g, PyObject *e, int ctx)
{
    if (active >= C_NESTING)
        return HANDED_BACK;
    active++;
    int r = dispatch(g, e, ctx);
    active--;
    return r;
}

/* the context `ctx` names (-1 when `g` is not a _FnGen as this core reads them) */
static int
context(PyObject *g, PyObject *ctx)
{
    int c = ctx == ctx_obj[VALUE] ? VALUE : ctx == ctx_obj[DISCARD] ? DISCARD
            : ctx == ctx_obj[TAIL] ? TAIL : -1;
    if (!configured || Py_TYPE(g) != gen_type || c < 0)
        return -1;
    /* the slots this core reads must hold what _FnGen puts there */
    for (int s = 0; s < N_GEN; s++)
        if (GEN(g, s) == NULL)
            return -1;
    if (!PyList_CheckExact(GEN(g, G_CODE)) || !PyList_CheckExact(GEN(g, G_CONSTANTS))
            || !PyDict_CheckExact(GEN(g, G_NAMES)) || !PyList_CheckExact(GEN(g, G_LINES))
            || !PyList_CheckExact(GEN(g, G_CAPS)) || !PyDict_CheckExact(GEN(g, G_FN_IDS))
            || !PyDict_CheckExact(GEN(g, G_FIELD_SLOT)) || !PyLong_CheckExact(GEN(g, G_NEXT_LOCAL))
            || !PyList_CheckExact(GEN(g, G_TABLES)) || !PyDict_CheckExact(GEN(g, G_TYPE_IDS))
            || !PyList_CheckExact(GEN(g, G_TYPES)) || !PyList_CheckExact(GEN(g, G_MEMBER_NAMES))
            || (GEN(g, G_ARITIES) != Py_None && !PyDict_CheckExact(GEN(g, G_ARITIES))))
        return -1;
    return c;
}

/* 0 if an entry was given `n` arguments, else -1 with its TypeError */
static int
arguments(Py_ssize_t nargs, Py_ssize_t n, const char *usage)
{
    if (nargs == n)
        return 0;
    PyErr_Format(PyExc_TypeError, "_emit.%s takes %zd arguments", usage, n);
    return -1;
}

/* an entry's context: -2 (an exception: not three arguments), -1 (hand back), else ctx */
static int
entry(PyObject *const *args, Py_ssize_t nargs, const char *usage)
{
    if (arguments(nargs, 3, usage) < 0)
        return -2;
    return context(args[0], args[2]);
}

static PyObject *
stmts(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    int ctx = entry(args, nargs, "stmts(gen, stmts, ctx)");
    if (ctx == -2)
        return NULL;
    PyObject *g = args[0], *list = args[1];
    if (ctx < 0 || !PyList_CheckExact(list) || active >= C_NESTING)
        Py_RETURN_NONE;
    Py_INCREF(g);
    Py_INCREF(list);
    active++;
    int r = statements(g, list, ctx);
    active--;
    Py_DECREF(list);
    Py_DECREF(g);
    if (r < 0)
        return NULL;
    return PyBool_FromLong(r == LEFT);
}

static PyObject *
expr(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    int ctx = entry(args, nargs, "expr(gen, e, ctx)");
    if (ctx == -2)
        return NULL;
    PyObject *g = args[0];
    if (ctx < 0)
        Py_RETURN_NONE;
    Py_INCREF(g);
    int r = emit(g, args[1], ctx);
    Py_DECREF(g);
    if (r < 0)
        return NULL;
    if (r == HANDED_BACK)
        Py_RETURN_NONE;
    return PyBool_FromLong(r == LEFT);
}

/* ---- functions ------------------------------------------------------------------------ */

/* `_jumps_to(target)`: 1 if a jump or a match arm of the function lands on `target`, 0 if
 * none does, -1 on an exception; anything but the instruction tuples codegen emits asks the
 * Python method */
static int
jumps_to(PyObject *g, Py_ssize_t at)
{
    PyObject *target = PyLong_FromSsize_t(at);
    if (target == NULL)
        return -1;
    int found = 0;
    PyObject *code = GEN(g, G_CODE);
    for (Py_ssize_t i = 0; found == 0 && i < PyList_GET_SIZE(code); i++) {
        PyObject *ins = PyList_GET_ITEM(code, i);
        if (!PyTuple_CheckExact(ins) || PyTuple_GET_SIZE(ins) == 0) {
            found = 2;
            break;
        }
        PyObject *op = PyTuple_GET_ITEM(ins, 0);
        int jump = 0;
        for (int a = A_JMP; jump == 0 && a <= A_JMP_IF_NOT; a++)
            jump = PyObject_RichCompareBool(op, attr[a], Py_EQ);
        if (jump < 0) {
            found = -1;
        } else if (jump) {
            if (PyTuple_GET_SIZE(ins) < 2)
                found = 2;
            else
                found = PyObject_RichCompareBool(PyTuple_GET_ITEM(ins, 1), target, Py_EQ);
        }
    }
    PyObject *tables = GEN(g, G_TABLES);
    for (Py_ssize_t i = 0; found == 0 && i < PyList_GET_SIZE(tables); i++) {
        PyObject *table = PyList_GET_ITEM(tables, i);
        if (!PyList_CheckExact(table)) {
            found = 2;
            break;
        }
        for (Py_ssize_t k = 0; found == 0 && k < PyList_GET_SIZE(table); k++) {
            PyObject *to = PyObject_GetAttr(PyList_GET_ITEM(table, k), attr[A_TARGET]);
            if (to == NULL) {
                found = -1;
                break;
            }
            found = PyObject_RichCompareBool(to, target, Py_EQ);
            Py_DECREF(to);
        }
    }
    if (found == 2) {
        PyObject *r = PyObject_CallMethod(g, "_jumps_to", "O", target);
        found = r == NULL ? -1 : PyObject_IsTrue(r);
        Py_XDECREF(r);
    }
    Py_DECREF(target);
    return found;
}

/* `_FnGen(mod, fn).generate()` in Python */
static PyObject *
python_function(PyObject *mod, PyObject *fn)
{
    PyObject *g = PyObject_CallFunctionObjArgs((PyObject *)gen_type, mod, fn, NULL);
    if (g == NULL)
        return NULL;
    PyObject *f = PyObject_CallMethodNoArgs(g, attr[A_GENERATE]);
    Py_DECREF(g);
    return f;
}

/* the module's objects every _FnGen shares (as `_FnGen.__init__` reads them) */
enum { M_INFO, M_CONSTANTS, M_ARITIES, M_SHARED, M_LEAVES_MEMO, M_FN_IDS, M_FIELD_SLOT,
       M_TYPE_IDS, M_TYPES, M_MEMBER_NAMES, N_MOD };

/* set a fresh _FnGen's slot `s` to `value` (a new reference, stolen; NULL: fail) */
static int
put(PyObject *g, int s, PyObject *value)
{
    if (value == NULL)
        return -1;
    Py_XSETREF(GEN(g, s), value);
    return 0;
}

static inline PyObject *
new_ref(PyObject *o)
{
    Py_INCREF(o);
    return o;
}

/* FnDef `fn`'s field `i` (a new reference): its slot, or where that is unset `getattr(fn,
 * attr[a])`, which raises the AttributeError Python's emitter would */
static PyObject *
fn_field(PyObject *fn, int i, int a)
{
    PyObject *v = FIELD(fn, K_FN_DEF, i);
    if (v == NULL)
        return PyObject_GetAttr(fn, attr[a]);
    Py_INCREF(v);
    return v;
}

/* `_FnGen.__init__`: the parameters' slots, the line table's first entry, the capabilities */
static int
prologue(PyObject *g, PyObject *fn, PyObject *params)
{
    PyObject *names = GEN(g, G_NAMES);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(params); i++) {
        PyObject *param = PyList_GET_ITEM(params, i);
        PyObject *name = Py_TYPE(param) == kinds[K_PARAM].type ? FIELD(param, K_PARAM, 0) : NULL;
        if (name != NULL)
            Py_INCREF(name);
        else
            name = PyObject_GetAttr(param, attr[A_NAME]);
        PyObject *slot = name == NULL ? NULL : PyLong_FromSsize_t(i);
        int r = slot == NULL ? -1 : PyDict_SetItem(names, name, slot);
        Py_XDECREF(name);
        Py_XDECREF(slot);
        if (r < 0)
            return -1;
    }
    PyObject *line = fn_field(fn, FN_LINE, A_LINE);
    if (put(g, G_LAST_LINE, line) < 0 || put(g, G_LAST_COL, fn_field(fn, FN_COL, A_COL)) < 0)
        return -1;
    PyObject *col = GEN(g, G_LAST_COL);
    int any = PyObject_IsTrue(line);
    if (any == 0)
        any = PyObject_IsTrue(col);
    if (any < 0)
        return -1;
    PyObject *lines = any ? PyList_New(3) : PyList_New(0);
    if (lines != NULL && any) {
        PyList_SET_ITEM(lines, 0, PyLong_FromLong(0));
        PyList_SET_ITEM(lines, 1, new_ref(line));
        PyList_SET_ITEM(lines, 2, new_ref(col));
    }
    if (put(g, G_LINES, lines) < 0)
        return -1;
    PyObject *caps = fn_field(fn, FN_CAPABILITIES, A_CAPABILITIES);
    if (caps == NULL)
        return -1;
    if (PyList_CheckExact(caps) && PyList_GET_SIZE(caps) == 0) {
        Py_DECREF(caps);        /* the commonest case: no capability, nothing to look up */
        return 0;
    }
    PyObject *it = PyObject_GetIter(caps);
    Py_DECREF(caps);
    if (it == NULL)
        return -1;
    PyObject *name;
    while ((name = PyIter_Next(it)) != NULL) {
        PyObject *cap = PyObject_CallOneArg(from_source_name, name);
        Py_DECREF(name);
        int r = cap == NULL ? -1 : 0;
        if (cap != NULL && cap != Py_None) {
            PyObject *id = PyObject_GetAttr(cap, attr[A_ID]);
            r = id == NULL ? -1 : PyList_Append(GEN(g, G_CAPS), id);
            Py_XDECREF(id);
        }
        Py_XDECREF(cap);
        if (r < 0) {
            Py_DECREF(it);
            return -1;
        }
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

/* `generate()`'s body in TAIL context (a function without `ensures`) */
static int
body(PyObject *g, PyObject *fn)
{
    PyObject *block = fn_field(fn, FN_BODY, A_BODY), *list = NULL;
    if (block != NULL) {
        list = Py_TYPE(block) == kinds[K_BLOCK].type ? FIELD(block, K_BLOCK, 0) : NULL;
        if (list != NULL)
            Py_INCREF(list);
        else
            list = PyObject_GetAttr(block, attr[A_STMTS]);
        Py_DECREF(block);
    }
    if (list == NULL)
        return -1;
    int r;
    PyObject *first = PyList_CheckExact(list) && PyList_GET_SIZE(list) == 1
                      ? PyList_GET_ITEM(list, 0) : NULL;
    if (first != NULL && Py_TYPE(first) == kinds[K_EXPR_STMT].type) {
        PyObject *inner = FIELD(first, K_EXPR_STMT, 0);
        if (inner == NULL) {
            PyErr_SetString(PyExc_AttributeError, "_emit: an ExprStmt without its expr");
            r = -1;
        } else {
            r = sub_in(g, inner, TAIL);
        }
    } else if (PyList_CheckExact(list)) {
        active++;
        r = statements(g, list, TAIL);
        active--;
    } else {
        r = call_method(g, attr[A_STMTS_M], list, ctx_obj[TAIL]);
    }
    Py_DECREF(list);
    return r < 0 ? -1 : 0;
}

/* set slot `k` of a new Function `f` to `value` (a new reference, stolen; NULL: fail) */
static int
set_slot(PyObject *f, int k, PyObject *value)
{
    if (value == NULL)
        return -1;
    Py_XSETREF(*(PyObject **)((char *)f + function_offset[k]), value);
    return 0;
}

/* `generate()` after the body: the final Ret, the stubs, the Function */
static PyObject *
epilogue(PyObject *g, PyObject *fn, Py_ssize_t arity)
{
    PyObject *code = GEN(g, G_CODE);
    Py_ssize_t n = PyList_GET_SIZE(code);
    int need = n == 0;
    PyObject *last = need ? NULL : PyList_GET_ITEM(code, n - 1);
    if (last != NULL && last != ret) {      /* the shared Ret is equal to itself */
        /* `last != ("Ret",)`: a tuple of another length, or of one str, compared here */
        PyObject *op = PyTuple_CheckExact(last) && PyTuple_GET_SIZE(last) == 1
                       ? PyTuple_GET_ITEM(last, 0) : NULL;
        if (PyTuple_CheckExact(last) && PyTuple_GET_SIZE(last) != 1)
            need = 1;
        else if (op != NULL && PyUnicode_CheckExact(op))
            need = op != PyTuple_GET_ITEM(ret, 0)
                   && PyUnicode_Compare(op, PyTuple_GET_ITEM(ret, 0)) != 0;
        else
            need = PyObject_RichCompareBool(last, ret, Py_NE);
    }
    if (need == 0)
        need = jumps_to(g, n);
    if (need < 0 || (need && append(g, ret) < 0))
        return NULL;
    int stubs = PyObject_IsTrue(GEN(g, G_STUBS));
    if (stubs < 0 || (stubs && call_method(g, attr[A_PLACE_STUBS], NULL, NULL) < 0))
        return NULL;
    /* Function(name, arity, locals, code, capabilities, intent, match_tables, lines), its
     * slots written in their order without the dataclass __init__ (object.__new__'s alloc) */
    PyTypeObject *type = (PyTypeObject *)function_cls;
    PyObject *f = type->tp_alloc(type, 0);
    if (f == NULL)
        return NULL;
    if (set_slot(f, F_NAME, fn_field(fn, FN_NAME, A_NAME)) < 0
            || set_slot(f, F_ARITY, PyLong_FromSsize_t(arity)) < 0
            || set_slot(f, F_LOCALS, new_ref(GEN(g, G_NEXT_LOCAL))) < 0
            || set_slot(f, F_CODE, new_ref(GEN(g, G_CODE))) < 0
            || set_slot(f, F_CAPABILITIES, new_ref(GEN(g, G_CAPS))) < 0
            || set_slot(f, F_INTENT, fn_field(fn, FN_INTENT, A_INTENT)) < 0
            || set_slot(f, F_MATCH_TABLES, new_ref(GEN(g, G_TABLES))) < 0
            || set_slot(f, F_LINES, new_ref(GEN(g, G_LINES))) < 0)
        Py_CLEAR(f);
    return f;
}

/* 1 if FnDef `fn` must be generated in Python: `requires` or `ensures`, or more than 255
 * parameters (an error raised after its body) */
static int
python_only(PyObject *fn, PyObject *params)
{
    if (!PyList_CheckExact(params) || PyList_GET_SIZE(params) > MAX_ITEMS)
        return 1;
    for (int i = FN_REQUIRES; i <= FN_ENSURES; i++) {
        PyObject *clauses = fn_field(fn, i, A_REQUIRES + (i - FN_REQUIRES));
        int some = clauses == NULL ? -1 : PyList_CheckExact(clauses)
                   ? PyList_GET_SIZE(clauses) > 0 : PyObject_IsTrue(clauses);
        Py_XDECREF(clauses);
        if (some)
            return some;
    }
    return 0;
}

/* `_FnGen(mod, fn).generate()` here, or in Python where `python_only` says so */
static PyObject *
function(PyObject *mod, PyObject *fn, PyObject *const *shared)
{
    if (Py_TYPE(fn) != kinds[K_FN_DEF].type)
        return python_function(mod, fn);
    PyObject *params = fn_field(fn, FN_PARAMS, A_PARAMS);
    if (params == NULL)
        return NULL;
    int python = python_only(fn, params);
    if (python) {
        Py_DECREF(params);
        return python < 0 ? NULL : python_function(mod, fn);
    }
    PyObject *g = gen_type->tp_alloc(gen_type, 0), *f = NULL;
    if (g == NULL)
        goto done;
    static const int from_module[N_MOD] = {
        [M_INFO] = G_INFO, [M_CONSTANTS] = G_CONSTANTS, [M_ARITIES] = G_ARITIES,
        [M_SHARED] = G_SHARED, [M_LEAVES_MEMO] = G_LEAVES_MEMO, [M_FN_IDS] = G_FN_IDS,
        [M_FIELD_SLOT] = G_FIELD_SLOT, [M_TYPE_IDS] = G_TYPE_IDS, [M_TYPES] = G_TYPES,
        [M_MEMBER_NAMES] = G_MEMBER_NAMES,
    };
    for (int m = 0; m < N_MOD; m++)
        GEN(g, from_module[m]) = new_ref(shared[m]);
    GEN(g, G_FN) = new_ref(fn);
    GEN(g, G_UNIT_SLOT) = new_ref(Py_None);
    GEN(g, G_RETURN_JUMPS) = new_ref(Py_None);
    if (put(g, G_CODE, PyList_New(0)) < 0 || put(g, G_TABLES, PyList_New(0)) < 0
            || put(g, G_NAMES, PyDict_New()) < 0 || put(g, G_CAPS, PyList_New(0)) < 0
            || put(g, G_STUBS, PyList_New(0)) < 0
            || put(g, G_NEXT_LOCAL, PyLong_FromSsize_t(PyList_GET_SIZE(params))) < 0
            || prologue(g, fn, params) < 0 || body(g, fn) < 0)
        goto done;
    f = epilogue(g, fn, PyList_GET_SIZE(params));
done:
    Py_XDECREF(g);
    Py_DECREF(params);
    return f;
}

/* `functions(mod, fns)`: `[_FnGen(mod, f).generate() for f in fns]`, or None (handed back,
 * nothing generated) when `mod`'s tables are not those `_FnGen` reads */
static PyObject *
functions(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (arguments(nargs, 2, "functions(mod, fns)") < 0)
        return NULL;
    PyObject *mod = args[0], *fns = args[1];
    if (!configured || !PyList_CheckExact(fns) || active >= C_NESTING)
        Py_RETURN_NONE;
    PyObject *shared[N_MOD] = {NULL};
    PyObject *out = NULL;
    static const int mod_attr[N_MOD] = {
        [M_INFO] = A_INFO, [M_CONSTANTS] = A_CONSTANTS, [M_ARITIES] = A_ARITIES,
        [M_SHARED] = A_SHARED, [M_LEAVES_MEMO] = A_LEAVES_MEMO,
    };
    for (int m = 0; m < N_MOD; m++) {
        PyObject *owner = m < M_FN_IDS ? mod : shared[M_INFO];
        int a = m < M_FN_IDS ? mod_attr[m] : A_FN_IDS + (m - M_FN_IDS);
        shared[m] = PyObject_GetAttr(owner, attr[a]);
        if (shared[m] == NULL)
            goto done;
    }
    if (!PyList_CheckExact(shared[M_CONSTANTS]) || !PyDict_CheckExact(shared[M_FN_IDS])
            || !PyDict_CheckExact(shared[M_FIELD_SLOT]) || !PyDict_CheckExact(shared[M_TYPE_IDS])
            || !PyList_CheckExact(shared[M_TYPES]) || !PyList_CheckExact(shared[M_MEMBER_NAMES])
            || (shared[M_ARITIES] != Py_None && !PyDict_CheckExact(shared[M_ARITIES]))) {
        out = new_ref(Py_None);
        goto done;
    }
    Py_INCREF(fns);
    out = PyList_New(0);
    for (Py_ssize_t i = 0; out != NULL && i < PyList_GET_SIZE(fns); i++) {
        PyObject *fn = new_ref(PyList_GET_ITEM(fns, i));
        PyObject *f = function(mod, fn, shared);
        Py_DECREF(fn);
        if (f == NULL || PyList_Append(out, f) < 0)
            Py_CLEAR(out);
        Py_XDECREF(f);
    }
    Py_DECREF(fns);
done:
    for (int m = 0; m < N_MOD; m++)
        Py_XDECREF(shared[m]);
    return out;
}

/* `fn_tables(fns, arities)`: `_ModuleInfo`'s `{f.name: i for i, f in enumerate(fns)}`, and
 * with a dict `arities`, `arities[f.name] = len(f.params)` for each function in order (as
 * `arities.update` of the same comprehension); None, nothing written, when an item is not a
 * FnDef with its name and a list of parameters */
static PyObject *
fn_tables(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (arguments(nargs, 2, "fn_tables(fns, arities)") < 0)
        return NULL;
    PyObject *fns = args[0], *arities = args[1];
    if (!configured || !PyList_CheckExact(fns)
            || (arities != Py_None && !PyDict_CheckExact(arities)))
        Py_RETURN_NONE;
    Py_ssize_t n = PyList_GET_SIZE(fns);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *fn = PyList_GET_ITEM(fns, i);
        if (Py_TYPE(fn) != kinds[K_FN_DEF].type || FIELD(fn, K_FN_DEF, FN_NAME) == NULL
                || FIELD(fn, K_FN_DEF, FN_PARAMS) == NULL
                || !PyList_CheckExact(FIELD(fn, K_FN_DEF, FN_PARAMS)))
            Py_RETURN_NONE;
    }
    PyObject *ids = PyDict_New();
    for (Py_ssize_t i = 0; ids != NULL && i < n; i++) {
        PyObject *fn = PyList_GET_ITEM(fns, i);
        PyObject *name = FIELD(fn, K_FN_DEF, FN_NAME);
        PyObject *index = PyLong_FromSsize_t(i), *arity = NULL;
        int r = index == NULL ? -1 : PyDict_SetItem(ids, name, index);
        if (r == 0 && arities != Py_None) {
            arity = PyLong_FromSsize_t(PyList_GET_SIZE(FIELD(fn, K_FN_DEF, FN_PARAMS)));
            r = arity == NULL ? -1 : PyDict_SetItem(arities, name, arity);
        }
        Py_XDECREF(index);
        Py_XDECREF(arity);
        if (r < 0)
            Py_CLEAR(ids);
    }
    return ids;
}

/* ---- configure ------------------------------------------------------------------------ */

static int
slot_offset(PyObject *cls, const char *field, Py_ssize_t *out)
{
    PyObject *d = PyObject_GetAttrString(cls, field);
    if (d == NULL)
        return -1;
    int ok = Py_IS_TYPE(d, &PyMemberDescr_Type)
             && ((PyMemberDescrObject *)d)->d_member->type == T_OBJECT_EX;
    if (ok)
        *out = ((PyMemberDescrObject *)d)->d_member->offset;
    Py_DECREF(d);
    if (!ok) {
        PyErr_Format(PyExc_TypeError, "_emit.configure: %s.%s is not a slot",
                     ((PyTypeObject *)cls)->tp_name, field);
        return -1;
    }
    return 0;
}

static int
keep(PyObject **slot, PyObject *value)
{
    if (value == NULL)
        return -1;
    Py_INCREF(value);
    Py_XSETREF(*slot, value);
    return 0;
}

static int
tuple_of(PyObject *t, Py_ssize_t n, const char *what)
{
    if (!PyTuple_CheckExact(t) || PyTuple_GET_SIZE(t) < n) {
        PyErr_Format(PyExc_TypeError, "_emit.configure: %s is not a tuple of %zd", what, n);
        return -1;
    }
    return 0;
}

static PyObject *
configure(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *nodes, *gen, *shared;
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyDict_Type, &nodes, &PyType_Type, &gen,
                          &PyDict_Type, &shared))
        return NULL;
    configured = 0;
    /* each class's fields in their order (`__match_args__`, as the dataclass declares them);
     * `fields`: how many this core expects (it reads them by position) */
    static const struct { const char *name; int fields; } names[] = {
        [K_BINARY] = {"Binary", 5}, [K_UNARY] = {"Unary", 4}, [K_IDENT] = {"Ident", 3},
        [K_INT] = {"IntLit", 3}, [K_FLOAT] = {"FloatLit", 3}, [K_STRING] = {"StringLit", 3},
        [K_BOOL] = {"BoolLit", 3}, [K_NONE] = {"NoneLit", 2}, [K_CALL] = {"Call", 4},
        [K_FIELD] = {"FieldAccess", 4}, [K_LIST] = {"ListLit", 3}, [K_SOME] = {"SomeExpr", 3},
        [K_OK] = {"OkExpr", 3}, [K_ERR] = {"ErrExpr", 3}, [K_IF] = {"If", 5},
        [K_BLOCK] = {"Block", 3}, [K_EXPR_STMT] = {"ExprStmt", 3}, [K_LET] = {"Let", 6},
        [K_ASSIGN] = {"Assign", 4}, [K_RETURN] = {"Return", 3}, [K_MATCH] = {"Match", 4},
        [K_ARM] = {"MatchArm", 4}, [K_WILDCARD_PAT] = {"WildcardPat", 2},
        [K_IDENT_PAT] = {"IdentPat", 3}, [K_INT_PAT] = {"IntPat", 3},
        [K_STRING_PAT] = {"StringPat", 3}, [K_SOME_PAT] = {"SomePat", 3},
        [K_OK_PAT] = {"OkPat", 3}, [K_ERR_PAT] = {"ErrPat", 3},
        [K_VARIANT_PAT] = {"VariantPat", 4}, [K_RECORD] = {"RecordLit", 5},
        [K_ENUM_VARIANT] = {"EnumVariant", 5}, [K_WHILE] = {"While", 4}, [K_FOR] = {"For", 5},
        [K_FN_DEF] = {"FnDef", 13}, [K_PARAM] = {"Param", 4}, [K_BOOL_PAT] = {"BoolPat", 3},
        [K_NONE_PAT] = {"NonePat", 2},
    };
    for (int k = 0; k < N_KINDS; k++) {
        PyObject *cls = PyDict_GetItemString(nodes, names[k].name);
        if (cls == NULL || !PyType_Check(cls)) {
            PyErr_Format(PyExc_ValueError, "_emit.configure: no node class %s", names[k].name);
            return NULL;
        }
        PyObject *fields = PyObject_GetAttrString(cls, "__match_args__");
        if (fields == NULL)
            return NULL;
        int n = PyTuple_Check(fields) ? (int)PyTuple_GET_SIZE(fields) : -1;
        if (n != names[k].fields || n > MAX_FIELDS) {
            Py_DECREF(fields);
            PyErr_Format(PyExc_ValueError, "_emit.configure: %s has not %d fields",
                         names[k].name, names[k].fields);
            return NULL;
        }
        for (int i = 0; i < n; i++) {
            const char *field = PyUnicode_AsUTF8(PyTuple_GET_ITEM(fields, i));
            if (field == NULL || slot_offset(cls, field, &kinds[k].offset[i]) < 0) {
                Py_DECREF(fields);
                return NULL;
            }
        }
        Py_DECREF(fields);
        Py_INCREF(cls);
        Py_XSETREF(kinds[k].type, (PyTypeObject *)cls);
        kinds[k].nfields = n;
    }
    /* the literals share one layout: dispatch() reads their value at IntLit's offset */
    for (int k = K_FLOAT; k <= K_BOOL; k++)
        if (kinds[k].offset[0] != kinds[K_INT].offset[0]) {
            PyErr_SetString(PyExc_TypeError, "_emit.configure: literal layouts differ");
            return NULL;
        }
    static const char *const g_fields[N_GEN] = {
        [G_CODE] = "code", [G_CONSTANTS] = "constants", [G_NAMES] = "names",
        [G_LINES] = "lines", [G_LAST_LINE] = "last_line", [G_LAST_COL] = "last_col",
        [G_ARITIES] = "arities", [G_CAPS] = "caps", [G_FN_IDS] = "fn_ids",
        [G_FIELD_SLOT] = "field_slot", [G_SHARED] = "shared", [G_NEXT_LOCAL] = "next_local",
        [G_RETURN_JUMPS] = "return_jumps", [G_TABLES] = "tables", [G_TYPE_IDS] = "type_ids",
        [G_TYPES] = "types", [G_MEMBER_NAMES] = "member_names", [G_INFO] = "info",
        [G_FN] = "fn", [G_UNIT_SLOT] = "unit_slot", [G_STUBS] = "stubs",
        [G_LEAVES_MEMO] = "leaves_memo",
    };
    for (int s = 0; s < N_GEN; s++)
        if (slot_offset(gen, g_fields[s], &gen_offset[s]) < 0)
            return NULL;
    Py_INCREF(gen);
    Py_XSETREF(gen_type, (PyTypeObject *)gen);
    static const struct { const char *name; PyObject **slot; } tables[] = {
        {"bare", &bare}, {"load_local", &load_local}, {"make_list", &make_list},
        {"store_local", &store_local}, {"ret", &ret}, {"assign_error", &assign_error},
        {"fixed_tags", &fixed_tags}, {"pattern_binding", &pattern_binding},
        {"int_tag_limit", &int_tag_limit},
        {"make_some", &make_some}, {"make_ok", &make_ok}, {"make_err", &make_err},
        {"pop", &pop}, {"direct_calls", &direct_calls}, {"added_builtins", &added_builtins},
        {"none", &none_value}, {"fn_ref", &fn_ref}, {"value", &ctx_obj[VALUE]},
        {"from_source_name", &from_source_name}, {"function", &function_cls},
        {"leaves_value", &leaves_value}, {"any_arm", &any_arm},
        {"discard", &ctx_obj[DISCARD]}, {"tail", &ctx_obj[TAIL]},
    };
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        PyObject *v = PyDict_GetItemString(shared, tables[i].name);
        if (v == NULL) {
            PyErr_Format(PyExc_ValueError, "_emit.configure: no table %s", tables[i].name);
            return NULL;
        }
        if (keep(tables[i].slot, v) < 0)
            return NULL;
    }
    static const char *const f_fields[N_FUNCTION] = {
        [F_NAME] = "name", [F_ARITY] = "arity", [F_LOCALS] = "locals", [F_CODE] = "code",
        [F_CAPABILITIES] = "capabilities", [F_INTENT] = "intent",
        [F_MATCH_TABLES] = "match_tables", [F_LINES] = "lines",
    };
    if (!PyType_Check(function_cls)) {
        PyErr_SetString(PyExc_TypeError, "_emit.configure: function is not a class");
        return NULL;
    }
    for (int f = 0; f < N_FUNCTION; f++)
        if (slot_offset(function_cls, f_fields[f], &function_offset[f]) < 0)
            return NULL;
    if (!PyDict_CheckExact(bare) || !PyDict_CheckExact(direct_calls)
            || !PyDict_CheckExact(fixed_tags) || !PyLong_CheckExact(int_tag_limit)
            || !PyFrozenSet_CheckExact(added_builtins)) {
        PyErr_SetString(PyExc_TypeError, "_emit.configure: bare, direct_calls or "
                        "added_builtins of the wrong type");
        return NULL;
    }
    if (tuple_of(load_local, SHARED_SLOTS, "load_local") < 0
            || tuple_of(store_local, SHARED_SLOTS, "store_local") < 0
            || tuple_of(make_list, MAX_ITEMS + 1, "make_list") < 0)
        return NULL;
    if (!PyTuple_CheckExact(ret) || PyTuple_GET_SIZE(ret) != 1
            || !PyUnicode_CheckExact(PyTuple_GET_ITEM(ret, 0))) {
        PyErr_SetString(PyExc_TypeError, "_emit.configure: ret is not (op,)");
        return NULL;
    }
    Py_ssize_t it = 0;
    PyObject *k, *v;
    while (PyDict_Next(direct_calls, &it, &k, &v))
        if (tuple_of(v, 3, "a direct call") < 0)
            return NULL;
    static const struct { const char *text; PyObject **slot; } strings[] = {
        {"PushConst", &s_push_const}, {"LoadLocal", &s_load_local}, {"Call", &s_call},
        {"CallIndirect", &s_call_indirect}, {"GetField", &s_get_field},
        {"GetFieldNamed", &s_get_field_named}, {"expr", &s_expr}, {"block", &s_block},
        {"push_unit", &s_push_unit}, {"jmp", &s_jmp}, {"jmp_if_not", &s_jmp_if_not},
        {"StoreLocal", &s_store_local}, {"stmt", &s_stmt}, {"match", &s_match},
        {"arms", &s_arms}, {"pattern_tags", &s_pattern_tags}, {"match_chain", &s_match_chain},
        {"match_nested", &s_match_nested}, {"MakeRecord", &s_make_record},
        {"MakeEnum", &s_make_enum}, {"kind", &s_kind}, {"Record", &s_record}, {"Enum", &s_enum},
        {"Jmp", &s_jmp_op}, {"JmpIfNot", &s_jmp_if_not_op}, {"ListLen", &s_list_len},
        {"Lt", &s_lt}, {"ListGet", &s_list_get}, {"Add", &s_add},
        {"inner_pattern", &s_inner_pattern}, {"Eq", &s_eq}, {"jump", &s_jump}, {"arm", &s_arm},
        {"Match", &s_match_op},
    };
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        PyObject *s = PyUnicode_InternFromString(strings[i].text);
        if (s == NULL)
            return NULL;
        Py_XSETREF(*strings[i].slot, s);
    }
    static const char *const attr_names[N_ATTRS] = {
        [A_NAME] = "name", [A_PARAMS] = "params", [A_CAPABILITIES] = "capabilities",
        [A_INTENT] = "intent", [A_REQUIRES] = "requires", [A_ENSURES] = "ensures",
        [A_BODY] = "body", [A_STMTS] = "stmts", [A_LINE] = "line", [A_COL] = "col",
        [A_ID] = "id", [A_INFO] = "info", [A_CONSTANTS] = "constants", [A_ARITIES] = "arities",
        [A_SHARED] = "shared", [A_LEAVES_MEMO] = "leaves_memo", [A_FN_IDS] = "fn_ids",
        [A_FIELD_SLOT] = "field_slot", [A_TYPE_IDS] = "type_ids", [A_TYPES] = "types",
        [A_MEMBER_NAMES] = "member_names", [A_ARITY] = "arity", [A_LOCALS] = "locals",
        [A_CODE] = "code", [A_CAPS_OUT] = "capabilities", [A_MATCH_TABLES] = "match_tables",
        [A_LINES] = "lines", [A_TARGET] = "target", [A_GENERATE] = "generate",
        [A_PLACE_STUBS] = "place_stubs", [A_STMTS_M] = "stmts", [A_JMP] = "Jmp",
        [A_JMP_IF] = "JmpIf", [A_JMP_IF_NOT] = "JmpIfNot",
    };
    for (int i = 0; i < N_ATTRS; i++) {
        PyObject *s = PyUnicode_InternFromString(attr_names[i]);
        if (s == NULL)
            return NULL;
        Py_XSETREF(attr[i], s);
    }
    PyObject *zero = PyLong_FromLong(0);
    PyObject *jmp = PyUnicode_InternFromString("Jmp");
    PyObject *jmp_if_not = PyUnicode_InternFromString("JmpIfNot");
    if (zero == NULL || jmp == NULL || jmp_if_not == NULL) {
        Py_XDECREF(zero);
        Py_XDECREF(jmp);
        Py_XDECREF(jmp_if_not);
        return NULL;
    }
    Py_XSETREF(jmp_0, PyTuple_Pack(2, jmp, zero));
    Py_XSETREF(jmp_if_not_0, PyTuple_Pack(2, jmp_if_not, zero));
    Py_DECREF(zero);
    Py_DECREF(jmp);
    Py_DECREF(jmp_if_not);
    if (jmp_0 == NULL || jmp_if_not_0 == NULL)
        return NULL;
    configured = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS,
     "configure(nodes, gen, shared): the node classes by name, codegen._FnGen, and a dict of\n"
     "codegen's shared instructions and tables (bare, load_local, make_list, make_some,\n"
     "make_ok, make_err, pop, store_local, ret, direct_calls, added_builtins, none, fn_ref,\n"
     "assign_error, fixed_tags, pattern_binding, int_tag_limit) and contexts (value,\n"
     "discard, tail); call once before expr() and stmts()."},
    {"expr", (PyCFunction)(void (*)(void))expr, METH_FASTCALL,
     "expr(gen, e, ctx) -> gen.expr(e, ctx)'s answer when it emitted the code of expression e\n"
     "into gen (a _FnGen) as that would, None when it emitted nothing and hands e back."},
    {"stmts", (PyCFunction)(void (*)(void))stmts, METH_FASTCALL,
     "stmts(gen, stmts, ctx) -> gen.stmts(stmts, ctx)'s answer when it emitted the code of\n"
     "the statements as that would, None when it emitted nothing and hands them back."},
    {"functions", (PyCFunction)(void (*)(void))functions, METH_FASTCALL,
     "functions(mod, fns) -> [codegen._FnGen(mod, f).generate() for f in fns], each function\n"
     "generated here (its body by this core's expr and stmts) or, with `requires`, `ensures`\n"
     "or more than 255 parameters, in Python; None when it generated nothing."},
    {"fn_tables", (PyCFunction)(void (*)(void))fn_tables, METH_FASTCALL,
     "fn_tables(fns, arities) -> {f.name: i for i, f in enumerate(fns)}, with\n"
     "arities[f.name] = len(f.params) for each function when arities is a dict; None when\n"
     "an item is not a FnDef with its name and a list of parameters."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "boruna.bytecode._emit",
    "Codegen's core in C for the commonest expressions and statements (see codegen.py).",
    -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__emit(void)
{
    return PyModule_Create(&module_def);
}
