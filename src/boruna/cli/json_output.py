"""Calling a `boruna.service` use case, and printing its result as `--json` does.

Every command is arguments → one service call → rendering: `call(use_case, ...)` makes the
call (a transport-level refusal, a source over 1 MB under `--json`, is a CliError);
`print_result` prints the result's JSON exactly as the MCP tool returns it; `failure_error`
reports a failure in text form.
"""
from __future__ import annotations

import codecs
import sys

from boruna.cli.console import Console
from boruna.cli.errors import CliError, EXIT_FAILURE, EXIT_OK


def call(fn, *args, **kwargs):
    """Call a service use case; `InvalidParams` becomes a CliError with its message."""
    from boruna.service.errors import InvalidParams

    try:
        return fn(*args, **kwargs)
    except InvalidParams as exc:
        raise CliError(exc.message) from None


def source_limit(args):
    """The service's source limit for this invocation: the MCP tool's 1 MB under `--json`
    (the output is that tool's response), else None (the CLI's input limit has applied)."""
    from boruna.service.errors import MAX_SOURCE_BYTES

    return MAX_SOURCE_BYTES if getattr(args, "json", False) else None


JSON_ESCAPES = "boruna.json-escape"


def _json_escape(exc: UnicodeEncodeError):
    """Codec error handler: each unencodable character as JSON's `\\uXXXX` (a surrogate pair
    above U+FFFF). Unencodable characters of JSON text only occur inside its strings, where
    the escape stands for the same character, so the document stays the same JSON."""
    out = []
    for ch in exc.object[exc.start:exc.end]:
        code = ord(ch)
        if code > 0xFFFF:
            code -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)))
        else:
            out.append("\\u%04x" % code)
    return "".join(out), exc.end


codecs.register_error(JSON_ESCAPES, _json_escape)


def print_json(console: Console, text: str) -> None:
    """Print JSON text; what stdout's encoding lacks (an ASCII terminal) is escaped as JSON
    escapes, not as the stream's backslash escapes, which JSON does not know."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        text = text.encode(encoding, JSON_ESCAPES).decode(encoding)
    except LookupError:
        pass
    console.out(text)


def print_response(console: Console, response: dict) -> int:
    """Print the response; exit status 0 when `success` is true, else 1."""
    from boruna.service import render

    print_json(console, render(response))
    return EXIT_OK if response.get("success") else EXIT_FAILURE


def response_of(result) -> dict:
    """The result's JSON (`to_json()`; a failure to build it is the tool's `internal_error`)."""
    from boruna.service.results import response_of as under_boundary

    return under_boundary(result)


def print_result(console: Console, result) -> int:
    """Print the result's JSON; exit status 0 when `success` is true, else 1."""
    return print_response(console, response_of(result))


def failure_error(result, path: str, source: str, console: Console) -> CliError:
    """The text form of a service Failure: the internal exception is re-raised (main reports
    it in one line), a compile error is drawn with its excerpt, anything else is one line."""
    if result.exception is not None:
        raise result.exception
    if result.compile_error is not None:
        from boruna.cli.program import report_compile_error

        return report_compile_error(result, path, source, console)
    return CliError(result.message)
