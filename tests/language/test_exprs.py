"""The parser's expression core in C (`boruna.language._exprs`, called by `parser.parse_expr`).

The oracle is the parser without it: `_c_expr` patched to hand every expression back, so the
Python descent parses everything. Both must give the same nodes (class, every field, line and
column) or the same error with the same attributes, on random expressions of the covered
grammar, on random edits of them, and at the nesting limit.
"""
import operator
import random

import pytest

from boruna.core.deep_stack import call_deep
from boruna.language import _exprs, ast, parser
from boruna.language.lexer import TokenStream, lex
from tests.parse_outcome import parse_outcome


def _both(monkeypatch, source):
    """(with the C core, without it) for `source`, each on a deep stack."""
    with_c = call_deep(parse_outcome, source)
    with monkeypatch.context() as m:
        m.setattr(parser, "_c_expr", lambda kinds, values, lines, cols, pos, *_: pos)
        without = call_deep(parse_outcome, source)
    return with_c, without


def _parse_at(source, pos=None, min_prec=1, depth=0):
    stream = lex(source)
    if pos is None:
        pos = stream.kinds.index("Eq") + 1
    return _exprs.parse(stream.kinds, stream.values, stream.lines, stream.cols, pos,
                        min_prec, depth)


def test_it_builds_the_nodes_of_a_simple_expression():
    node, end = _parse_at("let v = -a.b(1, [2.5,], Some(\"s\")) * (x + 2) - !true\n y")
    variant, _ = _parse_at("let v = E::V(x) + E::W")
    assert variant == ast.Binary("Add", ast.EnumVariant("E", "V", ast.Ident("x")),
                                 ast.EnumVariant("E", "W", None))
    assert (variant.right.line, variant.right.col) == (1, 19)
    record, record_end = _parse_at("let v = R { ..r, x: 1, y: Q {},\n }.x")
    assert record == ast.FieldAccess(ast.RecordLit(
        "R", [("x", ast.IntLit(1)), ("y", ast.RecordLit("Q", [], None))], ast.Ident("r")), "x")
    assert record_end == 22
    assert node == ast.Binary("Sub", ast.Binary("Mul", ast.Unary("Neg", ast.Call(
        ast.FieldAccess(ast.Ident("a"), "b"),
        [ast.IntLit(1), ast.ListLit([ast.FloatLit(2.5)]), ast.SomeExpr(ast.StringLit("s"))])),
        ast.Binary("Add", ast.Ident("x"), ast.IntLit(2))), ast.Unary("Not", ast.BoolLit(True)))
    assert (node.line, node.col, node.left.left.line, node.left.left.col) == (1, 9, 1, 9)
    assert node.right.col == 48 and node.left.left.expr.func.col == 10
    assert end == 29        # the Newline after `true`: the expression stops before it


def test_it_hands_back_at_the_first_token_it_does_not_cover():
    assert _parse_at("let v = 1 + if a { 2 } else { 3 }") == 5      # the `if`
    assert _parse_at("let v = f(1, match x { _ => 1 })") == 7       # the `match`
    assert _parse_at("let v = f(1 2)") == 6                         # a syntax error
    node, end = _parse_at("let v = r { x: 1 }")     # a lowercase name before `{` is a name
    assert (node, end) == (ast.Ident("r"), 4)


def test_it_hands_back_at_the_nesting_limit():
    assert _parse_at("let v = 1 + 2", depth=parser.MAX_DEPTH) == 3
    assert _parse_at("let v = 1 + 2", depth=parser.MAX_DEPTH - 1) == 4    # the `+`
    assert _parse_at("let v = 1 + 2", depth=parser.MAX_DEPTH - 2) == 5    # the right operand
    node, _ = _parse_at("let v = 1 + 2", depth=parser.MAX_DEPTH - 3)
    assert node == ast.Binary("Add", ast.IntLit(1), ast.IntLit(2))
    deep = "let v = " + "(" * 1000 + "1" + ")" * 1000
    assert isinstance(_parse_at(deep), int)     # deeper than the C core goes: handed back


_LEAVES = ["x", "y1", "_z", "0", "42", "9223372036854775807", "1.5", '"s"', '"a\\nb"',
           "true", "false", "None", "E::A", "E\n::\nB"]
_BINARY = ["||", "&&", "==", "!=", "<", "<=", ">", ">=", "++", "+", "-", "*", "/", "%"]


def _random_expr(rng, depth=0):
    """An expression of the grammar the C core covers, with the odd Newline in it, and now and
    then a construct it does not cover (so the hand-back paths run inside trees too)."""
    nl = "\n" if rng.random() < 0.1 else ""
    r = rng.random()
    if depth > 5 or r < 0.3:
        if rng.random() < 0.04:
            return rng.choice(["if x { 1 } else { 2 }", "match x { _ => 1 }", "spawn f",
                               "receive", "{ 1 }"])
        return rng.choice(_LEAVES)
    if r < 0.45:
        return (f"{rng.choice(['-', '!'])}{nl}" * rng.randrange(1, 3)
                + _random_expr(rng, depth + 1))
    if r < 0.7:
        return f"{_random_expr(rng, depth + 1)} {rng.choice(_BINARY)}{nl} " \
               f"{_random_expr(rng, depth + 1)}"
    if r < 0.78:
        return f"({nl}{_random_expr(rng, depth + 1)}{nl})"
    if r < 0.86:
        args = ", ".join(_random_expr(rng, depth + 1) for _ in range(rng.randrange(4)))
        return f"{rng.choice(['f', 'g.h', '(k)'])}({nl}{args})"
    if r < 0.9:
        return f"{_random_expr(rng, depth + 1)}{nl}.{rng.choice(['a', 'b', '0'])}"
    if r < 0.93:
        items = [_random_expr(rng, depth + 1) for _ in range(rng.randrange(4))]
        trailing = "," if items and rng.random() < 0.3 else ""
        return f"[{nl}{', '.join(items)}{trailing}{nl}]"
    if r < 0.96:
        spread = f"..{_random_expr(rng, depth + 1)}, " if rng.random() < 0.3 else ""
        fields = ", ".join(f"f{k}:{nl} {_random_expr(rng, depth + 1)}"
                           for k in range(rng.randrange(3)))
        return f"R {{{nl}{spread}{fields}{',' if rng.random() < 0.2 else ''}{nl}}}"
    if r < 0.98:
        return f"E::{rng.choice(['V', 'W'])}{nl}({_random_expr(rng, depth + 1)})"
    return f"{rng.choice(['Some', 'Ok', 'Err'])}{nl}({_random_expr(rng, depth + 1)})"


def _edit(rng, source):
    i = rng.randrange(len(source) + 1)
    j = min(len(source), i + rng.randrange(1, 6))
    token = rng.choice(["(", ")", "[", "]", ",", ".", "-", "+", "!", "\n", "1", "x", "::",
                        "{", "}", "Some", "if", "&&"])
    return rng.choice([source[:i], source[:i] + source[j:],
                       source[:i] + " " + token + " " + source[i:]])


def test_random_expressions_parse_as_without_it(monkeypatch):
    rng = random.Random(2026)
    sources = []
    for _ in range(300):
        body = "\n".join(f"let v{k} = {_random_expr(rng)}" for k in range(rng.randrange(1, 4)))
        source = f"fn main() -> Int {{\n{body}\n{_random_expr(rng)}\n}}"
        sources.append(source)
        sources += [_edit(rng, source) for _ in range(3)]
    errors = trees = 0
    for source in sources:
        with_c, without = _both(monkeypatch, source)
        assert with_c == without, source
        errors += with_c is not None and with_c[0] == "error"
        trees += with_c is not None and with_c[0] == "Program"
    assert errors >= 300 and trees >= 300      # both kinds of outcome are compared


@pytest.mark.parametrize("form", ["parens", "negations", "sums", "calls", "fields", "lists",
                                  "somes", "variants", "records", "mixed"])
def test_the_nesting_limit_is_met_at_the_same_token(monkeypatch, form):
    for depth in (19_998, 19_999, 20_000, 20_001):
        text = {
            "parens": "(" * depth + "1" + ")" * depth,
            "negations": "-" * depth + "1",
            "sums": "1" + " + 1" * depth,
            "calls": "f" + "(1)" * depth,
            "fields": "x" + ".a" * depth,
            "lists": "[" * depth + "1" + "]" * depth,
            "somes": "Some(" * depth + "1" + ")" * depth,
            "variants": "E::V(" * depth + "1" + ")" * depth,
            "records": "R { a: " * depth + "1" + " }" * depth,
            "mixed": "-(" * (depth // 2) + "x.a(1) * 2" + ")" * (depth // 2),
        }[form]
        with_c, without = _both(monkeypatch, "fn main() -> Int { " + text + " }")
        assert call_deep(operator.eq, with_c, without), (form, depth)


def test_a_stream_of_tuples_is_parsed_without_it(monkeypatch):
    source = "fn main() -> Int { let v = f(1, [2], R { x: 3 }) * -4\n v }"
    stream = lex(source)
    expected = parser.parse_tokens(stream)
    tuples = TokenStream(tuple(stream.kinds), tuple(stream.values), tuple(stream.lines),
                         tuple(stream.cols), stream.eof_line, stream.eof_col)
    calls = []
    monkeypatch.setattr(parser, "_c_expr", lambda *args: calls.append(args) or args[4])
    assert parser.parse_tokens(tuples) == expected
    assert calls == []
    parser.parse_tokens(stream)
    # the same stream as lists: asked for every expression the Python descent parses (the
    # value, f's three arguments, the list's item, the field's value, `-4`, `v`)
    assert len(calls) == 8
