"""`boruna.assets.directories.resolve_dir`: explicit path, else ./dir, else the shipped copy."""
from pathlib import Path

from boruna.assets.directories import LIBS, TEMPLATES, resolve_dir


def test_an_explicit_path_wins_even_when_missing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "libs").mkdir()
    assert resolve_dir(str(tmp_path / "nope"), LIBS) == tmp_path / "nope"


def test_the_working_directory_copy_comes_next_and_stays_relative(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "templates").mkdir()
    assert resolve_dir(None, TEMPLATES) == Path("templates")


def test_else_the_shipped_copy(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    found = resolve_dir(None, LIBS)
    assert found.is_absolute() and (found / "std-json" / "package.ax.json").is_file()
