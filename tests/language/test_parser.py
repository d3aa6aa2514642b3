"""The parser (docs/spec/language.md §2, §4.3, §4.4, §4.6): grammar, AST shapes, node positions,
error messages with the reference's lines and our columns."""
import pytest

from boruna.language import ast
from boruna.language.ast_json import dumps, to_json_obj
from boruna.language.errors import CompileError
from boruna.language.frontend import parse


def body(source):
    """The statements of the single function in `fn main() { <source> }`."""
    return parse("fn main() {\n" + source + "\n}").items[0].body.stmts


def expr_json(source):
    """Compact AST JSON of one expression statement."""
    (stmt,) = body(source)
    assert isinstance(stmt, ast.ExprStmt)
    return dumps(to_json_obj(stmt.expr))


def parse_error(source):
    with pytest.raises(CompileError) as info:
        parse(source)
    err = info.value
    assert err.code == "E002"
    return (err.message, err.line, err.col)


# ------------------------------------------------------------------ precedence (§2.8)

@pytest.mark.parametrize("source,expected", [
    ("1 < 2 < 3", "((1 Lt 2) Lt 3)"),
    ("a == b == c", "((a Eq b) Eq c)"),
    ("a < b == c < d", "((a Lt b) Eq (c Lt d))"),
    ("a ++ b + c", "(a Concat (b Add c))"),
    ("a + b ++ c", "((a Add b) Concat c)"),
    ("a || b && c", "(a Or (b And c))"),
    ("a && b || c && d", "((a And b) Or (c And d))"),
    ("1 - 2 - 3", "((1 Sub 2) Sub 3)"),
    ("1 + 2 * 3 % 4", "(1 Add ((2 Mul 3) Mod 4))"),
    ("!a == b", "((Not a) Eq b)"),
    ("- - x", "(Neg (Neg x))"),
    ("!!x", "(Not (Not x))"),
    ("-f(x).y", "(Neg (f(x)).y)"),
    ("a != b >= c <= d > e", "(a Neq (((b Gte c) Lte d) Gt e))"),
    ("(1 + 2) * 3", "((1 Add 2) Mul 3)"),
    ("a\n- 1", "(a Sub 1)"),
])
def test_precedence_and_associativity(source, expected):
    def show(e):
        if isinstance(e, ast.Binary):
            return f"({show(e.left)} {e.op} {show(e.right)})"
        if isinstance(e, ast.Unary):
            return f"({e.op} {show(e.expr)})"
        if isinstance(e, ast.Call):
            return f"{show(e.func)}({', '.join(show(a) for a in e.args)})"
        if isinstance(e, ast.FieldAccess):
            return f"({show(e.object)}).{e.field}"
        if isinstance(e, ast.IntLit):
            return str(e.value)
        return e.name
    (stmt,) = body(source)
    assert show(stmt.expr) == expected


# ------------------------------------------------------------------ newline rules (§2.1)

def test_statements_need_no_separator():
    assert body("let a = 1 let b = 2 a + b") == [
        ast.Let("a", False, None, ast.IntLit(1)), ast.Let("b", False, None, ast.IntLit(2)),
        ast.ExprStmt(ast.Binary("Add", ast.Ident("a"), ast.Ident("b")))]
    assert len(body("1 2 3")) == 3


def test_paren_on_next_line_continues_as_call():
    assert body("let b = a\n(b)") == [
        ast.Let("b", False, None, ast.Call(ast.Ident("a"), [ast.Ident("b")]))]


def test_dot_on_next_line_is_field_access():
    assert body("p\n.x") == [ast.ExprStmt(ast.FieldAccess(ast.Ident("p"), "x"))]


def test_uppercase_then_brace_on_next_line_is_record_literal():
    assert body("let a = Foo\n{ x: 1 }") == [
        ast.Let("a", False, None, ast.RecordLit("Foo", [("x", ast.IntLit(1))], None))]


def test_lowercase_then_brace_starts_a_block():
    assert body("a\n{ 1 }") == [
        ast.ExprStmt(ast.Ident("a")),
        ast.ExprStmt(ast.BlockExpr(ast.Block([ast.ExprStmt(ast.IntLit(1))])))]


def test_bracket_bang_and_literals_start_new_statements():
    assert len(body("xs\n[0]")) == 2
    assert len(body("a\n!b")) == 2
    assert len(body("a\n1")) == 2


def test_return_without_value_before_brace_and_with_value_on_next_line():
    assert body("return") == [ast.Return(None)]
    assert body("return\n7") == [ast.Return(ast.IntLit(7))]


def test_postfix_applies_to_if_expression():
    (stmt,) = body("if c { f } else { g }\n(3)")
    assert isinstance(stmt.expr, ast.Call) and isinstance(stmt.expr.func, ast.If)


def test_method_like_call_and_chained_calls():
    assert body("x.f(1)") == [ast.ExprStmt(
        ast.Call(ast.FieldAccess(ast.Ident("x"), "f"), [ast.IntLit(1)]))]
    assert body("f(1)(2)") == [ast.ExprStmt(
        ast.Call(ast.Call(ast.Ident("f"), [ast.IntLit(1)]), [ast.IntLit(2)]))]


# ------------------------------------------------------------------ primaries (§2.9)

def test_actor_forms_take_primaries():
    assert body("spawn worker(1)") == [ast.ExprStmt(
        ast.Call(ast.Spawn(ast.Ident("worker")), [ast.IntLit(1)]))]
    assert body("send a b c") == [
        ast.ExprStmt(ast.Send(ast.Ident("a"), ast.Ident("b"))), ast.ExprStmt(ast.Ident("c"))]
    assert body("emit a.b") == [ast.ExprStmt(ast.FieldAccess(ast.Emit(ast.Ident("a")), "b"))]
    assert body("emit (render(s))") == [ast.ExprStmt(
        ast.Emit(ast.Call(ast.Ident("render"), [ast.Ident("s")])))]


def test_enum_variant_and_record_literal():
    assert body("E::V") == [ast.ExprStmt(ast.EnumVariant("E", "V", None))]
    assert body("E::W(1)") == [ast.ExprStmt(ast.EnumVariant("E", "W", ast.IntLit(1)))]
    assert body("P { ..q, a: 1, }") == [ast.ExprStmt(
        ast.RecordLit("P", [("a", ast.IntLit(1))], ast.Ident("q")))]
    assert body("P { ..q a: 1 }") == [ast.ExprStmt(
        ast.RecordLit("P", [("a", ast.IntLit(1))], ast.Ident("q")))]
    assert body("P {}") == [ast.ExprStmt(ast.RecordLit("P", [], None))]


def test_match_arms_with_optional_commas_and_empty_match():
    (stmt,) = body("match x { 1 => a, _ => b\n None => c }")
    assert [type(a.pattern) for a in stmt.expr.arms] == [ast.IntPat, ast.WildcardPat,
                                                        ast.NonePat]
    assert body("match x {}") == [ast.ExprStmt(ast.Match(ast.Ident("x"), []))]


@pytest.mark.parametrize("pattern,expected", [
    ("_", ast.WildcardPat()),
    ("true", ast.BoolPat(True)),
    ("false", ast.BoolPat(False)),
    ("None", ast.NonePat()),
    ("Some(x)", ast.SomePat(ast.IdentPat("x"))),
    ("Ok(_)", ast.OkPat(ast.WildcardPat())),
    ("Err(Some(e))", ast.ErrPat(ast.SomePat(ast.IdentPat("e")))),
    ("12", ast.IntPat(12)),
    ('"s"', ast.StringPat("s")),
    ("Red", ast.VariantPat("Red", None)),
    ("Circle(r)", ast.VariantPat("Circle", ast.IdentPat("r"))),
    ("name", ast.IdentPat("name")),
    ("_x", ast.IdentPat("_x")),
])
def test_patterns(pattern, expected):
    (stmt,) = body(f"match v {{ {pattern} => 0 }}")
    assert stmt.expr.arms[0].pattern == expected


def test_types():
    program = parse("fn f(a: Option<Int>, b: Result<Int, String>, c: List<List<X>>, "
                    "d: Map<String, Int>, e: Fn() -> Int, g: Fn(Int, Bool) -> Unit, h: lower) {}")
    types = [p.ty for p in program.items[0].params]
    assert types == [
        ast.OptionType(ast.Named("Int")), ast.ResultType(ast.Named("Int"), ast.Named("String")),
        ast.ListType(ast.ListType(ast.Named("X"))), ast.MapType(ast.Named("String"), ast.Named("Int")),
        ast.FnType([], ast.Named("Int")), ast.FnType([ast.Named("Int"), ast.Named("Bool")],
                                                     ast.Named("Unit")),
        ast.Named("lower")]


def test_items_module_import_export():
    program = parse("\n// header\nmodule app\nimport util\nexport import other\n"
                    "export type T { a: Int, }\nexport enum E { A, B(Int), }\nexport fn f() {}\n")
    assert program.module_name == "app"
    assert [type(i) for i in program.items] == [ast.ImportDef, ast.ImportDef, ast.TypeDef,
                                                ast.TypeDef, ast.FnDef]
    assert program.items[0] == ast.ImportDef("util", [])
    assert [getattr(i, "exported", None) for i in program.items[2:]] == [True, True, True]
    assert program.items[3].kind == ast.EnumKind([("A", None), ("B", ast.Named("Int"))])


def test_function_clauses_in_any_order():
    fn = parse('fn f(x: Int) -> Int !{} ensures result > 0 intent "i" requires x > 0 '
               'requires x < 9 { x }').items[0]
    assert fn.capabilities == [] and fn.intent == "i"
    assert len(fn.requires) == 2 and len(fn.ensures) == 1
    assert fn.caps_line == 1 and fn.caps_col == 21


def test_empty_and_comment_only_programs():
    assert parse("") == ast.Program(None, [])
    assert parse("\n\n// only a comment\n") == ast.Program(None, [])


# ------------------------------------------------------------------ positions on nodes

def test_every_node_has_the_position_of_its_first_token():
    program = parse("type P { x: Int }\n\nexport fn main(a: Int) -> Int !{net} {\n"
                    "    let v = -a + f(2).k\n    v = P { x: 1 }\n    match v { Some(q) => q }\n}\n")
    td, fn = program.items
    assert (td.line, td.col) == (1, 1)
    assert (fn.line, fn.col) == (3, 8)
    assert (fn.params[0].line, fn.params[0].col) == (3, 16)
    assert (fn.return_type.line, fn.return_type.col) == (3, 27)
    assert (fn.body.line, fn.body.col) == (3, 38)
    let, assign, match = fn.body.stmts
    assert (let.line, let.col) == (4, 5)
    binary = let.value
    assert (binary.line, binary.col) == (4, 13)
    assert (binary.left.line, binary.left.col) == (4, 13)          # the unary minus
    assert (binary.left.expr.line, binary.left.expr.col) == (4, 14)
    field = binary.right
    assert (field.line, field.col) == (4, 18)
    assert (field.object.args[0].line, field.object.args[0].col) == (4, 20)
    assert (assign.line, assign.col) == (5, 5)
    assert (assign.value.line, assign.value.col) == (5, 9)
    arm = match.expr.arms[0]
    assert (match.expr.line, match.expr.col) == (6, 5)
    assert (arm.line, arm.col) == (6, 15)
    assert (arm.pattern.inner.line, arm.pattern.inner.col) == (6, 20)


# ------------------------------------------------------------------ parse errors

@pytest.mark.parametrize("source,expected", [
    ("fn f(x) {}", ("expected Colon, found RParen", 1, 7)),
    ("fn f() Int {}", ("expected LBrace, found 'Int'", 1, 8)),
    ("fn f() !{net} -> Int {}", ("expected LBrace, found Arrow", 1, 15)),
    ("fn f() -> Foo<Int> {}", ("expected LBrace, found Lt", 1, 14)),
    ("fn f() { let x: Option = 1 }", ("expected Lt, found Eq", 1, 24)),
    ("fn f() { let x: A::B = 1 }", ("expected Eq, found ColonColon", 1, 18)),
    ("fn f() { let x: Int }", ("expected Eq, found RBrace", 1, 21)),
    ("fn f() { let (a, b) = 1 }", ("expected identifier, found LParen", 1, 14)),
    ("fn f() intent foo {}", ("expected string literal, found 'foo'", 1, 15)),
    ("fn f() { Some x }", ("expected LParen, found 'x'", 1, 15)),
    ("fn f() { f() = 1 }", ("invalid assignment target", 1, 16)),
    ("fn f() { xs[0] = 1 }", ("invalid assignment target", 1, 18)),
    ("fn f() { P { x } }", ("expected Colon, found RBrace", 1, 16)),
    ("fn f() { P { x: 1 y: 2 } }", ("expected Comma, found 'y'", 1, 19)),
    ("fn f() { match x { 1 => 2,, } }", ("expected pattern, found Comma", 1, 27)),
    ("fn f() { match x { 1.5 => 2 } }", ("expected pattern, found <float literal>", 1, 20)),
    ("fn f() { match x { (a) => 2 } }", ("expected pattern, found LParen", 1, 20)),
    ("fn f() { a::b::c }", ("expected expression, found ColonColon", 1, 14)),
    ("fn f() { [,] }", ("expected expression, found Comma", 1, 11)),
    ("fn f() { let in = 1 }", ("expected identifier, found 'in'", 1, 14)),
    ("fn f() { let x = while }", ("expected expression, found 'while'", 1, 18)),
    ("fn f() { else }", ("expected expression, found 'else'", 1, 10)),
    ("fn f() { mut }", ("expected expression, found 'mut'", 1, 10)),
    ("fn f() { fn }", ("expected expression, found 'fn'", 1, 10)),
    ("fn send() {}", ("expected identifier, found 'send'", 1, 4)),
    ("enum E { V(Int, Int) }", ("expected RParen, found Comma", 1, 15)),
    ("type T { , a: Int }", ("expected identifier, found Comma", 1, 10)),
    ("module a.b", ("expected item, found Dot", 1, 9)),
    ("export", ("expected item, found end of input", 1, 7)),
    ("export export fn f() {}", ("expected item, found 'export'", 1, 8)),
    ("}", ("expected item, found RBrace", 1, 1)),
    ("fn m() {\n", ("expected expression, found end of input", 2, 1)),
    ("fn m() { [1, 2", ("expected Comma, found end of input", 1, 15)),
    ("fn m() { x\n\n\n", ("expected expression, found end of input", 2, 1)),
    ("fn f() { lett x: Int = 1 }", ("expected expression, found Colon", 1, 16)),
    ("fn f() { matc x { _ => 0 } }", ("expected expression, found Underscore", 1, 19)),
])
def test_parse_errors(source, expected):
    assert parse_error(source) == expected


def test_error_on_newline_token_reports_its_line_and_column_one():
    assert parse_error("fn main() -> Int {\n    let x =\n\n\n    ;\n}\n") == \
        ("expected expression, found Semi", 3, 1)
    # the offending token on the Newline token's own line: its column
    assert parse_error("fn main() -> Int {\n    let x =\n  ;\n}") == \
        ("expected expression, found Semi", 3, 3)


@pytest.mark.parametrize("word,suggestion", [
    ("fnn", "fn"), ("typ", "type"), ("enm", "enum"), ("exprt", "export"), ("modul", "module"),
    ("xyz", None), ("i", None),
])
def test_keyword_suggestions_at_item_position(word, suggestion):
    message, _, _ = parse_error(f"{word} main() {{}}")
    expected = f"expected item, found '{word}'"
    if suggestion:
        expected += f"\n  did you mean: '{suggestion}'?"
    assert message == expected


def test_keyword_suggestion_in_expect_only_for_the_expected_keyword():
    assert parse_error("fn f() { for v inn xs { v } }")[0] == \
        "expected 'in', found 'inn'\n  did you mean: 'in'?"
    assert parse_error("fn f() { for v im xs { v } }")[0] == "expected 'in', found 'im'"
    assert parse_error("fn f() { for v iff xs { v } }")[0] == "expected 'in', found 'iff'"
