"""Template listing, argument parsing, rendering and path safety (docs/spec/tooling.md §5, §7.6)."""
import json
import os
from pathlib import Path

import pytest

from boruna.assets.directories import default_templates_dir
from boruna.assets.templates import (TemplateArgsError, TemplateError, apply_template,
                                      list_templates, normalize_args, render)

REPO_TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
STD_DEPS = ["std.ui", "std.forms", "std.authz", "std.db", "std.validation"]


def make_template(root: Path, dir_name: str, text: str = "", args=None, name=None, **extra):
    d = root / dir_name
    d.mkdir(parents=True)
    manifest = {"name": name or dir_name, "version": "1.0.0", "description": "t",
                "dependencies": [], "capabilities": [], "args": args or {}}
    manifest.update(extra)
    (d / "template.json").write_text(json.dumps(manifest))
    if text is not None:
        (d / "app.ax.template").write_text(text)
    return d


def template_error(*call_args, **kw):
    with pytest.raises(TemplateError) as info:
        apply_template(*call_args, **kw)
    return info.value.message


# ------------------------------------------------------------------ the shipped templates

def test_tp1_list_shipped_templates():
    infos = list_templates(REPO_TEMPLATES)
    assert [t.name for t in infos] == ["auth-app", "crud-admin", "form-basic", "offline-sync",
                                       "realtime-feed"]
    by_name = {t.name: t for t in infos}
    assert by_name["crud-admin"].args == ["entity_name", "fields"]
    assert by_name["crud-admin"].capabilities == ["db.query"]
    assert by_name["crud-admin"].dependencies == STD_DEPS
    assert by_name["realtime-feed"].args == ["feed_name", "poll_interval_ms"]
    assert by_name["form-basic"].capabilities == []
    assert by_name["auth-app"].to_dict() == {
        "name": "auth-app", "version": "1.0.0",
        "description": by_name["auth-app"].description,
        "dependencies": ["std.authz", "std.http", "std.storage"],
        "capabilities": ["net.fetch", "fs.read", "fs.write"], "args": ["app_name"],
        "origin": "local"}


def test_tp2_apply_crud_admin():
    out = apply_template(REPO_TEMPLATES, "crud-admin", ["entity_name=products", "fields=name|price"])
    assert out.template_name == "crud-admin"
    assert out.output_file == "crud-admin_app.ax"
    for needle in ("// Entity: products", "// Fields: name|price", "INSERT INTO products",
                   "DELETE FROM products", "SELECT * FROM products WHERE name LIKE"):
        assert needle in out.source
    assert "{{" not in out.source
    assert out.dependencies == STD_DEPS and out.capabilities == ["db.query"]
    assert out.validation is None and "validation" not in out.to_dict()


def test_tp4_tp5_missing_required_arguments_sorted_first():
    assert template_error(REPO_TEMPLATES, "crud-admin", ["entity_name=x"]) == (
        "missing required argument: fields")
    assert template_error(REPO_TEMPLATES, "crud-admin", []) == (
        "missing required argument: entity_name")


def test_tp6_argument_without_equals_is_invalid_args():
    with pytest.raises(TemplateArgsError) as info:
        apply_template(REPO_TEMPLATES, "crud-admin", ["entity_name"])
    assert info.value.message == "argument must be key=value format, got: entity_name"


def test_tp7_args_parsed_before_the_template_is_looked_up(tmp_path):
    with pytest.raises(TemplateArgsError):
        apply_template(tmp_path / "missing", "does-not-exist", ["k=v", "oops"])


@pytest.mark.parametrize("name", ["../secrets", "a/b", "a\\b", "", "/etc", "..", "x\0y", "."])
def test_tp8_names_that_could_leave_the_directory(name):
    assert template_error(REPO_TEMPLATES, name, []) == f"invalid template name '{name}'"


def test_tp9_unknown_template():
    assert template_error(REPO_TEMPLATES, "nope", []) == "template 'nope' not found"


def test_tp10_realtime_feed_default_interval_is_applied():
    out = apply_template(REPO_TEMPLATES, "realtime-feed", ["feed_name=events"])
    assert "GET /api/events/events" in out.source
    assert 'payload: "1000"' in out.source
    assert "{{" not in out.source
    custom = apply_template(REPO_TEMPLATES, "realtime-feed",
                            ["feed_name=events", "poll_interval_ms=250"])
    assert 'payload: "250"' in custom.source and '"1000"' not in custom.source


def test_tp11_offline_sync_all_placeholders():
    src = apply_template(REPO_TEMPLATES, "offline-sync", ["entity_name=todos"]).source
    assert "// Entity: todos" in src
    assert src.count("POST /api/todos/sync") == 2
    assert "POST /api/todos/force_sync" in src and "POST /api/todos/bulk_sync" in src
    assert "{{" not in src


def test_tp12_extra_args_are_ignored():
    out = apply_template(REPO_TEMPLATES, "auth-app", ["app_name=x", "extra=1"])
    assert out.template_name == "auth-app" and "{{" not in out.source


# ------------------------------------------------------------------ synthetic directories

def test_tp14_single_pass_substitution_never_expands_inserted_values(tmp_path):
    make_template(tmp_path, "t", "{{a}}|{{b}}")
    assert apply_template(tmp_path, "t", ["a={{b}}", "b=X"]).source == "{{b}}|X"
    assert apply_template(tmp_path, "t", ["b={{a}}", "a=X"]).source == "X|{{a}}"


def test_tp15_tp16_no_whitespace_tolerance_and_unknown_placeholders_kept(tmp_path):
    make_template(tmp_path, "t", "{{ a }} {{a}} {{missing}}")
    assert apply_template(tmp_path, "t", ["a=1"]).source == "{{ a }} 1 {{missing}}"


def test_tp17_duplicate_empty_and_embedded_equals(tmp_path):
    make_template(tmp_path, "t", "[{{a}}][{{}}][{{k}}]")
    assert apply_template(tmp_path, "t", ["a=1", "a=2", "=v", "k=a=b"]).source == "[2][v][a=b]"


def test_tp18_manifest_lacking_args(tmp_path):
    d = tmp_path / "bad"
    d.mkdir()
    (d / "template.json").write_text('{"name": "bad", "version": "1", "description": "",'
                                     ' "dependencies": [], "capabilities": []}')
    (d / "app.ax.template").write_text("x")
    with pytest.raises(TemplateError) as info:
        list_templates(tmp_path)
    assert info.value.message == f"parse {d / 'template.json'}: missing field `args`"
    assert template_error(tmp_path, "bad", []) == (
        "parse template manifest: missing field `args`")


def test_manifest_that_is_not_json(tmp_path):
    d = tmp_path / "bad"
    d.mkdir()
    (d / "template.json").write_text("{nope")
    with pytest.raises(TemplateError, match=r"^parse .*template\.json: "):
        list_templates(tmp_path)
    assert template_error(tmp_path, "bad", []).startswith("parse template manifest: ")


def test_tp19_manifest_without_template_file(tmp_path):
    make_template(tmp_path, "t", text=None)
    assert template_error(tmp_path, "t", []) == "template file not found: app.ax.template"


def test_tp20_missing_templates_dir_is_a_template_error(tmp_path):
    with pytest.raises(TemplateError) as info:
        list_templates(tmp_path / "nowhere")
    assert info.value.message.startswith("read templates dir: ")
    (tmp_path / "file").write_text("x")
    with pytest.raises(TemplateError, match="^read templates dir: .*Not a directory"):
        list_templates(tmp_path / "file")


def test_empty_templates_dir_lists_nothing(tmp_path):
    assert list_templates(tmp_path) == []


def test_tp21_defaults_fill_absent_arguments(tmp_path):
    make_template(tmp_path, "t", "{{x}} {{s}} {{n}} {{given}}", args={
        "x": {"type": "int", "required": False, "description": "", "default": 5},
        "s": {"type": "string", "required": True, "description": "", "default": "hi"},
        "n": {"type": "string", "required": False, "description": "", "default": None},
        "given": {"type": "string", "required": False, "description": "", "default": "d"}})
    assert apply_template(tmp_path, "t", ["given=g"]).source == "5 hi {{n}} g"


def test_tp22_template_name_from_manifest_output_file_from_request(tmp_path):
    make_template(tmp_path, "my-tpl", "x", name="Other")
    out = apply_template(tmp_path, "my-tpl", [])
    assert (out.template_name, out.output_file) == ("Other", "my-tpl_app.ax")


def test_list_sorted_by_manifest_name_and_ignores_other_entries(tmp_path):
    make_template(tmp_path, "b-dir", "x", name="alpha")
    make_template(tmp_path, "a-dir", "x", name="beta")
    (tmp_path / "loose.txt").write_text("x")
    (tmp_path / "no-manifest").mkdir()
    assert [t.name for t in list_templates(tmp_path)] == ["alpha", "beta"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="platform without symlinks")
def test_symlinks_out_of_the_templates_dir_are_refused(tmp_path):
    outside = tmp_path / "outside"
    make_template(outside, "secret", "SECRET")
    root = tmp_path / "templates"
    root.mkdir()
    (root / "linked").symlink_to(outside / "secret", target_is_directory=True)
    assert template_error(root, "linked", []) == "invalid template name 'linked'"
    assert list_templates(root) == []
    inner = make_template(root, "inner", text=None)
    (inner / "app.ax.template").symlink_to(outside / "secret" / "app.ax.template")
    assert template_error(root, "inner", []) == "invalid template name 'inner'"


def test_args_forms(tmp_path):
    assert normalize_args("a=1,,b=x=y") == {"a": "1", "b": "x=y"}
    assert normalize_args({"a": "1"}) == {"a": "1"}
    assert normalize_args(None) == {}
    with pytest.raises(TemplateArgsError) as info:
        normalize_args("a=1,oops")
    assert info.value.message == "invalid arg format: 'oops' (expected key=value)"
    for bad in ([1], {"a": 1}, 42):
        with pytest.raises(TemplateArgsError):
            normalize_args(bad)


def test_render_is_literal():
    assert render("{{a}}{{a}}{{b}}", {"a": "$1\\", "b": "{{a}}"}) == "$1\\$1\\{{a}}"


def test_default_templates_dir_prefers_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert default_templates_dir().resolve() != (tmp_path / "templates").resolve()
    assert (default_templates_dir() / "auth-app" / "template.json").is_file()
    (tmp_path / "templates").mkdir()
    assert default_templates_dir() == Path("templates")
