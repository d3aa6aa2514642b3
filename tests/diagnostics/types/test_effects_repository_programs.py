"""No false positives of the capability rules (issue 21) on the repository's own programs:
every `.ax` file (libraries, examples, tests' programs) and every shipped template rendered,
checked alone and, for templates, against the standard libraries: no E007 at all and no
error of any kind."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from boruna.assets.templates import apply_template, list_templates
from boruna.diagnostics import check_source, collector

ROOT = Path(__file__).resolve().parents[3]
AX_FILES = sorted(p for p in ROOT.glob("**/*.ax")
                  if not any(part.startswith(".") for part in p.relative_to(ROOT).parts))
TEMPLATES = ROOT / "templates"


def _sample_args(name: str) -> list[str]:
    manifest = json.loads((TEMPLATES / name / "template.json").read_text())
    return [f"{arg}={'1000' if spec.get('type') in ('int', 'integer', 'number') else 'items'}"
            for arg, spec in manifest["args"].items()]


@pytest.fixture(autouse=True)
def strict_analyzers(monkeypatch):
    monkeypatch.setattr(collector, "STRICT", True)


def _findings(source: str, libs_dir=None):
    return [(d.id, d.severity, d.location.line, d.body)
            for d in check_source(source, libs_dir=libs_dir).diagnostics
            if d.id == "E007" or d.severity == "error"]


def test_the_repository_has_its_programs():
    names = {str(p.relative_to(ROOT)) for p in AX_FILES}
    assert {"examples/hello.ax", "examples/counter_app.ax", "libs/std-db/src/core.ax",
            "tests/framework/programs/counter_app.ax"} <= names
    assert len([n for n in names if n.startswith("libs/")]) == 14
    assert len(list_templates(TEMPLATES)) == 5


@pytest.mark.parametrize("path", AX_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_ax_file_has_no_capability_finding(path):
    assert _findings(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("name", [t.name for t in list_templates(TEMPLATES)])
def test_rendered_template_has_no_capability_finding(name):
    source = apply_template(TEMPLATES, name, _sample_args(name)).source
    assert _findings(source) == []
    assert _findings(source, libs_dir=ROOT / "libs") == []
