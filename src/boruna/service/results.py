"""Typed results of the use cases, and the boundary that turns a surprise into one.

Every use case (`service.compile_module`, `service.run`, ...) returns a result object: a success
dataclass of its own, or a `Failure`. Each has `success` and `to_json()`, which gives exactly
the response dict the matching MCP tool returns (the seed-shaped envelope of `envelope.py`).
The CLI renders the same object as text or, with `--json`, as `render(result.to_json())`.

A failure keeps what a text renderer needs beyond its JSON: the `CompileError` of a compile
failure, and the exception behind an `internal_error`.
"""
from __future__ import annotations

import functools
import logging
from dataclasses import dataclass, field
from typing import Any

from boruna.service.envelope import fail, ok
from boruna.service.errors import InvalidParams

log = logging.getLogger("boruna.service")


@dataclass
class Failure:
    """A domain failure: `error_kind` and `message` (either may be None), then `fields`."""

    error_kind: str | None
    message: str | None = None
    fields: dict = field(default_factory=dict)
    compile_error: Any = None      # the CompileError of a compile failure
    exception: BaseException | None = None   # the surprise behind an internal_error

    success = False

    def to_json(self) -> dict:
        return fail(self.error_kind, self.message, **self.fields)


@dataclass
class Success:
    """A success whose JSON is `ok(**fields)` and that carries nothing else."""

    fields: dict

    success = True

    def to_json(self) -> dict:
        return ok(**self.fields)


def failure(error_kind: str | None = None, message: str | None = None, **fields) -> Failure:
    """A Failure spelled like `envelope.fail(...)`."""
    return Failure(error_kind, message, fields)


def failure_of(response: dict) -> Failure:
    """The Failure whose `to_json()` is the `fail(...)` dict `response`."""
    fields = {k: v for k, v in response.items()
              if k not in ("success", "protocol_version", "error_kind", "message")}
    return Failure(response.get("error_kind"), response.get("message"), fields)


def internal_failure(exc: BaseException) -> Failure:
    """The `internal_error` failure for an exception no use case anticipated."""
    from boruna.service.boundary import internal_error

    response = internal_error(exc)
    return Failure(response["error_kind"], response["message"], exception=exc)


def response_of(result) -> dict:
    """`result.to_json()`, under the same no-traceback boundary as the `*_tool` functions."""
    try:
        return result.to_json()
    except Exception as exc:  # the boundary: nothing escapes as a traceback
        log.debug("to_json of %s failed", type(result).__name__, exc_info=True)
        return internal_failure(exc).to_json()


def use_case(fn):
    """Decorator: `InvalidParams` passes (a request problem); any other exception becomes an
    `internal_error` Failure, so no caller ever sees a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except InvalidParams:
            raise
        except Exception as exc:  # the boundary: nothing escapes as a traceback
            log.debug("use case %s failed", fn.__name__, exc_info=True)
            return internal_failure(exc)

    return wrapper
