"""Path safety for named entries of a directory (templates, libraries).

A user-supplied name must address exactly one entry of its root directory, and a file found
there must not lie outside the root once symlinks are resolved. Unreadable paths (EACCES,
ELOOP, over-long names, NUL bytes) count as absent instead of raising.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any


def is_entry_name(name: Any) -> bool:
    """True when `name` can only denote one entry of a directory: a non-empty string other
    than `.`, without path separators, `..` or NUL."""
    return (isinstance(name, str) and name not in ("", ".") and "/" not in name
            and "\\" not in name and ".." not in name and "\0" not in name)


def is_file(path: Path) -> bool:
    """`Path.is_file` that treats an unreadable or invalid path as absent."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def is_inside(root: Path, path: Path) -> bool:
    """True when `path` (symlinks resolved) lies within `root` (symlinks resolved)."""
    try:
        path.resolve().relative_to(root.resolve())
    except (ValueError, OSError, RuntimeError):
        return False
    return True
