"""`boruna_policy_validate` (the strict policy parser over a policy file body) and the text of
`boruna policy show`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boruna.service.boundary import tool_boundary
from boruna.service.envelope import ok
from boruna.service.policy_argument import PolicyFile
from boruna.service.results import Failure, use_case


@dataclass
class PolicyChecked:
    """The verdict on a policy file body: `error` is the PolicyError (None when valid)."""

    error: Any = None
    success = True

    @property
    def valid(self) -> bool:
        return self.error is None

    @property
    def problem(self) -> str:
        """The error as one line, its kind first (`policy.unknown_field: ...`)."""
        kind, message = self.error.kind, self.error.message
        return message if message.startswith(kind) else f"{kind}: {message}"

    def to_json(self) -> dict:
        from boruna.runtime.policy import SCHEMA_VERSION

        if self.error is None:
            return ok(ok=True, schema_version=SCHEMA_VERSION)
        return ok(ok=False, schema_version=SCHEMA_VERSION, errors=[self.error.error_object()])


@dataclass
class PolicyShown:
    """The effective policy as `boruna policy show` prints it (policy.md §6.4)."""

    text: str
    success = True

    def to_json(self) -> dict:
        return ok(text=self.text)


@use_case
def validate_policy(policy_json: str) -> PolicyChecked:
    """Run the strict policy parser over `policy_json`."""
    from boruna.runtime.policy import PolicyError, parse_policy_text

    try:
        parse_policy_text(policy_json)
    except PolicyError as err:
        return PolicyChecked(err)
    return PolicyChecked()


@use_case
def show_policy(policy: PolicyFile):
    """The text of a parsed policy; a rejected one is its `invalid_policy` Failure."""
    from boruna.runtime.policy import show_policy as show

    if policy.rejected:
        return policy.failure()
    return PolicyShown(show(policy.policy))


@tool_boundary
def policy_validate_tool(policy_json: str) -> dict:
    """Always success; `ok: true`, or `ok: false` with the first error as `errors: [E]`."""
    return validate_policy(policy_json).to_json()
