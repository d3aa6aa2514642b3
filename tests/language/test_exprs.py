"""The parser's core in C (`boruna.language._exprs`, called by `parser.parse_expr` and
`parser.parse_block`): expressions, blocks and statements, `if`, `match` and its patterns, the
types of `let`.

The oracle is the parser without it: `_c_expr`, `_c_block` and `_c_items` patched to hand
everything back,
so the Python descent parses everything. Both must give the same nodes (class, every field,
line and column) or the same error with the same attributes, on random programs of the covered
grammar, on random edits of them, and at the nesting limit.
"""
import operator
import random

import pytest

from boruna.core.deep_stack import call_deep
from boruna.language import _exprs, ast, parser
from boruna.language.lexer import TokenStream, lex
from tests.parse_outcome import parse_outcome


def _hand_back(m, record=None):
    """Patch every entry of the C core to hand everything back (each call appended to
    `record`)."""
    def handing(answer):
        return lambda *args: (record.append(args) if record is not None else None) or answer(args)
    m.setattr(parser, "_c_expr", handing(lambda args: args[4]))
    m.setattr(parser, "_c_block", handing(lambda args: args[4]))
    m.setattr(parser, "_c_items", handing(lambda args: (args[4], args[4])))


def _both(monkeypatch, source):
    """(with the C core, without it) for `source`, each on a deep stack."""
    with_c = call_deep(parse_outcome, source)
    with monkeypatch.context() as m:
        _hand_back(m)
        without = call_deep(parse_outcome, source)
    return with_c, without


def _count_items(monkeypatch):
    """{"built": items the C core's loop parsed whole, "handed": items it handed back}."""
    counts = {"built": 0, "handed": 0}
    c_items = parser._c_items

    def counted(kinds, values, lines, cols, pos, depth, items):
        before = len(items)
        got = c_items(kinds, values, lines, cols, pos, depth, items)
        counts["built"] += len(items) - before
        counts["handed"] += got[1] >= 0
        return got
    monkeypatch.setattr(parser, "_c_items", counted)
    return counts


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
    assert _parse_at("let v = 1 + spawn f") == 5                    # the `spawn`
    assert _parse_at("let v = f(1, { receive })") == 8              # the `receive`
    assert _parse_at("let v = f(1 2)") == 6                         # a syntax error
    assert _parse_at("let v = { x.a = 1 }") == 7                    # not a name before `=`
    assert _parse_at("let v = match x { -1 => 0 }") == 6            # not a pattern
    node, end = _parse_at("let v = r { x: 1 }")     # a lowercase name before `{` is a name
    assert (node, end) == (ast.Ident("r"), 4)


def _block_at(source, depth=0):
    stream = lex(source)
    return _exprs.parse_block(stream.kinds, stream.values, stream.lines, stream.cols,
                              stream.kinds.index("LBrace"), depth)


def test_it_builds_a_block_with_every_statement():
    source = """fn main(x: Int) -> Int {
    let mut a: Map<String, List<Option<Int>>> = 1
    let f
      : Fn(Int, Result<Int, E>) -> Bool !{net, db.query} = g
    while a < 3 { a = a + 1 }
    for i in [1, 2] { print(i) }
    if a > 1 { 2 } else { 3 }
    match x { Some(Ok(v)) => v, None => 0, Foo(_) => 1, Bar
      => "s", "s" => 2, true => { 3 } 1 => 4, y => y }
    return
}"""
    block, end = _block_at(source)
    assert end == len(lex(source).kinds) - 1        # the EOF after the closing brace
    assert block == parser.parse_program(source).items[0].body
    let_a, let_f, loop, for_loop, branch, match, ret = block.stmts
    assert let_a == ast.Let("a", True, ast.MapType(ast.Named("String"), ast.ListType(
        ast.OptionType(ast.Named("Int")))), ast.IntLit(1))
    assert let_f.ty == ast.FnType([ast.Named("Int"), ast.ResultType(ast.Named("Int"),
                                                                   ast.Named("E"))],
                                  ast.Named("Bool"), ["net", "db.query"])
    assert (let_f.ty.line, let_f.ty.col, let_f.ty.params[1].col) == (4, 9, 17)
    assert loop.body.stmts == [ast.Assign("a", ast.Binary("Add", ast.Ident("a"),
                                                          ast.IntLit(1)))]
    assert (loop.body.line, loop.body.col, loop.body.stmts[0].col) == (5, 17, 19)
    assert for_loop == ast.For("i", ast.ListLit([ast.IntLit(1), ast.IntLit(2)]), ast.Block(
        [ast.ExprStmt(ast.Call(ast.Ident("print"), [ast.Ident("i")]))]))
    assert branch.expr.else_block.stmts == [ast.ExprStmt(ast.IntLit(3))]
    patterns = [arm.pattern for arm in match.expr.arms]
    assert patterns == [ast.SomePat(ast.OkPat(ast.IdentPat("v"))), ast.NonePat(),
                        ast.VariantPat("Foo", ast.WildcardPat()), ast.VariantPat("Bar", None),
                        ast.StringPat("s"), ast.BoolPat(True), ast.IntPat(1),
                        ast.IdentPat("y")]
    assert [(arm.line, arm.col) for arm in match.expr.arms][2:4] == [(8, 44), (8, 57)]
    assert match.expr.arms[5].body == ast.BlockExpr(ast.Block([ast.ExprStmt(ast.IntLit(3))]))
    assert (ret, ret.line, ret.col) == (ast.Return(None), 10, 5)


def test_it_hands_a_block_back_where_it_stops():
    assert _block_at("fn f() { let x = 1\n spawn g }") == 10       # the `spawn`
    assert _block_at("fn f() { let x: Fn(Int,) -> Int = 1 }") == 12  # the `)`
    assert _block_at("fn f() { for 1 in xs { } }") == 6             # not a name
    assert _block_at("fn f() { if a { 1 } else if b { 2 } }") == 11  # `else if`
    assert _block_at("fn f() { 1 }", depth=parser.MAX_DEPTH) == 4   # the block is too deep


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
            return rng.choice(["spawn f", "receive", "emit x", "send a b"])
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
    if r < 0.985:
        return f"{rng.choice(['Some', 'Ok', 'Err'])}{nl}({_random_expr(rng, depth + 1)})"
    if r < 0.99:
        otherwise = f"{nl} else {_random_block(rng, depth + 1)}" if rng.random() < 0.6 else ""
        return f"if {_random_expr(rng, depth + 1)} {_random_block(rng, depth + 1)}{otherwise}"
    if r < 0.995:
        arms = [f"{_random_pattern(rng)}{nl} =>{nl} {_random_expr(rng, depth + 1)}"
                for _ in range(rng.randrange(4))]
        return (f"match {_random_expr(rng, depth + 1)} {{{nl}"
                + rng.choice([", ", "\n", " "]).join(arms) + "}")
    return _random_block(rng, depth + 1)


_PATTERNS = ["_", "x", "n1", "0", "7", '"k"', "true", "false", "None", "A", "Bee"]


def _random_pattern(rng, depth=0):
    nl = "\n" if rng.random() < 0.1 else ""
    if depth > 3 or rng.random() < 0.6:
        return rng.choice(_PATTERNS)
    head = rng.choice(["Some", "Ok", "Err", "V", "Pair"])
    return f"{head}{nl}({_random_pattern(rng, depth + 1)}{nl})"


def _random_type(rng, depth=0):
    nl = "\n" if rng.random() < 0.05 else ""
    r = rng.random()
    if depth > 3 or r < 0.5:
        return rng.choice(["Int", "String", "Bool", "R", "Float"])
    if r < 0.75:
        return f"{rng.choice(['Option', 'List'])}{nl}<{_random_type(rng, depth + 1)}>"
    if r < 0.9:
        return (f"{rng.choice(['Result', 'Map'])}<{_random_type(rng, depth + 1)},{nl} "
                f"{_random_type(rng, depth + 1)}>")
    params = ", ".join(_random_type(rng, depth + 1) for _ in range(rng.randrange(3)))
    caps = rng.choice(["", " !{net}", " !{db.query, net}", " !{}"])
    return f"Fn({params}) -> {_random_type(rng, depth + 1)}{caps}"


def _random_stmt(rng, depth):
    nl = "\n" if rng.random() < 0.1 else ""
    r = rng.random()
    if r < 0.3:
        ty = f"{nl}: {_random_type(rng)}" if rng.random() < 0.4 else ""
        mut = "mut " if rng.random() < 0.3 else ""
        return f"let {mut}{rng.choice(['a', 'b'])}{ty} ={nl} {_random_expr(rng, depth)}"
    if r < 0.4:
        return f"{rng.choice(['a', 'b', 'x.f'])} ={nl} {_random_expr(rng, depth)}"
    if r < 0.5:
        return rng.choice(["return", f"return {_random_expr(rng, depth)}"])
    if r < 0.6:
        return f"while {_random_expr(rng, depth)} {_random_block(rng, depth + 1)}"
    if r < 0.7:
        return f"for {rng.choice(['i', 'x'])} in{nl} {_random_expr(rng, depth)} " \
               f"{_random_block(rng, depth + 1)}"
    return _random_expr(rng, depth)


def _random_block(rng, depth):
    if depth > 5:
        return "{ 1 }"
    stmts = [_random_stmt(rng, depth + 1) for _ in range(rng.randrange(4))]
    return "{" + rng.choice(["\n", " ", "\n\n"]).join([""] + stmts + [""]) + "}"


def _edit(rng, source):
    i = rng.randrange(len(source) + 1)
    j = min(len(source), i + rng.randrange(1, 6))
    token = rng.choice(["(", ")", "[", "]", ",", ".", "-", "+", "!", "\n", "1", "x", "::",
                        "{", "}", "Some", "if", "&&", "else", "match", "=>", "=", "let",
                        "mut", ":", "<", ">", "Fn", "for", "in", "while", "return", "_"])
    return rng.choice([source[:i], source[:i] + source[j:],
                       source[:i] + " " + token + " " + source[i:]])


def _random_item(rng):
    nl = "\n" if rng.random() < 0.1 else ""
    export = "export " if rng.random() < 0.2 else ""
    r = rng.random()
    if r < 0.15:
        return f"import {rng.choice(['std', 'm2'])}"
    if r < 0.35:
        entries = ", ".join(f"f{k}:{nl} {_random_type(rng)}" for k in range(rng.randrange(4)))
        return f"{export}type R{rng.randrange(9)} {{{nl}{entries}{rng.choice(['', ','])}{nl}}}"
    if r < 0.5:
        entries = ", ".join(rng.choice([f"V{k}", f"V{k}({_random_type(rng)})"])
                            for k in range(rng.randrange(4)))
        return f"{export}enum E{rng.randrange(9)} {{{nl}{entries}{nl}}}"
    params = ", ".join(f"p{k}:{nl} {_random_type(rng)}" for k in range(rng.randrange(3)))
    ret = rng.choice(["", f" ->{nl} {_random_type(rng)}",
                      " -> Fn(Int) -> Int !{net} !{db.query}", " -> Fn(Int) -> Int !{net}"])
    caps = rng.choice(["", "", " !{net}", " !{net, fs.read}", f" !{{{nl}}}"])
    clauses = "".join(rng.choice([f' intent "i{k}"', f" requires {_random_expr(rng, 3)}",
                                  f"{nl} ensures {_random_expr(rng, 3)}"])
                      for k in range(rng.randrange(3)))
    return f"{export}fn f{rng.randrange(9)}({params}){ret}{caps}{clauses} " \
           f"{_random_block(rng, 3)}"


def _compare_random(monkeypatch, rng, make):
    """Parse 300 programs `make(rng)` and 3 random edits of each with and without the C core;
    (errors, trees): how many of them ended in an E002 and how many in a tree."""
    errors = trees = 0
    for _ in range(300):
        source = make(rng)
        for text in [source] + [_edit(rng, source) for _ in range(3)]:
            with_c, without = _both(monkeypatch, text)
            assert with_c == without, text
            errors += with_c is not None and with_c[0] == "error"
            trees += with_c is not None and with_c[0] == "Program"
    return errors, trees


def test_random_expressions_parse_as_without_it(monkeypatch):
    def make(rng):
        body = "\n".join(f"let v{k} = {_random_expr(rng)}" for k in range(rng.randrange(1, 4)))
        return f"fn main() -> Int {{\n{body}\n{_random_expr(rng)}\n}}"
    errors, trees = _compare_random(monkeypatch, random.Random(2026), make)
    assert errors >= 300 and trees >= 300      # both kinds of outcome are compared


def test_random_blocks_parse_as_without_it(monkeypatch):
    counts = _count_items(monkeypatch)
    errors, trees = _compare_random(
        monkeypatch, random.Random(2027),
        lambda rng: f"fn main() -> Int {_random_block(rng, 0)}\nfn g() {_random_block(rng, 2)}")
    assert errors >= 600 and trees >= 250      # both kinds of outcome are compared
    assert counts["built"] >= 600 and counts["handed"] >= 300     # and both paths


def test_random_items_parse_as_without_it(monkeypatch):
    counts = _count_items(monkeypatch)

    def make(rng):
        module = "module m\n" if rng.random() < 0.2 else ""
        return module + "\n".join(_random_item(rng) for _ in range(rng.randrange(1, 5)))
    errors, trees = _compare_random(monkeypatch, random.Random(2028), make)
    assert errors >= 300 and trees >= 250      # both kinds of outcome are compared
    assert counts["built"] >= 1000 and counts["handed"] >= 300    # and both paths


@pytest.mark.parametrize("form", ["parens", "negations", "sums", "calls", "fields", "lists",
                                  "somes", "variants", "records", "mixed", "blocks", "ifs",
                                  "elses", "matches", "patterns", "whiles", "types", "lets"])
def test_the_nesting_limit_is_met_at_the_same_token(monkeypatch, form):
    # both sides of the limit for the forms that reach it there (parens, types, matches:
    # 19,998 parses, 19,999 is refused), two refusals for those that meet it sooner
    for depth in (19_998, 19_999):
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
            "blocks": "{ " * depth + "1" + " }" * depth,
            "ifs": "if a { " * depth + "1" + " }" * depth,
            "elses": "if a { 1 } else { " * depth + "1" + " }" * depth,
            "matches": "match x { _ => " * depth + "1" + " }" * depth,
            "patterns": "match x { " + "Some(" * depth + "y" + ")" * depth + " => 1 }",
            "whiles": "while a { " * depth + "1" + " }" * depth,
            "types": "let v: " + "List<" * depth + "Int" + ">" * depth + " = 1",
            "lets": "let a = { " * depth + "1" + " }" * depth,
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
    _hand_back(monkeypatch, calls)
    assert parser.parse_tokens(tuples) == expected
    assert calls == []
    parser.parse_tokens(stream)
    # the same stream as lists: asked for the items, the item's body and every expression the
    # Python descent parses (the value, f's three arguments, the list's item, the field's
    # value, `-4`, `v`)
    assert [(len(args), args[4]) for args in calls][:3] == [(7, 0), (6, 6), (7, 10)]
    assert len(calls) == 10


def test_the_entries_read_their_arguments_exactly():
    stream = lex("fn main() -> Option<Int> { Some(1) }\nfn g() { 1 }\n")
    columns = (stream.kinds, stream.values, stream.lines, stream.cols)
    items = []
    assert _exprs.parse_items(*columns, 0, 0, items) == (24, -1)    # up to the EOF token
    assert [(type(i), i.name) for i in items] == [(ast.FnDef, "main"), (ast.FnDef, "g")]
    assert items == parser.parse_tokens(stream).items
    expr, end = _exprs.parse(*columns, 10, 0, 0)        # `Some(1)` at token 10
    assert (type(expr), end) == (ast.SomeExpr, 14)
    block, end = _exprs.parse_block(*columns, 9, 0)      # `{ Some(1) }`
    assert (type(block), end) == (ast.Block, 15)
    assert _exprs.parse_block(*columns, 25, 0) == 25     # past the end: handed back
    with pytest.raises(TypeError, match="expected 6 arguments, got 5"):
        _exprs.parse_block(*columns, 0)
    with pytest.raises(TypeError, match="expected 7 arguments, got 6"):
        _exprs.parse(*columns, 0, 0)
    with pytest.raises(TypeError, match="must be lists"):
        _exprs.parse_block(tuple(stream.kinds), *columns[1:], 0, 0)
    with pytest.raises(TypeError, match="the items must be a list"):
        _exprs.parse_items(*columns, 0, 0, ())
    with pytest.raises(TypeError):
        _exprs.parse_block(*columns, "0", 0)
    with pytest.raises(OverflowError):
        _exprs.parse_block(*columns, 2 ** 70, 0)


def test_the_loop_over_items_hands_back_an_item_and_says_where():
    source = "fn a() { 1 }\nfn b() { emit(1) }\nfn c() { 3 }\n"
    stream = lex(source)
    columns = (stream.kinds, stream.values, stream.lines, stream.cols)
    items = []
    at, stop = _exprs.parse_items(*columns, 0, 0, items)
    # `a` appended; `b` (at token 8) handed back at `emit` (token 14)
    assert [i.name for i in items] == ["a"]
    assert (at, stream.kinds[at], stop, stream.kinds[stop]) == (8, "fn", 13, "emit")
    assert [i.name for i in parser.parse_tokens(stream).items] == ["a", "b", "c"]
