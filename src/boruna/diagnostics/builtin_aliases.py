"""Names agents bring from other languages, mapped to the `.ax` builtin that does the job
(an addition): `trim(s)` → `__builtin_string_trim(s)`, `push(xs, x)` → `list_push(xs, x)`.
Used for an undefined call when no declared name is close; only offered when the call's
argument count equals the builtin's arity (checked by the caller).
"""
from __future__ import annotations

from typing import Optional

ALIASES: dict[str, str] = {}
for _target, _names in {
    "list_push": ("push", "append"),
    "list_get": ("get", "nth", "at"),
    "list_len": ("len", "length", "size", "count"),
    "str_contains": ("contains", "includes", "string_contains"),
    "str_starts_with": ("starts_with", "startswith", "startsWith", "string_starts_with"),
    "__builtin_string_ends_with": ("ends_with", "endswith", "endsWith", "str_ends_with",
                                   "string_ends_with"),
    "__builtin_string_trim": ("trim", "strip", "str_trim", "string_trim"),
    "__builtin_string_to_upper": ("upper", "to_upper", "to_uppercase", "toUpperCase",
                                  "str_to_upper", "uppercase"),
    "__builtin_string_to_lower": ("lower", "to_lower", "to_lowercase", "toLowerCase",
                                  "str_to_lower", "lowercase"),
    "__builtin_string_split": ("split", "str_split", "string_split"),
    "__builtin_string_join": ("join", "str_join", "string_join"),
    "__builtin_string_replace": ("replace", "str_replace", "string_replace", "replace_all"),
    "__builtin_string_slice": ("slice", "substring", "substr", "str_slice"),
    "__builtin_string_len": ("str_len", "strlen", "string_len", "string_length", "str_length"),
    "__builtin_string_chars": ("chars", "str_chars"),
    "__builtin_int_to_string": ("to_string", "int_to_string", "str", "toString", "itoa",
                                "string"),
    "__builtin_float_to_string": ("float_to_string",),
    "__builtin_bool_to_string": ("bool_to_string",),
    "__builtin_float_parse": ("parse_float", "float_parse", "to_float"),
    "__builtin_list_reverse": ("reverse", "list_reverse"),
    "__builtin_list_concat": ("concat", "list_concat", "extend"),
    "__builtin_list_head": ("head", "first", "list_head"),
    "__builtin_list_tail": ("tail", "rest", "list_tail"),
    "__builtin_list_is_empty": ("is_empty", "list_is_empty", "empty"),
    "__builtin_debug": ("print", "println", "debug", "log", "dbg", "console_log"),
}.items():
    for _name in _names:
        ALIASES[_name] = _target


def builtin_for(name: str, arity: Optional[int], arities: dict[str, int]) -> Optional[str]:
    """The builtin an other-language `name` stands for, when a call with `arity` arguments
    fits it (`arity` None: not a call, no suggestion)."""
    target = ALIASES.get(name)
    if target is None or arity is None or arities.get(target) != arity:
        return None
    return target
