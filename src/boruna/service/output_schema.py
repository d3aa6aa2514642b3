"""`boruna_run`'s `output_schema`: validate the encoded result against a JSON Schema 2020-12."""
from __future__ import annotations

import json

from boruna.core.errors import ErrorKind
from boruna.service.envelope import fail
from boruna.core.json_text import deeper_than

MAX_SCHEMA_BYTES = 262_144
MAX_REPORTED_ERRORS = 100
MAX_RECURSIVE_DEPTH = 5_000
"""A result nesting deeper than this is not validated against a schema with references: the
validator's cost grows with the square of the depth it follows (30,000 levels: ~1 minute)."""
REFERENCE_KEYWORDS = ("$ref", "$dynamicRef", "$recursiveRef")
MAX_QUOTED_REFERENCE = 200
"""A reference quoted in an error message is cut to this many characters."""


def _pointer(path) -> str:
    """A JSON Pointer (RFC 6901) for a jsonschema error path; "" is the root."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def schema_problem(schema) -> str | None:
    """Why `schema` cannot be used (the `invalid_output_schema` message), or None if usable."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    size = len(json.dumps(schema, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
    if size > MAX_SCHEMA_BYTES:
        return f"output_schema exceeds {MAX_SCHEMA_BYTES} bytes (got {size})"
    if isinstance(schema, dict) and isinstance(schema.get("$schema"), str):
        declared = schema["$schema"]
        if "2020-12" not in declared.rstrip("#"):
            return (f"output_schema declares $schema='{declared}'; only JSON Schema Draft "
                    "2020-12 is supported. Either omit $schema (we default to 2020-12) or set "
                    "it to 'https://json-schema.org/draft/2020-12/schema'.")
    if not isinstance(schema, (dict, bool)):
        return ("output_schema is not a valid JSON Schema: "
                f"{json.dumps(schema, ensure_ascii=False)} is not of type 'object', 'boolean'")
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as err:
        return f"output_schema is not a valid JSON Schema: {err.message}"
    return None


def _may_recurse(schema) -> bool:
    """Whether `schema` holds a reference (so validation can follow the result's depth)."""
    stack = [schema]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if any(key in item for key in REFERENCE_KEYWORDS):
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _validator(schema):
    """A 2020-12 validator whose references resolve only inside `schema` itself.

    The empty registry has no retriever: a `$ref` to a file, an `http(s)` URL or any other
    resource outside the submitted schema is unresolvable, so validation never touches the
    disk or the network (the metaschemas of the drafts are bundled in memory)."""
    from jsonschema import Draft202012Validator
    from referencing import Registry

    return Draft202012Validator(schema, registry=Registry())


def _quoted(ref: str) -> str:
    text = ref if len(ref) <= MAX_QUOTED_REFERENCE else ref[:MAX_QUOTED_REFERENCE] + "…"
    return json.dumps(text, ensure_ascii=False)


def _reference_problem(err) -> str:
    """The `invalid_output_schema` message for a reference that does not resolve; it names
    the reference as written, never the content of the schema or of any other resource."""
    from referencing.exceptions import NoSuchAnchor, PointerToNowhere

    wrapped = getattr(err, "_wrapped", err)
    if isinstance(wrapped, PointerToNowhere):
        return (f"output_schema is not a valid JSON Schema: the reference "
                f"{_quoted('#' + wrapped.ref)} points to nothing inside the schema")
    if isinstance(wrapped, NoSuchAnchor):
        return (f"output_schema is not a valid JSON Schema: the anchor "
                f"{_quoted(wrapped.anchor)} is not defined inside the schema")
    return (f"output_schema is not a valid JSON Schema: the reference "
            f"{_quoted(str(getattr(wrapped, 'ref', '')))} lies outside the schema; only "
            "references within the submitted schema are resolved, nothing is fetched")


def _too_deep(steps: int) -> dict:
    return fail(ErrorKind.VALIDATION_FAILED, "result does not match output_schema",
                phase="output_validation", steps=steps,
                errors=[{"message": "result nests more than "
                                    f"{MAX_RECURSIVE_DEPTH} levels: too deep to validate "
                                    "against a recursive output_schema", "path": ""}],
                total_errors=1, truncated=False)


def check_output(schema, result, steps: int) -> dict | None:
    """None when `result` conforms; otherwise the `invalid_output_schema`/`validation_failed` response."""
    from referencing.exceptions import Unresolvable

    problem = schema_problem(schema)
    if problem is not None:
        return fail(ErrorKind.INVALID_OUTPUT_SCHEMA, problem)
    if _may_recurse(schema) and deeper_than(result, MAX_RECURSIVE_DEPTH):
        return _too_deep(steps)
    try:
        errors = list(_validator(schema).iter_errors(result))
    except RecursionError:
        return _too_deep(steps)
    except Unresolvable as err:  # references are resolved only while validating
        return fail(ErrorKind.INVALID_OUTPUT_SCHEMA, _reference_problem(err))
    except Exception:  # a reference to a part of the schema that is not itself a schema
        return fail(ErrorKind.INVALID_OUTPUT_SCHEMA,
                    "output_schema is not a valid JSON Schema: a reference points to a value "
                    "inside the schema that is not a schema")
    if not errors:
        return None
    errors.sort(key=lambda e: (list(map(str, e.absolute_path)), e.message))
    return fail(
        "validation_failed",
        "result does not match output_schema",
        phase="output_validation",
        steps=steps,
        errors=[{"message": e.message, "path": _pointer(e.absolute_path)}
                for e in errors[:MAX_REPORTED_ERRORS]],
        total_errors=len(errors),
        truncated=len(errors) > MAX_REPORTED_ERRORS,
    )
