"""The formatter's guarantees on one source, and random sources to check them on.

`check(source)` asserts: the formatted text parses to the same AST JSON, compiles to the same
bytecode (when the source compiles), formats to itself, and keeps every comment text in
order; it returns the formatted text. `messy(source, rng)` re-spaces a source token by token
(random blanks and line breaks, comments own-line and trailing), which leaves its AST alone.
`grammar_program(rng)` writes a random program over the whole grammar (every expression,
statement, pattern, type and item form, with redundant parentheses), which parses but need
not compile. `sample_sources(seed)` mixes those with the VM's random programs.
"""
from __future__ import annotations

import importlib.util
import pathlib
import random

from boruna.bytecode import axbc
from boruna.compiler import compile_source
from boruna.format import format_source
from boruna.format.printer import float_text, string_text
from boruna.language.ast_json import to_json_obj
from boruna.language.errors import CompileError
from boruna.language.lexer import tokenize
from boruna.language.parser import parse_program
from boruna.language.tokens import (COMMENT, FLOAT, IDENT, INT, KEYWORD_SET, NEWLINE,
                                    PUNCTUATION, STRING)

_TEXT = {kind: text for text, kind in PUNCTUATION.items()}


def comment_texts(source: str) -> list[str]:
    return ["//" + t.value.rstrip() for t in tokenize(source, comments=True)
            if t.kind == COMMENT]


def _bytecode(source: str):
    """The compiled module without its line table: the layout moves positions, never code."""
    try:
        module = compile_source(source)
    except CompileError as e:
        return ("error", e.code, e.message)
    for function in module.functions:
        function.lines = []
    return axbc.to_json(module, pretty=False)


def check(source: str, width: int = 100) -> str:
    formatted = format_source(source, width=width)
    assert to_json_obj(parse_program(formatted)) == to_json_obj(parse_program(source))
    assert format_source(formatted, width=width) == formatted
    assert comment_texts(formatted) == comment_texts(source)
    before = _bytecode(source)
    if not isinstance(before, tuple):
        assert _bytecode(formatted) == before
    return formatted


# ------------------------------------------------------------------ re-spacing

_GLUE = frozenset(("LParen", "RParen", "LBrace", "RBrace", "LBracket", "RBracket", "Comma"))


def _token_text(tok) -> str:
    kind = tok.kind
    if kind == IDENT:
        return tok.value
    if kind == INT:
        return str(tok.value)
    if kind == FLOAT:
        return float_text(tok.value)
    if kind == STRING:
        return string_text(tok.value)
    if kind in KEYWORD_SET:
        return kind
    return _TEXT[kind]


def messy(source: str, rng: random.Random, comment_rate: float = 0.15) -> str:
    """`source` with random spacing between its tokens and random comments."""
    out = []
    prev = None
    n = 0
    for tok in tokenize(source, comments=True):
        if tok.kind == NEWLINE:
            continue
        if tok.kind == COMMENT:
            out.append(("  " if rng.random() < 0.5 else "\n") + "//" + tok.value + "\n")
            prev = None
            continue
        if prev is not None:
            r = rng.random()
            if r < comment_rate:
                n += 1
                if rng.random() < 0.5:
                    out.append(f" // c{n} trailing\n")
                else:
                    out.append(f"\n{' ' * rng.randrange(8)}// c{n} own line\n"
                               + ("\n" if rng.random() < 0.3 else ""))
            elif (prev in _GLUE or tok.kind in _GLUE) and r < 0.4:
                pass
            else:
                out.append(rng.choice((" ", " ", " ", "  ", "\n", "\n\n\n", "\t", "\n    ")))
        out.append(_token_text(tok))
        prev = tok.kind
    if rng.random() < 0.3:
        out.append("\n// the end\n")
    return "".join(out)


# ------------------------------------------------------------------ the whole grammar

_NAMES = ("a", "b", "total", "xs", "item", "Foo", "Bar", "value_with_a_rather_long_name")
_TYPES = ("Int", "String", "Bool", "Float", "Point", "T")
_BINOPS = ("+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "++")


def _type(rng, d=0):
    r = rng.random()
    if d > 2 or r < 0.5:
        return rng.choice(_TYPES)
    if r < 0.6:
        return f"Option<{_type(rng, d + 1)}>"
    if r < 0.7:
        return f"List<{_type(rng, d + 1)}>"
    if r < 0.8:
        return f"Result<{_type(rng, d + 1)}, {_type(rng, d + 1)}>"
    if r < 0.9:
        return f"Map<{_type(rng, d + 1)}, {_type(rng, d + 1)}>"
    params = ", ".join(_type(rng, d + 1) for _ in range(rng.randrange(3)))
    return f"Fn({params}) -> {_type(rng, d + 1)}"


def _pattern(rng, d=0):
    r = rng.random()
    if d > 2 or r < 0.2:
        return rng.choice(("_", "x", "n", "0", "42", '"s"', "true", "None"))
    if r < 0.4:
        return f"{rng.choice(('Some', 'Ok', 'Err'))}({_pattern(rng, d + 1)})"
    if r < 0.6:
        return f"Circle({_pattern(rng, d + 1)})"
    return rng.choice(("Empty", "y", "7"))


def _primary(rng, d):
    r = rng.random()
    if d > 3 or r < 0.3:
        return rng.choice((rng.choice(_NAMES[:4]), str(rng.randrange(1000)),
                           rng.choice(("0.5", "1.0", "3.25", "100000000000000000000.0")),
                           '"text"', '"q\\"uote\\n"', "true", "false", "None", "receive"))
    if r < 0.4:
        return "(" + _expr(rng, d + 1) + ")"
    if r < 0.5:
        args = ", ".join(_expr(rng, d + 1) for _ in range(rng.randrange(4)))
        return f"{rng.choice(('f', 'list_push', 'compute_something_long'))}({args})"
    if r < 0.55:
        entries = [f"{n}: {_expr(rng, d + 1)}" for n in ("x", "y")[:rng.randrange(3)]]
        if rng.random() < 0.3:
            entries.insert(0, "..p")
        comma = "," if entries and rng.random() < 0.3 else ""
        return f"Point {{ {', '.join(entries)}{comma} }}"
    if r < 0.6:
        items = ", ".join(_expr(rng, d + 1) for _ in range(rng.randrange(5)))
        return f"[{items}]"
    if r < 0.65:
        payload = f"({_expr(rng, d + 1)})" if rng.random() < 0.5 else ""
        return f"Shape::Circle{payload}"
    if r < 0.7:
        return f"{rng.choice(('Some', 'Ok', 'Err'))}({_expr(rng, d + 1)})"
    if r < 0.75:
        els = f" else {_block(rng, d + 1)}" if rng.random() < 0.7 else ""
        return f"if {_expr(rng, d + 1)} {_block(rng, d + 1)}{els}"
    if r < 0.8:
        arms = " ".join(f"{_pattern(rng)} => {_expr(rng, d + 1)}"
                        + ("," if rng.random() < 0.8 else "") for _ in range(rng.randrange(1, 4)))
        return f"match {_expr(rng, d + 1)} {{ {arms} }}"
    if r < 0.85:
        return _block(rng, d + 1)
    if r < 0.9:
        return f"{rng.choice(('spawn', 'emit'))} {_atom(rng, d + 1)}"
    if r < 0.95:
        return f"send {_atom(rng, d + 1)} {_atom(rng, d + 1)}"
    name = rng.choice(_NAMES)
    # a capitalised name before `{` would start a record literal: the printer must keep
    # these parentheses wherever a `{` follows
    return f"({name})" if "A" <= name[0] <= "Z" else name


def _atom(rng, d):
    """A primary the parser reads as one (a call is not one: it gets parentheses)."""
    e = _primary(rng, d)
    return "(" + e + ")" if e.endswith((")", "Circle")) else e


def _postfix(rng, d):
    e = _primary(rng, d)
    if e.endswith("Circle"):
        e = "(" + e + ")"       # `Shape::Circle(...)` would be its payload
    while rng.random() < 0.2:
        if rng.random() < 0.5:
            e += "." + rng.choice(("x", "len", "field"))
        else:
            e += "(" + ", ".join(_expr(rng, d + 1) for _ in range(rng.randrange(3))) + ")"
    return e


def _expr(rng, d=0):
    e = _postfix(rng, d)
    if rng.random() < 0.15:
        e = rng.choice(("-", "!")) + e
    while d < 4 and rng.random() < 0.35:
        e += f" {rng.choice(_BINOPS)} {_postfix(rng, d + 1)}"
    return e


def _stmt(rng, d):
    r = rng.random()
    if r < 0.3:
        ty = f": {_type(rng)}" if rng.random() < 0.3 else ""
        return f"let {'mut ' if rng.random() < 0.3 else ''}{rng.choice(_NAMES[:4])}{ty} = {_expr(rng, d)}"
    if r < 0.4:
        return f"{rng.choice(_NAMES[:4])} = {_expr(rng, d)}"
    if r < 0.5 and d < 3:
        return f"while {_expr(rng, d + 1)} {_block(rng, d + 1)}"
    if r < 0.6 and d < 3:
        return f"for item in {_expr(rng, d + 1)} {_block(rng, d + 1)}"
    if r < 0.65:
        return f"return {_expr(rng, d)}"
    return _expr(rng, d)


def _block(rng, d):
    stmts = [_stmt(rng, d) for _ in range(rng.randrange(4 if d < 3 else 2))]
    # a value-less return ends a block
    if rng.random() < 0.1:
        stmts.append("return")
    return "{ " + "\n".join(stmts) + " }"


def grammar_program(rng: random.Random) -> str:
    """A random program over the whole grammar (it parses; it need not compile)."""
    items = []
    if rng.random() < 0.2:
        items.append("module sample")
    if rng.random() < 0.2:
        items.append("import std_json")
    for _ in range(rng.randrange(1, 5)):
        r = rng.random()
        export = "export " if rng.random() < 0.2 else ""
        if r < 0.2:
            fields = ", ".join(f"f{i}: {_type(rng)}" for i in range(rng.randrange(4)))
            items.append(f"{export}type Point {{ {fields} }}")
        elif r < 0.3:
            variants = ", ".join(rng.choice((f"V{i}", f"V{i}({_type(rng)})"))
                                 for i in range(rng.randrange(4)))
            items.append(f"{export}enum Shape {{ {variants} }}")
        else:
            params = ", ".join(f"p{i}: {_type(rng)}" for i in range(rng.randrange(4)))
            ret = f" -> {_type(rng)}" if rng.random() < 0.7 else ""
            caps = (" !{" + ", ".join(rng.sample(("net.fetch", "db.query", "fs.read", "time"),
                                                 rng.randrange(1, 3))) + "}"
                    if rng.random() < 0.2 else "")
            clauses = []
            if rng.random() < 0.2:
                clauses.append('intent "does a thing"')
            for _ in range(rng.randrange(3) if rng.random() < 0.2 else 0):
                clauses.append(f"{rng.choice(('requires', 'ensures'))} {_expr(rng, 2)}")
            rng.shuffle(clauses)
            items.append(f"{export}fn fn_{len(items)}({params}){ret}{caps} {' '.join(clauses)} "
                         f"{_block(rng, 0)}")
    return "\n".join(items) + "\n"


# ------------------------------------------------------------------ the VM's random programs

def _load(path: pathlib.Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_VM_TESTS = pathlib.Path(__file__).resolve().parent.parent / "vm"
_vm_random = _load(_VM_TESTS / "vm_random_programs.py", "vm_random_programs_for_format")
_VM_GENERATORS = (_vm_random.mixed_program, _vm_random.strings_program,
                  _vm_random.app_program, _vm_random.typed_program, _vm_random.host_program)


def sample_source(seed: int) -> str:
    """Source number `seed` of the random sample: a grammar program or one of the VM's random
    programs (which compile), re-spaced and commented."""
    rng = random.Random(seed)
    if seed % 2:
        base = grammar_program(rng)
    else:
        gen = _VM_GENERATORS[(seed // 2) % len(_VM_GENERATORS)]
        base = gen(seed)
        if isinstance(base, tuple):     # host_program: (source, host arguments)
            base = base[0]
    return messy(base, rng) if rng.random() < 0.8 else base
