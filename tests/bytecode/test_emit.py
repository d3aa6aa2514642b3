"""Codegen's expression core in C (`boruna.bytecode._emit`, tried first by `_FnGen.expr`).

The oracle is the emitter without it: `codegen._c_expr`, `_c_stmts`, `_c_functions` and
`_c_fn_tables` patched to hand everything back, so the Python branches of `_FnGen` compile everything. Both must give the same module
(`to_json` text: code, constants, line tables, capabilities, match tables) or the same error
with the same attributes, through `compile_source` and through `generate` with and without
the name checks before it, on random programs of every expression kind, on random edits of
them, at the core's depth budget and at the parser's nesting limit.
"""
import random

import pytest

from boruna.bytecode import _emit, codegen
from boruna.bytecode.axbc import to_json
from boruna.bytecode.module import MatchArm
from boruna.bytecode.opcodes import MATCH_NONE, MATCH_SOME
from boruna.compiler import compile_source
from boruna.core.deep_stack import call_deep
from boruna.core.values import RESULT_TYPE_ID, SOME_TYPE_ID
from boruna.language.errors import CompileError
from boruna.language.frontend import check, resolve
from tests.test_compiler_equivalence import _mutations


def _hand_back(gen, e, ctx):
    return None


def _hand_back_functions(mod, fns):
    return None


def _outcome(fn, *args):
    try:
        return "module", to_json(fn(*args))
    except CompileError as err:
        return ("error", err.code, err.message, err.line, err.col, err.reason, err.name,
                err.expected, err.found)
    except codegen.NameCheckNeeded:
        return ("name check needed",)


def _outcomes(source):
    """compile_source, and generate after `check` and (names unchecked) after `resolve`."""
    out = [_outcome(compile_source, source)]
    try:
        checked = check(source)
        out.append(_outcome(call_deep, codegen.generate, checked, "m"))
    except CompileError as err:
        out.append(("check", err.message, err.line, err.col))
    try:
        resolved = resolve(source)
        out.append(_outcome(call_deep, codegen.generate, resolved, "m", False))
    except CompileError as err:
        out.append(("resolve", err.message, err.line, err.col))
    return out


def _both(monkeypatch, source):
    """(with the C core, without it) for `source`."""
    with_c = _outcomes(source)
    with monkeypatch.context() as m:
        m.setattr(codegen, "_c_expr", _hand_back)
        m.setattr(codegen, "_c_stmts", _hand_back)
        m.setattr(codegen, "_c_functions", _hand_back_functions)
        m.setattr(codegen, "_c_fn_tables", _hand_back_functions)
        without = _outcomes(source)
    return with_c, without


_PRELUDE = """type P { x: Int, y: Int, name: String }
type Q { y: Int, x: Int }
type T { tags: List<String> }
enum E { A(Int), B }
enum F { B, A(Option<Int>) }
fn f(a: Int) -> Int { a }
fn g(a: Int, b: Int) -> Int { a + b }
fn h() -> Int { 1 }
fn row_int(a: Int, b: Int) -> Int { a }
"""


def _random_expr(rng, names, depth=0):
    """A random expression of every kind the core covers, and some it hands back."""
    nl = "\n" if rng.random() < 0.08 else ""
    r = rng.random()
    if depth > 4 or r < 0.25:
        return rng.choice([
            rng.choice(names), rng.choice(names), str(rng.randrange(0, 400)), "2.5",
            '"s"', "true", "false", "None", "f", "h", "undefined_name" if rng.random() < 0.03
            else rng.choice(names)])
    sub = lambda: _random_expr(rng, names, depth + 1)       # noqa: E731
    if r < 0.45:
        op = rng.choice(["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&",
                         "||", "++"])
        return f"{sub()} {op}{nl} {sub()}"
    if r < 0.5:
        return f"({sub()})"
    if r < 0.55:
        return rng.choice(["-", "!"]) + sub()
    if r < 0.7:
        callee, arity = rng.choice([("f", 1), ("g", 2), ("h", 0), ("list_len", 1),
                                    ("step_input", 1), ("__builtin_string_len", 1),
                                    ("net_fetch", 1), ("time_now", 0), ("row_int", 2),
                                    ("map_new", 0), ("k", 1), ("b", 1)])
        if rng.random() < 0.05:
            callee, arity = rng.choice(["undefined_fn", "f", "list_len"]), rng.randrange(3)
        args = ", ".join(sub() for _ in range(arity))
        return f"{callee}({args}{nl})"
    if r < 0.76:
        field = rng.choice(["x", "y", "name", "tags", "z"])
        return f"{sub()}.{field}"
    if r < 0.82:
        return "[" + ", ".join(sub() for _ in range(rng.randrange(0, 4))) + "]"
    if r < 0.88:
        return f"{rng.choice(['Some', 'Ok', 'Err'])}({sub()})"
    # kinds the core hands back, with covered kinds inside
    return rng.choice([
        f"if {sub()} {{ {sub()} }} else {{ {sub()} }}",
        f"if {sub()} {{ {sub()} }}",
        f"if {sub()} {{ let t = {sub()}\n t }} else {{ if {sub()} {{ {sub()} }} else {{ 1 }} }}",
        f"match {sub()} {{ 0 => {sub()}, n => {sub()} }}",
        f"match {sub()} {{ Some(v) => v, None => {sub()} }}",
        f"match {sub()} {{ Ok(v) => {sub()}, Err(_) => 1 }}",
        f"match {sub()} {{ A(x) => {sub()}, B => {sub()}, _ => 3 }}",
        f"match {sub()} {{ Some(Some(w)) => w, Some(None) => {sub()}, _ => 0 }}",
        f"match {sub()} {{ \"s\" => {sub()}, t => t }}",
        f"match {sub()} {{ 300 => {sub()}, 2 => 1, true => {sub()} }}",
        f"match {sub()} {{ \"a\" => {sub()}, \"b\" => {sub()} }}",
        f"match {sub()} {{ None => {sub()}, 2000000 => {sub()}, x => x }}",
        f"match {sub()} {{ \"s\" => 1, Some(v) => {sub()}, _ => 2 }}",
        f"match {sub()} {{ a => {{ let a = {sub()}\n a }}, _ => a }}",
        f"match {sub()} {{ A(Some(x)) => x, A(None) => 0, B => {sub()} }}",
        f"{{ let t = {sub()}\n t }}",
        f"P {{ x: {sub()}, y: 1, name: \"n\" }}",
        f"P {{ y: {sub()}, x: 1, name: \"n\" }}",
        f"Q {{ x: {sub()}, y: {sub()} }}",
        f"P {{ ..p, x: {sub()} }}",
        f"P {{ ..{sub()}, name: {sub()}, y: 2 }}",
        f"P {{ ..p, x: 1, x: {sub()} }}",
        f"P {{ ..p, w: {sub()} }}",
        f"Z {{ a: {sub()} }}",
        f"E {{ a: {sub()} }}",
        f"T {{ ..{sub()} }}",
        f"E::A({sub()})",
        "E::B",
        f"F::A(Some({sub()}))",
        f"E::C({sub()})" if rng.random() < 0.2 else "F::B",
        f"P::A({sub()})" if rng.random() < 0.2 else "E::B",
        f"{sub()}(1)",
    ])


def _random_program(seed):
    rng = random.Random(seed)
    names = ["a", "b", "p", "q", "k"]
    body = []
    for i in range(rng.randrange(1, 6)):
        body.append(f"    let v{i} = {_random_expr(rng, names)}")
        names.append(f"v{i}")
        if rng.random() < 0.3:      # an `if` statement (DISCARD), with or without `else`
            cond, then = _random_expr(rng, names, 3), _random_expr(rng, names, 3)
            other = rng.choice(["", f" else {{ {_random_expr(rng, names, 3)} }}"])
            body.append(f"    if {cond} {{ {then} }}{other}")
        r = rng.random()
        if r < 0.15:                # assignments, in loops too
            body.append(f"    let mut m{i} = {_random_expr(rng, names, 3)}")
            body.append(rng.choice([
                f"    m{i} = {_random_expr(rng, names, 3)}",
                f"    while m{i} < 3 {{ m{i} = m{i} + 1\n {_random_expr(rng, names, 4)} }}",
                f"    for x in [1, 2] {{ m{i} = m{i} + x }}",
                "    nope = 1" if rng.random() < 0.2 else f"    m{i} = m{i}"]))
        elif r < 0.2:               # an early return
            body.append(f"    if a > {i} {{ return {_random_expr(rng, names, 3)} }}")
        elif r < 0.25:
            body.append(f"    {{ let z = {_random_expr(rng, names, 3)}\n z }}")
        elif r < 0.32:              # a `match` statement (DISCARD)
            body.append(f"    match {_random_expr(rng, names, 3)} {{ 0 => 1, _ => {{ }} }}")
    final = _random_expr(rng, names)
    if rng.random() < 0.1:
        final = f"return {final}"
    if rng.random() < 0.3:          # an `if` as the function's final expression (TAIL)
        nested = f"if {_random_expr(rng, names, 3)} {{ {final} }} else {{ v0 }}"
        final = rng.choice([
            f"if {_random_expr(rng, names, 3)} {{ {nested} }} else {{ {{ let w = 1\n w }} }}",
            f"if {_random_expr(rng, names, 3)} {{ {final} }}", nested])
    body.append(f"    {final}")
    # with `ensures`, a `return` jumps to the postconditions (Python's statement)
    contract = " ensures result > 0" if rng.random() < 0.15 else ""
    return (_PRELUDE + "fn main(a: Int, b: Int, p: P, q: Q, k: Fn(Int) -> Int) -> Int !{net}"
            + contract + " {\n" + "\n".join(body) + "\n}\n")


@pytest.mark.parametrize("chunk", range(4))
def test_random_programs_compile_as_without_the_core(monkeypatch, chunk):
    modules = errors = 0
    for seed in range(chunk * 100, chunk * 100 + 100):
        source = _random_program(seed)
        for text in [source] + _mutations(source, seed, 2):
            with_c, without = _both(monkeypatch, text)
            assert with_c == without, (seed, text)
            modules += with_c[0][0] == "module"
            errors += with_c[0][0] == "error"
    assert modules >= 40 and errors >= 40       # both paths are exercised


def _fn_gen(source, names_checked=True):
    program = check(source) if names_checked else resolve(source)
    mod = codegen._Gen(program, "m", names_checked)
    main = next(f for f in program.functions() if f.name == "main")
    return codegen._FnGen(mod, main), main


def test_it_emits_the_exact_instructions_of_the_covered_kinds():
    source = ('fn f(a: Int) -> Int { a }\ntype P { x: Int }\n'
              'fn main(a: Int, p: P) -> Int {\n'
              '    f(-a + 2) * list_len([Some(1), Ok(2.5), Err("e"), None]) - p.x\n}\n')
    gen, fn = _fn_gen(source)
    expr = fn.body.stmts[0].expr
    assert _emit.expr(gen, expr, codegen.VALUE) is True
    assert gen.code == [
        ("LoadLocal", 0), ("Neg",), ("PushConst", 0), ("Add",), ("Call", 0, 1),
        ("PushConst", 1), ("PushConst", 2), ("Pop",), ("MakeEnum", SOME_TYPE_ID, 1),
        ("PushConst", 3), ("MakeEnum", RESULT_TYPE_ID, 0), ("PushConst", 4),
        ("MakeEnum", RESULT_TYPE_ID, 1),
        ("PushConst", 5), ("MakeList", 4), ("ListLen",), ("Mul",), ("LoadLocal", 1),
        ("GetField", 0), ("Sub",)]
    assert gen.constants[:5] == [2, 1, True, 2.5, "e"]
    assert repr(gen.constants[5]) == repr(codegen.NONE)
    # the line table: the function's position, then each marked node's where it changes
    # (`-a` at pc 1, `f(...)` at 4, `list_len(...)` at 15, the `*` at 16 (the position of its
    # left operand), the field read at 18, the `-` at 19; the `+` shares `-a`'s position)
    assert gen.lines == [0, 3, 1, 1, 4, 7, 4, 4, 5, 15, 4, 17, 16, 4, 5, 18, 4, 64, 19, 4, 5]
    assert gen.code[0] is codegen._LOAD_LOCAL[0] and gen.code[1] is codegen._BARE["Neg"]


def test_it_emits_what_the_python_emitter_emits_for_one_expression(monkeypatch):
    """Calls of every kind (indirect, known, builtin, capability), shared and named fields,
    a function as a value; the capability the compiler declares is added once."""
    source = ('fn f(a: Int) -> Int { a }\ntype P { x: Int }\ntype Q { y: Int, x: Int }\n'
              'fn main(a: Int, p: P, k: Fn(Int) -> Int) -> Int !{net} {\n'
              '    k(f(a)) + f(p.x + p.y) + net_fetch("u").z + step_input("s") + step_input(h)'
              ' + (if a > 0 { h } else { h })()\n}\nfn h() -> Int { 0 }\n')
    gen, fn = _fn_gen(source)
    python, _ = _fn_gen(source)
    assert _emit.expr(gen, fn.body.stmts[0].expr, codegen.VALUE) is True
    with monkeypatch.context() as m:
        m.setattr(codegen, "_c_expr", _hand_back)
        m.setattr(codegen, "_c_stmts", _hand_back)
        python.expr(python.fn.body.stmts[0].expr, codegen.VALUE)
    assert (gen.code, gen.lines, gen.caps) == (python.code, python.lines, python.caps)
    assert [repr(c) for c in gen.constants] == [repr(c) for c in python.constants]
    assert ("GetFieldNamed", "x") in gen.code and ("GetField", 0) in gen.code
    assert ("CallIndirect", 1) in gen.code and ("CallIndirect", 0) in gen.code
    assert len(gen.caps) == len(set(gen.caps)) >= 2


def test_it_emits_an_if_in_value_and_tail_context():
    source = ("fn main(a: Int) -> Int {\n    let v = if a > 0 { a } else { if a < 0 { 1 } }\n"
              "    if a > 1 { v } else { if a > 2 { 3 } }\n}")
    gen, fn = _fn_gen(source)
    let, last = fn.body.stmts
    assert _emit.expr(gen, let.value, codegen.VALUE) is True
    # the inner `if` without `else` leaves Unit from a never-written slot (1)
    assert gen.code == [
        ("LoadLocal", 0), ("PushConst", 0), ("Gt",), ("JmpIfNot", 6), ("LoadLocal", 0),
        ("Jmp", 13), ("LoadLocal", 0), ("PushConst", 1), ("Lt",), ("JmpIfNot", 12),
        ("PushConst", 2), ("Jmp", 13), ("LoadLocal", 1)]
    assert gen.code[3] is gen.shared.jmp_if_not[6] and gen.code[5] is gen.shared.jmp[13]
    gen.bind("v")
    start = len(gen.code)
    assert _emit.expr(gen, last.expr, codegen.TAIL) is False
    assert gen.code[start:] == [
        ("LoadLocal", 0), ("PushConst", 3), ("Gt",), ("JmpIfNot", 20), ("LoadLocal", 2),
        ("Jmp", 25), ("LoadLocal", 0), ("PushConst", 4), ("Gt",), ("JmpIfNot", 25),
        ("PushConst", 5)]
    assert gen.constants == [0, 0, 1, 1, 2, 3]


@pytest.mark.parametrize("stmt", [
    "if a > 1 { a } else { 2 }",                    # leaves a value: VALUE branches, a Pop
    "if a > 1 { a } else { if a > 2 { 3 } }",       # leaves none: DISCARD branches
    "if a > 1 { a }", "if a > 1 { let b = a\n b } else { a }",
    "if a > 1 { return a } else { a }",
    "match a { 0 => 1, 1 => { let c = a\n c }, _ => a }",
    "match o { Some(v) => v, None => if a > 0 { 1 } }",
    "match o { Some(v) => { v }, None => 0 }", "match o { Some(v) => { return v }, _ => 0 }",
    'match s { "x" => 1, _ => 0 }', "match o { Some(Some(v)) => v, _ => 0 }",
    'match s { "x" => if a > 0 { 1 }, _ => 0 }',
])
def test_it_emits_if_and_match_in_discard_context(monkeypatch, stmt):
    """Statement-position `if` and `match`: expr_leaves_value picks VALUE or DISCARD for the
    branches and arms, as in the Python emitter (a leaving `if`/`match` is popped after)."""
    source = ("fn main(a: Int, o: Option<Option<Int>>, s: String) -> Int {\n    "
              + stmt + "\n    a\n}")
    if "Some(v) => v" in stmt or "Some(v) => {" in stmt:
        source = source.replace("Option<Option<Int>>", "Option<Int>")
    gen, fn = _fn_gen(source)
    python, _ = _fn_gen(source)
    first = fn.body.stmts[0].expr
    answer = _emit.expr(gen, first, codegen.DISCARD)
    with monkeypatch.context() as m:
        m.setattr(codegen, "_c_expr", _hand_back)
        m.setattr(codegen, "_c_stmts", _hand_back)
        expected = python.expr(python.fn.body.stmts[0].expr, codegen.DISCARD)
    assert answer is expected
    assert (gen.code, gen.lines, gen.tables, gen.stubs, gen.next_local) == \
        (python.code, python.lines, python.tables, python.stubs, python.next_local)
    assert [repr(c) for c in gen.constants] == [repr(c) for c in python.constants]
    assert gen.names == python.names


@pytest.mark.parametrize("expr", [
    "{ a }", "P { y: 1, x: 2 }", "E::Z(1)", "Nope::A(1)", "P::A(1)", "P { ..p, x: 1, x: 2 }",
    "P { ..p, z: 1 }", "P { x: 1, y: 2, x: 3 }",
    "undefined", "f(1, 2)",
    "f(" + ", ".join(["1"] * 256) + ")", "[" + ", ".join(["1"] * 256) + "]",
    "k(" + ", ".join(["1"] * 256) + ")",
])
def test_it_hands_back_before_emitting_anything(expr):
    """What it does not cover, what fails, and (names unchecked) a call of the wrong arity."""
    source = ("type P { x: Int, y: Int }\nenum E { A(Int) }\nfn f(a: Int) -> Int { a }\n"
              f"fn main(a: Int, p: P, k: Fn(Int) -> Int) -> Int {{ {expr} }}")
    gen, fn = _fn_gen(source, names_checked=False)
    assert _emit.expr(gen, fn.body.stmts[0].expr, codegen.VALUE) is None
    assert (gen.code, gen.constants, gen.lines) == ([], [], [0, 4, 1])


def test_it_hands_back_a_numeric_field_name(monkeypatch):
    """`GetField(n)` of a numeric name (no source spells one; a built tree may)."""
    gen, fn = _fn_gen("fn main(a: Int) -> Int { a.x }")
    node = fn.body.stmts[0].expr
    node.field = "3"
    assert _emit.expr(gen, node, codegen.VALUE) is None and gen.code == []
    gen.expr(node, codegen.VALUE)
    assert gen.code == [("LoadLocal", 0), ("GetField", 3)]


def test_it_hands_back_what_is_not_an_expression_of_a_gen():
    gen, fn = _fn_gen("fn main(a: Int) -> Int { a }")
    assert _emit.expr(object(), fn.body.stmts[0].expr, codegen.VALUE) is None
    assert _emit.expr(gen, fn.body, codegen.VALUE) is None
    assert _emit.expr(gen, 3, codegen.VALUE) is None
    assert _emit.expr(gen, fn.body.stmts[0].expr, 7) is None
    assert gen.code == []
    with pytest.raises(TypeError):
        _emit.expr(gen, fn.body.stmts[0].expr)


@pytest.mark.parametrize("expr", [
    "undefined_name + 1", "f(1) + missing(2)", "[" + ", ".join(["a"] * 256) + "]",
    "f(" + ", ".join(["a"] * 256) + ")", "g(1)", "-(-(-(q)))", "Some(Ok(Err(a.b))) + x",
])
def test_errors_are_the_python_emitters(monkeypatch, expr):
    source = f"fn f(a: Int) -> Int {{ a }}\nfn g(a: Int, b: Int) -> Int {{ a }}\n" \
             f"fn main(a: Int) -> Int {{\n  let v = 1\n  {expr}\n}}"
    with_c, without = _both(monkeypatch, source)
    assert with_c == without
    assert with_c[0][0] == "error"


def _deep(kind, n):
    if kind == "negations":
        inner = "-(" * n + "a" + ")" * n
    elif kind == "calls":
        inner = "f(" * n + "a" + ")" * n
    elif kind == "lists":
        inner = "[" * n + "a" + "]" * n
    elif kind == "somes":
        inner = "Some(" * n + "a" + ")" * n
    elif kind == "fields":
        inner = "(" * n + "p" + ").x" * n
    elif kind == "sums":
        inner = "a" + " + (a" * n + ")" * n
    elif kind == "some_ifs":
        inner = "Some(if a > 0 { " * n + "a" + " } else { 0 })" * n
    elif kind == "undefined":
        inner = "-(" * n + "nope" + ")" * n
    else:
        raise AssertionError(kind)
    return (f"type P {{ x: Int }}\nfn f(a: Int) -> Int {{ a }}\n"
            f"fn main(a: Int, p: P) -> Int {{ {inner} }}")


@pytest.mark.parametrize("kind", ["negations", "calls", "lists", "somes", "fields", "sums",
                                  "some_ifs", "undefined"])
@pytest.mark.parametrize("n", [199, 200, 201, 450, 20_000])
def test_deep_nesting_compiles_or_fails_as_without_the_core(monkeypatch, kind, n):
    """Past its depth budget the core hands back; at the parser's nesting limit too."""
    with_c, without = _both(monkeypatch, _deep(kind, n))
    assert with_c == without


def test_it_emits_a_match_table_and_restores_the_scope():
    source = "fn main(o: Option<Int>) -> Int {\n    match o { Some(v) => v, None => 0 }\n}"
    gen, fn = _fn_gen(source)
    assert _emit.expr(gen, fn.body.stmts[0].expr, codegen.TAIL) is False
    assert gen.code == [("LoadLocal", 0), ("Match", 0), ("StoreLocal", 1), ("LoadLocal", 1),
                        ("Jmp", 7), ("Pop",), ("PushConst", 0)]
    assert gen.tables == [[MatchArm(MATCH_SOME, 2), MatchArm(MATCH_NONE, 5)]]
    assert gen.tables[0][0] is gen.shared.arms[MATCH_SOME, 2]
    assert gen.names == {"o": 0} and gen.next_local == 2
    assert gen.lines == [0, 1, 1, 1, 2, 5]      # the Match instruction: the match's position


def test_it_emits_statements_a_spread_and_a_variant():
    source = ("type P { x: Int, y: Int }\nenum E { A(Int), B }\nfn main(p: P) -> P {\n"
              "    let e = E::B\n    P { ..p, y: 2 }\n}")
    gen, fn = _fn_gen(source)
    assert _emit.stmts(gen, fn.body.stmts, codegen.TAIL) is True
    assert gen.code == [("PushConst", 0), ("MakeEnum", 1, 1), ("StoreLocal", 1),
                        ("LoadLocal", 0), ("StoreLocal", 2), ("LoadLocal", 2), ("GetField", 0),
                        ("PushConst", 1), ("MakeRecord", 0, 2)]
    assert gen.constants == [None, 2] and gen.next_local == 3
    assert gen.names == {"p": 0, "e": 1}


# ---- functions(mod, fns): _FnGen's prologue and generate()'s epilogue in C

def _function_programs():
    """One program per branch of `functions`: the parameters (a repeated name: the later
    slot wins), capabilities (aliases, wire names, several), an intent, no position, empty
    bodies, one expression, statements, a final Ret that is (or is not) a jump target, match
    tables and out-of-line stubs, and the functions handed to Python (`requires`, `ensures`,
    255 and 256 parameters)."""
    many = ", ".join(f"p{i}: Int" for i in range(255))
    return [
        "fn main() -> Int { 0 }",
        "fn main() -> Unit { }",
        "fn f(a: Int, b: Int, a: Int) -> Int { a + b }\nfn main() -> Int { f(1, 2, 3) }",
        'fn main() -> Int !{net, fs.read, time} intent "three caps" { 1 }',
        'fn main() -> Int !{net.fetch} { net_fetch("u") }',
        "fn main(a: Int) -> Int { if a > 0 { return 1 } else { return 2 } }",
        "fn main(a: Int) -> Int { if a > 0 { return 1 }\n return 2 }",
        "fn main(a: Int) -> Int { while a > 0 { return a }\n 0 }",
        "fn main(a: Int) -> Int { let b = a\n b }",
        "fn main(a: Int) -> Int { let mut b = a\n b = b + 1\n return b }",
        'fn main(s: String) -> Int { match s { "x" => 1, "y" => 2 } }',
        "fn main(o: Option<Option<Int>>) -> Int { match o { Some(Some(1)) => 1, None => 0 } }",
        "fn main(o: Option<Int>) -> Int { match o { Some(v) => { return v }, None => { return 0 } } }",
        "enum E { A(Int), B }\nfn main(e: E) -> Int { match e { A(n) => n, B => 0 } }",
        "fn main(a: Int) -> Int requires a > 0 { a }",
        "fn main(a: Int) -> Int ensures result > 0 { if a > 0 { return a }\n 1 }",
        "fn main(a: Int) -> Int requires a > 0 ensures result > a { a + 1 }",
        f"fn f({many}) -> Int {{ p254 }}\nfn main() -> Int {{ 0 }}",
        f"fn f({many}, p255: Int) -> Int {{ p255 }}\nfn main() -> Int {{ 0 }}",
        f"fn f({many}, p255: Int) -> Int {{ undefined }}\nfn main() -> Int {{ 0 }}",
        "fn f(a: Int) -> Int { a }\nfn main() -> Int { f(1, 2) }",
        "fn main() -> Int { undefined }\nfn later() -> Int { 1 }",
        "fn main() -> Int { let x = 1\n y = 2\n x }",
    ]


@pytest.mark.parametrize("source", _function_programs())
def test_functions_are_generated_as_without_the_core(monkeypatch, source):
    with_c, without = _both(monkeypatch, source)
    assert with_c == without


def test_functions_generate_every_function_and_share_the_pool():
    source = ('fn f(a: Int, b: Int) -> Int !{net} intent "f" { a + b }\n'
              "fn g(a: Int) -> Int requires a > 0 { f(a, 1) }\n"
              "fn main() -> Int { if g(2) > 2 { 1 } else { 2 } }\n")
    program = check(source)
    mod = codegen._Gen(program, "m", True)
    functions = _emit.functions(mod, program.functions())
    f, g, main = functions
    assert (f.name, f.arity, f.locals, f.intent, f.match_tables) == ("f", 2, 2, "f", [])
    assert f.code == [("LoadLocal", 0), ("LoadLocal", 1), ("Add",), ("Ret",)]
    assert f.code[-1] is codegen._RET and f.lines == [0, 1, 1, 2, 1, 49]
    assert len(f.capabilities) == 1
    assert g.code[-2:] == [("Call", 0, 2), ("Ret",)] and g.intent is None
    # the `if` in TAIL context: its then branch jumps to the end, where the final Ret goes
    assert main.code == [("PushConst", 3), ("Call", 1, 1), ("PushConst", 4), ("Gt",),
                         ("JmpIfNot", 7), ("PushConst", 5), ("Jmp", 8), ("PushConst", 6),
                         ("Ret",)]
    assert mod.constants == [0, "precondition 1 failed in `g`", 1, 2, 2, 1, 2]
    assert type(functions) is list and all(type(x) is codegen.Function for x in functions)


def test_functions_hand_back_what_is_not_a_module_emitter():
    program = check("fn main() -> Int { 0 }")
    mod = codegen._Gen(program, "m", True)
    assert _emit.functions(mod, tuple(program.functions())) is None
    mod.constants = ()
    assert _emit.functions(mod, program.functions()) is None
    mod.constants = []
    mod.arities = []
    assert _emit.functions(mod, program.functions()) is None
    assert mod.constants == []
    with pytest.raises(TypeError):
        _emit.functions(mod)


def test_functions_generate_an_unknown_node_in_python():
    """An item that is not a FnDef goes to `_FnGen(mod, f).generate()` (which fails as it
    would without the core)."""
    program = check("fn main() -> Int { 0 }")
    mod = codegen._Gen(program, "m", True)
    with pytest.raises(AttributeError) as c_error:
        _emit.functions(mod, [object()])
    with pytest.raises(AttributeError) as python_error:
        codegen._FnGen(mod, object()).generate()
    assert str(c_error.value) == str(python_error.value)


def test_functions_raise_the_first_error_in_function_order(monkeypatch):
    source = "fn a() -> Int { 1 }\nfn b() -> Int { undefined_b }\nfn c() -> Int { undefined_c }"
    with_c, without = _both(monkeypatch, source)
    assert with_c == without
    assert with_c[2][0] == "error" and "undefined_b" in with_c[2][2], with_c


@pytest.mark.parametrize("body", [
    "while a > 0 { a = a - 1 }\n    a",
    "while a > 0 { let b = a\n a = b - 1 }\n    a",
    "while a > 0 { return a }\n    0",
    "for x in [1, 2, 3] { a = a + x }\n    a",
    "for x in xs { let y = x\n a = a + y }\n    a",
    "for a in xs { if a > 1 { return a } }\n    a",
    "for x in xs { for y in xs { a = a + x * y } }\n    a",
    "for x in xs { match x { 0 => 1, _ => x } }\n    a",
    "let c = { let d = a\n d }\n    c",
    "if a > 0 { let e = 1\n a = e }\n    a",
    "while a > 0 { a = a - undefined_in_loop }\n    a",
    "for x in xs { a = missing }\n    a",
])
def test_it_emits_loops_and_blocks(monkeypatch, body):
    """`while`, `for` and blocks (a `let` of the block goes out of scope after it) in C: the
    same instructions, constants, line table, slots and scope as the Python emitter, or the
    same error."""
    source = "fn main(a: Int, xs: List<Int>) -> Int {\n    let mut a = a\n    " + body + "\n}"
    program = resolve(source)
    out = []
    for patched in (False, True):
        mod = codegen._Gen(program, "m", False)
        main = next(f for f in program.functions() if f.name == "main")
        gen = codegen._FnGen(mod, main)
        with monkeypatch.context() as m:
            if patched:
                m.setattr(codegen, "_c_expr", _hand_back)
                m.setattr(codegen, "_c_stmts", _hand_back)
            try:
                left = gen.stmts(main.body.stmts, codegen.TAIL)
            except CompileError as err:
                out.append(("error", err.message, err.line, err.col))
                continue
        out.append((left, gen.code, gen.lines, [repr(c) for c in gen.constants],
                    gen.next_local, gen.names, gen.tables))
    assert out[0] == out[1]
    if "undefined_in_loop" in body or "missing" in body:
        assert out[0][0] == "error"
    else:
        assert out[0][0] is not None and out[0][0] != "error"


def _nested_patterns(n):
    """A match on an n-deep Some(Some(...)) pattern, in value, statement and tail position."""
    ty = "Option<" * n + "Int" + ">" * n
    pat = "Some(" * n + "w" + ")" * n
    value = "Some(" * n + "1" + ")" * n
    return (f"fn main(o: {ty}) -> Int {{\n    let a = match o {{ {pat} => w, _ => 0 }}\n"
            f"    match {value} {{ {pat} => w, _ => 0 }}\n"
            f"    match o {{ {pat} => w + a, None => a, _ => 2 }}\n}}")


@pytest.mark.parametrize("source", [
    "fn main(o: Option<Option<Int>>) -> Int { match o { Some(Some(v)) => v, Some(None) => 1, "
    "None => 0 } }",
    'fn main(r: Result<Option<Int>, String>) -> Int { match r { Ok(Some(1)) => 1, '
    'Ok(Some(300)) => 2, Ok(_) => 3, Err("x") => 4, Err(e) => 5 } }',
    "enum E { A(Option<Int>), B }\nfn main(e: E) -> Int { match e { A(Some(v)) => v, "
    "A(None) => 0, B => 1 } }",
    "enum E { A(Option<Int>), B }\nenum F { B, A(Int) }\nfn main(e: E) -> Int { match e { "
    "A(Some(v)) => v, B => 1, _ => 2 } }",
    "fn main(o: Option<Bool>) -> Int { match o { Some(true) => 1, Some(false) => 2, _ => 0 } }",
    "fn main(o: Option<Option<Int>>) -> Int { let v = 1\n match o { Some(Some(v)) => v, "
    "_ => 0 }\n v }",
    "fn main(o: Option<Option<Int>>) -> Int { match o { Some(Some(v)) => { let q = v\n q }, "
    "Some(_) => { return 3 }, None => 0 }\n 1 }",
    "fn main(o: Option<Option<Int>>) -> Int { match o { Some(Some(v)) => if v > 0 { 1 }, "
    "_ => 0 }\n 1 }",
    "fn main(o: Option<Option<Int>>) -> Int { match o { Some(Some(v)) => undefined_arm, "
    "_ => 0 } }",
    "fn main(o: Option<Option<Int>>) -> Int requires true ensures result > 0 { match o { "
    "Some(Some(v)) => { return v }, _ => 1 } }",
] + [_nested_patterns(n) for n in (2, 150, 199, 200, 201, 450)])
def test_nested_patterns_compile_as_without_the_core(monkeypatch, source):
    """match_nested and inner_pattern in C: tables, stubs, fixups, scopes; past the depth
    budget the inner levels are Python's inner_pattern, on the same fixups."""
    with_c, without = _both(monkeypatch, source)
    assert with_c == without
    if "undefined_arm" in source:
        assert with_c[2][0] == "error"
    else:
        assert with_c[0][0] == "module", with_c[0]


# ---- Eq chains (codegen.match_chain in C): string arms, integer arms beyond the tags

def _chain(n):
    """n string matches nested through their first arm's body, in value, statement and
    tail position (the core's depth budget is 200 frames)."""
    inner = "a"
    for i in range(n):
        inner = f'match s {{ "x{i}" => {inner}, t => 0 }}'
    return (f"fn main(a: Int, s: String) -> Int {{\n    let v = {inner}\n    {inner}\n"
            f"    {inner}\n}}")


@pytest.mark.parametrize("source", [
    # a catch-all last, in the middle (it ends the match), none (the out-of-line stub)
    'fn main(s: String) -> Int { match s { "x" => 1, "y" => 2, t => 3 } }',
    'fn main(s: String) -> Int { match s { "x" => 1, _ => 2, "y" => 3 } }',
    'fn main(s: String) -> Int { match s { "x" => 1, "y" => 2 } }',
    'fn main(s: String) -> Int { match s { "x" => 1 }\n match s { "y" => 2 } }',
    # integers beyond the tags (from 2**20), Bool and None literals
    "fn main(a: Int) -> Int { match a { 2000000 => 1, 0 => 2, 1048576 => 3, n => n } }",
    "fn main(a: Int) -> Int { match a { 2000000 => 1, true => 2, false => 3, None => 4 } }",
    "fn main(o: Option<Int>) -> Int { match o { None => 0, 99999999 => 1, Some(v) => 5 } }",
    # a non-literal, non-binding pattern is a catch-all; an identifier binds for its body only
    'fn main(s: String, o: Option<Int>) -> Int { match s { "x" => 1, Some(v) => 2, _ => 3 } }',
    'fn main(s: String) -> String { let t = "q"\n match s { "x" => t, t => t ++ t }\n t }',
    'fn main(s: String) -> Int { match s { t => { let u = 1\n u }, "x" => 2 } }',
    # statement position (DISCARD): arms that leave a value and arms that do not
    'fn main(s: String, a: Int) -> Int { match s { "x" => 1, "y" => if a > 0 { 1 }, '
    '_ => { } }\n a }',
    'fn main(s: String, a: Int) -> Int { match s { "x" => 1, _ => 2 }\n a }',
    'fn main(s: String, a: Int) -> Int { match s { "x" => { return 1 }, t => { return 2 } } }',
    # in VALUE context, a loop, a nested chain, a chain inside a table match
    'fn main(s: String) -> Int { let v = match s { "x" => match s { "y" => 1, _ => 2 }, '
    '_ => 3 }\n v }',
    'fn main(xs: List<String>) -> Int { let mut n = 0\n for x in xs { n = n + match x { '
    '"a" => 1, _ => 0 } }\n n }',
    'fn main(o: Option<String>) -> Int { match o { Some(s) => match s { "x" => 1, _ => 2 }, '
    'None => 0 } }',
    # errors in arm bodies, after code of the match was emitted
    'fn main(s: String) -> Int { match s { "x" => undefined_arm, _ => 0 } }',
    'fn main(s: String) -> Int { match s { "x" => 1, t => missing(t) } }',
    'fn main(s: String) -> Int requires true ensures result > 0 { match s { "x" => '
    '{ return 1 }, _ => 2 } }',
] + [_chain(n) for n in (1, 66, 67, 100, 450)])
def test_string_and_integer_chains_compile_as_without_the_core(monkeypatch, source):
    with_c, without = _both(monkeypatch, source)
    assert with_c == without
    if "undefined_arm" in source or "missing" in source:
        assert with_c[2][0] == "error"
    else:
        assert with_c[0][0] == "module", with_c[0]


def test_a_chain_is_emitted_in_c(monkeypatch):
    """The chain's code, constants, stubs, tables and scope, with Python's match_chain never
    called, equal the Python emitter's."""
    source = ('fn main(s: String, a: Int) -> Int {\n    match s { "x" => a, "y" => 2, t => 3 }\n'
              '    match a { 2000000 => 1, None => 2 }\n    a\n}')
    gen, fn = _fn_gen(source)
    python, _ = _fn_gen(source)

    def no_python_chain(*args):
        raise AssertionError("match_chain in Python")

    with monkeypatch.context() as m:
        m.setattr(codegen._FnGen, "match_chain", no_python_chain)
        assert _emit.stmts(gen, fn.body.stmts, codegen.TAIL) is True
    with monkeypatch.context() as m:
        m.setattr(codegen, "_c_expr", _hand_back)
        m.setattr(codegen, "_c_stmts", _hand_back)
        assert python.stmts(python.fn.body.stmts, codegen.TAIL) is True
    assert (gen.code, gen.lines, gen.tables, gen.stubs, gen.next_local, gen.names) == \
        (python.code, python.lines, python.tables, python.stubs, python.next_local,
         python.names)
    assert [repr(c) for c in gen.constants] == [repr(c) for c in python.constants]
    assert gen.code[:11] == [
        ("LoadLocal", 0), ("StoreLocal", 2), ("LoadLocal", 2), ("PushConst", 0), ("Eq",),
        ("JmpIfNot", 8), ("LoadLocal", 1), ("Jmp", 17), ("LoadLocal", 2), ("PushConst", 1),
        ("Eq",)]
    # the second match has no catch-all: its last JmpIfNot goes to the stub, an empty table
    assert len(gen.stubs) == 1 and gen.tables == [[]]
    assert gen.stubs[0][1] == [("LoadLocal", 4), ("Match", 0)]


@pytest.mark.parametrize("field", ["name", "value", "body"])
def test_a_chain_it_cannot_read_is_pythons(monkeypatch, field):
    """A later arm without its pattern's name or value, or without its body: Python's
    match_chain compiles the arms (and raises its AttributeError), nothing of them in C."""
    source = 'fn main(s: String) -> Int { match s { "x" => 1, "y" => 2, t => 3 } }'
    outs = []
    for patched in (False, True):
        gen, fn = _fn_gen(source)
        arms = fn.body.stmts[0].expr.arms
        if field == "name":
            del arms[2].pattern.name
        elif field == "value":
            del arms[1].pattern.value
        else:
            del arms[1].body
        with monkeypatch.context() as m:
            if patched:
                m.setattr(codegen, "_c_expr", _hand_back)
                m.setattr(codegen, "_c_stmts", _hand_back)
            with pytest.raises(AttributeError) as err:
                gen.expr(fn.body.stmts[0].expr, codegen.TAIL)
        outs.append((str(err.value), gen.code, gen.constants, gen.next_local))
    assert outs[0] == outs[1]


# ---- fn_tables(fns, arities): _ModuleInfo's function ids and the emitter's arities

@pytest.mark.parametrize("names_checked", [True, False])
def test_function_tables_are_pythons(monkeypatch, names_checked):
    """Ids and arities in one pass: a later duplicate's index and arity win, the first
    one's place in the dict stays; a builtin's name redefined takes the function's arity."""
    source = ("fn f(a: Int) -> Int { a }\nfn g() -> Int { 1 }\nfn f(a: Int, b: Int) -> Int { a }\n"
              "fn list_len(a: Int, b: Int, c: Int) -> Int { a }\nfn main() -> Int { 0 }")
    program = resolve(source)
    tables = []
    for patched in (False, True):
        with monkeypatch.context() as m:
            if patched:
                m.setattr(codegen, "_c_fn_tables", _hand_back_functions)
            mod = codegen._Gen(program, "m", names_checked)
        arities = None if mod.arities is None else list(mod.arities.items())
        tables.append((list(mod.info.fn_ids.items()), arities))
    assert tables[0] == tables[1]
    assert tables[0][0] == [("f", 2), ("g", 1), ("list_len", 3), ("main", 4)]
    if not names_checked:
        assert dict(tables[0][1])["f"] == 2 and dict(tables[0][1])["list_len"] == 3


def test_function_tables_hand_back_what_they_cannot_read():
    program = check("fn f(a: Int) -> Int { a }\nfn main() -> Int { 0 }")
    fns = program.functions()
    arities = {"x": 1}
    assert _emit.fn_tables(tuple(fns), None) is None
    assert _emit.fn_tables(fns + [object()], arities) is None
    assert _emit.fn_tables(fns, []) is None
    fns[0].params = tuple(fns[0].params)
    assert _emit.fn_tables(fns, arities) is None
    del fns[1].name
    assert _emit.fn_tables(fns[1:], arities) is None
    assert arities == {"x": 1}          # nothing written when handed back
    with pytest.raises(TypeError):
        _emit.fn_tables(fns)
