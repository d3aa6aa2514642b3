"""`--policy allow-all|deny-all|FILE`: the shorthand, or a policy file read and validated by
the strict policy parser of `boruna.runtime.policy` (policy.md).

A file that cannot be read is `policy.io_error`; a body the validator rejects keeps its
`policy.*` kind in the message (`policy.unknown_field: ...`).
"""
from __future__ import annotations

from boruna.cli.errors import CliError
from boruna.cli.files import os_reason, read_text

SHORTHANDS = ("allow-all", "deny-all")
IO_ERROR = "policy.io_error"


class PolicyOption:
    """The parsed `--policy` value: a shorthand, a Policy object, or the failure to report."""

    def __init__(self, source: str, policy=None, error_kind: str | None = None,
                 message: str | None = None):
        self.source = source
        self.policy = policy
        self.error_kind = error_kind
        self.message = message

    def checked(self):
        """The value to run with; raises CliError when the file was unreadable or invalid."""
        if self.error_kind is not None:
            raise CliError(f"invalid policy '{self.source}': {self.message}{self._hint()}")
        return self.policy

    def _hint(self) -> str:
        """A missing file whose name is close to a shorthand was probably a typo of it."""
        if self.error_kind != IO_ERROR:
            return ""
        import difflib

        close = difflib.get_close_matches(self.source, SHORTHANDS, n=1, cutoff=0.6)
        return f" (did you mean '{close[0]}'?)" if close else ""

    def wire_value(self):
        """The `policy` argument for `boruna.service.run_tool`."""
        return self.policy

    def json_failure(self) -> dict | None:
        """The `invalid_policy` response `boruna_run` gives for this rejection, if any."""
        if self.error_kind is None:
            return None
        from boruna.service.envelope import fail

        return fail("invalid_policy", self.message, policy_error=self.error_kind)


def _kind_prefixed(kind: str, message: str) -> str:
    return message if message.startswith(kind) else f"{kind}: {message}"


def parse_policy_text(text: str):
    """Validate a policy file body; returns a Policy or raises the runtime's PolicyError."""
    from boruna.runtime import policy as policy_mod

    parse_text = getattr(policy_mod, "parse_policy_text", None) or policy_mod.parse_policy
    return parse_text(text)


def load_policy_option(value: str) -> PolicyOption:
    """Read and validate `--policy`; failures are kept for the caller to report."""
    if value in SHORTHANDS:
        return PolicyOption(value, value)
    try:
        text = read_text(value)
    except CliError as exc:
        return PolicyOption(value, error_kind=IO_ERROR, message=f"{IO_ERROR}: {exc.message}")
    from boruna.runtime.policy import PolicyError

    try:
        return PolicyOption(value, parse_policy_text(text))
    except PolicyError as err:
        kind = getattr(err, "error_kind", None) or getattr(err, "kind", "policy.parse_error")
        message = getattr(err, "message", None) or str(err)
        return PolicyOption(value, error_kind=kind, message=_kind_prefixed(kind, message))
    except OSError as exc:
        return PolicyOption(value, error_kind=IO_ERROR,
                            message=f"{IO_ERROR}: cannot read '{value}': {os_reason(exc)}")
