"""Standard libraries on disk: list them, locate one, read and validate `package.ax.json`,
and self-test a library (docs/spec/tooling.md §6).

Layout: `<libs_dir>/<dir>/package.ax.json` and `<libs_dir>/<dir>/src/core.ax`, where `<dir>`
is the hyphenated name (`std-ui`) and the manifest name is dotted (`std.ui`). Import
resolution itself lives in `boruna.language.imports`; both find a library's source with
`boruna.core.paths.library_file` (the real-path rule).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

from pydantic import BaseModel, ConfigDict, StrictStr, ValidationError

from boruna.core.capabilities import from_source_name
from boruna.core.paths import (
    LIBRARY_FILE, fallback_dir, is_entry_name, is_file, is_inside, library_file,
)

MANIFEST_FILE = "package.ax.json"

_PACKAGE_NAME = re.compile(r"[a-z][a-z0-9]*(\.[a-z][a-z0-9]*)*")
_SEMVER = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)")


class LibraryError(Exception):
    """A library could not be found, read, parsed, compiled or self-tested."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


class PackageManifest(BaseModel):
    """`package.ax.json`. `dependencies`, `required_capabilities`, `integrity` are optional."""

    model_config = ConfigDict(extra="ignore")
    name: StrictStr
    version: StrictStr
    description: StrictStr
    dependencies: dict[str, StrictStr] = {}
    required_capabilities: list[StrictStr] = []
    exposed_modules: list[StrictStr]
    integrity: Optional[StrictStr] = None


@dataclass
class LibraryInfo:
    """One library directory and its manifest."""

    dir_name: str
    name: str
    version: str
    description: str
    dependencies: dict[str, str]
    required_capabilities: list[str]
    exposed_modules: list[str]
    path: Path
    source_path: Path = field(init=False)
    origin: str = "local"       # "local": the folder asked for; "bundled": Boruna's own copy

    def __post_init__(self):
        self.source_path = self.path / LIBRARY_FILE

    def to_dict(self) -> dict:
        return {"dir_name": self.dir_name, "name": self.name, "version": self.version,
                "description": self.description, "dependencies": dict(self.dependencies),
                "required_capabilities": list(self.required_capabilities),
                "exposed_modules": list(self.exposed_modules)}


# ------------------------------------------------------------------ manifests

def manifest_errors(manifest: PackageManifest) -> list[str]:
    """Every package-spec violation of the manifest (empty when it is valid)."""
    errors: list[str] = []
    if not _PACKAGE_NAME.fullmatch(manifest.name):
        errors.append(f"invalid package name '{manifest.name}': must be dotted lowercase identifiers")
    if not _SEMVER.fullmatch(manifest.version):
        errors.append(f"invalid version '{manifest.version}': must be MAJOR.MINOR.PATCH")
    if not manifest.description.strip():
        errors.append("description must not be empty")
    for dep, version in manifest.dependencies.items():
        if not _PACKAGE_NAME.fullmatch(dep):
            errors.append(f"invalid dependency name '{dep}'")
        if not _SEMVER.fullmatch(version):
            errors.append(f"dependency '{dep}' version '{version}' is not valid semver")
    for cap in manifest.required_capabilities:
        if from_source_name(cap) is None:
            errors.append(f"unknown capability '{cap}'")
    if not manifest.exposed_modules:
        errors.append("exposed_modules must contain at least one entry")
    return errors


def parse_manifest(text: str, origin: str = MANIFEST_FILE) -> PackageManifest:
    """Decode manifest text; raises LibraryError `parse <origin>: <detail>`."""
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("invalid type: expected a manifest object")
        return PackageManifest.model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        detail = (f"missing field `{first['loc'][-1]}`" if first["type"] == "missing"
                  else f"{where}: {first['msg']}")
        raise LibraryError(f"parse {origin}: {detail}") from None
    except (ValueError, RecursionError) as exc:
        raise LibraryError(f"parse {origin}: {exc}") from None


def read_manifest(path: Union[str, Path]) -> PackageManifest:
    """Read `package.ax.json` (or the one inside directory `path`)."""
    path = Path(path)
    if not is_file(path):
        path = path / MANIFEST_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LibraryError(f"read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    return parse_manifest(text, str(path))


# ------------------------------------------------------------------ lookup

def list_libraries(libs_dir: Union[str, Path]) -> list[LibraryInfo]:
    """Every library directory holding a manifest, sorted by directory name: those of
    `libs_dir` (origin "local"), then the bundled ones it does not have (origin "bundled";
    `core.paths.fallback_dir`), which imports find too.

    A missing directory has no libraries; an unreadable manifest raises LibraryError.
    """
    found = _list_one(Path(libs_dir))
    bundled = fallback_dir(libs_dir, "libs")
    if bundled is not None:
        have = {info.dir_name for info in found}
        for info in _list_one(bundled):
            if info.dir_name not in have:
                info.origin = "bundled"
                found.append(info)
    return found


def _list_one(root: Path) -> list[LibraryInfo]:
    try:
        if not root.is_dir():
            return []
    except (OSError, ValueError):
        return []
    try:
        entries = sorted(root.iterdir())
    except OSError as exc:
        raise LibraryError(f"read {root}: {exc.strerror or exc}") from None
    found = []
    for entry in entries:
        manifest_path = entry / MANIFEST_FILE
        if not is_file(manifest_path) or not is_inside(root, manifest_path):
            continue
        m = read_manifest(manifest_path)
        found.append(LibraryInfo(entry.name, m.name, m.version, m.description,
                                 dict(m.dependencies), list(m.required_capabilities),
                                 list(m.exposed_modules), entry))
    return found


def library_dir_name(name: str) -> str:
    """`std.ui` → `std-ui`; a directory name is returned unchanged."""
    return name.replace(".", "-") if _PACKAGE_NAME.fullmatch(name) and "." in name else name


def locate_library(libs_dir: Union[str, Path], name: str) -> Path:
    """The `src/core.ax` of library `name` (directory name or dotted manifest name)."""
    if not is_entry_name(name):
        raise LibraryError(f"invalid library name '{name}'")
    for candidate in dict.fromkeys((name, library_dir_name(name))):
        source = library_file(libs_dir, candidate)
        if source is not None:
            return source
    raise LibraryError(f"library '{name}' not found")


def library_source(libs_dir: Union[str, Path], name: str) -> str:
    """The text of library `name`'s `src/core.ax`."""
    path = locate_library(libs_dir, name)
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LibraryError(f"read {path}: {getattr(exc, 'strerror', None) or exc}") from None


# ------------------------------------------------------------------ self test

def _run_main(module) -> Any:
    from boruna.runtime.execute import run

    outcome = run(module)
    if not outcome.ok:
        raise LibraryError(f"runtime error: {outcome.error}")
    return outcome.result


def self_test(libs_dir: Union[str, Path], name: str) -> int:
    """Compile library `name`, run its `main()` twice; return the (deterministic) Int result."""
    from boruna.compiler import compile_source
    from boruna.language.errors import CompileError
    from boruna.core.display import display

    source = library_source(libs_dir, name)
    try:
        module = compile_source(source, name=library_dir_name(name))
    except CompileError as exc:
        raise LibraryError(f"compile error: {exc.display()}") from None
    first = _run_main(module)
    if type(first) is not int:
        raise LibraryError(f"expected Int, got {display(first)}")
    second = _run_main(module)
    if type(second) is not int or second != first:
        raise LibraryError(f"nondeterminism: {display(first)} != {display(second)}")
    return first
