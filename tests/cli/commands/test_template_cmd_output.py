"""`boruna template list` / `boruna template apply`."""
import json
from pathlib import Path

import pytest

from boruna.cli.commands.template_cmd import parse_template_args
from boruna.cli.errors import UsageError
from boruna.service import render, template_apply_tool, template_list_tool
from boruna.assets.directories import default_templates_dir


def _fixture_templates(root: Path) -> Path:
    tdir = root / "templates" / "greeter"
    tdir.mkdir(parents=True)
    (tdir / "template.json").write_text(json.dumps({
        "name": "greeter", "version": "0.2.0", "description": "says hello",
        "dependencies": ["std.ui"], "capabilities": [],
        "args": {"who": {"type": "string", "required": True, "description": "name"}}}))
    (tdir / "app.ax.template").write_text(
        'fn main() -> String {\n    "hello, {{who}}"\n}\n')
    return root / "templates"


def test_parse_template_args():
    assert parse_template_args(" a=1 , b=x=y,,", ["c=1,2"]) == {"a": "1", "b": "x=y", "c": "1,2"}
    with pytest.raises(UsageError) as info:
        parse_template_args("a=1,oops", [])
    assert info.value.message == "invalid arg format: 'oops' (expected key=value)"
    assert info.value.exit_code == 2


def test_list_text_from_a_directory(cli, tmp_path):
    tdir = _fixture_templates(tmp_path)
    result = cli("template", "list", "--dir", tdir)
    assert result.code == 0
    assert result.out == ("available templates:\n  greeter v0.2.0 - says hello\n"
                          "    args: who\n    deps: std.ui\n")


def test_list_json_equals_tool(cli, tmp_path):
    tdir = _fixture_templates(tmp_path)
    result = cli("template", "list", "--dir", tdir, "--json")
    assert result.code == 0
    assert result.out == render(template_list_tool(str(tdir))) + "\n"


def test_list_defaults_to_the_bundled_templates(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("template", "list", "--json")
    assert result.code == 0
    names = [t["name"] for t in json.loads(result.out)["templates"]]
    assert names == ["auth-app", "crud-admin", "form-basic", "offline-sync", "realtime-feed"]
    assert json.loads(result.out) == template_list_tool(str(default_templates_dir()))


def test_list_missing_directory_is_an_error(cli, tmp_path):
    result = cli("template", "list", "--dir", tmp_path / "nope")
    assert result.code == 1
    assert result.err.startswith("error: read templates dir: ")


def test_apply_writes_the_file(cli, tmp_path, monkeypatch):
    tdir = _fixture_templates(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = cli("template", "apply", "greeter", "--dir", tdir, "--args", "who=Ada")
    assert result.code == 0
    assert result.out == ("generated greeter_app.ax from template 'greeter'\n"
                          "  deps: std.ui\n  caps: (none)\n")
    assert (tmp_path / "greeter_app.ax").read_text() == 'fn main() -> String {\n    "hello, Ada"\n}\n'


def test_apply_to_stdout(cli, tmp_path):
    tdir = _fixture_templates(tmp_path)
    result = cli("template", "apply", "greeter", "--dir", tdir, "--arg", "who=a, b", "-o", "-")
    assert (result.code, result.out) == (0, 'fn main() -> String {\n    "hello, a, b"\n}\n')


def test_apply_json_equals_tool(cli, tmp_path):
    tdir = _fixture_templates(tmp_path)
    out = tmp_path / "g.ax"
    result = cli("template", "apply", "greeter", "--dir", tdir, "--args", "who=Ada", "-o", out,
                 "--json")
    assert result.code == 0
    assert result.out == render(template_apply_tool(str(tdir), "greeter", ["who=Ada"])) + "\n"
    assert out.read_text().endswith('"hello, Ada"\n}\n')


def test_apply_missing_argument(cli, tmp_path):
    tdir = _fixture_templates(tmp_path)
    result = cli("template", "apply", "greeter", "--dir", tdir, "-o", tmp_path / "x.ax")
    assert result.code == 1
    assert result.err == ('error: missing required argument: who '
                          '(greeter takes who: --args "who=...")\n')
    assert not (tmp_path / "x.ax").exists()


def test_apply_unknown_template(cli, tmp_path):
    tdir = _fixture_templates(tmp_path)
    result = cli("template", "apply", "nope", "--dir", tdir)
    assert (result.code, result.err) == (1, "error: template 'nope' not found (available: greeter)\n")


def test_apply_path_escape_is_refused(cli, tmp_path):
    tdir = _fixture_templates(tmp_path)
    result = cli("template", "apply", "../greeter", "--dir", tdir)
    assert (result.code, result.err) == (1, "error: invalid template name '../greeter'\n")


def test_apply_malformed_args_is_a_usage_error(cli, tmp_path):
    tdir = _fixture_templates(tmp_path)
    result = cli("template", "apply", "greeter", "--dir", tdir, "--args", "who")
    assert (result.code, result.err) == (2, "error: invalid arg format: 'who' (expected key=value)\n")


def test_apply_validate_failure_writes_nothing(cli, tmp_path):
    tdir = _fixture_templates(tmp_path)
    out = tmp_path / "out.ax"
    result = cli("template", "apply", "greeter", "--dir", tdir, "--arg", 'who=" }', "-o", out,
                 "--validate")
    assert result.code == 1
    assert result.err.startswith("error: template output does not compile: ")
    assert result.err.endswith(" (nothing written)\n")
    assert not out.exists()
    as_json = cli("template", "apply", "greeter", "--dir", tdir, "--arg", 'who=" }', "-o", out,
                  "--validate", "--json")
    assert as_json.code == 1
    assert json.loads(as_json.out)["validation"]["passed"] is False
    assert not out.exists()


def test_apply_validate_success(cli, tmp_path):
    tdir = _fixture_templates(tmp_path)
    out = tmp_path / "out.ax"
    result = cli("template", "apply", "greeter", "--dir", tdir, "--args", "who=Ada", "-o", out,
                 "--validate")
    assert result.code == 0
    assert "  validation: passed (the output compiles)\n" in result.out
    assert cli("run", out).out.splitlines()[0] == '"hello, Ada"'


def test_every_bundled_template_applies_validates_and_passes_the_app_check(cli, tmp_path,
                                                                           monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = {"auth-app": "app_name=Portal", "crud-admin": "entity_name=User,fields=name",
            "form-basic": "form_name=Signup,fields=email", "offline-sync": "entity_name=Note",
            "realtime-feed": "feed_name=news"}
    for name, arg_text in args.items():
        result = cli("template", "apply", name, "--args", arg_text, "--validate")
        assert result.code == 0, (name, result.err)
        assert cli("framework", "validate", f"{name}_app.ax").code == 0, name
