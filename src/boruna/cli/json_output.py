"""`--json`: print a `boruna.service` response exactly as the MCP tool returns it."""
from __future__ import annotations

from boruna.cli.console import Console
from boruna.cli.errors import CliError, EXIT_FAILURE, EXIT_OK


def call_tool(fn, *args, **kwargs) -> dict:
    """Call a service tool; a transport-level refusal (source over 1 MB) is a CliError."""
    from boruna.service.errors import InvalidParams

    try:
        return fn(*args, **kwargs)
    except InvalidParams as exc:
        raise CliError(exc.message) from None


def print_response(console: Console, response: dict) -> int:
    """Print the response; exit status 0 when `success` is true, else 1."""
    from boruna.service import render

    console.out(render(response))
    return EXIT_OK if response.get("success") else EXIT_FAILURE
