"""`boruna_compile` and `boruna_ast`: compile to module statistics, or parse to the AST."""
from __future__ import annotations

from boruna.service.boundary import tool_boundary
from boruna.service.compile_errors import compile_failure
from boruna.service.envelope import fail, ok
from boruna.service.errors import guard_source

AST_LIMIT_BYTES = 102_400
"""An AST whose pretty JSON is longer than this is returned truncated, as a string."""

_MODULE_KEYS = ("name", "version", "functions", "types", "constants", "entry")


@tool_boundary
def compile_tool(source: str, name: str | None = "module", libs_dir=None) -> dict:
    """Compile `source`; success carries `module` counts, failure the one-entry `errors` list."""
    from boruna.compiler import compile_source
    from boruna.language.errors import CompileError

    guard_source(source)
    try:
        module = compile_source(source, name="module" if name is None else name,
                                libs_dir=libs_dir)
    except CompileError as err:
        return compile_failure(err)
    summary = module.summary()
    return ok(module={key: summary[key] for key in _MODULE_KEYS})


@tool_boundary
def ast_tool(source: str) -> dict:
    """Parse `source` (no checks) and return its AST JSON; past 100 KB of pretty text, the
    text's first 102,400 bytes (cut on a character boundary) and its full size."""
    from boruna.language import ast_json
    from boruna.language.errors import CompileError
    from boruna.language.frontend import parse

    guard_source(source)
    try:
        program = parse(source)
    except CompileError as err:
        return compile_failure(err)
    try:
        tree = ast_json.to_json_obj(program)
        # the prefix and the full size, without materializing a (possibly quadratic) text
        prefix, size = ast_json.pretty_json_limited(tree, AST_LIMIT_BYTES)
    except (ValueError, TypeError, RecursionError, MemoryError) as exc:
        return fail("serialization_error", f"AST serialization failed: {exc}")
    if size <= AST_LIMIT_BYTES:
        return ok(truncated=False, ast=tree)
    return ok(truncated=True, ast_size=size, ast=prefix)
