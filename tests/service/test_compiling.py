"""boruna_compile and boruna_ast through the service layer."""

from boruna.language import ast_json
from boruna.language.frontend import parse
from boruna.service import ast_tool, compile_tool


def test_ast_of_a_small_program_is_an_object():
    assert ast_tool("fn main() -> Int { 1 }") == {
        "success": True, "protocol_version": 1, "truncated": False,
        "ast": {"module_name": None, "items": [{"Function": {
            "name": "main", "params": [], "return_type": {"Named": "Int"}, "capabilities": [],
            "intent": None, "requires": [], "ensures": [],
            "body": {"stmts": [{"Expr": {"IntLit": 1}}]}, "exported": False}}]}}


def test_ast_of_empty_source():
    assert ast_tool("")["ast"] == {"module_name": None, "items": []}


def test_large_ast_is_truncated_on_a_character_boundary():
    source = 'fn main() -> String { "a' + "€" * 40_000 + '" }'
    pretty = ast_json.pretty_json(parse(source))
    response = ast_tool(source)
    assert list(response) == ["success", "protocol_version", "truncated", "ast_size", "ast"]
    assert response["truncated"] is True
    assert response["ast_size"] == len(pretty.encode("utf-8"))
    cut = response["ast"].encode("utf-8")
    assert 102_400 - 3 < len(cut) <= 102_400        # "€" is 3 bytes: never split
    assert pretty.startswith(response["ast"])


def test_ast_parse_failure_uses_the_errors_array():
    assert ast_tool("fn main( {") == {
        "success": False, "protocol_version": 1,
        "errors": [{"severity": "error", "code": "E002",
                    "message": "expected identifier, found LBrace", "line": 1, "col": 10}]}


def test_compile_reports_module_counts_in_seed_order():
    response = compile_tool("fn main() -> Int { 1 + 2 }")
    assert response == {"success": True, "protocol_version": 1, "module": {
        "name": "module", "version": 1, "functions": 1, "types": 0, "constants": 2,
        "entry": 0}}
    assert list(response["module"]) == ["name", "version", "functions", "types", "constants",
                                        "entry"]


def test_compile_name_and_empty_source():
    assert compile_tool("", name="")["module"] == {"name": "", "version": 1, "functions": 0,
                                                  "types": 0, "constants": 0, "entry": 0}


def test_compile_undefined_variable_is_e009():
    response = compile_tool("fn main() -> Int { x }")
    assert response["success"] is False
    [error] = response["errors"]
    # one code per mistake: `check` and `compile` both call it E003 (issue 23)
    assert (error["code"], error["message"]) == ("E003", "undefined variable: x")


def test_ast_serialization_failure_is_serialization_error(monkeypatch):
    from boruna.language import ast_json as module

    def broken(tree, limit):
        raise ValueError("cannot encode")

    monkeypatch.setattr(module, "pretty_json_limited", broken)
    assert ast_tool("fn main() -> Int { 1 }") == {
        "success": False, "protocol_version": 1, "error_kind": "serialization_error",
        "message": "AST serialization failed: cannot encode"}


def test_deeply_nested_ast_is_measured_without_building_the_text():
    depth = 19_000
    response = ast_tool("fn main() -> List<Int> { " + "[" * depth + "1" + "]" * depth + " }")
    assert response["truncated"] is True
    assert response["ast_size"] == 2_889_520_507          # ~2.9 GB of indentation, never built
    assert len(response["ast"].encode("utf-8")) == 102_400
