/* The `.ax` scanner (docs/spec/language.md §1) in C: `boruna.language._scan`.
 *
 * `scan(src, comments)` reads a `str` once, left to right, and returns either the token
 * stream's parts `(kinds, values, lines, cols, eof_line, eof_col)` or, at the first span that
 * starts no token, `(line, col, span)` for `lexer.lex` to raise as E001. The rules are those
 * of the master regex the lexer used before (kept as the test oracle,
 * tests/language/reference_lexer.py): blanks ` \t\r`; words `[A-Za-z_][A-Za-z0-9_]*`
 * (keyword, `_` or identifier); newlines, collapsed into one Newline token per run;
 * `[0-9]+.[0-9]+` floats; `[0-9]+` integers that fit an I64; strings (any unit but `"`, `\`
 * and surrogates, or `\` with any character but a newline or surrogate; `\\ \" \n \t \r`
 * decoded); `//` comments to the end of the line; punctuation, longest spelling first.
 * Columns are UTF-8 byte columns (a lone surrogate counts 3 bytes, as `surrogatepass`).
 *
 * The keywords and punctuation are not written here: `configure(keywords, punctuation,
 * kinds)` hands over the tables of language/tokens.py at import, and the kinds pushed are
 * those very str objects.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define IS_WORD_START(c) (((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') || (c) == '_')
#define IS_WORD_CHAR(c) (IS_WORD_START(c) || ((c) >= '0' && (c) <= '9'))
#define IS_SURROGATE(c) ((c) >= 0xD800 && (c) <= 0xDFFF)
/* UTF-8 bytes of a code point beyond the first (surrogates: 3 bytes, as `surrogatepass`) */
#define EXTRA_BYTES(c) (((c) >= 0x80) + ((c) >= 0x800) + ((c) >= 0x10000))
#define FNV_START 2166136261u
#define FNV_STEP(h, c) (((h) ^ (uint32_t)(c)) * 16777619u)

/* ---- the tables, from configure() ---------------------------------------------------- */

/* the word spellings (keywords, `_`) -> their kind; open addressing on the FNV hash */
#define WORD_SLOTS 256
#define WORD_MASK (WORD_SLOTS - 1)
typedef struct {
    PyObject *text;         /* the spelling (owned), NULL: free slot */
    PyObject *kind;         /* owned */
    const Py_UCS1 *chars;
    Py_ssize_t len;
    uint32_t hash;
} Word;
static Word word_table[WORD_SLOTS];
static Py_ssize_t word_max_len = -1;

/* punctuation by first character: its one-character kind (or NULL) and the two-character
 * spellings it starts */
#define MAX_PAIRS 8
typedef struct {
    int any;
    PyObject *single;
    int npairs;
    Py_UCS4 second[MAX_PAIRS];
    PyObject *pair_kind[MAX_PAIRS];
} PunctFirst;
static PunctFirst punct_first[128];

static PyObject *k_ident, *k_int, *k_float, *k_string, *k_newline, *k_eof, *k_comment;
/* the ints 0 .. SMALL_COLS - 1, read without a call for the columns of most tokens */
#define SMALL_COLS 256
static PyObject *small_cols[SMALL_COLS];
#define one (small_cols[1])

/* ---- one scan ------------------------------------------------------------------------ */

typedef struct {
    PyObject *text;     /* owned; NULL: free slot */
    uint32_t hash;
} Name;

typedef struct {
    PyObject *src;
    /* the token stream's four parallel lists, filled in place: `n` items each, owned, their
     * size set to `n` once the scan stops (until then it is 0 or less, which is always a
     * valid list: nothing in the scan runs Python code that could read one) */
    PyObject *lists[4];
    PyObject **items[4];
    Py_ssize_t n, cap;
    /* the int object of the line tokens are pushed on, and that line */
    PyObject *line_obj;
    Py_ssize_t line_of_obj;
    /* the identifiers met (see intern) */
    Name *names;
    size_t names_cap, names_used;
    /* the result */
    Py_ssize_t line, eof_col;
    PyObject *error;    /* (line, col, span) at the first bad span */
} Scan;

enum { KINDS, VALUES, LINES, COLS };

/* room for `want` tokens or more in each list */
static int
grow_tokens(Scan *s, Py_ssize_t want)
{
    Py_ssize_t cap = s->cap;
    while (cap < want) {
        if (cap > PY_SSIZE_T_MAX / 2 / (Py_ssize_t)sizeof(PyObject *)) {
            PyErr_NoMemory();
            return -1;
        }
        cap = cap < 64 ? 64 : cap * 2;
    }
    for (int a = 0; a < 4; a++) {
        PyListObject *list = (PyListObject *)s->lists[a];
        PyObject **grown = PyMem_Realloc(list->ob_item, (size_t)cap * sizeof(PyObject *));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        list->ob_item = grown;
        list->allocated = cap;
        s->items[a] = grown;
    }
    s->cap = cap;
    return 0;
}

/* push a token; `kind` and `value` are borrowed */
static inline int
push(Scan *s, PyObject *kind, PyObject *value, Py_ssize_t line, Py_ssize_t col)
{
    if (s->n == s->cap && grow_tokens(s, s->n + 1) < 0)
        return -1;
    if (s->line_obj == NULL || s->line_of_obj != line) {
        PyObject *obj = PyLong_FromSsize_t(line);
        if (obj == NULL)
            return -1;
        Py_XSETREF(s->line_obj, obj);
        s->line_of_obj = line;
    }
    PyObject *col_obj;
    if (col >= 0 && col < SMALL_COLS) {
        col_obj = small_cols[col];
        Py_INCREF(col_obj);
    } else if ((col_obj = PyLong_FromSsize_t(col)) == NULL) {
        return -1;
    }
    Py_ssize_t at = s->n++;
    Py_INCREF(kind);
    s->items[KINDS][at] = kind;
    Py_INCREF(value);
    s->items[VALUES][at] = value;
    Py_INCREF(s->line_obj);
    s->items[LINES][at] = s->line_obj;
    s->items[COLS][at] = col_obj;
    return 0;
}

/* push a token whose `value` is a new reference (consumed, also on failure) */
static inline int
push_new(Scan *s, PyObject *kind, PyObject *value, Py_ssize_t line, Py_ssize_t col)
{
    int done = push(s, kind, value, line, col);
    Py_DECREF(value);
    return done;
}

static int
grow_names(Scan *s)
{
    size_t cap = s->names_cap * 2;
    if (cap > (size_t)PY_SSIZE_T_MAX / sizeof(Name)) {
        PyErr_NoMemory();
        return -1;
    }
    Name *names = PyMem_Calloc(cap, sizeof(Name));
    if (names == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t k = 0; k < s->names_cap; k++) {
        Name *e = &s->names[k];
        if (e->text == NULL)
            continue;
        size_t at = e->hash & (cap - 1);
        while (names[at].text != NULL)
            at = (at + 1) & (cap - 1);
        names[at] = *e;
    }
    PyMem_Free(s->names);
    s->names = names;
    s->names_cap = cap;
    return 0;
}

/* record the first bad span, `src[start:end]` at (line, col); returns 1: the scan stops */
static int
set_error(Scan *s, Py_ssize_t line, Py_ssize_t col, Py_ssize_t start, Py_ssize_t end)
{
    PyObject *span = PyUnicode_Substring(s->src, start, end);
    if (span == NULL)
        return -1;
    s->error = Py_BuildValue("(nnN)", line, col, span);
    return s->error == NULL ? -1 : 1;
}

#define SCAN_CHAR Py_UCS1
#define SCAN_NAME(x) x##_ucs1
#include "_scan_body.h"
#undef SCAN_CHAR
#undef SCAN_NAME

#define SCAN_CHAR Py_UCS2
#define SCAN_NAME(x) x##_ucs2
#include "_scan_body.h"
#undef SCAN_CHAR
#undef SCAN_NAME

#define SCAN_CHAR Py_UCS4
#define SCAN_NAME(x) x##_ucs4
#include "_scan_body.h"
#undef SCAN_CHAR
#undef SCAN_NAME

static void
release(Scan *s)
{
    for (int a = 0; a < 4; a++)
        Py_CLEAR(s->lists[a]);
    if (s->names != NULL) {
        for (size_t k = 0; k < s->names_cap; k++)
            Py_XDECREF(s->names[k].text);
        PyMem_Free(s->names);
        s->names = NULL;
    }
    Py_CLEAR(s->line_obj);
}

static PyObject *
scan(PyObject *module, PyObject *args)
{
    PyObject *src;
    int comments = 0;
    (void)module;
    if (!PyArg_ParseTuple(args, "U|p:scan", &src, &comments))
        return NULL;
    if (k_eof == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "boruna.language._scan: configure() first");
        return NULL;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(src) < 0)
        return NULL;
#endif
    Scan s;
    memset(&s, 0, sizeof(s));
    s.src = src;
    Py_ssize_t n = PyUnicode_GET_LENGTH(src);
    for (int a = 0; a < 4; a++) {
        s.lists[a] = PyList_New(0);
        if (s.lists[a] == NULL) {
            release(&s);
            return NULL;
        }
    }
    s.names_cap = 256;
    s.names = PyMem_Calloc(s.names_cap, sizeof(Name));
    /* about one token per three characters in real programs: one allocation mostly */
    if (s.names == NULL || grow_tokens(&s, n / 3 + 16) < 0) {
        if (s.names == NULL)
            PyErr_NoMemory();
        release(&s);
        return NULL;
    }
    const void *data = PyUnicode_DATA(src);
    int done;
    switch (PyUnicode_KIND(src)) {
    case PyUnicode_1BYTE_KIND:
        done = scan_ucs1((const Py_UCS1 *)data, n, comments, &s);
        break;
    case PyUnicode_2BYTE_KIND:
        done = scan_ucs2((const Py_UCS2 *)data, n, comments, &s);
        break;
    default:
        done = scan_ucs4((const Py_UCS4 *)data, n, comments, &s);
        break;
    }
    if (done == 0) {
        /* the EOF sentinel: the last token's line and column objects, or 1 */
        PyObject *last_line = s.n ? s.items[LINES][s.n - 1] : one;
        PyObject *last_col = s.n ? s.items[COLS][s.n - 1] : one;
        if (s.n == s.cap && grow_tokens(&s, s.n + 1) < 0)
            done = -1;
        else {
            Py_ssize_t at = s.n++;
            Py_INCREF(k_eof);
            s.items[KINDS][at] = k_eof;
            Py_INCREF(Py_None);
            s.items[VALUES][at] = Py_None;
            Py_INCREF(last_line);
            s.items[LINES][at] = last_line;
            Py_INCREF(last_col);
            s.items[COLS][at] = last_col;
        }
    }
    for (int a = 0; a < 4; a++)
        Py_SET_SIZE(s.lists[a], s.n);
    if (done != 0) {
        release(&s);
        return done < 0 ? NULL : s.error;
    }
    PyObject *result = Py_BuildValue("(OOOOnn)", s.lists[KINDS], s.lists[VALUES],
                                     s.lists[LINES], s.lists[COLS], s.line, s.eof_col);
    release(&s);
    return result;
}

/* ---- configure ----------------------------------------------------------------------- */

static void
clear_tables(void)
{
    for (int k = 0; k < WORD_SLOTS; k++) {
        Py_CLEAR(word_table[k].text);
        Py_CLEAR(word_table[k].kind);
    }
    word_max_len = -1;
    for (int c = 0; c < 128; c++) {
        Py_CLEAR(punct_first[c].single);
        for (int k = 0; k < punct_first[c].npairs; k++)
            Py_CLEAR(punct_first[c].pair_kind[k]);
        punct_first[c].npairs = 0;
        punct_first[c].any = 0;
    }
    Py_CLEAR(k_ident);
    Py_CLEAR(k_int);
    Py_CLEAR(k_float);
    Py_CLEAR(k_string);
    Py_CLEAR(k_newline);
    Py_CLEAR(k_eof);
    Py_CLEAR(k_comment);
}

static int
add_word(PyObject *text, PyObject *kind)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(text);
    const Py_UCS1 *chars = PyUnicode_1BYTE_DATA(text);
    uint32_t h = FNV_START;
    for (Py_ssize_t k = 0; k < len; k++)
        h = FNV_STEP(h, chars[k]);
    int used = 0;
    uint32_t at = h & WORD_MASK;
    while (word_table[at].text != NULL) {
        if (PyUnicode_Compare(word_table[at].text, text) == 0) {
            PyErr_Format(PyExc_ValueError, "word %R given twice", text);
            return -1;
        }
        if (++used >= WORD_SLOTS / 2) {
            PyErr_SetString(PyExc_ValueError, "too many keywords");
            return -1;
        }
        at = (at + 1) & WORD_MASK;
    }
    Py_INCREF(text);
    Py_INCREF(kind);
    word_table[at].text = text;
    word_table[at].kind = kind;
    word_table[at].chars = chars;
    word_table[at].len = len;
    word_table[at].hash = h;
    if (len > word_max_len)
        word_max_len = len;
    return 0;
}

static int
is_word(PyObject *text)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(text);
    if (len == 0 || !PyUnicode_IS_ASCII(text))
        return 0;
    const Py_UCS1 *chars = PyUnicode_1BYTE_DATA(text);
    if (!IS_WORD_START(chars[0]))
        return 0;
    for (Py_ssize_t k = 1; k < len; k++)
        if (!IS_WORD_CHAR(chars[k]))
            return 0;
    return 1;
}

static int
add_punctuation(PyObject *text, PyObject *kind)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(text);
    if (is_word(text))
        return add_word(text, kind);
    if (len < 1 || len > 2 || !PyUnicode_IS_ASCII(text))
        goto bad;
    const Py_UCS1 *chars = PyUnicode_1BYTE_DATA(text);
    Py_UCS1 c = chars[0];
    /* no punctuation may start like another token or end a word or number */
    if (IS_WORD_CHAR(c) || c == '"' || c == '\n' || c == ' ' || c == '\t' || c == '\r')
        goto bad;
    PunctFirst *p = &punct_first[c];
    p->any = 1;
    if (len == 1) {
        if (p->single != NULL)
            goto bad;
        Py_INCREF(kind);
        p->single = kind;
        return 0;
    }
    if ((c == '/' && chars[1] == '/') || p->npairs == MAX_PAIRS)
        goto bad;
    Py_INCREF(kind);
    p->second[p->npairs] = chars[1];
    p->pair_kind[p->npairs] = kind;
    p->npairs++;
    return 0;
bad:
    PyErr_Format(PyExc_ValueError, "punctuation the scanner cannot read: %R", text);
    return -1;
}

static PyObject *
configure(PyObject *module, PyObject *args)
{
    PyObject *keywords, *punctuation, *ident, *int_, *float_, *string, *newline, *eof, *comment;
    (void)module;
    if (!PyArg_ParseTuple(args, "O!O!(UUUUUUU):configure", &PyTuple_Type, &keywords,
                          &PyDict_Type, &punctuation, &ident, &int_, &float_, &string,
                          &newline, &eof, &comment))
        return NULL;
    clear_tables();
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(keywords); k++) {
        PyObject *kw = PyTuple_GET_ITEM(keywords, k);
        if (!PyUnicode_Check(kw) || !is_word(kw)) {
            PyErr_Format(PyExc_ValueError, "keyword the scanner cannot read: %R", kw);
            goto fail;
        }
        if (add_word(kw, kw) < 0)   /* a keyword's kind is its own spelling */
            goto fail;
    }
    Py_ssize_t pos = 0;
    PyObject *text, *kind;
    while (PyDict_Next(punctuation, &pos, &text, &kind)) {
        if (!PyUnicode_Check(text) || !PyUnicode_Check(kind)) {
            PyErr_SetString(PyExc_TypeError, "punctuation: str -> str");
            goto fail;
        }
        if (add_punctuation(text, kind) < 0)
            goto fail;
    }
    /* k_eof last: scan() checks it */
    PyObject **kinds[] = {&k_ident, &k_int, &k_float, &k_string, &k_newline, &k_comment, &k_eof};
    PyObject *given[] = {ident, int_, float_, string, newline, comment, eof};
    for (size_t k = 0; k < sizeof(given) / sizeof(given[0]); k++) {
        Py_INCREF(given[k]);
        *kinds[k] = given[k];
    }
    Py_RETURN_NONE;
fail:
    clear_tables();
    return NULL;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS,
     "configure(keywords, punctuation, (IDENT, INT, FLOAT, STRING, NEWLINE, EOF, COMMENT)):\n"
     "the tables of language/tokens.py; call once before scan()."},
    {"scan", scan, METH_VARARGS,
     "scan(src, comments=False) -> (kinds, values, lines, cols, eof_line, eof_col),\n"
     "or (line, col, span) at the first span that starts no token."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "boruna.language._scan",
    "The .ax scanner in C (see lexer.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__scan(void)
{
    for (int k = 0; k < SMALL_COLS; k++)
        if (small_cols[k] == NULL && (small_cols[k] = PyLong_FromLong(k)) == NULL)
            return NULL;
    return PyModule_Create(&module_def);
}
