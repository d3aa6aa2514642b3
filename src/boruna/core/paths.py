"""Path safety for named entries of a directory (templates, libraries), and the one lookup
of a library's source file (used by `language.imports` and `assets.libraries`).

A user-supplied name must address exactly one entry of its root directory, and a file found
there must not lie outside the root once symlinks are resolved. Unreadable paths (EACCES,
ELOOP, over-long names, NUL bytes) count as absent instead of raising.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, Union

LIBRARY_FILE = Path("src") / "core.ax"


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


def library_file(libs_dir: Union[str, Path], dir_name: str) -> Optional[Path]:
    """`<libs_dir>/<dir_name>/src/core.ax` when it is a file that lies inside `libs_dir`
    once symlinks are resolved (a link leading out counts as missing), else None. The
    caller has checked that `dir_name` names one entry."""
    root = Path(libs_dir)
    path = root / dir_name / LIBRARY_FILE
    return path if is_file(path) and is_inside(root, path) else None
