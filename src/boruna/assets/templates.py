"""App templates: list the manifests of a templates directory and render one (docs/spec/tooling.md §5).

Layout: `<templates_dir>/<name>/template.json` (the manifest) and
`<templates_dir>/<name>/app.ax.template` (the text with `{{arg}}` placeholders).
Errors: `TemplateArgsError` (→ `invalid_args`) for malformed arguments, `TemplateError`
(→ `template_error`) for everything about the directory, the manifest or the template.
A template name can never reach outside the templates directory.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

from pydantic import BaseModel, ConfigDict, StrictBool, StrictStr, ValidationError

from boruna.core.limits import MAX_SOURCE_BYTES
from boruna.core.paths import fallback_dir, is_entry_name, is_file, is_inside

MANIFEST_FILE = "template.json"
TEMPLATE_FILE = "app.ax.template"
VALIDATE_MODULE_NAME = "template_output"
MAX_RENDERED_BYTES = MAX_SOURCE_BYTES
"""The largest rendered template (UTF-8 bytes): the source limit of the tools that would
take it."""


NOT_FOUND = "not_found"
MISSING_ARGUMENT = "missing_argument"


class TemplateError(Exception):
    """A template could not be listed, found, read or rendered. `reason` is NOT_FOUND (no such
    template) or MISSING_ARGUMENT (a required argument was not given), else None."""

    def __init__(self, message: str, reason: str | None = None):
        self.message = message
        self.reason = reason
        super().__init__(message)


class TemplateCancelled(TemplateError):
    """The caller's cancel event was set while the template was being applied."""

    def __init__(self):
        super().__init__("execution cancelled")


def _check_cancel(cancel_event) -> None:
    if cancel_event is not None and cancel_event.is_set():
        raise TemplateCancelled()


class TemplateArgsError(Exception):
    """An argument is not of the `key=value` form."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


class ArgSpec(BaseModel):
    """One declared template argument. `type` is a free label; `default` is any JSON value."""

    model_config = ConfigDict(extra="ignore")
    type: StrictStr
    required: StrictBool
    description: StrictStr
    default: Any = None

    def has_default(self) -> bool:
        return "default" in self.model_fields_set and self.default is not None


class TemplateManifest(BaseModel):
    """`template.json`: every field is required except the arguments' defaults."""

    model_config = ConfigDict(extra="ignore")
    name: StrictStr
    version: StrictStr
    description: StrictStr
    dependencies: list[StrictStr]
    capabilities: list[StrictStr]
    args: dict[str, ArgSpec]


@dataclass
class TemplateInfo:
    """One entry of `boruna_template_list`; `args` holds the argument names, sorted.
    `optional` maps each argument that is not required to its default's text ("" when it
    has none); it is for people (`boruna template list`), not part of the tool's response."""

    name: str
    version: str
    description: str
    dependencies: list[str]
    capabilities: list[str]
    args: list[str]
    optional: dict = field(default_factory=dict)
    origin: str = "local"       # "local": the folder asked for; "bundled": Boruna's own copy

    def to_dict(self) -> dict:
        return {"name": self.name, "version": self.version, "description": self.description,
                "dependencies": list(self.dependencies),
                "capabilities": list(self.capabilities), "args": list(self.args),
                "origin": self.origin}


@dataclass
class AppliedTemplate:
    """A rendered template. `validation` is None unless validation was asked for."""

    template_name: str
    output_file: str
    source: str
    dependencies: list[str]
    capabilities: list[str]
    validation: Optional[dict] = None

    def to_dict(self) -> dict:
        out = {"template_name": self.template_name, "output_file": self.output_file,
               "source": self.source, "dependencies": list(self.dependencies),
               "capabilities": list(self.capabilities)}
        if self.validation is not None:
            out["validation"] = dict(self.validation)
        return out


# ------------------------------------------------------------------ manifests

def _validation_detail(exc: ValidationError) -> str:
    first = exc.errors(include_url=False)[0]
    where = ".".join(str(p) for p in first["loc"])
    if first["type"] == "missing":
        return f"missing field `{first['loc'][-1]}`"
    return f"{where}: {first['msg']}" if where else first["msg"]


def _parse_manifest_text(text: str) -> TemplateManifest:
    """Decode a manifest; raises ValueError with a one-line detail."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError("JSON nesting too deep") from None
    except ValueError as exc:
        raise ValueError(str(exc)) from None
    if not isinstance(data, dict):
        raise ValueError("invalid type: expected a manifest object")
    try:
        return TemplateManifest.model_validate(data)
    except ValidationError as exc:
        raise ValueError(_validation_detail(exc)) from None
    except RecursionError:
        raise ValueError("JSON nesting too deep") from None


def _read_text(path: Path) -> str:
    with open(path, "r", encoding="utf-8") as fh:
        return fh.read()


def _io_detail(exc: Exception) -> str:
    if isinstance(exc, UnicodeDecodeError):
        return "stream did not contain valid UTF-8"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)


# ------------------------------------------------------------------ list

def list_templates(templates_dir: Union[str, Path]) -> list[TemplateInfo]:
    """Every template of `templates_dir` (origin "local"), then the bundled ones it does not
    have (origin "bundled"; `apply_template` finds them too), sorted by manifest name;
    raises TemplateError."""
    found = _list_one(Path(templates_dir))
    bundled = fallback_dir(templates_dir, "templates")
    if bundled is not None:
        have = {info.name for info in found}
        try:
            extra = _list_one(bundled)
        except TemplateError:
            extra = []
        for info in extra:
            if info.name not in have:
                info.origin = "bundled"
                found.append(info)
        found.sort(key=lambda info: info.name)
    return found


def _list_one(root: Path) -> list[TemplateInfo]:
    try:
        exists, is_dir = root.exists(), root.is_dir()
    except (OSError, ValueError) as exc:
        raise TemplateError(f"read templates dir: {root}: {_io_detail(exc)}") from None
    if not exists:
        raise TemplateError(f"read templates dir: {root}: No such file or directory")
    if not is_dir:
        raise TemplateError(f"read templates dir: {root}: Not a directory")
    try:
        entries = sorted(root.iterdir())
    except OSError as exc:
        raise TemplateError(f"read templates dir: {root}: {_io_detail(exc)}") from None
    found: list[TemplateInfo] = []
    for entry in entries:
        manifest_path = entry / MANIFEST_FILE
        try:
            if not entry.is_dir() or not is_file(manifest_path):
                continue
        except OSError:
            continue
        if not is_inside(root, manifest_path):
            continue                                   # a symlink pointing out of the tree
        try:
            text = _read_text(manifest_path)
        except (OSError, UnicodeDecodeError) as exc:
            raise TemplateError(f"read {manifest_path}: {_io_detail(exc)}") from None
        try:
            manifest = _parse_manifest_text(text)
        except ValueError as exc:
            raise TemplateError(f"parse {manifest_path}: {exc}") from None
        optional = {name: _default_text(spec.default) if spec.has_default() else ""
                    for name, spec in manifest.args.items() if not spec.required}
        found.append(TemplateInfo(manifest.name, manifest.version, manifest.description,
                                  list(manifest.dependencies), list(manifest.capabilities),
                                  sorted(manifest.args), optional))
    found.sort(key=lambda info: info.name)
    return found


# ------------------------------------------------------------------ arguments

def parse_arg_list(args: list) -> dict[str, str]:
    """MCP form: each entry `key=value`, split at the first `=`; later duplicates win."""
    parsed: dict[str, str] = {}
    for arg in args:
        if not isinstance(arg, str):
            raise TemplateArgsError(f"argument must be key=value format, got: {arg!r}")
        key, eq, value = arg.partition("=")
        if not eq:
            raise TemplateArgsError(f"argument must be key=value format, got: {arg}")
        parsed[key] = value
    return parsed


def parse_arg_pieces(pieces) -> dict[str, str]:
    """`key=value` pieces, split at the first `=`; empty pieces are skipped, later
    duplicates win."""
    parsed: dict[str, str] = {}
    for piece in pieces:
        if piece == "":
            continue
        key, eq, value = piece.partition("=")
        if not eq:
            raise TemplateArgsError(f"invalid arg format: '{piece}' (expected key=value)")
        parsed[key] = value
    return parsed


def parse_arg_string(text: str) -> dict[str, str]:
    """CLI form: `k1=v1,k2=v2`; empty pieces are skipped (values cannot hold commas)."""
    return parse_arg_pieces(text.split(","))


def normalize_args(args: Union[str, list, tuple, dict, None]) -> dict[str, str]:
    """Accept the CLI string, the MCP list or a ready mapping; raises TemplateArgsError."""
    if args is None:
        return {}
    if isinstance(args, str):
        return parse_arg_string(args)
    if isinstance(args, (list, tuple)):
        return parse_arg_list(list(args))
    if isinstance(args, dict):
        for key, value in args.items():
            if not isinstance(key, str) or not isinstance(value, str):
                raise TemplateArgsError(
                    f"argument must be key=value format, got: {key!r}={value!r}")
        return dict(args)
    raise TemplateArgsError("arguments must be a list of key=value strings")


def _default_text(value: Any) -> str:
    """A manifest default as substitution text: strings as-is, other JSON values as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


# ------------------------------------------------------------------ apply

def check_template_name(name: Any) -> str:
    """Reject names that could address anything but one directory entry of the templates dir."""
    if not is_entry_name(name):
        raise TemplateError(f"invalid template name '{name}'")
    return name


def _utf8_size(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def render(text: str, values: dict[str, str]) -> str:
    """Replace every `{{key}}` placeholder of `text` in one left-to-right pass (a key that
    sorts first wins where two match at one place). Inserted values are never scanned again,
    so a value containing `{{other}}` stays literal. TemplateError when the result would
    exceed MAX_RENDERED_BYTES; nothing past that size is built."""
    pieces: list[str] = []
    size = 0
    pos = 0

    def add(piece: str) -> None:
        nonlocal size
        size += _utf8_size(piece)
        if size > MAX_RENDERED_BYTES:
            raise TemplateError(f"rendered template exceeds {MAX_RENDERED_BYTES} bytes")
        pieces.append(piece)

    if values:
        pattern = re.compile("|".join(re.escape("{{" + key + "}}") for key in sorted(values)))
        for match in pattern.finditer(text):
            add(text[pos:match.start()])
            add(values[match.group()[2:-2]])
            pos = match.end()
    add(text[pos:])
    return "".join(pieces)


def _read_template_file(root: Path, name: str, path: Path, missing: str, label: str,
                        missing_reason: str | None = None) -> str:
    """The text of a file of template `name`; TemplateError `missing` (with `missing_reason`)
    when it is absent, `invalid template name` when it resolves outside `root`,
    `read <label>: ...` when it cannot be read."""
    if not is_file(path):
        raise TemplateError(missing, missing_reason)
    if not is_inside(root, path):
        raise TemplateError(f"invalid template name '{name}'")
    try:
        return _read_text(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise TemplateError(f"read {label}: {_io_detail(exc)}") from None


def _load_manifest(root: Path, name: str) -> tuple[Path, TemplateManifest]:
    template_dir = root / name
    text = _read_template_file(root, name, template_dir / MANIFEST_FILE,
                               f"template '{name}' not found", "template manifest",
                               NOT_FOUND)
    try:
        return template_dir, _parse_manifest_text(text)
    except ValueError as exc:
        raise TemplateError(f"parse template manifest: {exc}") from None


def validate_rendered(source: str) -> dict:
    """Compile rendered output: `{"passed": True}` or `{"passed": False, "error": ...}`."""
    from boruna.compiler import compile_source
    from boruna.language.errors import CompileError

    try:
        compile_source(source, name=VALIDATE_MODULE_NAME)
    except CompileError as exc:
        return {"passed": False, "error": f"template output does not compile: {exc.display()}"}
    except RecursionError:
        return {"passed": False,
                "error": "template output does not compile: program nesting too deep"}
    return {"passed": True}


def apply_template(templates_dir: Union[str, Path], name: str,
                   args: Union[str, list, dict, None], validate: bool = False,
                   cancel_event=None) -> AppliedTemplate:
    """Render template `name` with `args` (defaults from the manifest fill absent ones).

    Raises TemplateArgsError before touching the file system, then TemplateError
    (TemplateCancelled between the steps once `cancel_event` is set).
    """
    values = normalize_args(args)
    check_template_name(name)
    root = template_root(templates_dir, name)
    template_dir, manifest = _load_manifest(root, name)
    for arg_name in sorted(manifest.args):
        spec = manifest.args[arg_name]
        if arg_name not in values and spec.has_default():
            values[arg_name] = _default_text(spec.default)
    for arg_name in sorted(manifest.args):
        if manifest.args[arg_name].required and arg_name not in values:
            raise TemplateError(f"missing required argument: {arg_name}", MISSING_ARGUMENT)
    text = _read_template_file(root, name, template_dir / TEMPLATE_FILE,
                               f"template file not found: {TEMPLATE_FILE}", "template")
    _check_cancel(cancel_event)
    source = render(text, values)
    result = AppliedTemplate(manifest.name, f"{name}_app.ax", source,
                             list(manifest.dependencies), list(manifest.capabilities))
    if validate:
        _check_cancel(cancel_event)
        result.validation = validate_rendered(source)
    return result


def template_manifest(templates_dir: Union[str, Path], name: str) -> TemplateManifest:
    """The parsed `template.json` of template `name` (its arguments with types, defaults and
    descriptions); TemplateError as `apply_template` raises it."""
    return _load_manifest(template_root(templates_dir, check_template_name(name)),
                          name)[1]


def template_root(templates_dir: Union[str, Path], name: str) -> Path:
    """`templates_dir`, unless template `name` is missing there and the bundled copy has it
    (a project's own templates folder never hides the bundled templates)."""
    root = Path(templates_dir)
    if is_file(root / name / MANIFEST_FILE):
        return root
    bundled = fallback_dir(root, "templates")
    if bundled is not None and is_file(bundled / name / MANIFEST_FILE):
        return bundled
    return root
