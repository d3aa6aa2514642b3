"""The `policy` argument of `boruna_run`/`boruna_run_sealed`: shorthand string or Policy object,
or a policy file the caller read (`PolicyFile`, the CLI's `--policy FILE`).

Every rejection is `error_kind: "invalid_policy"`; when the strict validator rejected an
object, its finer kind (`policy.unknown_field`, ...) is added as `policy_error`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boruna.core.errors import ErrorKind
from boruna.service.envelope import fail
from boruna.service.results import Failure

SHORTHANDS = ("allow-all", "deny-all")
IO_ERROR = ErrorKind.POLICY_IO_ERROR.value


class PolicyRejected(Exception):
    """The policy argument cannot be used; `response` is the failure to return."""

    def __init__(self, response: dict):
        super().__init__(response.get("message", ""))
        self.response = response


def resolve_policy(policy, default=None):
    """The runtime Policy for `policy` (None → `default`, else allow-all); raises
    PolicyRejected."""
    import boruna.runtime.policy as runtime_policy   # not `from`: no __path__ lookup per call

    try:
        return runtime_policy.parse_policy(policy, default)
    except runtime_policy.PolicyError as err:
        extra = {} if err.policy_error is None else {"policy_error": err.policy_error}
        raise PolicyRejected(fail(err.run_error_kind, err.message, **extra)) from None


@dataclass(frozen=True)
class PolicyFile:
    """A policy named by a caller: a shorthand, or a file's body parsed once.

    `policy` is the runtime Policy (None when rejected); a rejection keeps its fine kind
    (`policy.io_error` when the file could not be read) and its message, which starts with
    that kind (`policy.unknown_field: unknown field "extra" at extra`).
    """

    policy: Any = None
    error_kind: str | None = None
    message: str | None = None

    @property
    def rejected(self) -> bool:
        return self.error_kind is not None

    def failure(self) -> Failure:
        """The `invalid_policy` failure a run reports for this rejection."""
        return Failure(ErrorKind.INVALID_POLICY, self.message, {"policy_error": self.error_kind})


def policy_file(text: str) -> PolicyFile:
    """Parse a policy file body (docs/spec/policy.md §5) once."""
    from boruna.runtime.policy import PolicyError, parse_policy_text

    try:
        return PolicyFile(parse_policy_text(text))
    except PolicyError as err:
        return PolicyFile(None, err.kind.value, err.kind_message)


def shorthand_policy(name: str) -> PolicyFile:
    """`allow-all` or `deny-all` as a PolicyFile."""
    return PolicyFile(resolve_policy(name))


def unreadable_policy(reason: str) -> PolicyFile:
    """A policy file that could not be read; `reason` says why (`cannot read 'p.json': ...`)."""
    return PolicyFile(None, IO_ERROR, f"{IO_ERROR}: {reason}")
