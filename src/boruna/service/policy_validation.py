"""`boruna_policy_validate`: run the strict policy parser over a policy file body."""
from __future__ import annotations

from boruna.service.boundary import tool_boundary
from boruna.service.envelope import ok


@tool_boundary
def policy_validate_tool(policy_json: str) -> dict:
    """Always success; `ok: true`, or `ok: false` with the first error as `errors: [E]`."""
    from boruna.runtime.policy import SCHEMA_VERSION, PolicyError, parse_policy_text

    try:
        parse_policy_text(policy_json)
    except PolicyError as err:
        return ok(ok=False, schema_version=SCHEMA_VERSION, errors=[err.error_object()])
    return ok(ok=True, schema_version=SCHEMA_VERSION)
