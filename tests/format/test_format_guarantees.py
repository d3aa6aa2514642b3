"""The formatter's guarantees (tests/format/guarantees.py: same AST JSON, same bytecode,
idempotent, every comment kept in order) on every .ax file of the repository, on the
templates' rendered output, and on random programs.

The default suite checks a sample of 200 random sources; `BORUNA_FORMAT_SAMPLES=N` checks N
(docs/formatting.md records the full run's figures)."""
import importlib.util
import os
import pathlib

import pytest

from boruna.assets.templates import apply_template, list_templates
from boruna.format.comments import Comments
from boruna.format.doc import render
from boruna.format.printer import Printer
from boruna.language.parser import parse_program

_spec = importlib.util.spec_from_file_location(
    "format_guarantees", pathlib.Path(__file__).with_name("guarantees.py"))
g = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(g)

ROOT = pathlib.Path(__file__).resolve().parents[2]
AX_FILES = sorted(p for p in ROOT.rglob("*.ax")
                  if not any(part.startswith(".") or part in ("build", "_bundled")
                             for part in p.relative_to(ROOT).parts))
SAMPLES = int(os.environ.get("BORUNA_FORMAT_SAMPLES", "200"))
BATCH = 20


def misses(source: str) -> int:
    """How many printed tokens the comment cursor could not find in the source (0 when the
    printer emits the source's tokens in order)."""
    comments = Comments(source)
    render(Printer(comments).program_doc(parse_program(source)))
    return comments.misses


def test_the_repository_has_ax_files():
    assert len(AX_FILES) >= 15
    assert ROOT / "examples" / "hello.ax" in AX_FILES


@pytest.mark.parametrize("path", AX_FILES, ids=[str(p.relative_to(ROOT)) for p in AX_FILES])
def test_every_ax_file_of_the_repository(path):
    source = path.read_text(encoding="utf-8")
    g.check(source)
    g.check(source, width=60)
    assert misses(source) == 0


def _template_args(info) -> dict:
    samples = {"fields": "name:String,email:String", "poll_interval_ms": "250"}
    return {arg: samples.get(arg, "Sample") for arg in info.args}


TEMPLATES = list_templates(ROOT / "templates")


@pytest.mark.parametrize("info", TEMPLATES, ids=[t.name for t in TEMPLATES])
def test_every_templates_rendered_output(info):
    applied = apply_template(ROOT / "templates", info.name, _template_args(info))
    source = applied.source
    g.check(source)
    assert misses(source) == 0


def test_the_templates_are_all_there():
    assert len(TEMPLATES) >= 5


@pytest.mark.parametrize("start", range(0, SAMPLES, BATCH))
def test_random_programs(start):
    for seed in range(start, min(start + BATCH, SAMPLES)):
        source = g.sample_source(seed)
        try:
            g.check(source)
            assert misses(source) == 0
        except AssertionError:
            pytest.fail(f"seed {seed}:\n{source}")


def test_random_programs_cover_the_grammar():
    """The sample reaches every kind of AST node, and has comments of both kinds."""
    from boruna.language.ast_json import to_json_obj

    seen = set()
    trailing = own_line = 0

    def walk(node):
        if isinstance(node, dict):
            seen.update(node)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
        elif isinstance(node, str):
            seen.add(node)

    for seed in range(60):
        source = g.sample_source(seed)
        walk(to_json_obj(parse_program(source)))
        trailing += source.count("trailing\n")
        own_line += source.count("own line\n")
    for tag in ("Binary", "Unary", "Call", "FieldAccess", "If", "Match", "Record",
                "EnumVariant", "List", "SomeExpr", "OkExpr", "ErrExpr", "Spawn", "Send",
                "Receive", "Emit", "Block", "FloatLit", "StringLit", "BoolLit", "NoneLit",
                "Let", "Assign", "Return", "While", "For", "Function", "TypeDef", "Import",
                "Wildcard", "SomePat", "OkPat", "ErrPat", "NonePat", "Option", "Result", "Map",
                "Fn"):
        assert tag in seen, tag
    assert trailing > 100 and own_line > 100
