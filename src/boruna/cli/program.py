"""Loading a program for a command: the source text, its libraries, its compiled module.

Compile errors are drawn here (compiler style, on stderr) and end the command with exit 1.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from boruna.cli.console import Console
from boruna.cli.errors import CliError
from boruna.cli.files import decode_utf8, read_bytes, read_text
from boruna.cli.render import format_compile_error


STDIN = "-"


def label(path: str) -> str:
    """How a source path is shown in messages: `<stdin>` for `-`."""
    return "<stdin>" if path == STDIN else path


def module_name(path: str) -> str:
    """The module name for a file: its stem (`examples/hello.ax` -> `hello`)."""
    if path == STDIN:
        return "module"
    return Path(path).stem or "module"


def resolve_libs_dir(option: str | None) -> str | None:
    """`--libs-dir DIR` as given (it must be a directory), else ./libs, else the bundled libs."""
    if option is not None:
        if not os.path.isdir(option):
            raise CliError(f"libs directory '{option}' does not exist or is not a directory")
        return option
    from boruna.assets.directories import LIBS, resolve_dir

    found = resolve_dir(None, LIBS)
    return str(found) if os.path.isdir(found) else None


def report_compile_error(err, path: str, source: str, console: Console) -> CliError:
    """Draw a CompileError on stderr; the returned CliError ends the command with exit 1."""
    console.err(format_compile_error(err, label(path), source, console.err_style,
                                     _compile_helps(err, path, source)))
    return CliError(None)


def _compile_helps(err, path: str, source: str) -> list[str]:
    """Advice for two mistakes newcomers make: a `;` after a statement, and an enum variant
    used as a value without its enum (`Circle` for `Shape::Circle`)."""
    first = (getattr(err, "message", "") or "").split("\n", 1)[0]
    fix = "" if path == STDIN else f" (boruna repair {path} does it)"
    lines = source.split("\n")
    line, col = getattr(err, "line", 0) or 0, getattr(err, "col", 0) or 0
    text = lines[line - 1].encode("utf-8") if 1 <= line <= len(lines) else b""
    before = text[:max(col - 1, 0)].decode("utf-8", "replace").rstrip()
    if first.endswith("found 'if'") and before.endswith("else"):
        return ["there is no 'else if': write 'else { if ... }'" + fix]
    compound = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*([-+*/%])$", before)
    if first.endswith("found Eq") and compound:
        name, op = compound.groups()
        return [f"there is no '{op}=': write '{name} = {name} {op} ...'" + fix]
    if first.endswith("found Semi"):
        from boruna.diagnostics.parse_fixes import unfinished_before_semicolon

        if unfinished_before_semicolon(before):
            return []
        after = text[col:].decode("utf-8", "replace").strip() if text else "x"
        if after and not after.startswith("//"):
            return ["statements end at the end of their line; put each on its own line "
                    "instead of separating them with ';'"]
        return ["statements end at the end of their line; remove the ';'" + fix]
    prefix = "undefined variable: "
    if not first.startswith(prefix):
        return []
    name = first[len(prefix):]
    from boruna.language import ast as A
    from boruna.language.errors import CompileError
    from boruna.language.frontend import parse

    try:
        program = parse(source)
    except CompileError:
        return []
    enums = [item.name for item in program.items
             if isinstance(item, A.TypeDef) and not isinstance(item.kind, A.RecordKind)
             and any(variant == name for variant, _payload in item.kind.variants)]
    if len(enums) != 1:
        return []
    return [f"'{name}' is a variant of enum '{enums[0]}': write {enums[0]}::{name}{fix}"]


def compile_file(path: str, source: str, libs_dir: str | None, console: Console):
    """Compile `source` (read from `path`) into a Module, or report the error and fail."""
    from boruna.compiler import compile_source
    from boruna.language.errors import CompileError

    try:
        return compile_source(source, name=module_name(path), libs_dir=libs_dir)
    except CompileError as err:
        raise report_compile_error(err, path, source, console) from None


def load_bytecode(path: str):
    """Read a `.axbc` file into a Module; a damaged file is one clear error line."""
    from boruna.bytecode import axbc

    data = read_bytes(path)
    try:
        return axbc.from_bytes(data)
    except Exception as exc:  # any reader failure is the file's fault, not ours
        detail = getattr(exc, "message", None) or str(exc) or type(exc).__name__
        raise CliError(f"cannot load bytecode '{path}': {detail}") from None


def is_bytecode_path(path: str) -> bool:
    return path.lower().endswith(".axbc")


def read_source(path: str) -> str:
    """The source text of FILE; `-` reads standard input."""
    if path == STDIN:
        import sys

        stream = getattr(sys.stdin, "buffer", None)
        try:
            data = stream.read() if stream is not None else sys.stdin.read().encode("utf-8")
        except (OSError, ValueError) as exc:
            raise CliError(f"cannot read standard input: {exc}") from None
        return decode_utf8(data, "<stdin>")
    return read_text(path)
