"""Every problem of a workflow in one answer (issue 23 item 4): decode problems of every step
and edge together, then the structural problems of what decoded; `$input.NAME` refs."""
import json

from boruna.service.workflow import workflow_validate_tool

S = {"kind": "source", "source": "s.ax"}


def doc(steps, edges, **top):
    body = {"schema_version": 1, "name": "w", "version": "1", "steps": steps, "edges": edges}
    body.update(top)
    return json.dumps(body)


def test_decode_problems_of_every_step_and_the_cycle_come_in_one_parse_error():
    steps = {"a": {"kind": "shell"}, "b": {"kind": "source"},
             "c": dict(S, depends_on=["d"]), "d": dict(S, depends_on=["c"]),
             "e": {"kind": "approval_gate", "depends_on": ["ghost"]}}
    out = workflow_validate_tool(doc(steps, [["a", "b", "x"]]))
    assert out["error_kind"] == "parse_error"
    assert out["errors"] == [
        {"kind": "UnknownStepKind", "message": "steps.a: unknown step kind 'shell' (expected "
                                               "one of: source, approval_gate, external_trigger)"},
        {"kind": "MissingField", "message": "missing field `source` in steps.b"},
        {"kind": "MissingField", "message": "missing field `required_role` in steps.e"},
        {"kind": "InvalidField", "message": "edges.0: expected a [from, to] pair of strings"},
        {"kind": "UnknownStep", "message": "step 'e' depends on unknown step 'ghost'"},
        {"kind": "Cycle", "message": "cycle detected: resolved 2 of 5 steps"},
    ]
    assert out["message"] == "invalid workflow JSON: 6 problems: " + "; ".join(
        e["message"] for e in out["errors"])


def test_a_single_problem_keeps_its_message_and_is_listed():
    out = workflow_validate_tool(doc({"a": {"kind": "source"}}, []))
    assert out["message"] == "invalid workflow JSON: missing field `source` in steps.a"
    assert out["errors"] == [{"kind": "MissingField",
                              "message": "missing field `source` in steps.a"}]


def test_syntax_error_is_one_parse_problem():
    out = workflow_validate_tool("{")
    assert out["errors"] == [{"kind": "ParseError",
                              "message": "EOF while parsing an object at line 1 column 1"}]


def test_missing_schema_version_points_at_docs_that_exist():
    out = workflow_validate_tool(json.dumps({"name": "w", "version": "1", "steps": {"a": S},
                                             "edges": []}))
    assert "docs/workflows.md" in out["message"] and "boruna://workflows" in out["message"]
    assert "workflow-dag-1.0.md" not in out["message"]


def test_run_input_refs_are_valid_and_do_not_need_a_step():
    out = workflow_validate_tool(doc({"a": dict(S, inputs={"n": "$input.count"})}, []))
    assert out["success"] is True and out["execution_order"] == ["a"]
