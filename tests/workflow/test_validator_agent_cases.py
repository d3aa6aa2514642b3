"""Workflow documents an agent would write, beyond docs/spec/tooling.md §7.5: unicode ids, every
§4.3 problem at once, lone surrogate escapes, readable decode errors, a long chain."""
import json

from boruna.service.workflow import workflow_validate_tool

S = {"kind": "source", "source": "s.ax"}


def doc(steps, edges, **top):
    body = {"schema_version": 1, "name": "w", "version": "1", "steps": steps, "edges": edges}
    body.update(top)
    return json.dumps(body, ensure_ascii=False)


def test_unicode_step_ids_order_by_code_point_then_fifo():
    steps = {"ü": S, "z": S, "é": S, "Z": S, "日本": S, "a": dict(S, depends_on=["日本"])}
    out = workflow_validate_tool(doc(steps, [["z", "ü"]]))
    assert out["execution_order"] == ["Z", "z", "é", "日本", "ü", "a"]
    assert out["steps_count"] == 6 and out["edges_count"] == 1


def test_every_problem_at_once_in_section_4_3_order():
    steps = {"a": dict(S, source="", inputs={"x": "nodot", "y": "ghost.out"},
                       depends_on=["nope", "a"]),
             "b": S}
    edges = [["a", "b"], ["a", "b"], ["q", "a"], ["b", "a"]]
    out = workflow_validate_tool(doc(steps, edges, name="", version=""))
    assert out["error_kind"] == "validation_error"
    assert out["errors"] == [
        {"kind": "MissingField", "message": "workflow name is empty"},
        {"kind": "MissingField", "message": "workflow version is empty"},
        {"kind": "UnknownStep", "message": "edge references unknown step 'q'"},
        {"kind": "UnknownStep", "message": "step 'a' depends on unknown step 'nope'"},
        {"kind": "UnknownInput",
         "message": "step 'a' input 'x' has invalid ref format 'nodot' (expected 'step.output')"},
        {"kind": "UnknownInput", "message": "step 'a' input 'y' references unknown step 'ghost'"},
        {"kind": "MissingField", "message": "step 'a' has empty source path"},
        {"kind": "DuplicateEdge", "message": "duplicate edge: a -> b"},
        {"kind": "Cycle", "message": "cycle detected: resolved 0 of 2 steps"},
    ]


def test_lone_surrogate_escape_is_a_parse_error_not_unencodable_output():
    text = ('{"schema_version":1,"name":"\\ud800","version":"1",'
            '"steps":{"a":{"kind":"source","source":"a.ax"}},"edges":[]}')
    out = workflow_validate_tool(text)
    assert out["error_kind"] == "parse_error"
    assert out["message"] == ("invalid workflow JSON: lone leading surrogate in hex escape "
                              "at line 1 column 34")
    # a proper surrogate pair is one character and fine
    pair = text.replace("\\ud800", "\\ud83d\\ude00")
    assert workflow_validate_tool(pair)["workflow_name"] == "\U0001F600"


def _message(steps_json: str, edges_json: str = "[]") -> str:
    text = ('{"schema_version":1,"name":"w","version":"1","steps":' + steps_json
            + ',"edges":' + edges_json + "}")
    out = workflow_validate_tool(text)
    assert out["success"] is False and out["error_kind"] == "parse_error"
    return out["message"]


def test_decode_errors_name_the_step_field_not_the_union_tag():
    assert _message('{"a":{"kind":"source","source":"x","depends_on":"b"}}') == \
        "invalid workflow JSON: steps.a.depends_on: Input should be a valid list"
    assert _message('{"a":{"kind":"source","source":"x","retry":{}}}') == \
        "invalid workflow JSON: missing field `max_attempts` in steps.a.retry"
    assert _message('{"a":{"kind":"source"}}') == \
        "invalid workflow JSON: missing field `source` in steps.a"
    assert _message('{"a":{"kind":"shell"}}') == (
        "invalid workflow JSON: steps.a: unknown step kind 'shell' "
        "(expected one of: source, approval_gate, external_trigger)")
    assert _message('{"a":{}}') == (
        "invalid workflow JSON: missing field `kind` in steps.a "
        "(one of: source, approval_gate, external_trigger)")
    assert _message('{"a":{"kind":"source","source":"x"}}', '[["a","b","c"]]') == \
        "invalid workflow JSON: edges.0: expected a [from, to] pair of strings"
    assert _message('{"a":{"kind":"source","source":"x"}}', '[{"from":"a","to":"a"}]') == \
        "invalid workflow JSON: edges.0: expected a [from, to] pair of strings"


def test_serde_syntax_errors_and_number_range():
    assert workflow_validate_tool("")["message"] == \
        "invalid workflow JSON: EOF while parsing a value at line 1 column 0"
    assert workflow_validate_tool('{"schema_version": 1e400}')["message"] == \
        "invalid workflow JSON: number out of range at line 1 column 24"
    assert workflow_validate_tool('{"a": NaN}')["message"] == \
        "invalid workflow JSON: expected value at line 1 column 7"


def test_long_dependency_chain_orders_every_step():
    n = 5000
    steps = {f"s{i:05d}": dict(S, depends_on=[f"s{i - 1:05d}"] if i else []) for i in range(n)}
    out = workflow_validate_tool(doc(steps, []))
    assert out["execution_order"] == [f"s{i:05d}" for i in range(n)]
    assert out["edges_count"] == 0
