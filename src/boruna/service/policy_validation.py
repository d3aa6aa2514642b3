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
        return self.error.kind_message

    def to_json(self) -> dict:
        from boruna.runtime.policy import SCHEMA_VERSION

        if self.error is None:
            return ok(ok=True, schema_version=SCHEMA_VERSION)
        return ok(ok=False, schema_version=SCHEMA_VERSION, errors=[self.error.error_object()])


@dataclass
class PolicyShown:
    """The effective policy as `boruna policy show` prints it (docs/spec/policy.md §6.4)."""

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


def policy_text(policy) -> str:
    """The text printed by `boruna policy show` (docs/spec/policy.md §6.4), without a trailing newline."""
    from boruna.runtime.policy import SCHEMA_VERSION

    lines = [f"Schema version: {SCHEMA_VERSION}",
             f"Default behavior: {'allow' if policy.default_allow else 'deny'}"]
    if not policy.rules:
        lines.append("Rules: (none)")
    else:
        lines.append("Rules:")
        for name in sorted(policy.rules):
            rule = policy.rules[name]
            budget = "unlimited" if rule.budget == 0 else str(rule.budget)
            lines.append(f"  {name:<14} {'allow' if rule.allow else 'deny':<5}  budget={budget}")
    np = policy.net_policy
    if np is None:
        lines.append("Net policy: (default)")
    else:
        lines.append("Net policy:")
        lines.append("  allowed_domains:    " + (", ".join(np.allowed_domains) or "(any)"))
        lines.append("  allowed_methods:    " + (", ".join(np.allowed_methods) or "(any)"))
        lines.append(f"  max_response_bytes: {np.max_response_bytes}")
        lines.append(f"  timeout_ms:         {np.timeout_ms}")
        lines.append(f"  allow_redirects:    {'true' if np.allow_redirects else 'false'}")
    return "\n".join(lines)


@use_case
def show_policy(policy: PolicyFile):
    """The text of a parsed policy; a rejected one is its `invalid_policy` Failure."""
    if policy.rejected:
        return policy.failure()
    return PolicyShown(policy_text(policy.policy))


@tool_boundary
def policy_validate_tool(policy_json: str) -> dict:
    """Always success; `ok: true`, or `ok: false` with the first error as `errors: [E]`."""
    return validate_policy(policy_json).to_json()
