"""AST JSON (docs/spec/language.md §5): the node catalogue, the §5.2 items example and the §5.3 worked
example byte for byte, serde float layout and string escaping."""
import json
import math

import pytest

from boruna.language import ast
from boruna.language.ast_json import (dumps, dumps_pretty, format_float, pretty_json,
                                      to_json_obj)
from boruna.language.frontend import parse


def stmt_json(source):
    (stmt,) = parse("fn main() {\n" + source + "\n}").items[0].body.stmts
    return dumps(to_json_obj(stmt))


ITEMS_SOURCE = """module app
import util
export type Pt { x: Int, m: Map<String, List<Int>> }
enum Sh { Dot, Circle(Float), R(Result<Int, String>) }
export fn f(g: Fn(Int) -> Option<Int>) -> Int !{net, fs.read} intent "doc" requires g ensures result { 0 }
"""

ITEMS_JSON = (
    '{"module_name":"app","items":[{"Import":{"module":"util","items":[]}},{"TypeDef":{"name":"Pt",'
    '"kind":{"Record":[["x",{"Named":"Int"}],["m",{"Map":[{"Named":"String"},{"List":{"Named":'
    '"Int"}}]}]]},"exported":true}},{"TypeDef":{"name":"Sh","kind":{"Enum":[["Dot",null],["Circle",'
    '{"Named":"Float"}],["R",{"Result":[{"Named":"Int"},{"Named":"String"}]}]]},"exported":false}},'
    '{"Function":{"name":"f","params":[{"name":"g","ty":{"Fn":[[{"Named":"Int"}],{"Option":{"Named":'
    '"Int"}}]}}],"return_type":{"Named":"Int"},"capabilities":["net","fs.read"],"intent":"doc",'
    '"requires":[{"Ident":"g"}],"ensures":[{"Ident":"result"}],"body":{"stmts":[{"Expr":{"IntLit":0}}]},'
    '"exported":true}}]}')

WORKED_SOURCE = "fn main() -> Int { let x: Int = 40\n x + 2 }"

WORKED_PRETTY = """{
  "module_name": null,
  "items": [
    {
      "Function": {
        "name": "main",
        "params": [],
        "return_type": {
          "Named": "Int"
        },
        "capabilities": [],
        "intent": null,
        "requires": [],
        "ensures": [],
        "body": {
          "stmts": [
            {
              "Let": {
                "name": "x",
                "mutable": false,
                "ty": {
                  "Named": "Int"
                },
                "value": {
                  "IntLit": 40
                }
              }
            },
            {
              "Expr": {
                "Binary": {
                  "op": "Add",
                  "left": {
                    "Ident": "x"
                  },
                  "right": {
                    "IntLit": 2
                  }
                }
              }
            }
          ]
        },
        "exported": false
      }
    }
  ]
}"""

WORKED_MCP = (
    '{"ast":{"items":[{"Function":{"body":{"stmts":[{"Let":{"mutable":false,"name":"x","ty":'
    '{"Named":"Int"},"value":{"IntLit":40}}},{"Expr":{"Binary":{"left":{"Ident":"x"},"op":"Add",'
    '"right":{"IntLit":2}}}}]},"capabilities":[],"ensures":[],"exported":false,"intent":null,'
    '"name":"main","params":[],"requires":[],"return_type":{"Named":"Int"}}}],"module_name":null},'
    '"protocol_version":1,"success":true,"truncated":false}')


def test_items_example_as_dicts_and_text():
    obj = to_json_obj(parse(ITEMS_SOURCE))
    assert obj == json.loads(ITEMS_JSON)
    assert list(obj) == ["module_name", "items"]
    assert list(obj["items"][3]["Function"]) == [
        "name", "params", "return_type", "capabilities", "intent", "requires", "ensures",
        "body", "exported"]
    assert dumps(obj) == ITEMS_JSON
    assert json.dumps(obj, separators=(",", ":"), ensure_ascii=False) == ITEMS_JSON


def test_worked_example_pretty_text_byte_for_byte():
    program = parse(WORKED_SOURCE)
    assert pretty_json(program) == WORKED_PRETTY
    assert dumps_pretty(to_json_obj(program)) == WORKED_PRETTY
    assert json.dumps(to_json_obj(program), indent=2, ensure_ascii=False) == WORKED_PRETTY


def test_worked_example_mcp_envelope_sorted_compact():
    envelope = {"success": True, "protocol_version": 1, "truncated": False,
                "ast": to_json_obj(parse(WORKED_SOURCE))}
    assert dumps(envelope, sort_keys=True) == WORKED_MCP


@pytest.mark.parametrize("source,expected", [
    ("let x = 1", '{"Let":{"name":"x","mutable":false,"ty":null,"value":{"IntLit":1}}}'),
    ("let mut y: Int = 1",
     '{"Let":{"name":"y","mutable":true,"ty":{"Named":"Int"},"value":{"IntLit":1}}}'),
    ("y = 2", '{"Assign":{"target":"y","value":{"IntLit":2}}}'),
    ("return", '{"Return":null}'),
    ("return 1", '{"Return":{"IntLit":1}}'),
    ("while c { 1 }",
     '{"While":{"condition":{"Ident":"c"},"body":{"stmts":[{"Expr":{"IntLit":1}}]}}}'),
    ("for i in xs { i }",
     '{"For":{"var":"i","iter":{"Ident":"xs"},"body":{"stmts":[{"Expr":{"Ident":"i"}}]}}}'),
])
def test_statement_catalogue(source, expected):
    assert stmt_json(source) == expected


@pytest.mark.parametrize("source,expected", [
    ("7", '{"IntLit":7}'),
    ("2.5", '{"FloatLit":2.5}'),
    ('"hi"', '{"StringLit":"hi"}'),
    ("true", '{"BoolLit":true}'),
    ("None", '"NoneLit"'),
    ("v", '{"Ident":"v"}'),
    ("a - b", '{"Binary":{"op":"Sub","left":{"Ident":"a"},"right":{"Ident":"b"}}}'),
    ("a ++ b", '{"Binary":{"op":"Concat","left":{"Ident":"a"},"right":{"Ident":"b"}}}'),
    ("-a", '{"Unary":{"op":"Neg","expr":{"Ident":"a"}}}'),
    ("!a", '{"Unary":{"op":"Not","expr":{"Ident":"a"}}}'),
    ("f(1, x)", '{"Call":{"func":{"Ident":"f"},"args":[{"IntLit":1},{"Ident":"x"}]}}'),
    ("p.x", '{"FieldAccess":{"object":{"Ident":"p"},"field":"x"}}'),
    ("if c { 1 }", '{"If":{"condition":{"Ident":"c"},"then_block":{"stmts":[{"Expr":'
                   '{"IntLit":1}}]},"else_block":null}}'),
    ("if c { 1 } else { 2 }", '{"If":{"condition":{"Ident":"c"},"then_block":{"stmts":[{"Expr":'
     '{"IntLit":1}}]},"else_block":{"stmts":[{"Expr":{"IntLit":2}}]}}}'),
    ("match v { Ok(_) => 7 }", '{"Match":{"value":{"Ident":"v"},"arms":[{"pattern":{"OkPat":'
     '"Wildcard"},"body":{"IntLit":7}}]}}'),
    ("P { a: 1 }", '{"Record":{"type_name":"P","fields":[["a",{"IntLit":1}]],"spread":null}}'),
    ("P { ..q, a: 1 }",
     '{"Record":{"type_name":"P","fields":[["a",{"IntLit":1}]],"spread":{"Ident":"q"}}}'),
    ("E::V", '{"EnumVariant":{"enum_name":"E","variant":"V","payload":null}}'),
    ("E::W(1)", '{"EnumVariant":{"enum_name":"E","variant":"W","payload":{"IntLit":1}}}'),
    ("[1, 2]", '{"List":[{"IntLit":1},{"IntLit":2}]}'),
    ("Some(1)", '{"SomeExpr":{"IntLit":1}}'),
    ("Ok(1)", '{"OkExpr":{"IntLit":1}}'),
    ("Err(1)", '{"ErrExpr":{"IntLit":1}}'),
    ("spawn w", '{"Spawn":{"Ident":"w"}}'),
    ("send t m", '{"Send":{"target":{"Ident":"t"},"message":{"Ident":"m"}}}'),
    ("receive", '"Receive"'),
    ("emit u", '{"Emit":{"Ident":"u"}}'),
    ("{ 1 }", '{"Block":{"stmts":[{"Expr":{"IntLit":1}}]}}'),
    ("((a))", '{"Ident":"a"}'),
    ("a.b(c)", '{"Call":{"func":{"FieldAccess":{"object":{"Ident":"a"},"field":"b"}},'
               '"args":[{"Ident":"c"}]}}'),
])
def test_expression_catalogue(source, expected):
    assert stmt_json(source) == '{"Expr":' + expected + "}"


@pytest.mark.parametrize("pattern,expected", [
    ("_", '"Wildcard"'), ("n", '{"Ident":"n"}'), ("3", '{"IntLit":3}'),
    ('"s"', '{"StringLit":"s"}'), ("false", '{"BoolLit":false}'), ("None", '"NonePat"'),
    ("Some(x)", '{"SomePat":{"Ident":"x"}}'), ("Ok(_)", '{"OkPat":"Wildcard"}'),
    ("Err(e)", '{"ErrPat":{"Ident":"e"}}'), ("Red", '{"EnumVariant":["Red",null]}'),
    ("Circle(r)", '{"EnumVariant":["Circle",{"Ident":"r"}]}'),
])
def test_pattern_catalogue(pattern, expected):
    (stmt,) = parse(f"fn f() {{ match v {{ {pattern} => 0 }} }}").items[0].body.stmts
    assert dumps(to_json_obj(stmt.expr.arms[0].pattern)) == expected


def test_single_nodes_serialize():
    assert to_json_obj(ast.Named("Int")) == {"Named": "Int"}
    assert to_json_obj(ast.Block([])) == {"stmts": []}
    assert to_json_obj(ast.ImportDef("m")) == {"Import": {"module": "m", "items": []}}


def test_strings_are_decoded_text_escaped_as_json():
    program = parse('fn f() { "a\\"b\\\\c\\nd\u00e9\u0001\x7f/" }')
    text = dumps(to_json_obj(program.items[0].body.stmts[0]))
    assert text == '{"Expr":{"StringLit":"a\\"b\\\\c\\nd\u00e9\\u0001\x7f/"}}'


def test_non_finite_float_is_null():
    program = parse("fn f() { " + "9" * 400 + ".0 }")
    obj = to_json_obj(program)
    assert obj["items"][0]["Function"]["body"]["stmts"][0] == {"Expr": {"FloatLit": None}}
    assert '"FloatLit": null' in pretty_json(program)


@pytest.mark.parametrize("value,text", [
    (0.0, "0.0"), (-0.0, "-0.0"), (100.0, "100.0"), (1000000000000000.0, "1000000000000000.0"),
    (0.1, "0.1"), (0.00001, "0.00001"), (0.000012, "0.000012"), (1234567890123456.8, "1234567890123456.8"),
    (1e16, "1e+16"), (1.2345678901234568e16, "1.2345678901234568e+16"), (1e-6, "1e-6"),
    (1.2e-6, "1.2e-6"), (1e302, "1e+302"), (2.5, "2.5"), (-3.75, "-3.75"),
    (5e-324, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"),
    (123456.789, "123456.789"), (math.inf, "null"), (math.nan, "null"),
])
def test_float_layout(value, text):
    assert format_float(value) == text


def test_dumps_layouts():
    obj = {"b": [1, 2.0, {}], "a": [], "c": {"x": None, "y": "é"}}
    assert dumps(obj) == '{"b":[1,2.0,{}],"a":[],"c":{"x":null,"y":"é"}}'
    assert dumps(obj, sort_keys=True) == '{"a":[],"b":[1,2.0,{}],"c":{"x":null,"y":"é"}}'
    assert dumps_pretty(obj) == (
        '{\n  "b": [\n    1,\n    2.0,\n    {}\n  ],\n  "a": [],\n  "c": {\n    "x": null,\n'
        '    "y": "é"\n  }\n}')
    with pytest.raises(TypeError):
        dumps({"x": object()})
