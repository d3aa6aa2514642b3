"""Workflow directories written for a test: `make_workflow(tmp_path, steps, sources)`."""
import json

import pytest


@pytest.fixture
def make_workflow(tmp_path):
    def make(steps: dict, sources: dict, edges=(), name="w", directory="wf"):
        root = tmp_path / directory
        root.mkdir(exist_ok=True)
        for file, text in sources.items():
            (root / file).write_text(text, encoding="utf-8")
        (root / "workflow.json").write_text(json.dumps(
            {"schema_version": 1, "name": name, "version": "1", "steps": steps,
             "edges": [list(e) for e in edges]}), encoding="utf-8")
        return root
    return make


def src(name):
    return {"kind": "source", "source": f"{name}.ax"}
