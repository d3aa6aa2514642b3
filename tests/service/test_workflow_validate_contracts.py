"""`boruna_workflow_validate` given the step sources reports what `workflow run` refuses
before it starts: a `main` whose declared return type cannot give the step's `outputs`."""
import json

from boruna.service.workflow import workflow_validate_tool

WORKFLOW = json.dumps({
    "schema_version": 1, "name": "greet", "version": "1",
    "steps": {
        "make": {"kind": "source", "source": "make.ax", "outputs": {"greeting": "String"}},
        "count": {"kind": "source", "source": "count.ax", "inputs": {"g": "make.greeting"}, "depends_on": ["make"],
                  "outputs": {"n": "Int"}},
    },
    "edges": [],
})
PLAIN = 'fn main() -> String {\n    "hello"\n}\n'
RECORD = 'type Out { greeting: String }\n\nfn main() -> Out {\n    Out { greeting: "hello" }\n}\n'
WRONG_FIELD = 'type C { n: String }\n\nfn main() -> C {\n    C { n: "1" }\n}\n'


def test_a_plain_string_for_declared_outputs_is_a_contract_violation():
    response = workflow_validate_tool(WORKFLOW, {"make.ax": PLAIN, "./count.ax": WRONG_FIELD})
    assert response["success"] is False
    assert response["error_kind"] == "validation_error"
    assert response["errors"] == [
        {"kind": "ContractViolation",
         "message": "step 'count': output 'n' is declared Int, but C.n is String"},
        {"kind": "ContractViolation",
         "message": "step 'make': main returns String, but the step declares outputs "
                    "greeting: return a record with those fields"}]


def test_fitting_sources_and_missing_ones_validate():
    response = workflow_validate_tool(WORKFLOW, {"make.ax": RECORD})
    assert response["success"] is True, response
    assert response["execution_order"] == ["make", "count"]
    assert workflow_validate_tool(WORKFLOW)["success"] is True
