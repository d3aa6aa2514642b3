"""`service.format_code` / `format_tool`: the boruna_format use case."""
import pytest

from boruna import service
from boruna.service import InvalidParams


def test_a_source_is_formatted_and_says_whether_it_changed():
    result = service.format_code("fn main() -> Int { 1 }")
    assert result.success and result.changed
    assert result.to_json() == {"success": True, "protocol_version": 1,
                                "formatted": "fn main() -> Int {\n    1\n}\n", "changed": True}
    again = service.format_code(result.formatted)
    assert again.success and not again.changed


def test_a_parse_error_is_the_compile_failure_shape():
    response = service.format_tool("fn main( {")
    assert response == {"success": False, "protocol_version": 1, "errors": [
        {"severity": "error", "code": "E002", "message": "expected identifier, found LBrace",
         "line": 1, "col": 10}]}
    assert service.format_code("fn main( {").compile_error.code == "E002"


def test_the_width_is_checked():
    assert service.format_tool("fn main() { f(alphabet, betatron) }", width=20)["formatted"] == (
        "fn main() {\n    f(\n        alphabet,\n        betatron\n    )\n}\n")
    for bad in (19, 1001, True, "80", 80.0):
        with pytest.raises(InvalidParams, match="width must be an integer from 20 to 1000"):
            service.format_tool("fn main() {}", width=bad)


def test_the_source_limit_applies():
    with pytest.raises(InvalidParams, match="source exceeds 1 MB limit"):
        service.format_tool("//" + "x" * 1_048_576)
    assert service.format_code("//" + "x" * 1_048_576, source_limit=None).success
