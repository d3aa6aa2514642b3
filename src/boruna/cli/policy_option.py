"""`--policy allow-all|deny-all|FILE`: the shorthand, or a policy file read here and parsed
once by the service (`service.policy_file`, the strict parser of docs/spec/policy.md).

A file that cannot be read is `policy.io_error`; a body the validator rejects keeps its
`policy.*` kind in the message (`policy.unknown_field: ...`).
"""
from __future__ import annotations

from boruna.cli.errors import CliError
from boruna.cli.files import read_text

SHORTHANDS = ("allow-all", "deny-all")


def load_policy_option(value: str):
    """Read `--policy` into a `service.PolicyFile`; a rejection is kept for the caller."""
    from boruna import service

    if value in SHORTHANDS:
        return service.shorthand_policy(value)
    try:
        text = read_text(value)
    except CliError as exc:
        return service.unreadable_policy(exc.message)
    return service.policy_file(text)


def policy_error(source: str, policy) -> CliError:
    """`invalid policy 'SOURCE': MESSAGE`, with a guess when SOURCE is a mistyped shorthand."""
    return CliError(f"invalid policy '{source}': {policy.message}{_hint(source, policy)}")


def _hint(source: str, policy) -> str:
    """A missing file whose name is close to a shorthand was probably a typo of it."""
    from boruna.service.policy_argument import IO_ERROR

    if policy.error_kind != IO_ERROR:
        return ""
    import difflib

    close = difflib.get_close_matches(source, SHORTHANDS, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
