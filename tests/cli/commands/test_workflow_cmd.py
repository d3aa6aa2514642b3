"""`boruna workflow validate DIR`."""
import json

from boruna.service import render, workflow_validate_tool



def write(path, text: str):
    path.write_text(text, encoding="utf-8")
    return path

VALID = {
    "schema_version": 1, "name": "review", "version": "1.0.0",
    "steps": {
        "fetch": {"kind": "source", "source": "fetch.ax"},
        "analyze": {"kind": "source", "source": "analyze.ax", "depends_on": ["fetch"]},
        "report": {"kind": "source", "source": "report.ax"},
    },
    "edges": [["analyze", "report"]],
}


def _workflow(tmp_path, doc) -> str:
    text = doc if isinstance(doc, str) else json.dumps(doc)
    write(tmp_path / "workflow.json", text)
    return text


def test_valid_workflow_text(cli, tmp_path):
    _workflow(tmp_path, VALID)
    result = cli("workflow", "validate", tmp_path)
    assert result.code == 0
    assert result.out == ("workflow 'review' v1.0.0 is valid\n  steps: 3\n  edges: 1\n"
                          "  execution order: fetch -> analyze -> report\n")


def test_workflow_file_path_is_accepted(cli, tmp_path):
    _workflow(tmp_path, VALID)
    assert cli("workflow", "validate", tmp_path / "workflow.json").code == 0


def test_cycle_is_reported_on_stderr(cli, tmp_path):
    doc = dict(VALID, edges=[["analyze", "report"], ["report", "fetch"]])
    _workflow(tmp_path, doc)
    result = cli("workflow", "validate", tmp_path)
    assert result.code == 1
    assert result.out == ""
    assert result.err.startswith("error: workflow validation failed:\n")
    assert "cycle detected: resolved 0 of 3 steps" in result.err


def test_json_equals_tool(cli, tmp_path):
    for doc, code in ((VALID, 0), (dict(VALID, name=""), 1), ("{nope", 1)):
        text = _workflow(tmp_path, doc)
        result = cli("workflow", "validate", tmp_path, "--json")
        assert result.code == code
        assert result.out == render(workflow_validate_tool(text)) + "\n"


def test_malformed_json_text(cli, tmp_path):
    _workflow(tmp_path, "{nope")
    result = cli("workflow", "validate", tmp_path)
    assert result.code == 1
    assert result.err.startswith("error: invalid workflow JSON: ")


def test_directory_without_workflow_json(cli, tmp_path):
    result = cli("workflow", "validate", tmp_path)
    assert result.code == 1
    assert result.err == (f"error: cannot read '{tmp_path / 'workflow.json'}': "
                          "no such file or directory\n")


def test_missing_directory(cli, tmp_path):
    result = cli("workflow", "validate", tmp_path / "gone")
    assert result.code == 1
    assert result.err == f"error: cannot read '{tmp_path / 'gone'}': no such file or directory\n"
