"""The canonical layout, case by case (docs/formatting.md)."""
import pytest

from boruna.format import format_source
from boruna.format.printer import float_text, string_text
from boruna.language import ast
from boruna.language.errors import CompileError


def fmt_body(body: str) -> str:
    """The formatted statements of `fn main() { BODY }`, dedented."""
    text = format_source("fn main() {\n" + body + "\n}\n")
    lines = text.split("\n")
    assert lines[0] == "fn main() {" and lines[-2] == "}" and lines[-1] == ""
    return "\n".join(line[4:] for line in lines[1:-2])


def test_blocks_take_four_spaces_and_top_level_items_one_blank_line():
    source = "type P { x: Int }\nfn inc(x: Int) -> Int { x + 1 }\n\n\n\nfn main() -> Int { inc(1) }"
    assert format_source(source) == (
        "type P {\n    x: Int,\n}\n\nfn inc(x: Int) -> Int {\n    x + 1\n}\n\n"
        "fn main() -> Int {\n    inc(1)\n}\n")


def test_the_module_header_and_consecutive_imports():
    assert format_source("module m\nimport std_json\nimport std_http\nfn main() { {} }") == (
        "module m\n\nimport std_json\nimport std_http\n\nfn main() {\n    {}\n}\n")


def test_only_necessary_parentheses():
    assert fmt_body("let x = (1 + 2) * 3 let y = 1 + (2 * 3) let z = (1 - 2) - (3 - 4)") == (
        "let x = (1 + 2) * 3\nlet y = 1 + 2 * 3\nlet z = 1 - 2 - (3 - 4)")
    assert fmt_body("let a = -(1 + 2) let b = (-a).field let c = !(x && y) let d = (f)(x)") == (
        "let a = -(1 + 2)\nlet b = (-a).field\nlet c = !(x && y)\nlet d = f(x)")
    assert fmt_body("let v = (Shape::Dot)(1) let w = send (Shape::Dot) (-1) spawn (f(x)) "
                    "emit (a.b) emit a.b") == (
        "let v = (Shape::Dot)(1)\nlet w = send (Shape::Dot) (-1)\nspawn (f(x))\nemit (a.b)\n"
        "emit a.b")


def test_a_capitalised_name_before_a_brace_keeps_its_parentheses():
    assert fmt_body("if (Flag) { 1 } while x == (Bar) { } if (a * (b + Foo)) {} "
                    "match (Foo) { _ => 0 }") == (
        "if (Flag) {\n    1\n}\nwhile x == (Bar) {}\nif a * (b + Foo) {}\n"
        "match (Foo) {\n    _ => 0,\n}")
    # a statement that ends with one, before a block expression
    assert fmt_body("let x = (Foo)\n{ 1 }") == "let x = (Foo)\n{\n    1\n}"


def test_floats_always_have_a_fractional_part_and_strings_five_escapes():
    assert fmt_body('let v = 1.0 let w = 2.50 let big = 100000000000000000000.0 '
                    'let s = "a\\"b\\\\c\\nd\\te\\r" let u = "\\x"') == (
        'let v = 1.0\nlet w = 2.5\nlet big = 100000000000000000000.0\n'
        'let s = "a\\"b\\\\c\\nd\\te\\r"\nlet u = "\\\\x"')
    assert float_text(1e-7) == "0.0000001" and float_text(1e22) == "10000000000000000000000.0"
    assert float(float_text(float("1" * 400 + ".0"))) == float("inf")
    assert string_text("plain") == '"plain"'


def test_records_and_lists_flat_when_they_fit_else_one_entry_a_line_with_trailing_commas():
    assert fmt_body("let r = Point { x: 1, y: 2 } let q = Point { ..r, x: 3, } let e = Empty {} "
                    "let l = [] let m = [1, 2, 3,]") == (
        "let r = Point { x: 1, y: 2 }\nlet q = Point { ..r, x: 3 }\nlet e = Empty {}\n"
        "let l = []\nlet m = [1, 2, 3]")
    assert fmt_body("let r = Record { alpha: 1111111111, beta: 222222222222, "
                    "gamma: 3333333333333, delta: 44444444444 }") == (
        "let r = Record {\n    alpha: 1111111111,\n    beta: 222222222222,\n"
        "    gamma: 3333333333333,\n    delta: 44444444444,\n}")
    items = ", ".join(f"item_{i}" for i in range(14))
    assert fmt_body(f"let xs = [{items}]") == (
        "let xs = [\n" + "".join(f"    item_{i},\n" for i in range(14)) + "]")


def test_calls_break_one_argument_a_line_without_a_trailing_comma():
    # the grammar has no trailing comma in calls or parameter lists
    assert fmt_body("let long = compute_something(first_argument_value, second_argument_value, "
                    "third_argument_value_xx)") == (
        "let long = compute_something(\n    first_argument_value,\n    second_argument_value,\n"
        "    third_argument_value_xx\n)")
    assert format_source("fn g(a: Fn(Int, String) -> Bool, b: Map<String, List<Option<Int>>>) "
                         "-> Result<Int, String> !{net.fetch, db.query} { Ok(1) }") == (
        "fn g(\n    a: Fn(Int, String) -> Bool,\n    b: Map<String, List<Option<Int>>>\n"
        ") -> Result<Int, String> !{net.fetch, db.query} {\n    Ok(1)\n}\n")


def test_binary_chains_break_after_their_operators():
    source = ('let s = "aaaaaaaaaaaaaaaaaaaa" ++ "bbbbbbbbbbbbbbbbbbbbbbbbbb" ++ '
              '"cccccccccccccccccccccccc" ++ "dddddddddddddddddd"')
    assert fmt_body(source) == (
        'let s = "aaaaaaaaaaaaaaaaaaaa" ++\n    "bbbbbbbbbbbbbbbbbbbbbbbbbb" ++\n'
        '    "cccccccccccccccccccccccc" ++\n    "dddddddddddddddddd"')


def test_matches_and_type_definitions_are_always_one_entry_a_line_with_trailing_commas():
    assert format_source("enum Shape { Dot, Circle(Float), } type Empty {} "
                         "export type P { x: Int }") == (
        "enum Shape {\n    Dot,\n    Circle(Float),\n}\n\ntype Empty {}\n\n"
        "export type P {\n    x: Int,\n}\n")
    assert fmt_body("match s { Dot => 0 Circle(r) => { r } _ => 1 }") == (
        "match s {\n    Dot => 0,\n    Circle(r) => {\n        r\n    },\n    _ => 1,\n}")


def test_if_else_while_for_and_return():
    assert fmt_body("if a { 1 } else { if b { 2 } else { 3 } } while i < n { i = i + 1 } "
                    "for x in xs { emit x } return") == (
        "if a {\n    1\n} else {\n    if b {\n        2\n    } else {\n        3\n    }\n}\n"
        "while i < n {\n    i = i + 1\n}\nfor x in xs {\n    emit x\n}\nreturn")


def test_function_clauses_keep_their_order_one_a_line():
    assert format_source('fn f(x: Int) -> Int requires x > 0 ensures x < 10 intent "check it" '
                         '{ x }\nfn g() intent "a" requires 1 {}') == (
        'fn f(x: Int) -> Int\n    requires x > 0\n    ensures x < 10\n    intent "check it"\n'
        '{\n    x\n}\n\nfn g()\n    intent "a"\n    requires 1\n{}\n')


def test_blank_lines_inside_blocks_are_kept_at_most_one():
    assert fmt_body("\n\nlet a = 1\n\n\n\nlet b = 2\nlet c = 3\n\n") == (
        "let a = 1\n\nlet b = 2\nlet c = 3")


def test_the_width_is_a_parameter():
    assert format_source("fn main() { f(alpha, beta) }", width=18) == "fn main() {\n    f(alpha, beta)\n}\n"
    assert format_source("fn main() { f(alpha, beta) }", width=17) == (
        "fn main() {\n    f(\n        alpha,\n        beta\n    )\n}\n")


def test_function_types_print_their_capabilities_when_the_ast_has_them():
    """Issue 21's effect sets on function types (`Fn(String) -> Int !{db.query}`), read with
    getattr so the printer works before and after that field exists."""
    from boruna.format.comments import Comments
    from boruna.format.doc import render
    from boruna.format.printer import Printer

    class FnTypeWithCaps(ast.FnType):
        __slots__ = ("capabilities",)

    ty = FnTypeWithCaps([ast.Named("String")], ast.Named("Int"))
    ty.capabilities = ["db.query", "net"]
    printer = Printer(Comments(""))
    assert render(printer.type_doc(ty)) == "Fn(String) -> Int !{db.query, net}"
    assert render(printer.type_doc(ast.FnType([], ast.Named("Int")))) == "Fn() -> Int"


def test_an_empty_source_stays_empty_and_a_bad_one_raises_the_compile_error():
    assert format_source("") == "" and format_source("\n\n  \n") == ""
    with pytest.raises(CompileError) as err:
        format_source("fn main( {")
    assert (err.value.code, err.value.line, err.value.col) == ("E002", 1, 10)
    with pytest.raises(CompileError) as err:
        format_source('fn main() { "open }')
    assert err.value.code == "E001"


def test_deeply_nested_programs_format():
    depth = 5000
    source = "fn main() -> Int { " + "(" * depth + "1" + ")" * depth + " + " + \
        "[" * 2000 + "]" * 2000 + " }"
    text = format_source(source)
    assert text.startswith("fn main() -> Int {\n    1 +\n        [\n            [\n")
    assert format_source(text) == text
