"""The one builtin table (docs/spec/language.md §3.8): every builtin function of `.ax`, defined once.

A row holds the builtin's name, the instruction a direct call compiles to (an `Op` name of
`bytecode/opcodes.py`), its type signature, the capability it needs (if any), the names
agents bring from other languages for it (`aliases`, offered by `boruna check`) and a
one-line doc. The arity is the signature's parameter count. Name resolution
(`language.names.BUILTIN_ARITIES`), codegen (`bytecode.opcodes.BUILTINS`), the VM's
implementations (`vm/builtins.py`, keyed by opcode) and the diagnostics read this table; a
builtin's name is spelled nowhere else. Adding a builtin = one row here, its opcode row and
its implementation.

Signatures use a small type syntax, parsed by `parse_signature`:

    signature := "(" [type ("," type)*] ")" "->" type
    type      := NAME ["<" type ("," type)* ">"]

A NAME of one capital letter (`T`, `V`) is a type variable; `Signature.instantiate` replaces
type variables, so a checker can give each call fresh ones. The compiler itself checks only
the arity; the types describe what the VM does with the values.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Union


# ---------------------------------------------------------------- types

@dataclass(frozen=True)
class TypeVar:
    """A type variable (`T`): any one type, the same at each of its occurrences."""
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class TypeCon:
    """A named type with its arguments: `Int`, `List<T>`, `Map<String, V>`."""
    name: str
    args: tuple["Type", ...] = ()

    def __str__(self) -> str:
        if not self.args:
            return self.name
        return f"{self.name}<{', '.join(str(a) for a in self.args)}>"


Type = Union[TypeVar, TypeCon]


def substitute(ty: Type, mapping: dict[str, Type]) -> Type:
    """`ty` with each type variable named in `mapping` replaced."""
    if isinstance(ty, TypeVar):
        return mapping.get(ty.name, ty)
    if not ty.args:
        return ty
    return TypeCon(ty.name, tuple(substitute(a, mapping) for a in ty.args))


def type_vars_of(ty: Type, out: Optional[list[str]] = None) -> list[str]:
    """The type variables of `ty`, in order of first occurrence."""
    out = [] if out is None else out
    if isinstance(ty, TypeVar):
        if ty.name not in out:
            out.append(ty.name)
    else:
        for a in ty.args:
            type_vars_of(a, out)
    return out


@dataclass(frozen=True)
class Signature:
    params: tuple[Type, ...]
    result: Type

    @property
    def arity(self) -> int:
        return len(self.params)

    @property
    def type_vars(self) -> tuple[str, ...]:
        """The type variables, in order of first occurrence (parameters, then result)."""
        out: list[str] = []
        for ty in self.params + (self.result,):
            type_vars_of(ty, out)
        return tuple(out)

    def instantiate(self, mapping: dict[str, Type]) -> "Signature":
        """The signature with the type variables of `mapping` replaced."""
        return Signature(tuple(substitute(p, mapping) for p in self.params),
                         substitute(self.result, mapping))

    def __str__(self) -> str:
        return f"({', '.join(str(p) for p in self.params)}) -> {self.result}"


_TOKEN = re.compile(r"\s*(?:([A-Za-z_][A-Za-z0-9_]*)|(->|[(),<>]))")


class SignatureError(ValueError):
    """A signature text that does not follow the syntax in the module doc."""


def _tokens(text: str) -> list[str]:
    out, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if m is None:
            raise SignatureError(f"unexpected text at {pos} in {text!r}")
        out.append(m.group(1) or m.group(2))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks = _tokens(text)
        self.pos = 0

    def peek(self) -> Optional[str]:
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def take(self, want: Optional[str] = None) -> str:
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise SignatureError(f"expected {want or 'a type'} at token {self.pos} of "
                                 f"{self.text!r}")
        self.pos += 1
        return tok

    def type_(self) -> Type:
        name = self.take()
        if not (name[0].isalpha() or name[0] == "_"):
            raise SignatureError(f"expected a type name, got {name!r} in {self.text!r}")
        if self.peek() != "<":
            return TypeVar(name) if len(name) == 1 and name.isupper() else TypeCon(name)
        self.take("<")
        args = [self.type_()]
        while self.peek() == ",":
            self.take(",")
            args.append(self.type_())
        self.take(">")
        return TypeCon(name, tuple(args))

    def signature(self) -> Signature:
        self.take("(")
        params = []
        if self.peek() != ")":
            params.append(self.type_())
            while self.peek() == ",":
                self.take(",")
                params.append(self.type_())
        self.take(")")
        self.take("->")
        result = self.type_()
        if self.peek() is not None:
            raise SignatureError(f"unexpected {self.peek()!r} after the result in "
                                 f"{self.text!r}")
        return Signature(tuple(params), result)


def parse_type(text: str) -> Type:
    p = _Parser(text)
    ty = p.type_()
    if p.peek() is not None:
        raise SignatureError(f"unexpected {p.peek()!r} in {text!r}")
    return ty


def parse_signature(text: str) -> Signature:
    """`"(List<T>, T) -> List<T>"` as a `Signature`; `SignatureError` when malformed."""
    return _Parser(text).signature()


# ---------------------------------------------------------------- the table

@dataclass(frozen=True)
class Builtin:
    name: str
    opcode: str                       # the instruction a direct call compiles to
    signature: Signature
    doc: str
    aliases: tuple[str, ...] = ()     # other languages' names for it (check's suggestions)
    capability: Optional[str] = None  # wire name of the capability a call needs

    @property
    def prefixed(self) -> bool:
        """Whether the name has the reference's `__builtin_` prefix."""
        return self.name.startswith("__builtin_")

    @property
    def arity(self) -> int:
        return self.signature.arity


def _row(name, opcode, signature, doc, aliases=(), capability=None) -> Builtin:
    return Builtin(name, opcode, parse_signature(signature), doc, tuple(aliases), capability)


# The reference's 42 builtins in its order (docs/spec/language.md §3.8, types there), then ours.
BUILTINS: tuple[Builtin, ...] = (
    _row("list_len", "ListLen", "(List<T>) -> Int", "number of elements",
         ("len", "length", "size", "count")),
    _row("list_get", "ListGet", "(List<T>, Int) -> T",
         "element at an index; out of range is a runtime error", ("get", "nth", "at")),
    _row("list_push", "ListPush", "(List<T>, T) -> List<T>", "a new list with one more element",
         ("push", "append")),
    _row("parse_int", "ParseInt", "(String) -> Int", "decimal integer, trimmed; 0 on failure"),
    _row("try_parse_int", "TryParseInt", "(String) -> Result<Int, String>",
         "decimal integer, trimmed; Err(`invalid integer: <text>`) on failure"),
    _row("str_contains", "StrContains", "(String, String) -> Bool",
         "whether the second string occurs in the first",
         ("contains", "includes", "string_contains")),
    _row("str_starts_with", "StrStartsWith", "(String, String) -> Bool",
         "whether the first string starts with the second",
         ("starts_with", "startswith", "startsWith", "string_starts_with")),
    _row("step_input", "CapCall", "(String) -> String",
         "JSON text of an upstream workflow step's output", capability="step.input"),
    _row("__builtin_int_to_string", "IntToString", "(Int) -> String", "decimal text",
         ("to_string", "int_to_string", "str", "toString", "itoa", "string")),
    _row("__builtin_float_to_string", "FloatToString", "(Float) -> String",
         "Rust `Display` text of an f64 (`1` for 1.0)", ("float_to_string",)),
    _row("__builtin_string_len", "StringLen", "(String) -> Int", "UTF-8 byte length",
         ("str_len", "strlen", "string_len", "string_length", "str_length")),
    _row("__builtin_string_chars", "StringChars", "(String) -> List<String>",
         "one string per Unicode scalar", ("chars", "str_chars")),
    _row("__builtin_string_contains", "StringContains", "(String, String) -> Bool",
         "whether the second string occurs in the first"),
    _row("__builtin_string_starts_with", "StringStartsWith", "(String, String) -> Bool",
         "whether the first string starts with the second"),
    _row("__builtin_string_ends_with", "StringEndsWith", "(String, String) -> Bool",
         "whether the first string ends with the second",
         ("ends_with", "endswith", "endsWith", "str_ends_with", "string_ends_with")),
    _row("__builtin_string_to_upper", "StringToUpper", "(String) -> String",
         "full Unicode upper-case mapping",
         ("upper", "to_upper", "to_uppercase", "toUpperCase", "str_to_upper", "uppercase")),
    _row("__builtin_string_to_lower", "StringToLower", "(String) -> String",
         "full Unicode lower-case mapping",
         ("lower", "to_lower", "to_lowercase", "toLowerCase", "str_to_lower", "lowercase")),
    _row("__builtin_string_trim", "StringTrim", "(String) -> String",
         "Unicode White_Space stripped from both ends",
         ("trim", "strip", "str_trim", "string_trim")),
    _row("__builtin_string_join", "StringJoin", "(List<String>, String) -> String",
         "the strings joined with a separator", ("join", "str_join", "string_join")),
    _row("__builtin_list_len", "ListLenBuiltin", "(List<T>) -> Int", "number of elements"),
    _row("__builtin_list_is_empty", "ListIsEmpty", "(List<T>) -> Bool",
         "whether the list has no elements", ("is_empty", "list_is_empty", "empty")),
    _row("__builtin_list_head", "ListHead", "(List<T>) -> Option<T>",
         "the first element, None when empty", ("head", "first", "list_head")),
    _row("__builtin_list_tail", "ListTail", "(List<T>) -> List<T>",
         "all but the first element (empty stays empty)", ("tail", "rest", "list_tail")),
    _row("__builtin_list_append", "ListAppend", "(List<T>, T) -> List<T>",
         "a new list with one more element"),
    _row("__builtin_list_concat", "ListConcat", "(List<T>, List<T>) -> List<T>",
         "the elements of both lists", ("concat", "list_concat", "extend")),
    _row("__builtin_list_reverse", "ListReverse", "(List<T>) -> List<T>",
         "the elements in reverse order", ("reverse", "list_reverse")),
    _row("__builtin_string_split", "StringSplit", "(String, String) -> List<String>",
         "pieces between separators; an empty separator splits into characters",
         ("split", "str_split", "string_split")),
    _row("__builtin_string_replace", "StringReplace", "(String, String, String) -> String",
         "every occurrence replaced",
         ("replace", "str_replace", "string_replace", "replace_all")),
    _row("__builtin_string_slice", "StringSlice", "(String, Int, Int) -> String",
         "a byte range; an invalid range gives \"\"",
         ("slice", "substring", "substr", "str_slice")),
    _row("__builtin_int_parse", "IntParse", "(String) -> Option<Int>",
         "decimal integer, untrimmed; None on failure"),
    _row("__builtin_float_parse", "FloatParse", "(String) -> Option<Float>",
         "Rust f64 syntax; None on failure", ("parse_float", "float_parse", "to_float")),
    _row("__builtin_bool_to_string", "BoolToString", "(Bool) -> String",
         "`true` or `false`", ("bool_to_string",)),
    _row("__builtin_map_get", "MapGet", "(Map<String, V>, String) -> Option<V>",
         "the value of a key, None when absent"),
    _row("__builtin_map_set", "MapSet", "(Map<String, V>, String, V) -> Map<String, V>",
         "a new map with the key set"),
    _row("__builtin_map_remove", "MapRemove", "(Map<String, V>, String) -> Map<String, V>",
         "a new map without the key"),
    _row("__builtin_map_contains_key", "MapContainsKey", "(Map<String, V>, String) -> Bool",
         "whether the key is present"),
    _row("__builtin_map_keys", "MapKeys", "(Map<String, V>) -> List<String>",
         "the keys, sorted"),
    _row("__builtin_map_values", "MapValues", "(Map<String, V>) -> List<V>",
         "the values, in key order"),
    _row("__builtin_map_len", "MapLen", "(Map<String, V>) -> Int", "number of keys"),
    _row("__builtin_debug", "Debug", "(T) -> T", "prints the value to stderr, returns it",
         ("print", "println", "debug", "log", "dbg", "console_log")),
    _row("__builtin_debug_msg", "DebugMsg", "(String, T) -> T",
         "prints a message and the value to stderr, returns the value"),
    _row("__builtin_guard", "GuardSeal", "(T, Bool, String) -> T",
         "a sealed check labelled by the third argument; traps when the second is false"),
    # Additions (issue 13, not in the reference): a function of the program with the same
    # name wins. A capability builtin needs its capability declared by the calling function
    # (only DECLARED_BY_COMPILER is added by the compiler); docs/capabilities.md.
    _row("net_fetch", "CapCall", "(String) -> String", "the body of an HTTP GET of the URL",
         capability="net.fetch"),
    _row("fs_read", "CapCall", "(String) -> String", "the text of a file under the file root",
         ("read_file",), capability="fs.read"),
    _row("fs_write", "CapCall", "(String, String) -> Bool",
         "writes the text to a file under the file root", ("write_file",), capability="fs.write"),
    _row("db_query", "CapCall", "(String) -> List<Map<String, Dynamic>>",
         "the rows of one SQL statement, each a Map from column name to value (read them "
         "with row_int, row_float, row_string, row_bool, row_is_null)",
         capability="db.query"),
    _row("time_now", "CapCall", "() -> Int", "the time in Unix seconds", capability="time.now"),
    _row("random", "CapCall", "() -> Float", "a Float in [0, 1)", capability="random"),
    _row("llm_call", "CapCall", "(String) -> String", "the LLM's answer to the prompt (text)",
         capability="llm.call"),
    _row("map_new", "MapNew", "() -> Map<String, V>", "an empty Map", ("new_map", "dict")),
    # Additions (issue 23): checked accessors of a db_query row (a Map<String, Dynamic>);
    # a missing column or a value of another type stops the run with a clear error.
    _row("row_int", "RowInt", "(Map<String, Dynamic>, String) -> Int",
         "the Int value of a row's column"),
    _row("row_float", "RowFloat", "(Map<String, Dynamic>, String) -> Float",
         "the Float value of a row's column (an Int column is converted)"),
    _row("row_string", "RowString", "(Map<String, Dynamic>, String) -> String",
         "the String value of a row's column"),
    _row("row_bool", "RowBool", "(Map<String, Dynamic>, String) -> Bool",
         "a row's 0/1 (or Bool) column as a Bool"),
    _row("row_is_null", "RowIsNull", "(Map<String, Dynamic>, String) -> Bool",
         "whether a row's column is NULL"),
)

MAY_FAIL: frozenset[str] = frozenset(("list_get", "parse_int", "__builtin_string_slice",
                                     "__builtin_guard"))
"""Builtins (canonical names) that can stop a run on ordinary input: an index out of range,
text that is no number, a slice out of range, a failed guard (the capability builtins can
fail too; they say so by their `capability`)."""

INDEXING_BUILTIN = "list_get"
"""The builtin that reads one element of a list (what `xs[i]` means in other languages)."""

DYNAMIC = "Dynamic"
"""The type of a value whose type is known only at run time (a db_query column): the checker
accepts it wherever any type is expected; the row_* accessors check it when the program runs."""

REFERENCE_COUNT = 42
"""The first 42 rows are the reference's: a direct call of one means the builtin even where
a function of the same name exists. Later rows yield to such a function."""

BY_NAME: dict[str, Builtin] = {b.name: b for b in BUILTINS}

ADDED: frozenset[str] = frozenset(b.name for b in BUILTINS[REFERENCE_COUNT:])
"""Names of the builtins a program's own function of that name overrides."""

DECLARED_BY_COMPILER = "step.input"
"""The one capability the compiler declares for a function calling its builtin (as the
reference does for its one builtin); every other capability builtin's is the programmer's."""

# other-language name -> builtin name
ALIASES: dict[str, str] = {alias: b.name for b in BUILTINS for alias in b.aliases}

# The reference's seven short builtins (its rename candidates): the unprefixed names that
# need no capability, in table order.
SHORT_NAMES: tuple[str, ...] = tuple(b.name for b in BUILTINS[:REFERENCE_COUNT]
                                     if not b.prefixed and b.capability is None)


def by_opcode(opcode: str) -> Builtin:
    """The builtin that compiles to `opcode` (the first, when two share an instruction)."""
    for b in BUILTINS:
        if b.opcode == opcode:
            return b
    raise KeyError(opcode)


def to_string_builtin(type_name: str) -> Optional[str]:
    """The builtin that turns a value of the plain type `type_name` into its text (the one
    typed `(type_name) -> String` whose name ends in `_to_string`), or None."""
    want = Signature((TypeCon(type_name),), TypeCon("String"))
    for b in BUILTINS:
        if b.signature == want and b.name.endswith("_to_string"):
            return b.name
    return None
