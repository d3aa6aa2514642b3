"""Where the `templates/` and `libs/` directories are: the one resolver behind the MCP
server's `--templates-dir`/`--libs-dir`, the CLI's `--dir`/`--libs-dir` and the defaults.

Lookup order for each tree: the explicit path the caller was given; else `./<tree>` in the
current working directory when it exists (returned relative, as `<tree>`); else the copy
bundled in the installed package (`boruna/_bundled/<tree>`, put there by the wheel build);
else the repository's top-level `<tree>/` (editable installs); else `<tree>` as written.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional, Union

import boruna

_PACKAGE_DIR = Path(boruna.__file__).resolve().parent

TEMPLATES = "templates"
LIBS = "libs"


def resolve_dir(explicit: Optional[Union[str, Path]], tree: str) -> Path:
    """The directory for `tree` (`templates` or `libs`): `explicit` when given, else the
    first of `./<tree>`, the bundled copy, the repository's copy that is a directory."""
    if explicit is not None:
        return Path(explicit)
    local = Path(tree)
    if local.is_dir():
        return local
    for candidate in (_PACKAGE_DIR / "_bundled" / tree,
                      _PACKAGE_DIR.parents[1] / tree):     # <repo>/src/boruna -> <repo>/<tree>
        if candidate.is_dir():
            return candidate
    return local


def default_templates_dir() -> Path:
    """The templates directory to use when the caller gives none."""
    return resolve_dir(None, TEMPLATES)


def default_libs_dir() -> Path:
    """The standard-library directory to use when the caller gives none."""
    return resolve_dir(None, LIBS)
