"""No input makes a tool raise or answer `internal_error` (property tests, modest budgets)."""
import json

from hypothesis import HealthCheck, given, settings, strategies as st

from boruna import service

AX_PIECES = ["fn", "main", "()", "->", "Int", "{", "}", "(", ")", "let", "mut", "=", "1",
             "x", "while", "true", "if", "else", "match", "=>", "_", "type", "enum", "!{",
             "step.input", "step_input(\"a\")", "\"s\"", ",", ":", "+", "/", "0", "\n", " ",
             "emit", "[", "]", "Some(", "None", "Ok(", "Err(", "import", "//", "\\", "é", "::"]

ax_like = st.one_of(st.text(max_size=120),
                    st.lists(st.sampled_from(AX_PIECES), max_size=40).map("".join))

SOURCE_TOOLS = [
    lambda s: service.compile_tool(s),
    lambda s: service.ast_tool(s),
    lambda s: service.symbols_tool(s),
    lambda s: service.check_tool(s),
    lambda s: service.repair_tool(s),
    lambda s: service.validate_app_tool(s),
    lambda s: service.run_tool(s, max_steps=20_000),
    lambda s: service.run_sealed_tool(s, max_steps=20_000),
    lambda s: service.framework_test_tool(s, ["a:1", "b"]),
]


def _assert_well_formed(response):
    assert isinstance(response, dict)
    assert list(response)[:2] == ["success", "protocol_version"]
    assert response["protocol_version"] == 1
    assert response.get("error_kind") != "internal_error", response
    assert isinstance(json.loads(service.render(response)), dict)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ax_like)
def test_source_tools_always_answer_with_an_envelope(source):
    for tool in SOURCE_TOOLS:
        _assert_well_formed(tool(source))


json_like = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["schema_version", "rules", "default_allow", "net_policy",
                                       "name", "version", "steps", "edges", "kind", "allow",
                                       "budget", "x"]), children, max_size=4),
    max_leaves=12)


@settings(max_examples=100, deadline=None)
@given(json_like)
def test_policy_and_workflow_tools_always_answer(value):
    text = json.dumps(value)
    _assert_well_formed(service.policy_validate_tool(text))
    _assert_well_formed(service.workflow_validate_tool(text))
    _assert_well_formed(service.run_tool("fn main() -> Int { 1 }", policy=value))


@settings(max_examples=60, deadline=None)
@given(json_like)
def test_output_schema_never_breaks_the_run(schema):
    _assert_well_formed(service.run_tool("fn main() -> Int { 1 }", output_schema=schema))
