"""Where the `templates/` and `libs/` directories are: the one resolver behind the MCP
server's `--templates-dir`/`--libs-dir`, the CLI's `--dir`/`--libs-dir` and the defaults.

Lookup order for each tree: the explicit path the caller was given; else `./<tree>` in the
current working directory when it exists (returned relative, as `<tree>`); else the copy
bundled in the installed package (`boruna/_bundled/<tree>`, put there by the wheel build);
else the repository's top-level `<tree>/` (editable installs); else `<tree>` as written.
A `./<tree>` found this way does not hide the bundled entries it lacks: a library or template
missing from it is looked up in the bundled copy (`core.paths.fallback_dir`), and the
listings show both, each with its origin. An explicit folder is used alone.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional, Union

from boruna.core.paths import bundled_dir, mark_layered

TEMPLATES = "templates"
LIBS = "libs"


def resolve_dir(explicit: Optional[Union[str, Path]], tree: str) -> Path:
    """The directory for `tree` (`templates` or `libs`): `explicit` when given, else the
    first of `./<tree>`, the bundled copy, the repository's copy that is a directory."""
    if explicit is not None:
        return Path(explicit)
    local = Path(tree)
    if local.is_dir():
        mark_layered(local)
        return local
    bundled = bundled_dir(tree)
    return bundled if bundled is not None else local


def default_templates_dir() -> Path:
    """The templates directory to use when the caller gives none."""
    return resolve_dir(None, TEMPLATES)


def default_libs_dir() -> Path:
    """The standard-library directory to use when the caller gives none."""
    return resolve_dir(None, LIBS)
