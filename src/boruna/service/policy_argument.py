"""The `policy` argument of `boruna_run`/`boruna_run_sealed`: shorthand string or Policy object.

Every rejection is `error_kind: "invalid_policy"`; when the strict validator rejected an
object, its finer kind (`policy.unknown_field`, ...) is added as `policy_error`.
"""
from __future__ import annotations

from boruna.service.envelope import fail


class PolicyRejected(Exception):
    """The policy argument cannot be used; `response` is the failure to return."""

    def __init__(self, response: dict):
        super().__init__(response.get("message", ""))
        self.response = response


def resolve_policy(policy):
    """The runtime Policy for `policy` (None → allow-all); raises PolicyRejected."""
    from boruna.runtime.policy import PolicyError, parse_policy

    try:
        return parse_policy(policy)
    except PolicyError as err:
        extra = {} if err.policy_error is None else {"policy_error": err.policy_error}
        raise PolicyRejected(fail(err.run_error_kind, err.message, **extra)) from None
