"""output_schema and max_output_bytes checks of boruna_run, without running anything."""
from boruna.service.output_budget import compact_size, exceeds_budget
from boruna.service.output_schema import check_output, schema_problem


def test_conforming_result_passes():
    assert check_output({"type": "object", "required": ["a"]}, {"a": 1}, 9) is None


def test_errors_carry_json_pointers_and_are_capped_at_100():
    schema = {"type": "array", "items": {"type": "string"}}
    response = check_output(schema, list(range(150)), 42)
    assert response["error_kind"] == "validation_failed"
    assert response["steps"] == 42
    assert response["total_errors"] == 150 and response["truncated"] is True
    assert len(response["errors"]) == 100
    assert response["errors"][0] == {"message": "0 is not of type 'string'", "path": "/0"}


def test_pointer_escapes_tilde_and_slash():
    schema = {"type": "object", "properties": {"a/b~c": {"type": "integer"}}}
    response = check_output(schema, {"a/b~c": "x"}, 1)
    assert response["errors"] == [{"message": "'x' is not of type 'integer'",
                                   "path": "/a~1b~0c"}]


def test_schema_size_limit():
    big = {"enum": ["x" * 262_200]}
    assert schema_problem(big) == "output_schema exceeds 262144 bytes (got 262213)"


def test_draft_2020_12_with_trailing_hash_is_accepted():
    assert schema_problem({"$schema": "https://json-schema.org/draft/2020-12/schema#"}) is None


def test_unresolvable_ref_is_an_invalid_schema_not_a_crash():
    response = check_output({"$ref": "https://example.invalid/schema.json"}, 1, 1)
    assert response["error_kind"] == "invalid_output_schema"


def test_output_budget_charges_result_then_each_tree():
    assert compact_size({"a": [1, "é"]}) == len('{"a":[1,"é"]}'.encode())
    assert exceeds_budget(7, "hello", []) is False
    assert exceeds_budget(6, "hello", []) is True
    assert exceeds_budget(10, 1, ["ab", "cd"]) is False      # 1 + 4 + 4 = 9
    assert exceeds_budget(8, 1, ["ab", "cd"]) is True


def test_deeply_nested_schema_is_checked_not_crashed():
    from boruna.service import run_tool

    schema = {}
    for _ in range(250):
        schema = {"not": schema}                     # an even number of `not`s accepts
    assert run_tool("fn main() -> Int { 1 }", output_schema=schema)["result"] == 1
    schema = {"not": schema}
    assert run_tool("fn main() -> Int { 1 }", output_schema=schema)["error_kind"] == (
        "validation_failed")


# --- references never leave the submitted schema (issue 15, security 1) ---------------------

def _loopback_server():
    """A loopback HTTP server that counts the connections it accepts (it serves a schema)."""
    import http.server
    import threading

    hits = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            body = b'{"type": "string"}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    return server, hits


def test_file_reference_is_refused_without_reading_or_echoing_the_file(tmp_path):
    from boruna.service import run_tool

    secret = tmp_path / "key.json"
    secret.write_text('{"api_key": "sk-SECRET-123"}')
    uri = secret.as_uri()
    response = run_tool("fn main() -> Int { 1 }", output_schema={"$ref": uri})
    assert response["success"] is False
    assert response["error_kind"] == "invalid_output_schema"
    assert response["message"] == (
        f'output_schema is not a valid JSON Schema: the reference "{uri}" lies outside the '
        "schema; only references within the submitted schema are resolved, nothing is fetched")
    assert "SECRET" not in str(response)


def test_http_references_open_no_connection():
    from boruna.service import run_tool

    server, hits = _loopback_server()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        schemas = [
            {"$ref": f"{base}/s.json"},
            {"$ref": f"https://127.0.0.1:{server.server_address[1]}/s.json"},
            {"$id": f"{base}/root.json", "$ref": "s.json"},
            {"allOf": [{"$ref": f"{base}/a.json#/x"}]},
        ]
        for schema in schemas:
            response = run_tool('fn main() -> Int { 1 }', output_schema=schema)
            assert response["error_kind"] == "invalid_output_schema", schema
            assert "lies outside the schema" in response["message"]
    finally:
        server.shutdown()
        server.server_close()
    assert hits == []


def test_references_inside_the_schema_still_resolve():
    schema = {"$id": "http://schemas.test/root.json",
              "$defs": {"n": {"type": "integer"}},
              "properties": {"a": {"$ref": "#/$defs/n"}, "b": {"$ref": "root.json#/$defs/n"}}}
    assert check_output(schema, {"a": 1, "b": 2}, 3) is None
    response = check_output(schema, {"a": "x", "b": 2}, 3)
    assert response["errors"] == [{"message": "'x' is not of type 'integer'", "path": "/a"}]
    metaschema = {"$ref": "https://json-schema.org/draft/2020-12/schema"}
    assert check_output(metaschema, {"type": "string"}, 1) is None


def test_dangling_pointer_names_the_reference_not_the_schema():
    response = check_output({"$ref": "#/$defs/q", "title": "private words"}, 1, 1)
    assert response["message"] == ('output_schema is not a valid JSON Schema: the reference '
                                 '"#/$defs/q" points to nothing inside the schema')


def test_reference_to_a_non_schema_value_is_a_clean_error():
    for schema in ({"$ref": "#/required", "required": ["a"]},
                   {"properties": {"a": {"$ref": "#/title"}}, "title": "abc"}):
        response = check_output(schema, {"a": 1}, 1)
        assert response["error_kind"] == "invalid_output_schema"
        assert response["message"] == ("output_schema is not a valid JSON Schema: a reference "
                                     "points to a value inside the schema that is not a schema")
