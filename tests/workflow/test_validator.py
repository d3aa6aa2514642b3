"""Workflow DAG parsing, validation rules and execution order (docs/spec/tooling.md §4, §7.5)."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boruna.workflow.validator import (CycleError, WorkflowParseError, execution_order,
                                     parse_workflow, topological_levels,
                                     validate_workflow_json)

S = {"kind": "source", "source": "s.ax"}


def doc(steps, edges, **top):
    body = {"schema_version": 1, "name": "w", "version": "1", "steps": steps, "edges": edges}
    body.update(top)
    return json.dumps(body)


def step(**extra):
    return dict(S, **extra)


def errors_of(text):
    report = validate_workflow_json(text)
    assert report.ok is False
    assert report.execution_order == []
    return [(e["kind"], e["message"]) for e in report.errors]


def test_w1_fifo_kahn_seeded_in_sorted_order():
    report = validate_workflow_json(doc({"m": S, "n": S, "a": S}, [["m", "a"]]))
    assert report.ok is True
    assert report.execution_order == ["m", "n", "a"]
    assert (report.steps_count, report.edges_count) == (3, 1)
    assert (report.workflow_name, report.workflow_version) == ("w", "1")
    assert report.errors == []


def test_w2_depends_on_fan_out_and_join():
    steps = {"root": S, "left": step(depends_on=["root"]), "right": step(depends_on=["root"]),
             "join": step(depends_on=["right", "left"])}
    report = validate_workflow_json(doc(steps, []))
    assert report.execution_order == ["root", "left", "right", "join"]
    assert report.edges_count == 0


def test_w3_dependents_pushed_to_the_back_of_the_queue():
    steps = {"e": S, "d": S, "c": S, "b": step(depends_on=["e"]), "a": step(depends_on=["d"])}
    assert validate_workflow_json(doc(steps, [])).execution_order == ["c", "d", "e", "a", "b"]


def test_w4_two_step_cycle_uses_the_seed_kind_cycle():
    assert errors_of(doc({"a": S, "b": S}, [["a", "b"], ["b", "a"]])) == [
        ("Cycle", "cycle detected: resolved 0 of 2 steps")]


def test_w5_self_loop():
    assert errors_of(doc({"a": S, "b": S}, [["a", "a"]])) == [
        ("Cycle", "cycle detected: resolved 1 of 2 steps")]


def test_w6_edge_to_unknown_step_over_resolves():
    assert errors_of(doc({"a": S}, [["a", "ghost"]])) == [
        ("UnknownStep", "edge references unknown step 'ghost'"),
        ("Cycle", "cycle detected: resolved 2 of 1 steps")]


def test_w7_edge_from_unknown_step_never_resolves_target():
    assert errors_of(doc({"a": S, "b": S}, [["ghost", "b"]])) == [
        ("UnknownStep", "edge references unknown step 'ghost'"),
        ("Cycle", "cycle detected: resolved 1 of 2 steps")]


def test_w8_unknown_dependency():
    assert errors_of(doc({"a": S, "b": step(depends_on=["nope"])}, [])) == [
        ("UnknownStep", "step 'b' depends on unknown step 'nope'"),
        ("Cycle", "cycle detected: resolved 1 of 2 steps")]


def test_w9_inputs_checked_in_sorted_name_order():
    b = step(inputs={"z": "a.result", "y": "noformat", "x": "zzz.out"})
    assert errors_of(doc({"a": S, "b": b}, [["a", "b"]])) == [
        ("UnknownInput", "step 'b' input 'x' references unknown step 'zzz'"),
        ("UnknownInput", "step 'b' input 'y' has invalid ref format 'noformat' "
                         "(expected 'step.output')")]


def test_w10_empty_source_path():
    assert errors_of(doc({"a": step(source=""), "b": S}, [])) == [
        ("MissingField", "step 'a' has empty source path")]


def test_w11_duplicate_edges_reported_once_per_repeat():
    assert errors_of(doc({"a": S, "b": S}, [["a", "b"]] * 3)) == [
        ("DuplicateEdge", "duplicate edge: a -> b")] * 2


def test_w12_no_steps():
    assert errors_of(doc({}, [])) == [("EmptyWorkflow", "workflow has no steps")]


def test_w13_empty_name_and_version():
    assert errors_of(doc({"a": S}, [], name="", version="")) == [
        ("MissingField", "workflow name is empty"),
        ("MissingField", "workflow version is empty")]


def test_w14_edge_and_depends_on_are_deduplicated():
    report = validate_workflow_json(doc({"a": S, "b": step(depends_on=["a"])}, [["a", "b"]],
                                        version="2.0"))
    assert report.ok and report.execution_order == ["a", "b"]
    assert report.edges_count == 1 and report.workflow_version == "2.0"


def test_w15_gate_and_trigger_steps():
    steps = {"fetch": S,
             "review": {"kind": "approval_gate", "required_role": "lead", "depends_on": ["fetch"]},
             "hook": {"kind": "external_trigger"},
             "publish": step(depends_on=["review", "hook"])}
    report = validate_workflow_json(doc(steps, []))
    assert report.execution_order == ["fetch", "hook", "review", "publish"]


def test_w16_all_errors_in_rule_order_and_coincidental_full_resolution():
    steps = {"b": step(depends_on=["x"]), "a": step(source="")}
    assert errors_of(doc(steps, [["a", "q"], ["a", "q"]])) == [
        ("UnknownStep", "edge references unknown step 'q'"),
        ("UnknownStep", "edge references unknown step 'q'"),
        ("UnknownStep", "step 'b' depends on unknown step 'x'"),
        ("MissingField", "step 'a' has empty source path"),
        ("DuplicateEdge", "duplicate edge: a -> q")]


def test_w17_inputs_do_not_order_steps():
    steps = {"consumer": step(inputs={"in": "producer.result"}), "producer": S}
    assert validate_workflow_json(doc(steps, [])).execution_order == ["consumer", "producer"]


def test_w18_input_ref_split_at_first_dot():
    assert validate_workflow_json(doc({"a": S, "b": step(inputs={"v": "a.x.y"})}, [])).ok


@pytest.mark.parametrize("steps, edges, order", [
    # a routing pipeline: 3 steps in a chain
    ({"route_request": S, "sync_state": S, "assert_state": S},
     [["route_request", "sync_state"], ["sync_state", "assert_state"]],
     ["route_request", "sync_state", "assert_state"]),
    # triage with an approval gate reached through depends_on
    ({"receive": S, "triage": step(depends_on=["receive"]),
      "approve": {"kind": "approval_gate", "required_role": "lead", "depends_on": ["triage"]},
      "route": step(depends_on=["approve"])}, [["receive", "triage"]],
     ["receive", "triage", "approve", "route"]),
    # fan-out / fan-in
    ({"ingest": S, "classify": S, "extract": step(depends_on=["classify"]),
      "summarize": step(depends_on=["classify"]), "merge": step(depends_on=["extract", "summarize"])},
     [["ingest", "classify"], ["classify", "extract"], ["classify", "summarize"]],
     ["ingest", "classify", "extract", "summarize", "merge"]),
    ({"transform": S}, [], ["transform"]),
])
def test_w19_pipelines_of_the_example_shapes(steps, edges, order):
    report = validate_workflow_json(doc(steps, edges))
    assert report.ok and report.execution_order == order


# ------------------------------------------------------------------ parse errors

def parse_error(text):
    with pytest.raises(WorkflowParseError) as info:
        validate_workflow_json(text)
    assert info.value.message.startswith("invalid workflow JSON: ")
    return info.value.message


MISSING_SV = ("invalid workflow JSON: workflow.json is missing required field `schema_version` "
              "(expected `\"schema_version\": 1`); see docs/workflows.md or the "
              "boruna://workflows resource")


def test_p1_not_json():
    parse_error("not json")


def test_p2_p3_missing_or_null_schema_version():
    body = {"name": "w", "version": "1", "steps": {"a": S}, "edges": []}
    assert parse_error(json.dumps(body)) == MISSING_SV
    assert parse_error(json.dumps(dict(body, schema_version=None))) == MISSING_SV


def test_p4_future_schema_version():
    assert parse_error(doc({"a": S}, [], schema_version=2)) == (
        "invalid workflow JSON: workflow.json `schema_version: 2` is not supported by this "
        "build (max supported: 1); upgrade Boruna to read this workflow")


@pytest.mark.parametrize("value", ["1", -1, 1.5, True])
def test_p5_schema_version_must_be_a_non_negative_integer(value):
    assert parse_error(doc({"a": S}, [], schema_version=value)) != MISSING_SV


def test_structural_errors_come_before_the_schema_version_gate():
    body = {"version": "1", "steps": {"a": S}, "edges": []}
    assert parse_error(json.dumps(body)) == "invalid workflow JSON: missing field `name`"


@pytest.mark.parametrize("bad_step", [
    {"source": "s.ax"}, {"kind": "shell"}, {"kind": "source"}, {"kind": "approval_gate"},
    {"kind": "source", "source": 3}, {"kind": "source", "source": "s.ax", "retry": {}},
    {"kind": "source", "source": "s.ax", "depends_on": "a"},
])
def test_p6_bad_steps(bad_step):
    parse_error(doc({"a": bad_step}, []))


def test_p7_edges_required_and_pairs():
    body = {"schema_version": 1, "name": "w", "version": "1", "steps": {"a": S}}
    assert parse_error(json.dumps(body)) == "invalid workflow JSON: missing field `edges`"
    assert parse_error(doc({"a": S}, [["a"]])) == (
        "invalid workflow JSON: edges.0: expected a [from, to] pair of strings")
    parse_error(doc({"a": S}, [["a", "b", "c"]]))
    parse_error(doc({"a": S}, [["a", 1]]))


def test_p8_schema_version_zero_is_accepted():
    assert validate_workflow_json(doc({"a": S}, [], schema_version=0)).ok


def test_p9_unknown_fields_ignored():
    text = doc({"a": step(retry_backoff=5)}, [], owner="x")
    assert validate_workflow_json(text).ok


def test_p10_duplicate_step_keys_last_wins():
    text = ('{"schema_version": 1, "name": "w", "version": "1", "edges": [], "steps": '
            '{"a": {"kind": "source", "source": "1.ax"}, "a": {"kind": "source", "source": ""}}}')
    assert errors_of(text) == [("MissingField", "step 'a' has empty source path")]


@pytest.mark.parametrize("text", ["[1]", "null", '"x"', '{"a": NaN}', "[" * 50000, ""])
def test_malformed_inputs_are_parse_errors_not_crashes(text):
    parse_error(text)


def test_optional_step_fields_are_decoded():
    full = step(capabilities=["net.fetch"], outputs={"result": "String"}, timeout_ms=5,
                retry={"max_attempts": 3, "on_transient": True, "retry_on": ["timeout"]},
                budget={"max_tokens": 10, "max_calls": None},
                required_capability_versions={"net.fetch": "1"})
    wf = parse_workflow(doc({"a": full}, [], description="d"))
    a = wf.steps["a"]
    assert a.retry.max_attempts == 3 and a.retry.retry_on == ["timeout"]
    assert a.budget.max_tokens == 10 and a.timeout_ms == 5
    assert wf.description == "d"


def test_topological_levels_group_independent_steps():
    steps = {"root": S, "l": step(depends_on=["root"]), "r": step(depends_on=["root"]),
             "j": step(depends_on=["l", "r"])}
    assert topological_levels(parse_workflow(doc(steps, []))) == [["root"], ["l", "r"], ["j"]]
    with pytest.raises(CycleError, match="resolved 0 of 2 steps"):
        topological_levels(parse_workflow(doc({"a": S, "b": S}, [["a", "b"], ["b", "a"]])))


ids = st.sampled_from(["a", "b", "c", "d", "e", "f"])


@settings(max_examples=150, deadline=None)
@given(st.sets(ids, min_size=1), st.lists(st.tuples(ids, ids), max_size=10))
def test_order_respects_every_edge_when_acyclic(step_ids, edges):
    edges = [[x, y] for x, y in edges if x in step_ids and y in step_ids]
    wf = parse_workflow(doc({s: S for s in step_ids}, edges))
    try:
        order = execution_order(wf)
    except CycleError as exc:
        assert exc.resolved < len(step_ids)
        return
    assert sorted(order) == sorted(step_ids)
    for x, y in edges:
        assert order.index(x) < order.index(y)
