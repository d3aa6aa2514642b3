"""`boruna_compile` and `boruna_ast`: compile to module statistics, or parse to the AST."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boruna.core.errors import ErrorKind
from boruna.service.boundary import tool_boundary
from boruna.service.compile_errors import compile_failure
from boruna.service.envelope import fail, ok
from boruna.service.errors import MAX_SOURCE_BYTES, guard_source
from boruna.service.results import use_case

AST_LIMIT_BYTES = 102_400
"""An AST whose pretty JSON is longer than this is returned truncated, as a string."""

_MODULE_KEYS = ("name", "version", "functions", "types", "constants", "entry")


@dataclass
class Compiled:
    """A compiled module; its JSON is the module counts."""

    module: Any
    success = True

    def bytecode(self) -> bytes:
        """The module as a `.axbc` image (docs/spec/vm.md §1.6)."""
        from boruna.bytecode import axbc

        return axbc.to_bytes(self.module)

    def to_json(self) -> dict:
        summary = self.module.summary()
        return ok(module={key: summary[key] for key in _MODULE_KEYS})


@dataclass
class Parsed:
    """A parsed (unchecked) program; its JSON is the AST, truncated past 100 KB."""

    program: Any
    success = True

    def pretty_text(self) -> str:
        """The whole AST as indented JSON, keys in declaration order (`boruna ast`)."""
        from boruna.language import ast_json

        return ast_json.pretty_json(self.program)

    def to_json(self) -> dict:
        from boruna.language import ast_json

        try:
            tree = ast_json.to_json_obj(self.program)
            # the prefix and the full size, without materializing a (possibly quadratic) text
            prefix, size = ast_json.pretty_json_limited(tree, AST_LIMIT_BYTES)
        except (ValueError, TypeError, RecursionError, MemoryError) as exc:
            return fail(ErrorKind.SERIALIZATION_ERROR, f"AST serialization failed: {exc}")
        if size <= AST_LIMIT_BYTES:
            return ok(truncated=False, ast=tree)
        return ok(truncated=True, ast_size=size, ast=prefix)


@use_case
def compile_module(source: str, name: str | None = "module", libs_dir=None,
            source_limit: int | None = MAX_SOURCE_BYTES):
    """Compile `source`: `Compiled(module)` or a `CompileFailure`."""
    from boruna.compiler import compile_source
    from boruna.language.errors import CompileError

    guard_source(source, source_limit)
    try:
        return Compiled(compile_source(source, name="module" if name is None else name,
                                       libs_dir=libs_dir))
    except CompileError as err:
        return compile_failure(err, source)


@use_case
def parse_ast(source: str, source_limit: int | None = MAX_SOURCE_BYTES):
    """Parse `source` (no checks): `Parsed(program)` or a `CompileFailure`."""
    from boruna.language.errors import CompileError
    from boruna.language.frontend import parse

    guard_source(source, source_limit)
    try:
        return Parsed(parse(source))
    except CompileError as err:
        return compile_failure(err, source)


@tool_boundary
def compile_tool(source: str, name: str | None = "module", libs_dir=None) -> dict:
    """Compile `source`; success carries `module` counts, failure the one-entry `errors` list."""
    return compile_module(source, name, libs_dir).to_json()


@tool_boundary
def ast_tool(source: str) -> dict:
    """Parse `source` (no checks) and return its AST JSON; past 100 KB of pretty text, the
    text's first 102,400 bytes (cut on a character boundary) and its full size."""
    return parse_ast(source).to_json()
