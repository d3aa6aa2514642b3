"""`boruna explain CODE`: a diagnostic code explained, with an erroneous example and its fix
(the text of the MCP resource `boruna://codes/CODE`)."""
from __future__ import annotations

from boruna.cli.console import Console
from boruna.cli.errors import CliError


def cmd_explain(args, console: Console) -> int:
    from boruna.service import agent_docs

    text = agent_docs.explain(args.code)
    if text is None:
        raise CliError(f"unknown diagnostic code '{args.code}' (see 'boruna codes')")
    console.out(text.rstrip("\n"))
    return 0
