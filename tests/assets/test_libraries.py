"""Library manifests, listing and lookup (docs/spec/tooling.md §6.1–§6.2, §7.7 L11)."""
import json
from pathlib import Path

import pytest

from boruna.assets.libraries import (LibraryError, PackageManifest, library_dir_name,
                                 library_source, list_libraries, locate_library,
                                 manifest_errors, parse_manifest, read_manifest)
from boruna.assets.directories import default_libs_dir

LIBS = Path(__file__).resolve().parents[2] / "libs"
ALL = ["std-authz", "std-db", "std-forms", "std-guard", "std-http", "std-json", "std-llm",
       "std-notifications", "std-routing", "std-storage", "std-sync", "std-testing", "std-ui",
       "std-validation"]


def manifest(**over):
    base = {"name": "std.ui", "version": "1.0.0", "description": "d", "exposed_modules": ["core"]}
    base.update(over)
    return PackageManifest.model_validate(base)


def test_every_shipped_library_is_listed_and_valid():
    libs = list_libraries(LIBS)
    assert [lib.dir_name for lib in libs] == ALL
    for lib in libs:
        assert lib.name == lib.dir_name.replace("-", ".")
        assert lib.version == "1.0.0" and lib.exposed_modules == ["core"]
        assert manifest_errors(read_manifest(lib.path)) == []
        assert lib.source_path.is_file()


def test_declared_capabilities():
    caps = {lib.dir_name: lib.required_capabilities for lib in list_libraries(LIBS)}
    assert caps["std-http"] == ["net.fetch"] and caps["std-db"] == ["db.query"]
    assert caps["std-storage"] == ["fs.read", "fs.write"]
    assert caps["std-notifications"] == ["time.now"] and caps["std-llm"] == ["llm.call"]
    assert caps["std-sync"] == ["net.fetch"] and caps["std-ui"] == []


@pytest.mark.parametrize("over, message", [
    ({"name": "Std.UI"}, "invalid package name 'Std.UI': must be dotted lowercase identifiers"),
    ({"name": "std..ui"}, "invalid package name 'std..ui': must be dotted lowercase identifiers"),
    ({"version": "1.0"}, "invalid version '1.0': must be MAJOR.MINOR.PATCH"),
    ({"version": "01.0.0"}, "invalid version '01.0.0': must be MAJOR.MINOR.PATCH"),
    ({"description": "  "}, "description must not be empty"),
    ({"dependencies": {"Bad": "1.0.0"}}, "invalid dependency name 'Bad'"),
    ({"dependencies": {"std.ui": "x"}}, "dependency 'std.ui' version 'x' is not valid semver"),
    ({"required_capabilities": ["net.fech"]}, "unknown capability 'net.fech'"),
    ({"exposed_modules": []}, "exposed_modules must contain at least one entry"),
])
def test_l11_manifest_validation_messages(over, message):
    assert manifest_errors(manifest(**over)) == [message]


def test_capability_aliases_are_known():
    assert manifest_errors(manifest(required_capabilities=["net", "actor_spawn", "step.input"])) == []


def test_manifest_parse_and_read_errors(tmp_path):
    with pytest.raises(LibraryError, match=r"^parse x: missing field `exposed_modules`$"):
        parse_manifest('{"name": "a", "version": "1.0.0", "description": "d"}', "x")
    with pytest.raises(LibraryError, match=r"^parse x: "):
        parse_manifest("[1]", "x")
    with pytest.raises(LibraryError, match=r"^parse x: "):
        parse_manifest("{", "x")
    with pytest.raises(LibraryError, match=r"^read .*package\.ax\.json: "):
        read_manifest(tmp_path)


def test_locate_by_directory_or_dotted_name():
    assert locate_library(LIBS, "std-json") == LIBS / "std-json" / "src" / "core.ax"
    assert locate_library(LIBS, "std.json") == LIBS / "std-json" / "src" / "core.ax"
    assert library_dir_name("std.json") == "std-json"
    assert library_dir_name("std-json") == "std-json"
    assert "fn json_escape(s: String) -> String" in library_source(LIBS, "std-json")
    with pytest.raises(LibraryError, match="^library 'std-nope' not found$"):
        locate_library(LIBS, "std-nope")


@pytest.mark.parametrize("name", ["../libs/std-ui", "std-ui/src", "", "..", "a\\b"])
def test_library_names_cannot_escape(name):
    with pytest.raises(LibraryError, match="^invalid library name"):
        locate_library(LIBS, name)


def test_symlink_out_of_libs_is_not_found(tmp_path):
    outside = tmp_path / "outside" / "src"
    outside.mkdir(parents=True)
    (outside / "core.ax").write_text("fn a() -> Int { 1 }\n")
    libs = tmp_path / "libs"
    libs.mkdir()
    (libs / "evil").symlink_to(tmp_path / "outside", target_is_directory=True)
    (tmp_path / "outside" / "package.ax.json").write_text(json.dumps(
        {"name": "evil", "version": "1.0.0", "description": "d", "exposed_modules": ["core"]}))
    with pytest.raises(LibraryError, match="not found"):
        locate_library(libs, "evil")
    assert list_libraries(libs) == []


def test_missing_libs_dir_lists_nothing(tmp_path):
    assert list_libraries(tmp_path / "none") == []


def test_default_libs_dir_falls_back_to_the_shipped_tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert (default_libs_dir() / "std-ui" / "package.ax.json").is_file()
    (tmp_path / "libs").mkdir()
    assert default_libs_dir() == Path("libs")


def make_lib(root: Path, name: str, source: str) -> Path:
    d = root / name / "src"
    d.mkdir(parents=True)
    (d / "core.ax").write_text(source)
    return root


@pytest.mark.parametrize("source, message", [
    ('fn main() -> String { "x" }\n', 'expected Int, got "x"'),
    ("fn main() -> Int { 1 / 0 }\n", "runtime error: division by zero"),
    ("fn main() -> Int { nope }\n", "compile error: type error: undefined variable: nope"),
])
def test_self_test_failures(tmp_path, source, message):
    from boruna.assets.libraries import self_test
    make_lib(tmp_path, "std-x", source)
    with pytest.raises(LibraryError) as info:
        self_test(tmp_path, "std-x")
    assert info.value.message == message


def test_self_test_of_a_missing_library(tmp_path):
    from boruna.assets.libraries import self_test
    with pytest.raises(LibraryError, match="^library 'std-x' not found$"):
        self_test(tmp_path, "std-x")
