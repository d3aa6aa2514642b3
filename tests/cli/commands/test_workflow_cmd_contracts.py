"""`boruna workflow validate DIR` reads the step sources and reports a step whose `main`
cannot return its declared outputs, as `workflow run` would refuse it."""
import json

WORKFLOW = {"schema_version": 1, "name": "greet", "version": "1",
            "steps": {"make": {"kind": "source", "source": "make.ax",
                               "outputs": {"greeting": "String"}}},
            "edges": []}


def test_validate_reports_the_outputs_contract_of_the_sources(cli, tmp_path):
    (tmp_path / "workflow.json").write_text(json.dumps(WORKFLOW))
    (tmp_path / "make.ax").write_text('fn main() -> String {\n    "hello"\n}\n')
    result = cli("workflow", "validate", tmp_path)
    assert result.code == 1
    assert result.err == (
        "error: workflow validation failed:\n"
        "  ContractViolation: step 'make': main returns String, but the step declares outputs "
        "greeting: return a record with those fields\n")
    (tmp_path / "make.ax").write_text(
        'type Out { greeting: String }\n\nfn main() -> Out {\n    Out { greeting: "hi" }\n}\n')
    fixed = cli("workflow", "validate", tmp_path / "workflow.json")
    assert fixed.code == 0
    assert fixed.out.startswith("workflow 'greet' v1 is valid\n")
