/* The parser's core in C: `boruna.language._exprs`.
 *
 * `parse(kinds, values, lines, cols, pos, min_prec, depth)` parses one expression of
 * docs/spec/language.md §2.8 from the token stream's four lists, starting at token `pos`, as
 * `parser._Parser.parse_expr(min_prec)` would with `self.depth == depth`, and returns
 * `(node, end)`: the same node objects (`ast.Binary`, `ast.Ident`, ...) and the index just past
 * the expression's last token. `parse_block(kinds, values, lines, cols, pos, depth)` does the
 * same for `parse_block()`, and `parse_items(kinds, values, lines, cols, pos, depth, items)`
 * runs `parse_program()`'s loop, appending each item to `items`. Covered: the operators,
 * identifiers, literals, parentheses, `Some`/`Ok`/`Err`, variant paths, record and list
 * literals, calls and field accesses, `if`, `match` with every pattern, block expressions,
 * blocks with every statement (`let` with its type, assignments, `return`, `while`, `for`,
 * expression statements), and items. At anything else (`spawn`, `send`, `emit`, `receive`, a
 * syntax error, nesting near MAX_DEPTH or deeper than C_NESTING) it builds nothing and returns
 * the index of the token where it stopped; the Python parser then parses that expression,
 * block or item itself, so every tree, error, line and column stays the parser's
 * (tests/test_compiler_equivalence.py runs the old Python descent
 * as the oracle; tests/language/test_exprs.py compares the parser with and without this).
 *
 * Nothing of the grammar's tables is written here: `configure(...)` hands over parser.py's
 * binary and prefix operator tables, the token kinds (the very str objects the scanner pushes,
 * compared by identity) and the node classes, whose slots are written through their member
 * descriptors' offsets, as `object.__new__(cls)` and setting every field would.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

/* how deep this C code recurses before it hands the expression back (a few kB of C stack) */
#define C_NESTING 400
#define MAX_OPS 32
#if defined(__GNUC__) || defined(__clang__)
#define NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define NOINLINE __declspec(noinline)
#else
#define NOINLINE
#endif

/* ---- the tables, from configure() ---------------------------------------------------- */

static PyObject *k_ident, *k_int, *k_float, *k_string, *k_newline, *k_eof;
static PyObject *k_lparen, *k_rparen, *k_lbracket, *k_rbracket, *k_comma, *k_dot;
static PyObject *k_dotdot, *k_colon, *k_rbrace, *k_coloncolon, *k_lbrace;
static PyObject *k_true, *k_false, *k_none, *k_some, *k_ok, *k_err;
static PyObject *k_let, *k_mut, *k_return, *k_while, *k_for, *k_in, *k_if, *k_else, *k_match;
static PyObject *k_eq, *k_fatarrow, *k_underscore, *k_lt, *k_gt, *k_arrow, *k_bang;
static PyObject *k_fn, *k_type, *k_enum, *k_import, *k_export, *k_intent, *k_requires;
static PyObject *k_ensures;

static int n_binary, n_prefix;
static PyObject *binary_kind[MAX_OPS], *binary_op[MAX_OPS];
static long binary_prec[MAX_OPS];
static PyObject *prefix_kind[MAX_OPS], *prefix_op[MAX_OPS];
static long max_depth = -1;

/* object address -> small index, open addressing (the operator kinds, the expression
   classes): a lookup of a key that is not there stops at the first empty slot */
#define PMAP_SIZE 128
typedef struct {
    const void *key;
    int value;
} PSlot;
static PSlot binary_map[PMAP_SIZE], prefix_map[PMAP_SIZE], expr_class_map[PMAP_SIZE];

static inline size_t
pmap_hash(const void *key)
{
    return ((uintptr_t)key >> 4) & (PMAP_SIZE - 1);
}

static inline int
pmap_get(const PSlot *map, const void *key)
{
    for (size_t h = pmap_hash(key); map[h].key != NULL; h = (h + 1) & (PMAP_SIZE - 1))
        if (map[h].key == key)
            return map[h].value;
    return -1;
}

/* the first `value` stays for a key put twice (as the linear scans it replaces found it) */
static int
pmap_put(PSlot *map, const void *key, int value)
{
    size_t h = pmap_hash(key);
    for (int tries = 0; tries < PMAP_SIZE; tries++, h = (h + 1) & (PMAP_SIZE - 1)) {
        if (map[h].key == key)
            return 0;
        if (map[h].key == NULL) {
            map[h].key = key;
            map[h].value = value;
            return 0;
        }
    }
    PyErr_SetString(PyExc_ValueError, "_exprs.configure: too many entries");
    return -1;
}

/* one node class: its type and the offsets of its slots, in field order */
#define MAX_FIELDS 13
typedef struct {
    PyTypeObject *type;
    int nfields;
    Py_ssize_t offset[MAX_FIELDS];
} NodeClass;
enum {
    /* expressions (node_pos() reads their positions) */
    C_BINARY, C_UNARY, C_IDENT, C_INT, C_FLOAT, C_STRING, C_BOOL, C_NONE, C_CALL, C_FIELD,
    C_LIST, C_SOME, C_OK, C_ERR, C_VARIANT, C_RECORD, C_IF, C_MATCH, C_BLOCK_EXPR, N_EXPRS,
    /* blocks and statements */
    C_BLOCK = N_EXPRS, C_LET, C_ASSIGN, C_EXPR_STMT, C_RETURN, C_WHILE, C_FOR,
    /* match arms and patterns */
    C_ARM, C_WILDCARD_PAT, C_IDENT_PAT, C_INT_PAT, C_STRING_PAT, C_BOOL_PAT, C_NONE_PAT,
    C_SOME_PAT, C_OK_PAT, C_ERR_PAT, C_VARIANT_PAT,
    /* types */
    C_NAMED, C_OPTION_TYPE, C_RESULT_TYPE, C_LIST_TYPE, C_MAP_TYPE, C_FN_TYPE,
    /* items */
    C_PARAM, C_FN_DEF, C_RECORD_KIND, C_ENUM_KIND, C_TYPE_DEF, C_IMPORT_DEF,
    N_CLASSES
};
static NodeClass classes[N_CLASSES];
static int configured = 0;

/* ---- one parse ------------------------------------------------------------------------ */

typedef struct {
    PyObject **kinds, **values, **lines, **cols;
    Py_ssize_t n;       /* tokens; kind() reads EOF past the end */
    Py_ssize_t stop;    /* where the parse handed back (a bail), else -1 */
} P;

static inline PyObject *
kind(P *ps, Py_ssize_t i)
{
    return i < ps->n ? ps->kinds[i] : k_eof;
}

static inline Py_ssize_t
skip_newline(P *ps, Py_ssize_t i)
{
    return kind(ps, i) == k_newline ? i + 1 : i;
}

/* a new node of class `c` with its fields, each a new reference stolen (NULL: fail) */
static PyObject *
node_n(int c, PyObject **fields)
{
    NodeClass *cls = &classes[c];
    PyObject *obj = NULL;
    for (int k = 0; k < cls->nfields; k++)
        if (fields[k] == NULL)
            goto fail;
    obj = cls->type->tp_alloc(cls->type, 0);
    if (obj == NULL)
        goto fail;
    for (int k = 0; k < cls->nfields; k++)
        *(PyObject **)((char *)obj + cls->offset[k]) = fields[k];
    return obj;
fail:
    for (int k = 0; k < cls->nfields; k++)
        Py_XDECREF(fields[k]);
    return NULL;
}

static PyObject *
node6(int c, PyObject *f0, PyObject *f1, PyObject *f2, PyObject *f3, PyObject *f4,
      PyObject *f5)
{
    PyObject *fields[MAX_FIELDS] = {f0, f1, f2, f3, f4, f5};
    return node_n(c, fields);
}

#define node(c, f0, f1, f2, f3, f4) node6(c, f0, f1, f2, f3, f4, NULL)
#define NEW(o) (Py_INCREF(o), (o))
#define LINE(i) NEW(ps->lines[i])
#define COL(i) NEW(ps->cols[i])

/* node `n`'s line (`back` 2) or col (`back` 1), its last two fields: a borrowed reference */
static PyObject *
node_pos(PyObject *n, int back)
{
    int c = pmap_get(expr_class_map, Py_TYPE(n));
    if (c < 0)
        return NULL;
    return *(PyObject **)((char *)n + classes[c].offset[classes[c].nfields - back]);
}

/* the bail: NULL with no Python error set, `ps->stop` the token where it stopped */
static PyObject *
bail(P *ps, Py_ssize_t at)
{
    if (ps->stop < 0)
        ps->stop = at;
    return NULL;
}

static PyObject *expr(P *ps, Py_ssize_t *pos, long min_prec, long depth, int nest);
static PyObject *block(P *ps, Py_ssize_t *pos, long depth, int nest);
static PyObject *if_expr(P *ps, Py_ssize_t *pos, Py_ssize_t at, long depth, int nest);
static PyObject *match_expr(P *ps, Py_ssize_t *pos, Py_ssize_t at, long depth, int nest);

/* `expect(kind)`: the index of that token past one Newline, or -1 */
static inline Py_ssize_t
expect(P *ps, Py_ssize_t *pos, PyObject *k)
{
    Py_ssize_t p = skip_newline(ps, *pos);
    if (kind(ps, p) != k)
        return -1;
    *pos = p + 1;
    return p;
}

/* an expression and the `)` after it, from `*pos` on (just past the `(`) */
static PyObject *
closed(P *ps, Py_ssize_t *pos, long depth, int nest)
{
    Py_ssize_t q = *pos;
    PyObject *inner = expr(ps, &q, 1, depth, nest);
    if (inner == NULL)
        return NULL;
    if (expect(ps, &q, k_rparen) < 0) {
        Py_DECREF(inner);
        return bail(ps, q);
    }
    *pos = q;
    return inner;
}

/* a list of expressions up to `close` (a call's arguments: no trailing comma; a list
 * literal's items: a trailing comma allowed), `*pos` just past the opener */
static PyObject *
expr_list(P *ps, Py_ssize_t *pos, PyObject *close, int trailing, long depth, int nest)
{
    PyObject *items = PyList_New(0);
    if (items == NULL)
        return NULL;
    Py_ssize_t q = *pos;
    for (;;) {
        Py_ssize_t r = skip_newline(ps, q);
        if (kind(ps, r) == close) {
            *pos = r + 1;
            return items;
        }
        if (PyList_GET_SIZE(items) > 0) {
            if (kind(ps, r) != k_comma) {
                Py_DECREF(items);
                return bail(ps, r);
            }
            q = r + 1;
            if (trailing) {
                r = skip_newline(ps, q);
                if (kind(ps, r) == close) {
                    *pos = r + 1;
                    return items;
                }
            }
        }
        PyObject *item = expr(ps, &q, 1, depth, nest);
        if (item == NULL || PyList_Append(items, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(items);
            return NULL;
        }
        Py_DECREF(item);
    }
}

/* a record literal `Name { ..spread, field: value, ... }`: `p` its name, `q` past the `{` */
static NOINLINE PyObject *
record(P *ps, Py_ssize_t *pos, Py_ssize_t at, Py_ssize_t q, long depth, int nest)
{
    PyObject *spread = NULL, *fields = PyList_New(0);
    if (fields == NULL)
        return NULL;
    Py_ssize_t p = skip_newline(ps, q);
    if (kind(ps, p) == k_dotdot) {
        q = p + 1;
        if ((spread = expr(ps, &q, 1, depth, nest)) == NULL)
            goto fail;
        p = skip_newline(ps, q);
        if (kind(ps, p) == k_comma)
            p = skip_newline(ps, p + 1);
    }
    while (kind(ps, p) != k_rbrace) {
        if (PyList_GET_SIZE(fields) > 0) {
            if (kind(ps, p) != k_comma) {
                bail(ps, p);
                goto fail;
            }
            p = skip_newline(ps, p + 1);
            if (kind(ps, p) == k_rbrace)
                break;
        }
        Py_ssize_t name = p;
        if (kind(ps, name) != k_ident) {
            bail(ps, p);
            goto fail;
        }
        p = skip_newline(ps, name + 1);
        if (kind(ps, p) != k_colon) {
            bail(ps, p);
            goto fail;
        }
        q = p + 1;
        PyObject *value = expr(ps, &q, 1, depth, nest);
        if (value == NULL)
            goto fail;
        PyObject *pair = PyTuple_Pack(2, ps->values[name], value);
        Py_DECREF(value);
        if (pair == NULL || PyList_Append(fields, pair) < 0) {
            Py_XDECREF(pair);
            goto fail;
        }
        Py_DECREF(pair);
        p = skip_newline(ps, q);
    }
    *pos = p + 1;
    if (spread == NULL) {
        spread = Py_None;
        Py_INCREF(spread);
    }
    return node(C_RECORD, NEW(ps->values[at]), fields, spread, LINE(at), COL(at));
fail:
    Py_XDECREF(spread);
    Py_DECREF(fields);
    return NULL;
}

static PyObject *
primary(P *ps, Py_ssize_t *pos, long depth, int nest)
{
    Py_ssize_t p = skip_newline(ps, *pos);
    PyObject *k = kind(ps, p);
    if (k == k_ident) {
        Py_ssize_t r = skip_newline(ps, p + 1);
        PyObject *after = kind(ps, r);
        PyObject *name = ps->values[p];
        if (!PyUnicode_Check(name))
            return bail(ps, p);
        if (after == k_coloncolon) {    /* a variant path: `Enum::Variant` or `(payload)` */
            Py_ssize_t q = r + 1;
            Py_ssize_t v = expect(ps, &q, k_ident);
            if (v < 0)
                return bail(ps, q);
            PyObject *payload = Py_None;
            Py_INCREF(payload);
            Py_ssize_t open = skip_newline(ps, q);
            if (kind(ps, open) == k_lparen) {
                q = open + 1;
                Py_DECREF(payload);
                if ((payload = closed(ps, &q, depth, nest)) == NULL)
                    return NULL;
            }
            *pos = q;
            return node(C_VARIANT, NEW(name), NEW(ps->values[v]), payload, LINE(p), COL(p));
        }
        if (after == k_lbrace && PyUnicode_GET_LENGTH(name) > 0) {
            Py_UCS4 first = PyUnicode_READ_CHAR(name, 0);
            if (first >= 'A' && first <= 'Z')
                return record(ps, pos, p, r + 1, depth, nest);
        }
        *pos = p + 1;
        return node(C_IDENT, NEW(name), LINE(p), COL(p), NULL, NULL);
    }
    if (k == k_int || k == k_float || k == k_string) {
        *pos = p + 1;
        return node(k == k_int ? C_INT : k == k_float ? C_FLOAT : C_STRING,
                    NEW(ps->values[p]), LINE(p), COL(p), NULL, NULL);
    }
    if (k == k_true || k == k_false) {
        *pos = p + 1;
        return node(C_BOOL, NEW(k == k_true ? Py_True : Py_False), LINE(p), COL(p), NULL, NULL);
    }
    if (k == k_none) {
        *pos = p + 1;
        return node(C_NONE, LINE(p), COL(p), NULL, NULL, NULL);
    }
    if (k == k_lparen) {
        *pos = p + 1;
        return closed(ps, pos, depth, nest);
    }
    if (k == k_some || k == k_ok || k == k_err) {
        Py_ssize_t q = p + 1;
        if (expect(ps, &q, k_lparen) < 0)
            return bail(ps, p);
        PyObject *inner = closed(ps, &q, depth, nest);
        if (inner == NULL)
            return NULL;
        *pos = q;
        return node(k == k_some ? C_SOME : k == k_ok ? C_OK : C_ERR, inner, LINE(p), COL(p),
                    NULL, NULL);
    }
    if (k == k_lbracket) {
        Py_ssize_t q = p + 1;
        PyObject *items = expr_list(ps, &q, k_rbracket, 1, depth, nest);
        if (items == NULL)
            return NULL;
        *pos = q;
        return node(C_LIST, items, LINE(p), COL(p), NULL, NULL);
    }
    if (k == k_if)
        return if_expr(ps, pos, p, depth, nest);
    if (k == k_match)
        return match_expr(ps, pos, p, depth, nest);
    if (k == k_lbrace) {
        Py_ssize_t q = p;
        PyObject *body = block(ps, &q, depth, nest);
        if (body == NULL)
            return NULL;
        *pos = q;
        return node(C_BLOCK_EXPR, body, LINE(p), COL(p), NULL, NULL);
    }
    return bail(ps, p);     /* spawn, send, emit, receive, or not an expression */
}

static inline long
binary_entry(PyObject *k, PyObject **op)
{
    int i = pmap_get(binary_map, k);
    if (i < 0)
        return 0;
    *op = binary_op[i];
    return binary_prec[i];
}

static inline PyObject *
prefix_entry(PyObject *k)
{
    int i = pmap_get(prefix_map, k);
    return i < 0 ? NULL : prefix_op[i];
}

/* `left` under the `n` prefix operators from token `start` on, innermost (the last) first;
 * out of line, so that expr()'s frame stays small */
static NOINLINE PyObject *
prefixed(P *ps, PyObject *left, Py_ssize_t start, Py_ssize_t n)
{
    Py_ssize_t *at = PyMem_Malloc(n * sizeof(Py_ssize_t));
    if (at == NULL) {
        Py_DECREF(left);
        PyErr_NoMemory();
        return NULL;
    }
    Py_ssize_t i = 0, r = start;
    while (i < n) {
        at[i++] = r;
        r = skip_newline(ps, r + 1);
    }
    while (i-- > 0 && left != NULL)
        left = node(C_UNARY, NEW(prefix_entry(ps->kinds[at[i]])), left, LINE(at[i]), COL(at[i]),
                    NULL);
    PyMem_Free(at);
    return left;
}

/* parser._Parser.parse_expr(min_prec) with self.depth == depth; the same depth rules */
static PyObject *
expr(P *ps, Py_ssize_t *pos, long min_prec, long depth, int nest)
{
    if (++nest > C_NESTING || depth + 1 > max_depth)
        return bail(ps, *pos);
    long spine = depth + 1;
    Py_ssize_t p = skip_newline(ps, *pos);
    Py_ssize_t prefix_start = p, nprefix = 0;
    while (prefix_entry(kind(ps, p)) != NULL) {
        nprefix++;
        p = skip_newline(ps, p + 1);
    }
    long operand = spine + nprefix;
    if (operand > max_depth)
        return bail(ps, p);
    Py_ssize_t q = p;
    PyObject *left = primary(ps, &q, operand, nest);
    if (left == NULL)
        return NULL;
    /* a call, a field access and a binary operation sit where their left operand does: the
     * primary's position, or the first prefix operator's (borrowed: `left` holds them) */
    PyObject *line = node_pos(left, 2), *col = node_pos(left, 1);
    for (;;) {      /* calls and field accesses */
        p = skip_newline(ps, q);
        PyObject *k = kind(ps, p);
        if (k != k_lparen && k != k_dot)
            break;
        if (++operand > max_depth) {
            Py_DECREF(left);
            return bail(ps, p);
        }
        q = p + 1;
        if (k == k_lparen) {
            PyObject *args = expr_list(ps, &q, k_rparen, 0, operand, nest);
            if (args == NULL) {
                Py_DECREF(left);
                return NULL;
            }
            left = node(C_CALL, left, args, NEW(line), NEW(col), NULL);
        } else {
            Py_ssize_t f = expect(ps, &q, k_ident);
            if (f < 0) {
                Py_DECREF(left);
                return bail(ps, q);
            }
            left = node(C_FIELD, left, NEW(ps->values[f]), NEW(line), NEW(col), NULL);
        }
        if (left == NULL)
            return NULL;
    }
    if (nprefix > 0) {
        if ((left = prefixed(ps, left, prefix_start, nprefix)) == NULL)
            return NULL;
        line = ps->lines[prefix_start];
        col = ps->cols[prefix_start];
    }
    PyObject *op = NULL;
    long prec = binary_entry(kind(ps, p), &op);
    while (prec >= min_prec && prec > 0) {
        if (++spine > max_depth) {
            Py_DECREF(left);
            return bail(ps, p);
        }
        q = p + 1;
        PyObject *right = expr(ps, &q, prec + 1, spine, nest);
        if (right == NULL) {
            Py_DECREF(left);
            return NULL;
        }
        left = node(C_BINARY, NEW(op), left, right, NEW(line), NEW(col));
        if (left == NULL)
            return NULL;
        p = skip_newline(ps, q);
        prec = binary_entry(kind(ps, p), &op);
    }
    *pos = q;
    return left;
}

/* ---- if, match, blocks and statements, patterns, types -------------------------------- */

static PyObject *pattern(P *ps, Py_ssize_t *pos, long depth, int nest, Py_ssize_t *at);
static PyObject *type_expr(P *ps, Py_ssize_t *pos, long depth, int nest, int returned);

/* `if cond { ... } else { ... }` at token `at` (parse_primary's `if`), at `depth` */
static NOINLINE PyObject *
if_expr(P *ps, Py_ssize_t *pos, Py_ssize_t at, long depth, int nest)
{
    Py_ssize_t q = at + 1;
    PyObject *condition = expr(ps, &q, 1, depth, nest);
    if (condition == NULL)
        return NULL;
    PyObject *then_block = block(ps, &q, depth, nest);
    if (then_block == NULL) {
        Py_DECREF(condition);
        return NULL;
    }
    PyObject *else_block = Py_None;
    Py_INCREF(else_block);
    Py_ssize_t r = skip_newline(ps, q);
    if (kind(ps, r) == k_else) {
        q = r + 1;
        Py_DECREF(else_block);
        if ((else_block = block(ps, &q, depth, nest)) == NULL) {
            Py_DECREF(condition);
            Py_DECREF(then_block);
            return NULL;
        }
    }
    *pos = q;
    return node(C_IF, condition, then_block, else_block, LINE(at), COL(at));
}

/* `match value { pattern => body, ... }` at token `at` (parse_match), at `depth` */
static NOINLINE PyObject *
match_expr(P *ps, Py_ssize_t *pos, Py_ssize_t at, long depth, int nest)
{
    Py_ssize_t q = at + 1;
    PyObject *value = expr(ps, &q, 1, depth, nest);
    if (value == NULL)
        return NULL;
    PyObject *arms = NULL;
    if (expect(ps, &q, k_lbrace) < 0) {
        bail(ps, q);
        goto fail;
    }
    if ((arms = PyList_New(0)) == NULL)
        goto fail;
    for (;;) {
        Py_ssize_t r = skip_newline(ps, q);
        if (kind(ps, r) == k_rbrace) {
            q = r + 1;
            break;
        }
        q = r;
        Py_ssize_t start;
        PyObject *pat = pattern(ps, &q, depth, nest, &start);
        if (pat == NULL)
            goto fail;
        if (expect(ps, &q, k_fatarrow) < 0) {
            Py_DECREF(pat);
            bail(ps, q);
            goto fail;
        }
        PyObject *body = expr(ps, &q, 1, depth, nest);
        if (body == NULL) {
            Py_DECREF(pat);
            goto fail;
        }
        PyObject *arm = node(C_ARM, pat, body, LINE(start), COL(start), NULL);
        if (arm == NULL || PyList_Append(arms, arm) < 0) {
            Py_XDECREF(arm);
            goto fail;
        }
        Py_DECREF(arm);
        r = skip_newline(ps, q);
        if (kind(ps, r) == k_comma)
            q = r + 1;
    }
    *pos = q;
    return node(C_MATCH, value, arms, LINE(at), COL(at), NULL);
fail:
    Py_DECREF(value);
    Py_XDECREF(arms);
    return NULL;
}

static inline int
capitalized(PyObject *name)
{
    if (PyUnicode_GET_LENGTH(name) == 0)
        return 0;
    Py_UCS4 first = PyUnicode_READ_CHAR(name, 0);
    return first >= 'A' && first <= 'Z';
}

/* parse_pattern() with self.depth == depth; `*at` is the pattern's first token */
static PyObject *
pattern(P *ps, Py_ssize_t *pos, long depth, int nest, Py_ssize_t *at)
{
    if (++nest > C_NESTING || ++depth > max_depth)
        return bail(ps, *pos);
    Py_ssize_t p = skip_newline(ps, *pos);
    *at = p;
    PyObject *k = kind(ps, p);
    int c = -1;
    PyObject *value = NULL;     /* the one field before line and col, if any */
    Py_ssize_t end = p + 1;
    if (k == k_ident) {
        PyObject *name = ps->values[p];
        if (!PyUnicode_Check(name))
            return bail(ps, p);
        if (!capitalized(name)) {
            *pos = end;
            return node(C_IDENT_PAT, NEW(name), LINE(p), COL(p), NULL, NULL);
        }
        PyObject *inner = Py_None;
        Py_INCREF(inner);
        Py_ssize_t q = skip_newline(ps, end);
        if (kind(ps, q) == k_lparen) {
            q++;
            Py_ssize_t sub;
            Py_DECREF(inner);
            if ((inner = pattern(ps, &q, depth, nest, &sub)) == NULL)
                return NULL;
            if (expect(ps, &q, k_rparen) < 0) {
                Py_DECREF(inner);
                return bail(ps, q);
            }
            end = q;
        }
        *pos = end;
        return node(C_VARIANT_PAT, NEW(name), inner, LINE(p), COL(p), NULL);
    }
    if (k == k_some || k == k_ok || k == k_err) {
        Py_ssize_t q = skip_newline(ps, end);
        if (kind(ps, q) != k_lparen)
            return bail(ps, q);
        q++;
        Py_ssize_t sub;
        PyObject *inner = pattern(ps, &q, depth, nest, &sub);
        if (inner == NULL)
            return NULL;
        if (expect(ps, &q, k_rparen) < 0) {
            Py_DECREF(inner);
            return bail(ps, q);
        }
        *pos = q;
        return node(k == k_some ? C_SOME_PAT : k == k_ok ? C_OK_PAT : C_ERR_PAT, inner,
                    LINE(p), COL(p), NULL, NULL);
    }
    if (k == k_underscore)
        c = C_WILDCARD_PAT;
    else if (k == k_none)
        c = C_NONE_PAT;
    else if (k == k_int)
        c = C_INT_PAT, value = ps->values[p];
    else if (k == k_string)
        c = C_STRING_PAT, value = ps->values[p];
    else if (k == k_true || k == k_false)
        c = C_BOOL_PAT, value = k == k_true ? Py_True : Py_False;
    else
        return bail(ps, p);
    *pos = end;
    if (value == NULL)
        return node(c, LINE(p), COL(p), NULL, NULL, NULL);
    return node(c, NEW(value), LINE(p), COL(p), NULL, NULL);
}

/* `!{a, b.c}` from `*pos` (parse_capability_set): the names as written */
static NOINLINE PyObject *
capability_set(P *ps, Py_ssize_t *pos)
{
    Py_ssize_t q = *pos;
    if (expect(ps, &q, k_bang) < 0 || expect(ps, &q, k_lbrace) < 0)
        return bail(ps, q);
    PyObject *caps = PyList_New(0);
    if (caps == NULL)
        return NULL;
    for (;;) {
        Py_ssize_t r = skip_newline(ps, q);
        if (kind(ps, r) == k_rbrace) {
            *pos = r + 1;
            return caps;
        }
        if (PyList_GET_SIZE(caps) > 0) {
            if (kind(ps, r) != k_comma)
                goto bailed;
            q = r + 1;
        }
        Py_ssize_t name = expect(ps, &q, k_ident);
        if (name < 0)
            goto bailed;
        PyObject *cap = ps->values[name];
        Py_INCREF(cap);
        r = skip_newline(ps, q);
        if (kind(ps, r) == k_dot) {
            q = r + 1;
            Py_ssize_t part = expect(ps, &q, k_ident);
            if (part < 0 || !PyUnicode_Check(cap) || !PyUnicode_Check(ps->values[part])) {
                Py_DECREF(cap);
                goto bailed;
            }
            Py_SETREF(cap, PyUnicode_FromFormat("%U.%U", cap, ps->values[part]));
        }
        if (cap == NULL || PyList_Append(caps, cap) < 0) {
            Py_XDECREF(cap);
            Py_DECREF(caps);
            return NULL;
        }
        Py_DECREF(cap);
    }
bailed:
    Py_DECREF(caps);
    return bail(ps, q);
}

/* at a `!{...}` at or past `pos` (one Newline): whether another `!` follows its `}`
 * (parser._Parser._set_follows_set, with its bounds) */
static int
set_follows_set(P *ps, Py_ssize_t pos)
{
    Py_ssize_t limit = ps->n - 1, p = skip_newline(ps, pos) + 1;
    while (p < limit && kind(ps, p) != k_rbrace && kind(ps, p) != k_eof)
        p++;
    p++;
    if (p < limit && kind(ps, p) == k_newline)
        p++;
    return p <= limit && kind(ps, p) == k_bang;
}

/* `s == lit` for a str `s` and an ASCII literal of `n` characters: the length and the bytes */
static inline int
is_ascii(PyObject *s, const char *lit, Py_ssize_t n)
{
    return PyUnicode_GET_LENGTH(s) == n && PyUnicode_KIND(s) == PyUnicode_1BYTE_KIND
           && memcmp(PyUnicode_1BYTE_DATA(s), lit, (size_t)n) == 0;
}

/* parse_type(returned) with self.depth == depth */
static PyObject *
type_expr(P *ps, Py_ssize_t *pos, long depth, int nest, int returned)
{
    if (++nest > C_NESTING || ++depth > max_depth)
        return bail(ps, *pos);
    Py_ssize_t p = skip_newline(ps, *pos);
    if (kind(ps, p) != k_ident)
        return bail(ps, p);
    PyObject *name = ps->values[p];
    if (!PyUnicode_Check(name))
        return bail(ps, p);
    Py_ssize_t q = p + 1;
    int fn = is_ascii(name, "Fn", 2);
    int two = is_ascii(name, "Result", 6) ? C_RESULT_TYPE
              : is_ascii(name, "Map", 3) ? C_MAP_TYPE : 0;
    int one = is_ascii(name, "Option", 6) ? C_OPTION_TYPE
              : is_ascii(name, "List", 4) ? C_LIST_TYPE : 0;
    if (!fn && !two && !one) {
        *pos = q;
        return node(C_NAMED, NEW(name), LINE(p), COL(p), NULL, NULL);
    }
    if (fn) {
        PyObject *params = NULL, *ret = NULL, *caps = NULL;
        if (expect(ps, &q, k_lparen) < 0 || (params = PyList_New(0)) == NULL)
            goto fn_fail;
        for (;;) {
            Py_ssize_t r = skip_newline(ps, q);
            if (kind(ps, r) == k_rparen) {
                q = r + 1;
                break;
            }
            if (PyList_GET_SIZE(params) > 0) {
                if (kind(ps, r) != k_comma)
                    goto fn_fail;
                q = r + 1;
            }
            PyObject *param = type_expr(ps, &q, depth, nest, 0);
            if (param == NULL || PyList_Append(params, param) < 0) {
                Py_XDECREF(param);
                goto fn_fail;
            }
            Py_DECREF(param);
        }
        if (expect(ps, &q, k_arrow) < 0
                || (ret = type_expr(ps, &q, depth, nest, returned)) == NULL)
            goto fn_fail;
        if (kind(ps, skip_newline(ps, q)) == k_bang && (!returned || set_follows_set(ps, q)))
            caps = capability_set(ps, &q);
        else
            caps = PyList_New(0);
        if (caps == NULL)
            goto fn_fail;
        *pos = q;
        return node(C_FN_TYPE, params, ret, caps, LINE(p), COL(p));
    fn_fail:
        Py_XDECREF(params);
        Py_XDECREF(ret);
        return PyErr_Occurred() ? NULL : bail(ps, q);
    }
    if (expect(ps, &q, k_lt) < 0)
        return bail(ps, q);
    PyObject *first = type_expr(ps, &q, depth, nest, 0), *second = NULL;
    if (first == NULL)
        return NULL;
    if (two && (expect(ps, &q, k_comma) < 0
                || (second = type_expr(ps, &q, depth, nest, 0)) == NULL))
        goto fail;
    if (expect(ps, &q, k_gt) < 0)
        goto fail;
    *pos = q;
    if (two)
        return node(two, first, second, LINE(p), COL(p), NULL);
    return node(one, first, LINE(p), COL(p), NULL, NULL);
fail:
    Py_DECREF(first);
    Py_XDECREF(second);
    return PyErr_Occurred() ? NULL : bail(ps, q);
}

/* a statement at token `p` (not a Newline) of a block at `depth` (parse_block's loop and
 * parse_stmt) */
static PyObject *
statement(P *ps, Py_ssize_t *pos, Py_ssize_t p, long depth, int nest)
{
    PyObject *k = kind(ps, p);
    Py_ssize_t q = p + 1;
    if (k == k_let) {
        q = skip_newline(ps, q);
        int mutable = kind(ps, q) == k_mut;
        if (mutable)
            q = skip_newline(ps, q + 1);
        if (kind(ps, q) != k_ident)
            return bail(ps, q);
        Py_ssize_t name = q++;
        PyObject *ty = NULL;
        if (kind(ps, q) == k_colon || (kind(ps, q) == k_newline && kind(ps, q + 1) == k_colon)) {
            q = skip_newline(ps, q) + 1;
            if ((ty = type_expr(ps, &q, depth, nest, 0)) == NULL)
                return NULL;
        }
        if (expect(ps, &q, k_eq) < 0) {
            Py_XDECREF(ty);
            return bail(ps, q);
        }
        PyObject *value = expr(ps, &q, 1, depth, nest);
        if (value == NULL) {
            Py_XDECREF(ty);
            return NULL;
        }
        if (ty == NULL) {
            ty = Py_None;
            Py_INCREF(ty);
        }
        *pos = q;
        return node6(C_LET, NEW(ps->values[name]), NEW(mutable ? Py_True : Py_False), ty,
                     value, LINE(p), COL(p));
    }
    if (k == k_return) {
        PyObject *next = kind(ps, skip_newline(ps, q)), *value;
        if (next == k_rbrace || next == k_eof)
            value = NEW(Py_None);
        else if ((value = expr(ps, &q, 1, depth, nest)) == NULL)
            return NULL;
        *pos = q;
        return node(C_RETURN, value, LINE(p), COL(p), NULL, NULL);
    }
    if (k == k_while || k == k_for) {
        Py_ssize_t var = -1;
        if (k == k_for && ((var = expect(ps, &q, k_ident)) < 0 || expect(ps, &q, k_in) < 0))
            return bail(ps, q);
        PyObject *head = expr(ps, &q, 1, depth, nest);
        if (head == NULL)
            return NULL;
        PyObject *body = block(ps, &q, depth, nest);
        if (body == NULL) {
            Py_DECREF(head);
            return NULL;
        }
        *pos = q;
        if (k == k_while)
            return node(C_WHILE, head, body, LINE(p), COL(p), NULL);
        return node(C_FOR, NEW(ps->values[var]), head, body, LINE(p), COL(p));
    }
    /* an expression statement or an assignment */
    q = p;
    PyObject *target = expr(ps, &q, 1, depth, nest);
    if (target == NULL)
        return NULL;
    Py_ssize_t r = skip_newline(ps, q);
    if (kind(ps, r) != k_eq) {
        *pos = q;
        return node(C_EXPR_STMT, target, LINE(p), COL(p), NULL, NULL);
    }
    if (Py_TYPE(target) != classes[C_IDENT].type) {    /* "invalid assignment target" */
        Py_DECREF(target);
        return bail(ps, r);
    }
    PyObject *name = *(PyObject **)((char *)target + classes[C_IDENT].offset[0]);
    Py_INCREF(name);
    Py_DECREF(target);
    q = r + 1;
    PyObject *value = expr(ps, &q, 1, depth, nest);
    if (value == NULL) {
        Py_DECREF(name);
        return NULL;
    }
    *pos = q;
    return node(C_ASSIGN, name, value, LINE(p), COL(p), NULL);
}

/* parser._Parser.parse_block() with self.depth == depth */
static PyObject *
block(P *ps, Py_ssize_t *pos, long depth, int nest)
{
    if (++nest > C_NESTING || ++depth > max_depth)
        return bail(ps, *pos);
    Py_ssize_t start = skip_newline(ps, *pos);
    if (kind(ps, start) != k_lbrace)
        return bail(ps, start);
    PyObject *stmts = PyList_New(0);
    if (stmts == NULL)
        return NULL;
    Py_ssize_t q = start + 1;
    for (;;) {
        Py_ssize_t p = skip_newline(ps, q);
        if (kind(ps, p) == k_rbrace) {
            q = p + 1;
            break;
        }
        PyObject *stmt = statement(ps, &q, p, depth, nest);
        if (stmt == NULL || PyList_Append(stmts, stmt) < 0) {
            Py_XDECREF(stmt);
            Py_DECREF(stmts);
            return NULL;
        }
        Py_DECREF(stmt);
    }
    *pos = q;
    return node(C_BLOCK, stmts, LINE(start), COL(start), NULL, NULL);
}

/* ---- items ------------------------------------------------------------------------------ */

/* an entry pair `(name, value)` appended to `list` (`value` stolen; NULL: fail) */
static int
append_pair(PyObject *list, PyObject *name, PyObject *value)
{
    if (value == NULL)
        return -1;
    PyObject *pair = PyTuple_Pack(2, name, value);
    Py_DECREF(value);
    if (pair == NULL)
        return -1;
    int rc = PyList_Append(list, pair);
    Py_DECREF(pair);
    return rc;
}

/* parse_fn_def() from its `fn` at token `start` */
static NOINLINE PyObject *
fn_def(P *ps, Py_ssize_t *pos, Py_ssize_t start, long depth, int nest, PyObject *exported)
{
    enum { F_NAME, F_PARAMS, F_RETURN, F_CAPS, F_INTENT, F_REQUIRES, F_ENSURES, F_BODY,
           F_EXPORTED, F_LINE, F_COL, F_CAPS_LINE, F_CAPS_COL, N_FN_FIELDS };
    PyObject *f[N_FN_FIELDS] = {NULL};
    Py_ssize_t q = start + 1, p = skip_newline(ps, q);
    if (kind(ps, p) != k_ident)
        return bail(ps, p);
    Py_ssize_t name = p;
    p = skip_newline(ps, name + 1);
    if (kind(ps, p) != k_lparen)
        return bail(ps, p);
    if ((f[F_PARAMS] = PyList_New(0)) == NULL)
        return NULL;
    q = p + 1;
    for (;;) {
        p = skip_newline(ps, q);
        if (kind(ps, p) == k_rparen)
            break;
        if (PyList_GET_SIZE(f[F_PARAMS]) > 0) {
            if (kind(ps, p) != k_comma)
                goto bailed;
            p = skip_newline(ps, p + 1);
        }
        Py_ssize_t param = p;
        if (kind(ps, param) != k_ident)
            goto bailed;
        p = skip_newline(ps, param + 1);
        if (kind(ps, p) != k_colon)
            goto bailed;
        q = p + 1;
        PyObject *ty = type_expr(ps, &q, depth, nest, 0);
        if (ty == NULL)
            goto fail;
        PyObject *node_ = node(C_PARAM, NEW(ps->values[param]), ty, LINE(param), COL(param),
                               NULL);
        if (node_ == NULL || PyList_Append(f[F_PARAMS], node_) < 0) {
            Py_XDECREF(node_);
            goto fail;
        }
        Py_DECREF(node_);
    }
    q = p + 1;      /* past the `)` */
    p = skip_newline(ps, q);
    if (kind(ps, p) == k_arrow) {
        q = p + 1;
        if ((f[F_RETURN] = type_expr(ps, &q, depth, nest, 1)) == NULL)
            goto fail;
    } else {
        f[F_RETURN] = NEW(Py_None);
    }
    p = skip_newline(ps, q);
    PyObject *k = kind(ps, p);
    if (k == k_bang) {
        f[F_CAPS_LINE] = LINE(p);
        f[F_CAPS_COL] = COL(p);
        if ((f[F_CAPS] = capability_set(ps, &q)) == NULL)
            goto fail;
        p = skip_newline(ps, q);
        k = kind(ps, p);
    } else {
        f[F_CAPS] = PyList_New(0);
        f[F_CAPS_LINE] = PyLong_FromLong(0);
        f[F_CAPS_COL] = PyLong_FromLong(0);
        if (f[F_CAPS] == NULL || f[F_CAPS_LINE] == NULL || f[F_CAPS_COL] == NULL)
            goto fail;
    }
    f[F_INTENT] = NEW(Py_None);
    if ((f[F_REQUIRES] = PyList_New(0)) == NULL || (f[F_ENSURES] = PyList_New(0)) == NULL)
        goto fail;
    while (k == k_intent || k == k_requires || k == k_ensures) {
        q = p + 1;
        if (k == k_intent) {
            Py_ssize_t text = skip_newline(ps, q);
            if (f[F_INTENT] != Py_None || kind(ps, text) != k_string)     /* a duplicate */
                goto bailed;
            Py_SETREF(f[F_INTENT], NEW(ps->values[text]));
            q = text + 1;
        } else {
            PyObject *clause = expr(ps, &q, 1, depth, nest);
            if (clause == NULL)
                goto fail;
            int rc = PyList_Append(f[k == k_requires ? F_REQUIRES : F_ENSURES], clause);
            Py_DECREF(clause);
            if (rc < 0)
                goto fail;
        }
        p = skip_newline(ps, q);
        k = kind(ps, p);
    }
    if ((f[F_BODY] = block(ps, &q, depth, nest)) == NULL)
        goto fail;
    f[F_NAME] = NEW(ps->values[name]);
    f[F_EXPORTED] = NEW(exported);
    f[F_LINE] = LINE(start);
    f[F_COL] = COL(start);
    *pos = q;
    return node_n(C_FN_DEF, f);
bailed:
    bail(ps, p);
fail:
    for (int i = 0; i < N_FN_FIELDS; i++)
        Py_XDECREF(f[i]);
    return NULL;
}

/* parse_type_def() from its `type` or `enum` at token `start` */
static NOINLINE PyObject *
type_def(P *ps, Py_ssize_t *pos, Py_ssize_t start, long depth, int nest, PyObject *exported)
{
    int is_record = kind(ps, start) == k_type;
    Py_ssize_t q = start + 1, name, brace;
    if ((name = expect(ps, &q, k_ident)) < 0 || (brace = expect(ps, &q, k_lbrace)) < 0)
        return bail(ps, q);
    PyObject *entries = PyList_New(0);
    if (entries == NULL)
        return NULL;
    Py_ssize_t p = skip_newline(ps, q);
    while (kind(ps, p) != k_rbrace) {
        if (PyList_GET_SIZE(entries) > 0) {
            if (kind(ps, p) != k_comma)
                goto bailed;
            p = skip_newline(ps, p + 1);
            if (kind(ps, p) == k_rbrace)
                break;
        }
        Py_ssize_t entry = p;
        if (kind(ps, entry) != k_ident)
            goto bailed;
        p = skip_newline(ps, entry + 1);
        if (is_record) {
            if (kind(ps, p) != k_colon)
                goto bailed;
            q = p + 1;
            if (append_pair(entries, ps->values[entry], type_expr(ps, &q, depth, nest, 0)) < 0)
                goto fail;
        } else if (kind(ps, p) == k_lparen) {
            q = p + 1;
            PyObject *payload = type_expr(ps, &q, depth, nest, 0);
            if (payload != NULL && expect(ps, &q, k_rparen) < 0) {
                Py_DECREF(payload);
                p = q;
                goto bailed;
            }
            if (append_pair(entries, ps->values[entry], payload) < 0)
                goto fail;
        } else {
            if (append_pair(entries, ps->values[entry], NEW(Py_None)) < 0)
                goto fail;
            continue;       /* `p` is already the next token */
        }
        p = skip_newline(ps, q);
    }
    *pos = p + 1;
    PyObject *kind_node = node(is_record ? C_RECORD_KIND : C_ENUM_KIND, entries, LINE(brace),
                               COL(brace), NULL, NULL);
    return node(C_TYPE_DEF, NEW(ps->values[name]), kind_node, NEW(exported), LINE(start),
                COL(start));
bailed:
    bail(ps, p);
fail:
    Py_DECREF(entries);
    return NULL;
}

/* parse_item(): a function, a type, or an import */
static PyObject *
item(P *ps, Py_ssize_t *pos, long depth, int nest)
{
    Py_ssize_t p = skip_newline(ps, *pos);
    PyObject *k = kind(ps, p), *exported = Py_False;
    if (k == k_export) {
        exported = Py_True;
        p = skip_newline(ps, p + 1);
        k = kind(ps, p);
    }
    if (k == k_fn)
        return fn_def(ps, pos, p, depth, nest, exported);
    if (k == k_type || k == k_enum)
        return type_def(ps, pos, p, depth, nest, exported);
    if (k == k_import) {
        Py_ssize_t q = p + 1, name = expect(ps, &q, k_ident);
        if (name < 0)
            return bail(ps, q);
        *pos = q;
        return node(C_IMPORT_DEF, NEW(ps->values[name]), PyList_New(0), LINE(p), COL(p),
                    NULL);
    }
    return bail(ps, p);
}

/* parse(), parse_block() and parse_items() */
enum { AT_EXPR, AT_BLOCK, AT_ITEMS };
static PyObject *items(P *ps, Py_ssize_t pos, long depth, PyObject *out);

static PyObject *
parse_at(PyObject *const *args, Py_ssize_t nargs, int at)
{
    /* (kinds, values, lines, cols, pos[, min_prec], depth[, items]): four lists and two or
       three integers (and the item list), read without an argument-format parse */
    Py_ssize_t want = at == AT_EXPR || at == AT_ITEMS ? 7 : 6;
    if (nargs != want) {
        PyErr_Format(PyExc_TypeError, "expected %zd arguments, got %zd", want, nargs);
        return NULL;
    }
    for (int k = 0; k < 4; k++)
        if (!PyList_Check(args[k])) {
            PyErr_SetString(PyExc_TypeError, "the token columns must be lists");
            return NULL;
        }
    PyObject *kinds = args[0], *values = args[1], *lines = args[2], *cols = args[3];
    Py_ssize_t pos = PyNumber_AsSsize_t(args[4], PyExc_OverflowError);
    if (pos == -1 && PyErr_Occurred())
        return NULL;
    long min_prec = 0, depth;
    if (at == AT_EXPR) {
        min_prec = PyLong_AsLong(args[5]);
        if (min_prec == -1 && PyErr_Occurred())
            return NULL;
    }
    depth = PyLong_AsLong(args[at == AT_EXPR ? 6 : 5]);
    if (depth == -1 && PyErr_Occurred())
        return NULL;
    if (at == AT_ITEMS && !PyList_Check(args[6])) {
        PyErr_SetString(PyExc_TypeError, "the items must be a list");
        return NULL;
    }
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "_exprs.configure() was not called");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(kinds);
    if (PyList_GET_SIZE(values) != n || PyList_GET_SIZE(lines) != n
            || PyList_GET_SIZE(cols) != n || pos < 0 || pos >= n)
        return at == AT_ITEMS ? Py_BuildValue("(nn)", pos, pos) : PyLong_FromSsize_t(pos);
    P ps = {&PyList_GET_ITEM(kinds, 0), &PyList_GET_ITEM(values, 0),
            &PyList_GET_ITEM(lines, 0), &PyList_GET_ITEM(cols, 0), n, -1};
    if (at == AT_ITEMS)
        return items(&ps, pos, depth, args[6]);
    Py_ssize_t q = pos;
    PyObject *node = at == AT_EXPR ? expr(&ps, &q, min_prec, depth, 0)
                                   : block(&ps, &q, depth, 0);
    if (node == NULL) {
        if (PyErr_Occurred())
            return NULL;
        return PyLong_FromSsize_t(ps.stop);
    }
    PyObject *end = PyLong_FromSsize_t(q);
    if (end == NULL) {
        Py_DECREF(node);
        return NULL;
    }
    PyObject *pair = PyTuple_New(2);
    if (pair == NULL) {
        Py_DECREF(node);
        Py_DECREF(end);
        return NULL;
    }
    PyTuple_SET_ITEM(pair, 0, node);
    PyTuple_SET_ITEM(pair, 1, end);
    return pair;
}

/* parse_program's loop from `pos`: each item appended to `out` as parse_item() would
   parse it, until the end of input or an item the C core hands back: (its position, the
   token where it stopped), or (the EOF position, -1) */
static PyObject *
items(P *ps, Py_ssize_t pos, long depth, PyObject *out)
{
    for (;;) {
        pos = skip_newline(ps, pos);
        if (kind(ps, pos) == k_eof)
            return Py_BuildValue("(nn)", pos, (Py_ssize_t)-1);
        Py_ssize_t q = pos;
        ps->stop = -1;
        PyObject *node = item(ps, &q, depth, 0);
        if (node == NULL) {
            if (PyErr_Occurred())
                return NULL;
            return Py_BuildValue("(nn)", pos, ps->stop);
        }
        int failed = PyList_Append(out, node);
        Py_DECREF(node);
        if (failed < 0)
            return NULL;
        pos = q;
    }
}

static PyObject *
parse(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return parse_at(args, nargs, AT_EXPR);
}

static PyObject *
parse_block(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return parse_at(args, nargs, AT_BLOCK);
}

static PyObject *
parse_items(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return parse_at(args, nargs, AT_ITEMS);
}

/* ---- configure ------------------------------------------------------------------------ */

static int
kind_of(PyObject *kinds, const char *name, PyObject **out)
{
    PyObject *k = PyDict_GetItemString(kinds, name);
    if (k == NULL || !PyUnicode_Check(k)) {
        PyErr_Format(PyExc_ValueError, "_exprs.configure: no token kind %s", name);
        return -1;
    }
    Py_INCREF(k);
    Py_XSETREF(*out, k);
    return 0;
}

static int
class_of(PyObject *cls, int c, const char *const *fields)
{
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "_exprs.configure: a node class is not a class");
        return -1;
    }
    int n = 0;
    for (; fields[n] != NULL; n++) {
        PyObject *d = PyObject_GetAttrString(cls, fields[n]);
        if (d == NULL)
            return -1;
        int ok = Py_IS_TYPE(d, &PyMemberDescr_Type)
                 && ((PyMemberDescrObject *)d)->d_member->type == T_OBJECT_EX;
        if (ok)
            classes[c].offset[n] = ((PyMemberDescrObject *)d)->d_member->offset;
        Py_DECREF(d);
        if (!ok) {
            PyErr_Format(PyExc_TypeError, "_exprs.configure: %s.%s is not a slot",
                         ((PyTypeObject *)cls)->tp_name, fields[n]);
            return -1;
        }
    }
    Py_INCREF(cls);
    Py_XSETREF(classes[c].type, (PyTypeObject *)cls);
    classes[c].nfields = n;
    return 0;
}

static int
operators(PyObject *table, int with_prec, PyObject **kind_out, PyObject **op_out, long *prec_out,
          int *count)
{
    if (!PyDict_Check(table) || PyDict_GET_SIZE(table) > MAX_OPS) {
        PyErr_SetString(PyExc_TypeError, "_exprs.configure: an operator table is not a dict");
        return -1;
    }
    Py_ssize_t it = 0;
    PyObject *k, *v;
    int i = 0;
    while (PyDict_Next(table, &it, &k, &v)) {
        PyObject *op = v;
        if (with_prec) {
            if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != 2) {
                PyErr_SetString(PyExc_TypeError, "_exprs.configure: binary entry not a pair");
                return -1;
            }
            prec_out[i] = PyLong_AsLong(PyTuple_GET_ITEM(v, 0));
            if (prec_out[i] <= 0) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "_exprs.configure: precedence <= 0");
                return -1;
            }
            op = PyTuple_GET_ITEM(v, 1);
        }
        Py_INCREF(k);
        Py_INCREF(op);
        Py_XSETREF(kind_out[i], k);
        Py_XSETREF(op_out[i], op);
        i++;
    }
    *count = i;
    return 0;
}

static PyObject *
configure(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *binary, *prefix, *kinds, *nodes;
    long depth;
    if (!PyArg_ParseTuple(args, "O!O!O!O!l", &PyDict_Type, &binary, &PyDict_Type, &prefix,
                          &PyDict_Type, &kinds, &PyDict_Type, &nodes, &depth))
        return NULL;
    configured = 0;
    static const struct { const char *name; PyObject **slot; } kind_names[] = {
        {"Ident", &k_ident}, {"Int", &k_int}, {"Float", &k_float}, {"String", &k_string},
        {"Newline", &k_newline}, {"Eof", &k_eof}, {"LParen", &k_lparen},
        {"RParen", &k_rparen}, {"LBracket", &k_lbracket}, {"RBracket", &k_rbracket},
        {"Comma", &k_comma}, {"Dot", &k_dot}, {"ColonColon", &k_coloncolon},
        {"LBrace", &k_lbrace}, {"RBrace", &k_rbrace}, {"DotDot", &k_dotdot},
        {"Colon", &k_colon}, {"true", &k_true}, {"false", &k_false}, {"None", &k_none},
        {"Some", &k_some}, {"Ok", &k_ok}, {"Err", &k_err}, {"let", &k_let}, {"mut", &k_mut},
        {"return", &k_return}, {"while", &k_while}, {"for", &k_for}, {"in", &k_in},
        {"if", &k_if}, {"else", &k_else}, {"match", &k_match}, {"Eq", &k_eq},
        {"FatArrow", &k_fatarrow}, {"Underscore", &k_underscore}, {"Lt", &k_lt},
        {"Gt", &k_gt}, {"Arrow", &k_arrow}, {"Bang", &k_bang}, {"fn", &k_fn},
        {"type", &k_type}, {"enum", &k_enum}, {"import", &k_import}, {"export", &k_export},
        {"intent", &k_intent}, {"requires", &k_requires}, {"ensures", &k_ensures},
    };
    for (size_t i = 0; i < sizeof kind_names / sizeof kind_names[0]; i++)
        if (kind_of(kinds, kind_names[i].name, kind_names[i].slot) < 0)
            return NULL;
    static const char *const f_binary[] = {"op", "left", "right", "line", "col", NULL};
    static const char *const f_unary[] = {"op", "expr", "line", "col", NULL};
    static const char *const f_value[] = {"value", "line", "col", NULL};
    static const char *const f_ident[] = {"name", "line", "col", NULL};
    static const char *const f_pos[] = {"line", "col", NULL};
    static const char *const f_call[] = {"func", "args", "line", "col", NULL};
    static const char *const f_field[] = {"object", "field", "line", "col", NULL};
    static const char *const f_items[] = {"items", "line", "col", NULL};
    static const char *const f_inner[] = {"expr", "line", "col", NULL};
    static const char *const f_record[] = {"type_name", "fields", "spread", "line", "col",
                                           NULL};
    static const char *const f_variant[] = {"enum_name", "variant", "payload", "line", "col",
                                            NULL};
    static const char *const f_if[] = {"condition", "then_block", "else_block", "line", "col",
                                       NULL};
    static const char *const f_match[] = {"value", "arms", "line", "col", NULL};
    static const char *const f_block_expr[] = {"block", "line", "col", NULL};
    static const char *const f_block[] = {"stmts", "line", "col", NULL};
    static const char *const f_let[] = {"name", "mutable", "ty", "value", "line", "col", NULL};
    static const char *const f_assign[] = {"target", "value", "line", "col", NULL};
    static const char *const f_return[] = {"value", "line", "col", NULL};
    static const char *const f_while[] = {"condition", "body", "line", "col", NULL};
    static const char *const f_for[] = {"var", "iter", "body", "line", "col", NULL};
    static const char *const f_arm[] = {"pattern", "body", "line", "col", NULL};
    static const char *const f_variant_pat[] = {"name", "inner", "line", "col", NULL};
    static const char *const f_one[] = {"inner", "line", "col", NULL};
    static const char *const f_two_result[] = {"ok", "err", "line", "col", NULL};
    static const char *const f_two_map[] = {"key", "value", "line", "col", NULL};
    static const char *const f_fn[] = {"params", "ret", "capabilities", "line", "col", NULL};
    static const char *const f_param[] = {"name", "ty", "line", "col", NULL};
    static const char *const f_fn_def[] = {"name", "params", "return_type", "capabilities",
                                           "intent", "requires", "ensures", "body", "exported",
                                           "line", "col", "caps_line", "caps_col", NULL};
    static const char *const f_record_kind[] = {"fields", "line", "col", NULL};
    static const char *const f_enum_kind[] = {"variants", "line", "col", NULL};
    static const char *const f_type_def[] = {"name", "kind", "exported", "line", "col", NULL};
    static const char *const f_import_def[] = {"module", "items", "line", "col", NULL};
    static const struct { const char *name; const char *const *fields; } class_names[] = {
        [C_BINARY] = {"Binary", f_binary}, [C_UNARY] = {"Unary", f_unary},
        [C_IDENT] = {"Ident", f_ident}, [C_INT] = {"IntLit", f_value},
        [C_FLOAT] = {"FloatLit", f_value}, [C_STRING] = {"StringLit", f_value},
        [C_BOOL] = {"BoolLit", f_value}, [C_NONE] = {"NoneLit", f_pos},
        [C_CALL] = {"Call", f_call}, [C_FIELD] = {"FieldAccess", f_field},
        [C_LIST] = {"ListLit", f_items}, [C_SOME] = {"SomeExpr", f_inner},
        [C_OK] = {"OkExpr", f_inner}, [C_ERR] = {"ErrExpr", f_inner},
        [C_VARIANT] = {"EnumVariant", f_variant}, [C_RECORD] = {"RecordLit", f_record},
        [C_IF] = {"If", f_if}, [C_MATCH] = {"Match", f_match},
        [C_BLOCK_EXPR] = {"BlockExpr", f_block_expr}, [C_BLOCK] = {"Block", f_block},
        [C_LET] = {"Let", f_let}, [C_ASSIGN] = {"Assign", f_assign},
        [C_EXPR_STMT] = {"ExprStmt", f_inner}, [C_RETURN] = {"Return", f_return},
        [C_WHILE] = {"While", f_while}, [C_FOR] = {"For", f_for},
        [C_ARM] = {"MatchArm", f_arm}, [C_WILDCARD_PAT] = {"WildcardPat", f_pos},
        [C_IDENT_PAT] = {"IdentPat", f_ident}, [C_INT_PAT] = {"IntPat", f_value},
        [C_STRING_PAT] = {"StringPat", f_value}, [C_BOOL_PAT] = {"BoolPat", f_value},
        [C_NONE_PAT] = {"NonePat", f_pos}, [C_SOME_PAT] = {"SomePat", f_one},
        [C_OK_PAT] = {"OkPat", f_one}, [C_ERR_PAT] = {"ErrPat", f_one},
        [C_VARIANT_PAT] = {"VariantPat", f_variant_pat}, [C_NAMED] = {"Named", f_ident},
        [C_OPTION_TYPE] = {"OptionType", f_one}, [C_RESULT_TYPE] = {"ResultType", f_two_result},
        [C_LIST_TYPE] = {"ListType", f_one}, [C_MAP_TYPE] = {"MapType", f_two_map},
        [C_FN_TYPE] = {"FnType", f_fn}, [C_PARAM] = {"Param", f_param},
        [C_FN_DEF] = {"FnDef", f_fn_def}, [C_RECORD_KIND] = {"RecordKind", f_record_kind},
        [C_ENUM_KIND] = {"EnumKind", f_enum_kind}, [C_TYPE_DEF] = {"TypeDef", f_type_def},
        [C_IMPORT_DEF] = {"ImportDef", f_import_def},
    };
    for (int c = 0; c < N_CLASSES; c++) {
        PyObject *cls = PyDict_GetItemString(nodes, class_names[c].name);
        if (cls == NULL) {
            PyErr_Format(PyExc_ValueError, "_exprs.configure: no node class %s",
                         class_names[c].name);
            return NULL;
        }
        if (class_of(cls, c, class_names[c].fields) < 0)
            return NULL;
    }
    if (operators(binary, 1, binary_kind, binary_op, binary_prec, &n_binary) < 0
            || operators(prefix, 0, prefix_kind, prefix_op, NULL, &n_prefix) < 0)
        return NULL;
    memset(binary_map, 0, sizeof binary_map);
    memset(prefix_map, 0, sizeof prefix_map);
    memset(expr_class_map, 0, sizeof expr_class_map);
    for (int i = 0; i < n_binary; i++)
        if (pmap_put(binary_map, binary_kind[i], i) < 0)
            return NULL;
    for (int i = 0; i < n_prefix; i++)
        if (pmap_put(prefix_map, prefix_kind[i], i) < 0)
            return NULL;
    for (int c = 0; c < N_EXPRS; c++)
        if (pmap_put(expr_class_map, classes[c].type, c) < 0)
            return NULL;
    max_depth = depth;
    configured = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS,
     "configure(binary, prefix, kinds, nodes, max_depth): parser.py's operator tables\n"
     "(kind -> (precedence, op); kind -> op), the token kinds by name, the node classes by\n"
     "name and MAX_DEPTH; call once before parse()."},
    {"parse", (PyCFunction)(void (*)(void))parse, METH_FASTCALL,
     "parse(kinds, values, lines, cols, pos, min_prec, depth) -> (node, end), or the int\n"
     "index of the token where it handed the expression back to the Python parser."},
    {"parse_block", (PyCFunction)(void (*)(void))parse_block, METH_FASTCALL,
     "parse_block(kinds, values, lines, cols, pos, depth) -> (block, end), or the int index\n"
     "of the token where it handed the block back to the Python parser."},
    {"parse_items", (PyCFunction)(void (*)(void))parse_items, METH_FASTCALL,
     "parse_items(kinds, values, lines, cols, pos, depth, items) -> (at, stop): appends the\n"
     "items from `pos` to `items` up to the end of input (stop -1, `at` the EOF token) or to\n"
     "the item at `at` that it handed back at token `stop`."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "boruna.language._exprs",
    "The parser's expression core in C (see parser.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__exprs(void)
{
    return PyModule_Create(&module_def);
}
