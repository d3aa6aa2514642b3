"""Codegen's special cases give the code of its general paths: left-nested operator chains
(emitted without a call per level) as the plain post-order recursion, branches and function
bodies of one expression as a nested block, builtin calls from `_DIRECT_CALLS` as the builtin
table says, match binders and nesting found inline as `pattern_binding` and `_is_nested`;
a module's match arms and jump/match instructions are shared objects equal to their values."""
import copy

import pytest

from boruna.bytecode import codegen
from boruna.bytecode.axbc import to_bytes
from boruna.bytecode.module import MatchArm
from boruna.bytecode.opcodes import INT_TAG_LIMIT
from boruna.compiler import compile_source
from boruna.core.builtins import BUILTINS, DECLARED_BY_COMPILER
from boruna.core.capabilities import by_wire_name
from boruna.language import ast
from boruna.language.frontend import parse
from boruna.language.walk import pattern_binding


def _post_order(e, slots, code, lines, pc_const):
    """The recursion the chain loop stands for: left, right, mark, operator."""
    if type(e) is ast.Binary:
        _post_order(e.left, slots, code, lines, pc_const)
        _post_order(e.right, slots, code, lines, pc_const)
        if (e.line, e.col) != tuple(lines[-2:]):
            lines += [len(code), e.line, e.col]
        code.append((e.op,))
    elif type(e) is ast.Ident:
        code.append(("LoadLocal", slots[e.name]))
    else:
        code.append(("PushConst", pc_const[0]))
        pc_const[0] += 1


@pytest.mark.parametrize("expr", [
    "a + 1", "a + b - c * 2 + 300 - a", "((a - b) - (c - 1)) * a % 7 + b",
    "a\n + b\n - c\n * 4 + (a + b) - c", "1 + 2 + 3 + 4 + 5 + a",
    "a * b * c * 1 * 2 - (a + (b + (c + 1)))", "(a < b) == (b < c) && a != 1 || c >= 3",
])
def test_operator_chains_compile_as_the_post_order_recursion(expr):
    source = f"fn f(a: Int, b: Int, c: Int) -> Int {{ {expr} }}\nfn main() -> Int {{ 0 }}"
    fn = compile_source(source).functions[0]
    node = parse(source).functions()[0].body.stmts[0].expr
    code, lines = [], [0, 1, 1]
    _post_order(node, {"a": 0, "b": 1, "c": 2}, code, lines, [0])
    assert fn.code == code + [("Ret",)]
    assert fn.lines == lines


_BODIES = ["1", "a", "f(a)", "if a > 1 { 2 } else { 3 }", "if a > 1 { 2 }",
           "match a { 0 => 1, n => n }", "{ 4 }", "send a 1", "a + 1\n"]


@pytest.mark.parametrize("body", _BODIES)
def test_branches_and_bodies_of_one_expression_compile_as_a_nested_block(body):
    """`{ B }` in a branch (VALUE, TAIL and DISCARD contexts) or as a function body gives
    the code of `{ { B } }`, whose inner block takes the general path; the braces stand on
    lines of their own, so every position is the same."""
    template = ("fn f(a: Int) -> Int {{\n{o}\n{b}\n{c}\n}}\n"
                "fn g(a: Int) -> Int {{ let v = if a > 0 {{\n{o}\n{b}\n{c}\n}} else {{\n{o}\n{b}"
                "\n{c}\n}}\n if a < 0 {{\n{o}\n{b}\n{c}\n}} else {{\n{o}\n{b}\n{c}\n}}\n"
                " v\n if a == 0 {{\n{o}\n{b}\n{c}\n}} else {{\n{o}\n{b}\n{c}\n}} }}\n"
                "fn main() -> Int {{ 0 }}")
    plain = compile_source(template.format(o="", b=body, c=""))
    nested = compile_source(template.format(o="{", b=body, c="}"))
    assert to_bytes(plain) == to_bytes(nested)


@pytest.mark.parametrize("builtin", BUILTINS, ids=lambda b: b.name)
def test_builtin_calls_compile_as_the_builtin_table_says(builtin):
    args = ", ".join(["1"] * builtin.arity)
    fn = compile_source(f"fn main() -> Int {{ {builtin.name}({args}) }}").functions[0]
    if builtin.capability is None:
        instruction = (builtin.opcode,)
    else:
        instruction = (builtin.opcode, by_wire_name(builtin.capability).id, builtin.arity)
    assert fn.code == [("PushConst", k) for k in range(builtin.arity)] + [instruction, ("Ret",)]
    declared = builtin.capability == DECLARED_BY_COMPILER
    assert fn.capabilities == ([by_wire_name(builtin.capability).id] if declared else [])


def _patterns():
    leaves = [ast.IdentPat("x"), ast.WildcardPat(), ast.IntPat(3), ast.IntPat(INT_TAG_LIMIT), ast.IntPat(-1),
              ast.StringPat("s"), ast.BoolPat(True), ast.NonePat()]
    out = list(leaves)
    for inner in leaves + [ast.SomePat(ast.IdentPat("y")), ast.OkPat(ast.IntPat(1))]:
        out += [ast.SomePat(inner), ast.OkPat(inner), ast.ErrPat(inner),
                ast.VariantPat("V", inner)]
    return out + [ast.VariantPat("V", None), ast.SomePat(ast.SomePat(ast.SomePat(
        ast.IdentPat("deep"))))]


def test_arm_binders_are_pattern_binding():
    for p in _patterns():
        assert codegen._arm_binder(p, type(p)) == pattern_binding(p), p


def test_match_kind_follows_is_nested(monkeypatch):
    kinds = []
    for name in ("match_chain", "match_nested", "match_table"):
        monkeypatch.setattr(codegen._FnGen, name,
                            lambda self, e, ctx, name=name: kinds.append(name))
    for p in _patterns():
        e = ast.Match(ast.IntLit(1), [ast.MatchArm(p, ast.IntLit(2))])
        gen = codegen._FnGen(codegen._Gen(ast.Program(None, []), "m", True),
                             ast.FnDef("f", [], None, [], None, [], [], ast.Block([]), False))
        gen.match_expr(e, codegen.VALUE)
        chain = type(p) is ast.StringPat or (type(p) is ast.IntPat
                                              and not codegen._table_int(p.value))
        expected = ("match_chain" if chain else
                    "match_nested" if codegen._is_nested(p) else "match_table")
        assert kinds.pop() == expected, p


def test_match_arms_and_jumps_are_shared_objects_equal_to_their_values():
    source = ("enum E { A(Int), B, C(Option<Int>) }\n"
              "fn f(e: E) -> Int { match e { A(n) => n, B => 0, C(Some(v)) => v, C(None) => 1 } }\n"
              "fn g(e: E) -> Int { match e { A(n) => n, B => 0, C(Some(v)) => v, C(None) => 1 } }\n"
              "fn main() -> Int { if 1 > 2 { [1, 2] } else { [3, 4] }\n 0 }")
    module = compile_source(source)
    f, g, main = module.functions
    assert f.match_tables == g.match_tables and len(f.code) == len(g.code)
    for table_f, table_g in zip(f.match_tables, g.match_tables):
        assert table_f is not table_g          # the lists are each function's own
        for arm_f, arm_g in zip(table_f, table_g):
            assert type(arm_f) is MatchArm and arm_f is arm_g
    assert f.match_tables[0][1:] == f.match_tables[1]
    assert f.match_tables[0][1] is f.match_tables[1][0]
    jumps = [ins for ins in f.code if ins[0] in ("Jmp", "Match")]
    assert jumps and all(a is b for a, b in zip(jumps, (i for i in g.code if i[0] in
                                                        ("Jmp", "Match"))))
    assert [ins for ins in main.code if ins[0] == "MakeList"] == [("MakeList", 2)] * 2
    assert to_bytes(copy.deepcopy(module)) == to_bytes(module)
