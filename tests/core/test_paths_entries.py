"""`boruna.core.paths`: the one path-safety check of templates and libraries."""
import os

import pytest

from boruna.assets.libraries import LibraryError, locate_library
from boruna.core.paths import is_entry_name, is_file, is_inside
from boruna.assets.templates import TemplateError, check_template_name


@pytest.mark.parametrize("name", ["counter", "std-ui", "std.ui", "a b", "x.y.z"])
def test_entry_names_accepted(name):
    assert is_entry_name(name) is True


@pytest.mark.parametrize("name", ["", ".", "..", "../x", "a/b", "a\\b", "a..b", "a\0b", None, 3])
def test_entry_names_rejected(name):
    assert is_entry_name(name) is False


def test_is_file_treats_bad_paths_as_absent(tmp_path):
    (tmp_path / "f").write_text("x")
    assert is_file(tmp_path / "f") is True
    assert is_file(tmp_path) is False
    assert is_file(tmp_path / "missing") is False
    assert is_file(tmp_path / "a\0b") is False
    assert is_file(tmp_path / ("n" * 5000)) is False


def test_is_inside_resolves_symlinks(tmp_path):
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "secret").write_text("s")
    (root / "own").write_text("o")
    os.symlink(outside / "secret", root / "link")
    assert is_inside(root, root / "own") is True
    assert is_inside(root, root / "link") is False
    assert is_inside(root, root / ".." / "outside" / "secret") is False


def test_templates_and_libraries_share_the_name_rule(tmp_path):
    for name in ("../etc", "a/b", ""):
        with pytest.raises(TemplateError) as t_err:
            check_template_name(name)
        assert t_err.value.message == f"invalid template name '{name}'"
        with pytest.raises(LibraryError) as l_err:
            locate_library(tmp_path, name)
        assert l_err.value.message == f"invalid library name '{name}'"
