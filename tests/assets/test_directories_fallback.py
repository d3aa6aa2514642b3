"""A project's own ./libs or ./templates does not hide the bundled ones (issue 23): entries
it lacks come from the bundled copy, listings show both with their origin."""
import json

from boruna.assets.directories import default_libs_dir, default_templates_dir
from boruna.assets.libraries import list_libraries
from boruna.assets.templates import apply_template, list_templates
from boruna.service.running import run_tool
from boruna.service.agent_docs import document


def _project(tmp_path, monkeypatch):
    lib = tmp_path / "libs" / "mylib"
    (lib / "src").mkdir(parents=True)
    (lib / "package.ax.json").write_text(json.dumps({
        "name": "mylib", "version": "0.1.0", "description": "mine", "dependencies": {},
        "required_capabilities": [], "exposed_modules": ["core"]}))
    (lib / "src" / "core.ax").write_text("fn my_double(n: Int) -> Int { n * 2 }\n")
    template = tmp_path / "templates" / "hello"
    template.mkdir(parents=True)
    (template / "template.json").write_text(json.dumps({
        "name": "hello", "version": "1.0.0", "description": "greets", "dependencies": [],
        "capabilities": [], "args": {}}))
    (template / "app.ax.template").write_text('fn main() -> String { "hi" }\n')
    monkeypatch.chdir(tmp_path)


def test_imports_find_local_and_bundled_libraries(tmp_path, monkeypatch):
    _project(tmp_path, monkeypatch)
    libs = default_libs_dir()
    assert str(libs) == "libs"
    source = ('import "mylib"\nimport "std-json"\n'
              'fn main() -> String { json_string_field("n", __builtin_int_to_string(my_double(2))) }\n')
    assert run_tool(source, libs_dir=str(libs))["result"] == '"n": "4"'


def test_listings_show_both_with_their_origin(tmp_path, monkeypatch):
    _project(tmp_path, monkeypatch)
    infos = list_libraries(default_libs_dir())
    assert (infos[0].dir_name, infos[0].origin) == ("mylib", "local")
    assert "std-json" in [i.dir_name for i in infos if i.origin == "bundled"]
    doc = document("boruna://libs", libs_dir=default_libs_dir())
    assert "From: local (`libs`)" in doc and "From: bundled (" in doc
    templates = list_templates(default_templates_dir())
    origins = {t.name: t.origin for t in templates}
    assert origins["hello"] == "local" and origins["crud-admin"] == "bundled"
    applied = apply_template(default_templates_dir(), "form-basic",
                             {"form_name": "Signup", "fields": "a,b"})
    assert applied.output_file == "form-basic_app.ax"


def test_an_explicit_folder_is_used_alone(tmp_path):
    (tmp_path / "only").mkdir()
    assert list_libraries(tmp_path / "only") == []
    source = 'import "std-json"\nfn main() -> Int { 1 }\n'
    response = run_tool(source, libs_dir=str(tmp_path / "only"))
    assert response["errors"][0]["message"] == "import error: library 'std-json' not found"
