"""Throughput of the App test runner, workflow validation and template rendering.

Run: python -m pytest benchmarks/test_bench_framework_workflow.py --benchmark-only
"""
import json
from pathlib import Path

from boruna.compiler import compile_source
from boruna.framework import run_app_test
from boruna.assets.templates import apply_template
from boruna.workflow.validator import validate_workflow_json

REPO = Path(__file__).resolve().parents[1]

AUTH_APP = apply_template(REPO / "templates", "auth-app", ["app_name=bench"]).source
AUTH_MESSAGES = ["login", "login_response:ok", "token_saved", "set_role:admin", "logout",
                 "token_cleared"] * 50          # 300 cycles


def chain_workflow(n: int) -> str:
    steps = {f"s{i:05d}": {"kind": "source", "source": f"s{i}.ax",
                           "depends_on": [f"s{i - 1:05d}"] if i else []} for i in range(n)}
    return json.dumps({"schema_version": 1, "name": "chain", "version": "1", "steps": steps,
                       "edges": [[f"s{i:05d}", f"s{i + 1:05d}"] for i in range(0, n - 1, 2)]})


CHAIN = chain_workflow(2000)


def test_bench_framework_300_cycles(benchmark):
    module = compile_source(AUTH_APP, name="app")
    result = benchmark(run_app_test, module, AUTH_MESSAGES)
    assert result.ok and result.total_cycles == 300


def test_bench_workflow_2000_step_chain(benchmark):
    report = benchmark(validate_workflow_json, CHAIN)
    assert report.ok and report.steps_count == 2000


def test_bench_template_apply_with_validation(benchmark):
    out = benchmark(apply_template, REPO / "templates", "crud-admin",
                    ["entity_name=products", "fields=name|price"], True)
    assert out.validation == {"passed": True}
