"""At least 30 everyday tasks, each a program an agent writes from `boruna://guide` alone,
submitted as an agent does: `boruna_check` (no error diagnostics), then `boruna_run` (or the
App framework, the workflow validator, a template), with the exact result the task asks
for. What the first tries taught is recorded in docs/agent-trial.md."""
import sqlite3

import pytest

from boruna.assets.directories import default_libs_dir, default_templates_dir
from boruna.service.diagnostics import check_tool
from boruna.service.framework import framework_test_tool, validate_app_tool
from boruna.service.running import RunRequest, run, run_tool
from boruna.service.templates import template_apply_tool
from boruna.service.workflow import workflow_validate_tool

from .tasks import TASKS

LIBS = str(default_libs_dir())


def test_there_are_at_least_30_tasks():
    assert len(TASKS) >= 30


def _errors(source):
    return [d for d in check_tool(source, libs_dir=LIBS)["diagnostics"]
            if d["severity"] == "error"]


@pytest.mark.parametrize("name", sorted(TASKS))
def test_task(name, tmp_path):
    t = TASKS[name]
    kind, source, expected = t["kind"], t["source"], t["expected"]
    if kind == "workflow":
        response = workflow_validate_tool(source)
        assert response["success"] is True, response
        assert response["execution_order"] == expected
        return
    if kind == "template":
        applied = template_apply_tool(default_templates_dir(), t["template"], t["args"],
                                      validate=True)
        assert applied["success"] is True and applied["validation"] == {"passed": expected}
        source = applied["source"]
        assert _errors(source) == []
        assert validate_app_tool(source, libs_dir=LIBS)["valid"] is True
        return
    assert _errors(source) == []
    if kind == "app":
        response = framework_test_tool(source, t["messages"], libs_dir=LIBS)
        assert response["success"] is True, response
        assert response["final_state"] == expected
        return
    if kind == "db":
        from boruna.runtime.live import HandlerConfig

        db = tmp_path / "task.db"
        with sqlite3.connect(db) as conn:
            conn.executescript(t["sql"])
        handlers = HandlerConfig.from_env(True, None, str(db), False, None)
        response = run(RunRequest.of(source, handlers=handlers)).to_json()
    else:
        response = run_tool(source, libs_dir=LIBS)
    assert response["success"] is True, response
    assert response["result"] == expected
