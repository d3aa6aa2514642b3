"""No input reaches a user as a traceback: random inputs to the framework, workflow and
template entry points end in a result or their documented structured error."""
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boruna.language.errors import CompileError
from boruna.framework import run_app_test, validate_app
from boruna.assets.templates import TemplateArgsError, TemplateError, apply_template
from boruna.workflow.validator import WorkflowParseError, validate_workflow_json

REPO = Path(__file__).resolve().parents[2]
TEMPLATES = REPO / "templates"

APP = """\
type State { n: Int, last: String }
type Msg { tag: String, payload: Int }
type UpdateResult { state: State, effects: List<Int> }
type UINode { tag: String, text: String }
fn init() -> State { State { n: 0, last: "" } }
fn update(state: State, msg: Msg) -> UpdateResult {
    match msg.tag {
        "add" => UpdateResult { state: State { n: state.n + msg.payload, last: msg.tag }, effects: [] },
        _ => UpdateResult { state: State { ..state, last: msg.tag }, effects: [msg.payload] },
    }
}
fn view(state: State) -> UINode { UINode { tag: "n", text: state.last } }
"""

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(max_size=12), max_size=8))
def test_any_messages_end_in_a_result(messages):
    r = run_app_test(APP, messages)
    if r.ok:
        assert r.total_cycles == len(messages) == len(r.cycles)
        assert r.final_state == (r.cycles[-1]["state"] if messages else r.init_state)
    else:
        assert r.error.startswith("cycle ") and "error" in r.cycles[-1]


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=80))
def test_validate_app_on_any_text(text):
    try:
        report = validate_app(text)
    except CompileError as exc:
        assert exc.code in ("E001", "E002")
        return
    assert isinstance(report.errors, list) and report.valid == (not report.errors)


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_workflow_validation_on_any_json(value):
    try:
        report = validate_workflow_json(json.dumps(value))
    except WorkflowParseError as exc:
        assert exc.message.startswith("invalid workflow JSON: ")
        return
    assert report.ok == (not report.errors)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["a", "b", "c", "d"]),
                       st.fixed_dictionaries({"kind": st.just("source"), "source": st.text(max_size=3)},
                                             optional={"depends_on": st.lists(st.sampled_from(["a", "b", "x"]), max_size=3),
                                                       "inputs": st.dictionaries(st.text(max_size=2), st.text(max_size=4), max_size=2)}),
                       max_size=4),
       st.lists(st.lists(st.sampled_from(["a", "b", "c", "q"]), min_size=2, max_size=2), max_size=5))
def test_structurally_valid_workflows_validate(steps, edges):
    doc = {"schema_version": 1, "name": "w", "version": "1", "steps": steps, "edges": edges}
    report = validate_workflow_json(json.dumps(doc))
    assert report.steps_count == len(steps) and report.edges_count == len(edges)
    if report.ok:
        assert sorted(report.execution_order) == sorted(steps)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=20), st.lists(st.text(max_size=10), max_size=4))
def test_template_apply_on_any_name_and_args(name, args):
    try:
        out = apply_template(TEMPLATES, name, args)
    except (TemplateError, TemplateArgsError) as exc:
        assert exc.message
        return
    assert (TEMPLATES / name).resolve().parent == TEMPLATES.resolve()
    assert out.output_file == f"{name}_app.ax"

