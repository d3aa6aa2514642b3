"""boruna_symbols: declared API with exact signatures (docs/spec/mcp.md §7.2)."""
from boruna.service import symbols_tool

SOURCE = """type User { name: String, age: Int }

enum Color { Red, Green, Custom(Int) }

fn fetch(url: String, retries: Int) -> Result<String, String> !{net.fetch} {
    Ok("body")
}

fn pick(xs: List<Option<Int>>, f: Fn(Int, String) -> Bool, m: Map<String, Int>) {
    xs
}

fn main() -> Int { 0 }
"""


def test_symbols_in_source_order_with_signatures():
    response = symbols_tool(SOURCE)
    assert list(response) == ["success", "protocol_version", "symbols"]
    user, color, fetch, pick, main = response["symbols"]
    assert user == {"kind": "record", "name": "User",
                    "signature": "type User { name: String, age: Int }",
                    "fields": [{"name": "name", "type": "String"},
                               {"name": "age", "type": "Int"}],
                    "capabilities": [], "exported": False}
    assert color == {"kind": "enum", "name": "Color",
                     "signature": "enum Color { Red, Green, Custom(Int) }",
                     "variants": [{"name": "Red", "payload": None},
                                  {"name": "Green", "payload": None},
                                  {"name": "Custom", "payload": "Int"}],
                     "capabilities": [], "exported": False}
    assert fetch == {
        "kind": "fn", "name": "fetch",
        "signature": "fn fetch(url: String, retries: Int) -> Result<String, String> !{net.fetch}",
        "params": [{"name": "url", "type": "String"}, {"name": "retries", "type": "Int"}],
        "return_type": "Result<String, String>", "capabilities": ["net.fetch"],
        "requires": 0, "ensures": 0, "intent": None, "exported": False}
    assert pick["signature"] == ("fn pick(xs: List<Option<Int>>, f: (Int, String) -> Bool, "
                                 "m: Map<String, Int>) -> Unit")
    assert pick["return_type"] == "Unit"
    assert main["signature"] == "fn main() -> Int"


def test_parse_failure_is_parse_error_with_position():
    response = symbols_tool("fn (")
    assert response["success"] is False
    assert response["error_kind"] == "parse_error"
    assert response["error"] == response["message"]
    assert response["line"] == 1 and isinstance(response["col"], int)


def test_empty_source_has_no_symbols():
    assert symbols_tool("") == {"success": True, "protocol_version": 1, "symbols": []}


def test_deeply_nested_types_are_rendered():
    depth = 19_000
    response = symbols_tool("fn f(x: " + "List<" * depth + "Int" + ">" * depth + ") { }")
    [symbol] = response["symbols"]
    assert symbol["params"][0]["type"] == "List<" * depth + "Int" + ">" * depth
