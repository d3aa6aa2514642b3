"""The no-traceback guarantee: any unexpected exception inside a tool becomes a response.

`tool_boundary` wraps every public tool function. `InvalidParams` passes through (it is a
request problem the transport reports); everything else becomes `success: false` with
`error_kind: "internal_error"`, so neither the MCP server nor the CLI ever shows a traceback.
"""
from __future__ import annotations

import functools
import logging

from boruna.core.errors import ErrorKind
from boruna.service.envelope import fail
from boruna.service.errors import InvalidParams

log = logging.getLogger("boruna.service")


def internal_error(exc: BaseException) -> dict:
    """The response for an exception no tool anticipated."""
    if isinstance(exc, RecursionError):
        return fail(ErrorKind.INTERNAL_ERROR, "input is nested too deeply to process")
    if isinstance(exc, MemoryError):
        return fail(ErrorKind.INTERNAL_ERROR, "out of memory while processing the request")
    detail = str(exc) or type(exc).__name__
    return fail(ErrorKind.INTERNAL_ERROR, f"internal error ({type(exc).__name__}): {detail}")


def tool_boundary(fn):
    """Decorator: run `fn`, turning unexpected exceptions into an `internal_error` response."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except InvalidParams:
            raise
        except Exception as exc:  # the boundary: nothing escapes as a traceback
            log.debug("tool %s failed", fn.__name__, exc_info=True)
            return internal_error(exc)

    return wrapper
