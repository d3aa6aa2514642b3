"""Where the default `templates/` and `libs/` directories are.

Lookup order for each tree: `./<tree>` in the current working directory when it exists, else
the copy bundled in the installed package (`boruna/_bundled/<tree>`, put there by the wheel
build), else the repository's top-level `<tree>/` (editable installs).
"""
from __future__ import annotations

from pathlib import Path

import boruna

_PACKAGE_DIR = Path(boruna.__file__).resolve().parent


def _default_dir(tree: str) -> Path:
    local = Path.cwd() / tree
    if local.is_dir():
        return Path(tree)
    bundled = _PACKAGE_DIR / "_bundled" / tree
    if bundled.is_dir():
        return bundled
    repo = _PACKAGE_DIR.parents[1] / tree      # <repo>/src/boruna -> <repo>/<tree>
    if repo.is_dir():
        return repo
    return Path(tree)


def default_templates_dir() -> Path:
    """The templates directory to use when the caller gives none."""
    return _default_dir("templates")


def default_libs_dir() -> Path:
    """The standard-library directory to use when the caller gives none."""
    return _default_dir("libs")
