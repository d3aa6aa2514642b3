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

_PACKAGE_DIR = Path(__file__).resolve().parents[1]      # .../boruna


def bundled_dir(tree: str) -> Optional[Path]:
    """The copy of `tree` (`libs` or `templates`) that ships with Boruna: the one bundled in
    the installed package (`boruna/_bundled/<tree>`), else the repository's `<tree>/`
    (editable installs); None when neither is a directory."""
    for candidate in (_PACKAGE_DIR / "_bundled" / tree, _PACKAGE_DIR.parents[1] / tree):
        try:
            if candidate.is_dir():
                return candidate
        except OSError:
            continue
    return None


def same_dir(a: Union[str, Path], b: Union[str, Path]) -> bool:
    """Whether two paths name the same directory (symlinks resolved)."""
    try:
        return Path(a).resolve() == Path(b).resolve()
    except (OSError, RuntimeError, ValueError):
        return False


_LAYERED: set = set()      # project folders found by the default lookup (resolved paths)


def mark_layered(root: Union[str, Path]) -> None:
    """Record that `root` is a project's own folder found by the default lookup (`./libs`,
    `./templates`): entries it lacks come from the bundled copy. An explicitly named folder
    is used alone."""
    try:
        _LAYERED.add(str(Path(root).resolve()))
    except (OSError, RuntimeError, ValueError):
        pass


def fallback_dir(root: Union[str, Path], tree: str) -> Optional[Path]:
    """For a project folder found by the default lookup (`mark_layered`), the bundled
    `tree`: where an entry missing from it is looked up next (a local folder never hides the
    bundled entries it does not have). None otherwise."""
    try:
        if str(Path(root).resolve()) not in _LAYERED:
            return None
    except (OSError, RuntimeError, ValueError):
        return None
    bundled = bundled_dir(tree)
    if bundled is None or same_dir(root, bundled):
        return None
    return bundled


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
    once symlinks are resolved (a link leading out counts as missing), else the bundled
    library's file (`fallback_dir`), else None. The caller has checked that `dir_name` names
    one entry."""
    root = Path(libs_dir)
    path = root / dir_name / LIBRARY_FILE
    if is_file(path) and is_inside(root, path):
        return path
    bundled = fallback_dir(root, "libs")
    if bundled is not None:
        path = bundled / dir_name / LIBRARY_FILE
        if is_file(path) and is_inside(bundled, path):
            return path
    return None
