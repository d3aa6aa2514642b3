/* The scan loop of `_scan.c` and its helpers, compiled once per code-unit width of a `str`
 * (included three times with SCAN_CHAR = Py_UCS1 / Py_UCS2 / Py_UCS4 and SCAN_NAME(x)
 * naming each function for that width).
 *
 * Every read of the text is `T[i]` with `i < n` checked first; nothing here assumes a NUL
 * terminator (a `str` may hold NUL) or valid UTF-8 (a `str` may hold lone surrogates). */

/* `len` ASCII word characters at `T` equal the ASCII bytes `chars` */
static inline int
SCAN_NAME(same_ascii)(const SCAN_CHAR *T, const Py_UCS1 *chars, Py_ssize_t len)
{
    for (Py_ssize_t k = 0; k < len; k++)
        if (T[k] != chars[k])
            return 0;
    return 1;
}

/* The identifier `T[0:len]` (hash `h`) as one str per distinct name in this scan: later
 * lookups of the name (scopes, function tables) find it by identity. A borrowed reference
 * (the table owns it), or NULL with an exception set. */
static PyObject *
SCAN_NAME(intern)(Scan *s, const SCAN_CHAR *T, Py_ssize_t len, uint32_t h)
{
    size_t mask = s->names_cap - 1;
    size_t at = h & mask;
    for (; s->names[at].text != NULL; at = (at + 1) & mask) {
        Name *e = &s->names[at];
        if (e->hash == h && PyUnicode_GET_LENGTH(e->text) == len &&
                SCAN_NAME(same_ascii)(T, PyUnicode_1BYTE_DATA(e->text), len))
            return e->text;
    }
    PyObject *text = PyUnicode_New(len, 127);
    if (text == NULL)
        return NULL;
    Py_UCS1 *out = PyUnicode_1BYTE_DATA(text);
    for (Py_ssize_t k = 0; k < len; k++)
        out[k] = (Py_UCS1)T[k];
    s->names[at].text = text;
    s->names[at].hash = h;
    if (++s->names_used * 2 > s->names_cap && grow_names(s) < 0)
        return NULL;
    return text;
}

/* float() of the ASCII digits and point `T[0:len]` (a new reference, or NULL) */
static PyObject *
SCAN_NAME(to_float)(const SCAN_CHAR *T, Py_ssize_t len)
{
    char small[64];
    char *buf = small;
    if (len >= (Py_ssize_t)sizeof(small)) {
        buf = PyMem_Malloc((size_t)len + 1);
        if (buf == NULL)
            return PyErr_NoMemory();
    }
    for (Py_ssize_t k = 0; k < len; k++)
        buf[k] = (char)T[k];
    buf[len] = '\0';
    double v = PyOS_string_to_double(buf, NULL, NULL);
    if (buf != small)
        PyMem_Free(buf);
    if (v == -1.0 && PyErr_Occurred())
        return NULL;
    return PyFloat_FromDouble(v);
}

/* The string literal body `T[0:len]` with its `escapes` escape pairs decoded
 * (`\\ \" \n \t \r`; any other pair is kept as written): a new reference, or NULL */
static PyObject *
SCAN_NAME(decode)(const SCAN_CHAR *T, Py_ssize_t len, Py_ssize_t escapes)
{
    (void)escapes;
    if ((size_t)len > PY_SSIZE_T_MAX / sizeof(Py_UCS4))
        return PyErr_NoMemory();
    Py_UCS4 *buf = PyMem_Malloc(len ? (size_t)len * sizeof(Py_UCS4) : 1);
    if (buf == NULL)
        return PyErr_NoMemory();
    Py_ssize_t m = 0;
    for (Py_ssize_t k = 0; k < len; k++) {
        Py_UCS4 u = T[k];
        if (u == '\\' && k + 1 < len) {
            Py_UCS4 e = T[k + 1];
            Py_UCS4 to = e == '\\' ? '\\' : e == '"' ? '"' : e == 'n' ? '\n'
                       : e == 't' ? '\t' : e == 'r' ? '\r' : 0;
            if (to != 0) {
                buf[m++] = to;
                k++;
                continue;
            }
            buf[m++] = u;
            buf[m++] = e;
            k++;
            continue;
        }
        buf[m++] = u;
    }
    PyObject *text = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, buf, m);
    PyMem_Free(buf);
    return text;
}

static int
SCAN_NAME(scan)(const SCAN_CHAR *T, Py_ssize_t n, int comments, Scan *s)
{
    Py_ssize_t i = 0;
    Py_ssize_t line = 1;
    /* a token's byte column is its offset minus `base`: the offset of the last newline, less
     * the extra UTF-8 bytes of the non-ASCII characters read since on that line */
    Py_ssize_t base = -1;
    /* s->n just after the last Newline pushed, moved past the comments pushed right after it:
     * equal to s->n while no other token has followed that Newline */
    Py_ssize_t nl_at = -1;

    for (;;) {
        while (i < n && (T[i] == ' ' || T[i] == '\t' || T[i] == '\r'))
            i++;
        if (i >= n)
            break;
        Py_UCS4 c = T[i];
        Py_ssize_t col = i - base;

        if (c < 128 && IS_WORD_START(c)) {
            Py_ssize_t j = i + 1;
            uint32_t h = FNV_START;
            h = FNV_STEP(h, c);
            while (j < n && T[j] < 128 && IS_WORD_CHAR(T[j])) {
                h = FNV_STEP(h, T[j]);
                j++;
            }
            Py_ssize_t len = j - i;
            PyObject *kind = NULL;
            if (len <= word_max_len) {
                for (uint32_t at = h & WORD_MASK; word_table[at].text != NULL;
                     at = (at + 1) & WORD_MASK) {
                    if (word_table[at].hash == h && word_table[at].len == len &&
                            SCAN_NAME(same_ascii)(T + i, word_table[at].chars, len)) {
                        kind = word_table[at].kind;
                        break;
                    }
                }
            }
            if (kind != NULL) {
                if (push(s, kind, Py_None, line, col) < 0)
                    return -1;
            } else {
                PyObject *name = SCAN_NAME(intern)(s, T + i, len, h);
                if (name == NULL || push(s, k_ident, name, line, col) < 0)
                    return -1;
            }
            i = j;
            continue;
        }
        if (c == '\n') {
            line++;
            base = i;
            i++;
            if (s->n != nl_at) {
                if (push(s, k_newline, Py_None, line, 1) < 0)
                    return -1;
                nl_at = s->n;
            }
            continue;
        }
        if (c >= '0' && c <= '9') {
            Py_ssize_t j = i + 1;
            while (j < n && T[j] >= '0' && T[j] <= '9')
                j++;
            if (j + 1 < n && T[j] == '.' && T[j + 1] >= '0' && T[j + 1] <= '9') {
                j += 2;
                while (j < n && T[j] >= '0' && T[j] <= '9')
                    j++;
                PyObject *value = SCAN_NAME(to_float)(T + i, j - i);
                if (value == NULL || push_new(s, k_float, value, line, col) < 0)
                    return -1;
                i = j;
                continue;
            }
            /* an integer: its value must fit an I64 (leading zeros aside) */
            Py_ssize_t d = i;
            while (d < j - 1 && T[d] == '0')
                d++;
            Py_ssize_t digits = j - d;
            int too_big = digits > 19;
            unsigned long long v = 0;
            if (!too_big) {
                for (Py_ssize_t k = d; k < j; k++)
                    v = v * 10 + (unsigned long long)(T[k] - '0');
                too_big = v > (unsigned long long)INT64_MAX;
            }
            if (too_big)
                return set_error(s, line, col, i, j);
            PyObject *value = PyLong_FromLongLong((long long)v);
            if (value == NULL || push_new(s, k_int, value, line, col) < 0)
                return -1;
            i = j;
            continue;
        }
        if (c == '"') {
            /* the body: units other than `"`, `\` and surrogates, or `\` and any character
             * but a newline or a surrogate */
            Py_ssize_t j = i + 1;
            Py_ssize_t sline = line, sbase = base;
            Py_ssize_t escapes = 0;
            for (;;) {
                if (j >= n)
                    break;
                Py_UCS4 u = T[j];
                if (u == '"' || IS_SURROGATE(u))
                    break;
                if (u == '\\') {
                    if (j + 1 >= n)
                        break;
                    Py_UCS4 e = T[j + 1];
                    if (e == '\n' || IS_SURROGATE(e))
                        break;
                    sbase -= EXTRA_BYTES(e);
                    escapes++;
                    j += 2;
                    continue;
                }
                if (u == '\n') {
                    sline++;
                    sbase = j;
                } else {
                    sbase -= EXTRA_BYTES(u);
                }
                j++;
            }
            if (j < n && T[j] == '"') {
                PyObject *value = escapes ? SCAN_NAME(decode)(T + i + 1, j - i - 1, escapes)
                                          : PyUnicode_Substring(s->src, i + 1, j);
                if (value == NULL || push_new(s, k_string, value, line, col) < 0)
                    return -1;
                line = sline;
                base = sbase;
                i = j + 1;
                continue;
            }
            /* unterminated: text that is not UTF-8 inside it is reported itself */
            Py_ssize_t end = j;
            if (end < n) {
                Py_UCS4 nxt = T[end];
                if (nxt == '\\' && end + 1 < n && IS_SURROGATE(T[end + 1])) {
                    end += 1;
                    nxt = T[end];
                }
                if (IS_SURROGATE(nxt))
                    return set_error(s, sline, end - sbase, end, end + 1);
            }
            return set_error(s, line, col, i, j);
        }
        if (c == '/' && i + 1 < n && T[i + 1] == '/') {
            Py_ssize_t j = i + 2;
            Py_ssize_t cbase = base;
            while (j < n && T[j] != '\n' && !IS_SURROGATE(T[j])) {
                cbase -= EXTRA_BYTES(T[j]);
                j++;
            }
            if (comments) {
                /* trivia: never a parser token, never breaks a Newline run */
                if (nl_at == s->n)
                    nl_at++;
                PyObject *value = PyUnicode_Substring(s->src, i + 2, j);
                if (value == NULL || push_new(s, k_comment, value, line, col) < 0)
                    return -1;
            }
            base = cbase;
            i = j;
            continue;
        }
        if (c < 128 && punct_first[c].any) {
            const PunctFirst *p = &punct_first[c];
            if (i + 1 < n) {
                Py_UCS4 d = T[i + 1];
                int found = 0;
                for (int k = 0; k < p->npairs; k++) {
                    if (p->second[k] == d) {
                        if (push(s, p->pair_kind[k], Py_None, line, col) < 0)
                            return -1;
                        i += 2;
                        found = 1;
                        break;
                    }
                }
                if (found)
                    continue;
            }
            if (p->single != NULL) {
                if (push(s, p->single, Py_None, line, col) < 0)
                    return -1;
                i += 1;
                continue;
            }
        }
        /* a character that starts no token */
        return set_error(s, line, col, i, i + 1);
    }
    s->line = line;
    s->eof_col = n - base;
    return 0;
}
