"""`import` of standard libraries from a libs directory (docs/spec/tooling.md §6.2), done on ASTs.

The reference's CLI pastes library texts in front of the user's text, which shifts every
line number of the user's own errors. Here the user's import lines are blanked (so all
other lines keep their numbers), each library is parsed on its own, its `main` dropped, and
its items are placed before the user's items, in import order, each library once.

An import line is a line whose first token is the keyword `import` followed by either a
string (`import "std-json"`) or a bare word (`import std-json`, `import std_json`): the
library file is `<libs_dir>/<name>/src/core.ax`. A quoted name must exist (else
`import error: library 'NAME' not found`). A bare word is looked up as written and with `_`
read as `-` (`std_json` finds `std-json`); when neither exists the line stays what the
reference compiler makes of it, a no-op `import` item, so programs the reference accepts
keep compiling whatever libs directory is configured.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from boruna.core.errors import ErrorKind
from boruna.core.paths import library_file
from boruna.core.unicode import WHITE_SPACE

from . import ast
from .errors import CompileError
from .lexer import lex

_MAYBE_IMPORT = re.compile(r"^[ \t]*import\b", re.M)
_BARE_NAME = re.compile('[^"' + WHITE_SPACE + ']+')  # Rust split_whitespace


@dataclass
class ImportLine:
    """One import line of the user's source: library name and where it was written."""

    name: str
    line: int
    col: int
    quoted: bool = False


@dataclass
class Library:
    """A library as loaded for an import: its name, file path and source text."""

    name: str
    path: str
    source: str


def find_import_lines(source: str) -> list[ImportLine]:
    """The import lines of `source` (found on tokens, so text inside strings never counts)."""
    if not _MAYBE_IMPORT.search(source):
        return []
    stream = lex(source)
    kinds, lines, cols = stream.kinds, stream.lines, stream.cols
    text_lines = source.split("\n")
    found = []
    for i, kind in enumerate(kinds):
        if kind != "import" or (i > 0 and kinds[i - 1] != "Newline"):
            continue
        line = lines[i]
        after = text_lines[line - 1].lstrip(" \t\r")[len("import"):]
        word = after.lstrip(" \t\r").rstrip(WHITE_SPACE)
        if not word or after[:1] not in (" ", "\t", '"'):
            continue
        if word.startswith('"'):
            end = word.find('"', 1)
            name = word[1:end] if end > 0 else word[1:]
        else:
            name = _BARE_NAME.match(word).group(0)
        name_col = cols[i] + len("import") + (len(after) - len(after.lstrip(" \t\r")))
        found.append(ImportLine(name, line, name_col, word.startswith('"')))
    return found


def blank_lines(source: str, line_numbers) -> str:
    """`source` with the given 1-based lines emptied (line breaks kept)."""
    wanted = set(line_numbers)
    parts = source.split("\n")
    for n in wanted:
        parts[n - 1] = ""
    return "\n".join(parts)


def load_library(name: str, libs_dir: str, line: int = 0, col: int = 0) -> Library:
    """Read `<libs_dir>/<name>/src/core.ax`; a missing library is an E002 import error.

    The same real-path rule as for templates: a library directory or source file that is a
    symlink leading out of `libs_dir` counts as missing, so nothing outside is read."""
    unsafe = (not name or name in (".", "..") or "/" in name or "\\" in name
              or "\0" in name)
    found = None if unsafe else library_file(libs_dir, name)
    if found is None:
        raise CompileError("E002", f"import error: library '{name}' not found", line, col,
                           reason=ErrorKind.IMPORT_NOT_FOUND, name=name)
    path = str(found)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise CompileError("E002", f"import error: {exc}", line, col) from None
    return Library(name, path, data.decode("utf-8", "surrogateescape"))


def find_library(name: str, libs_dir: str, line: int = 0, col: int = 0) -> Optional[Library]:
    """A bare-word import's library: `name` as written, else with `_` read as `-`; None when
    neither exists (the import is then a no-op, as in the reference compiler)."""
    for candidate in dict.fromkeys((name, name.replace("_", "-"))):
        try:
            return load_library(candidate, libs_dir, line, col)
        except CompileError:
            continue
    return None


def library_program(library: Library) -> ast.Program:
    """Parse and name-check a library on its own; drop its first `main`.

    Errors inside a library keep the library's own line/col and name it in the message.
    """
    from .names import check_names
    from .parser import parse_tokens

    try:
        program = parse_tokens(lex(library.source))
        check_names(program)
    except CompileError as err:
        raise err.in_library(library.name) from None
    for index, item in enumerate(program.items):
        if isinstance(item, ast.FnDef) and item.name == "main":
            del program.items[index]
            break
    return program


def merge(program: ast.Program, libraries: list[ast.Program]) -> ast.Program:
    """A new Program: every library's items (in order), then the user's items."""
    items: list = []
    for lib in libraries:
        items.extend(lib.items)
    items.extend(program.items)
    return ast.Program(program.module_name, items, line=program.line, col=program.col)


def resolve_imports(source: str, libs_dir: Optional[str]) -> tuple[str, list[Library]]:
    """Split `source` into the user's text (import lines blanked) and the libraries it
    imports, each once, in order. Without a libs dir nothing is resolved: the source comes
    back unchanged (the parser then reads `import name` as a no-op, docs/spec/language.md §2.3)."""
    if libs_dir is None:
        return source, []
    imports = find_import_lines(source)
    if not imports:
        return source, []
    libraries: list[Library] = []
    seen: set[str] = set()
    resolved_lines = []
    for imp in imports:
        if imp.quoted:
            library = load_library(imp.name, libs_dir, imp.line, imp.col)
        else:
            library = find_library(imp.name, libs_dir, imp.line, imp.col)
            if library is None:
                continue
        resolved_lines.append(imp.line)
        if library.name in seen:
            continue
        seen.add(library.name)
        libraries.append(library)
    return blank_lines(source, resolved_lines), libraries


def resolve_program_imports(program: ast.Program, libs_dir: Optional[str]) -> ast.Program:
    """For an already parsed Program: resolve its `import NAME` items against `libs_dir`."""
    if libs_dir is None:
        return program
    imports = [item for item in program.items if isinstance(item, ast.ImportDef)]
    if not imports:
        return program
    libraries: list[ast.Program] = []
    seen: set[str] = set()
    resolved = set()
    for imp in imports:
        library = find_library(imp.module, libs_dir, imp.line, imp.col)
        if library is None:
            continue
        resolved.add(id(imp))
        if library.name in seen:
            continue
        seen.add(library.name)
        libraries.append(library_program(library))
    if not libraries:
        return program
    rest = ast.Program(program.module_name,
                       [i for i in program.items if id(i) not in resolved],
                       line=program.line, col=program.col)
    return merge(rest, libraries)
