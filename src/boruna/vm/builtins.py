"""Cold-path builtins of the VM (docs/spec/vm.md §2.1): the string, list and map opcodes, on Python values.

`IMPLEMENTATIONS` maps an opcode name to its function; `COLD_OPS` (derived with the builtin
table) maps the opcode's tag to (operands popped, function). Each function takes the popped
values (first operand first) and returns the result or raises `VmError` with the reference's
texts. Also home of the work budget's opcode sets (`WORK_INPUTS`, `WORK_RESULTS`); the
per-value size caps and the work budget they enforce (`MAX_STRING_BYTES`,
`MAX_COLLECTION_LEN`, `MAX_WORK`) are `boruna.core.limits`'.
"""
from __future__ import annotations

import re as _re
import sys as _sys

from boruna.bytecode.opcodes import OPCODES
from boruna.core import errors as verr
from boruna.core.builtins import BUILTINS
from boruna.core.display import display, float_to_string
from boruna.core.errors import VmError
from boruna.core.limits import MAX_COLLECTION_LEN, MAX_STRING_BYTES
from boruna.core.unicode import to_lower, to_upper, trim
from boruna.core.values import (
    LEGACY_LIST_TYPE_ID, NONE, Err, MapValue, Ok, Record, Some, type_name,
)


_INT_RE = _re.compile(r"[+-]?[0-9]+\Z")
_FLOAT_RE = _re.compile(
    r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)\Z",
    _re.IGNORECASE)

I64_MIN = -(1 << 63)
I64_MAX = (1 << 63) - 1


def _parse_i64(s):
    """Rust `str::parse::<i64>`: optional sign, ASCII digits only, in range; None on failure."""
    if not _INT_RE.match(s):
        return None
    n = int(s)
    if n < I64_MIN or n > I64_MAX:
        return None
    return n


def _parse_f64(s):
    """Rust `str::parse::<f64>` grammar (accepts `1e3`, `inf`, `NaN`, `.5`, `5.`)."""
    if not _FLOAT_RE.match(s) or s in (".", "+.", "-."):
        return None
    try:
        return float(s)
    except ValueError:
        return None


def _tn(v):
    return type_name(v)


def _want_str(v, expected="String"):
    if type(v) is not str:
        raise verr.type_error(expected, _tn(v))


def _want_list(v):
    if type(v) is not tuple:
        raise verr.type_error("List", _tn(v))


def _want_map(v):
    if type(v) is not MapValue:
        raise verr.type_error("Map", _tn(v))


def _two_str(a, b):
    if type(a) is not str:
        raise verr.type_error("String", _tn(a))
    if type(b) is not str:
        raise verr.type_error("String", _tn(b))


def _map_key(m, k):
    _want_map(m)
    if type(k) is not str:
        raise verr.type_error("String", _tn(k))


def _short_list_items(l):
    """The items the short list builtins (ListLen/ListGet/ListPush) read: a List's, or the
    fields of the reference's legacy list record."""
    if type(l) is tuple:
        return l
    if type(l) is Record and l.type_id == LEGACY_LIST_TYPE_ID:
        return l.fields
    raise verr.type_error("List", _tn(l))


def _b_list_len(l):
    return len(_short_list_items(l))


def _b_list_get(l, i):
    if type(i) is not int:
        raise verr.type_error("Int", _tn(i))
    items = _short_list_items(l)
    if i < 0 or i >= len(items):
        raise verr.index_out_of_bounds(i, len(items))
    return items[i]


def _b_list_push(l, v):
    items = _short_list_items(l)
    _check_len(len(items) + 1)
    return items + (v,)


def _b_parse_int(s):
    _want_str(s)
    n = _parse_i64(trim(s))
    return 0 if n is None else n


def _b_try_parse_int(s):
    _want_str(s)
    n = _parse_i64(trim(s))
    if n is None:
        return Err("invalid integer: " + s)
    return Ok(n)


def _b_contains(h, n):
    _two_str(h, n)
    return n in h


def _b_starts_with(s, p):
    _two_str(s, p)
    return s.startswith(p)


def _b_ends_with(s, x):
    _two_str(s, x)
    return s.endswith(x)


def _b_float_to_string(x):
    if type(x) is not float:
        raise verr.type_error("Float", _tn(x))
    return float_to_string(x)


def _b_chars(s):
    _want_str(s)
    _check_len(len(s))
    return tuple(s)


def _b_upper(s):
    _want_str(s)
    r = to_upper(s)
    _check_str(r)
    return r


def _b_lower(s):
    _want_str(s)
    r = to_lower(s)
    _check_str(r)
    return r


def _b_trim(s):
    _want_str(s)
    return trim(s)


def _b_join(l, sep):
    if type(l) is not tuple:
        raise verr.type_error("List", _tn(l))
    if type(sep) is not str:
        raise verr.type_error("String", _tn(sep))
    for v in l:
        if type(v) is not str:
            raise verr.type_error("String", _tn(v))
    total = sum(len(v) for v in l) + len(sep) * max(len(l) - 1, 0)
    if total > MAX_STRING_BYTES // 4:
        _check_str_len(sum(_utf8_len(v) for v in l) + _utf8_len(sep) * max(len(l) - 1, 0))
    return sep.join(l)


def _b_list_len_builtin(l):
    _want_list(l)
    return len(l)


def _b_is_empty(l):
    _want_list(l)
    return len(l) == 0


def _b_head(l):
    _want_list(l)
    return Some(l[0]) if l else NONE


def _b_tail(l):
    _want_list(l)
    return l[1:]


def _b_append(l, x):
    _want_list(l)
    _check_len(len(l) + 1)
    return l + (x,)


def _b_concat(a, b):
    if type(a) is not tuple:
        raise verr.type_error("List", _tn(a))
    if type(b) is not tuple:
        raise verr.type_error("List", _tn(b))
    _check_len(len(a) + len(b))
    return a + b


def _b_reverse(l):
    _want_list(l)
    return l[::-1]


def _b_split(s, sep):
    _two_str(s, sep)
    if sep == "":
        _check_len(len(s))
        return tuple(s)
    if s.count(sep) + 1 > MAX_COLLECTION_LEN:
        _check_len(s.count(sep) + 1)
    return tuple(s.split(sep))


def _b_replace(s, a, b):
    if type(s) is not str or type(a) is not str or type(b) is not str:
        raise verr.type_error("String", "non-String")
    # str.replace matches Rust's, also for an empty pattern (`to` around every char)
    n = len(s) + 1 if a == "" else s.count(a)
    if n and len(s) + n * (len(b) - len(a)) > MAX_STRING_BYTES // 4:
        _check_str_len(_utf8_len(s) + n * (_utf8_len(b) - _utf8_len(a)))
    return s.replace(a, b)


def _b_slice(s, start, end):
    if type(s) is not str or type(start) is not int or type(end) is not int:
        raise verr.type_error("String, Int, Int", "wrong types")
    if start < 0 or end < 0 or start > end:
        return ""
    if s.isascii():
        if end > len(s):
            return ""
        return s[start:end]
    data = s.encode("utf-8")
    if end > len(data):
        return ""
    try:
        return data[start:end].decode("utf-8") if _on_boundary(data, start) and \
            _on_boundary(data, end) else ""
    except UnicodeDecodeError:
        return ""


def _on_boundary(data, i):
    return i == len(data) or (data[i] & 0xC0) != 0x80


def _b_int_parse(s):
    _want_str(s)
    n = _parse_i64(s)
    return NONE if n is None else Some(n)


def _b_float_parse(s):
    _want_str(s)
    f = _parse_f64(s)
    return NONE if f is None else Some(f)


def _b_bool_to_string(b):
    if type(b) is not bool:
        raise verr.type_error("Bool", _tn(b))
    return "true" if b else "false"


def _b_map_get(m, k):
    _map_key(m, k)
    return Some(m[k]) if k in m else NONE


def _b_map_set(m, k, v):
    _map_key(m, k)
    if k not in m:
        _check_len(len(m) + 1)
    d = dict(m)
    d[k] = v
    return MapValue(d)


def _b_map_remove(m, k):
    _map_key(m, k)
    d = dict(m)
    d.pop(k, None)
    return MapValue(d)


def _b_map_contains(m, k):
    _map_key(m, k)
    return k in m


def _b_map_keys(m):
    _want_map(m)
    return tuple(m.keys())


def _b_map_values(m):
    _want_map(m)
    return tuple(m.values())


def _b_map_len(m):
    _want_map(m)
    return len(m)


def _b_debug(v):
    try:
        _sys.stderr.write(display(v) + "\n")
    except Exception:
        pass
    return v


def _b_debug_msg(msg, v):
    text = msg if type(msg) is str else display(msg)
    try:
        _sys.stderr.write(text + " " + display(v) + "\n")
    except Exception:
        pass
    return v


def _utf8_len(s):
    return len(s) if s.isascii() else len(s.encode("utf-8", "surrogatepass"))


def _check_str_len(nbytes):
    if nbytes > MAX_STRING_BYTES:
        raise verr.string_too_large(nbytes)


def _check_str(s):
    if len(s) > MAX_STRING_BYTES // 4:
        _check_str_len(_utf8_len(s))


def _check_len(n):
    if n > MAX_COLLECTION_LEN:
        raise verr.collection_too_large(n)


# builtins charged the size of their operands before running (they scan or copy them) ...
WORK_INPUT_OPS = (
    "ListPush", "ParseInt", "StrContains", "TryParseInt", "StringChars", "StringContains",
    "StringToUpper", "StringToLower", "StringTrim", "StringJoin", "ListTail", "ListAppend",
    "ListConcat", "ListReverse", "StringSplit", "StringReplace", "IntParse", "FloatParse",
    "MapSet", "MapRemove", "MapKeys", "MapValues",
)
# ... and those charged the size of the value they built
WORK_RESULT_OPS = ("StringChars", "StringToUpper", "StringToLower", "StringJoin", "StringSplit",
                   "StringReplace", "StringSlice")
WORK_INPUTS = frozenset(OPCODES[name].tag for name in WORK_INPUT_OPS)
WORK_RESULTS = frozenset(OPCODES[name].tag for name in WORK_RESULT_OPS)


def _row_value(row, column):
    _map_key(row, column)
    if column not in row:
        raise verr.row_column_missing(column, list(row))
    return row[column]


def _b_row_int(row, column):
    v = _row_value(row, column)
    if type(v) is not int:
        raise verr.row_column_type(column, "Int", _tn(v))
    return v


def _b_row_float(row, column):
    v = _row_value(row, column)
    if type(v) is int:
        return float(v)
    if type(v) is not float:
        raise verr.row_column_type(column, "Float", _tn(v))
    return v


def _b_row_string(row, column):
    v = _row_value(row, column)
    if type(v) is not str:
        raise verr.row_column_type(column, "String", _tn(v))
    return v


def _b_row_bool(row, column):
    v = _row_value(row, column)
    if type(v) is bool:
        return v
    if type(v) is int and v in (0, 1):
        return v == 1
    raise verr.row_column_type(column, "Bool (or 0/1)", _tn(v) if type(v) is not int else str(v))


def _b_row_is_null(row, column):
    return _row_value(row, column) is None


# the implementation of each builtin instruction, by opcode name (bytecode/opcodes.py)
IMPLEMENTATIONS = {
    "ListLen": _b_list_len,
    "ListGet": _b_list_get,
    "ListPush": _b_list_push,
    "ParseInt": _b_parse_int,
    "StrContains": _b_contains,
    "StrStartsWith": _b_starts_with,
    "TryParseInt": _b_try_parse_int,
    "FloatToString": _b_float_to_string,
    "StringChars": _b_chars,
    "StringContains": _b_contains,
    "StringStartsWith": _b_starts_with,
    "StringEndsWith": _b_ends_with,
    "StringToUpper": _b_upper,
    "StringToLower": _b_lower,
    "StringTrim": _b_trim,
    "StringJoin": _b_join,
    "ListLenBuiltin": _b_list_len_builtin,
    "ListIsEmpty": _b_is_empty,
    "ListHead": _b_head,
    "ListTail": _b_tail,
    "ListAppend": _b_append,
    "ListConcat": _b_concat,
    "ListReverse": _b_reverse,
    "StringSplit": _b_split,
    "StringReplace": _b_replace,
    "StringSlice": _b_slice,
    "IntParse": _b_int_parse,
    "FloatParse": _b_float_parse,
    "BoolToString": _b_bool_to_string,
    "MapGet": _b_map_get,
    "MapSet": _b_map_set,
    "MapRemove": _b_map_remove,
    "MapContainsKey": _b_map_contains,
    "MapKeys": _b_map_keys,
    "MapValues": _b_map_values,
    "MapLen": _b_map_len,
    "Debug": _b_debug,
    "DebugMsg": _b_debug_msg,
    "MapNew": MapValue,
    "RowInt": _b_row_int,
    "RowFloat": _b_row_float,
    "RowString": _b_row_string,
    "RowBool": _b_row_bool,
    "RowIsNull": _b_row_is_null,
}

# opcode tag -> (number of operands popped = the builtin's arity, function)
COLD_OPS = {OPCODES[b.opcode].tag: (b.arity, IMPLEMENTATIONS[b.opcode])
            for b in BUILTINS if b.opcode in IMPLEMENTATIONS}


def normalize_value(v):
    """A capability handler's result in the VM's representation: Python lists become Lists
    (tuples) and plain dicts become Maps, at any depth; everything else is kept."""
    t = type(v)
    if t is list or t is tuple:
        return tuple(normalize_value(x) for x in v)
    if t is dict:
        return MapValue({str(k): normalize_value(x) for k, x in v.items()})
    if t is MapValue:
        return MapValue({k: normalize_value(x) for k, x in v.items()})
    if t is Some or t is Ok or t is Err:
        return t(normalize_value(v.value))
    return v
