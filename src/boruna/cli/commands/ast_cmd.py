"""`boruna ast FILE [--json]`: the syntax tree as pretty JSON (declaration order)."""
from __future__ import annotations

from boruna.cli.console import Console
from boruna.cli.json_output import call, failure_error, print_result, source_limit
from boruna.cli.program import read_source


def cmd_ast(args, console: Console) -> int:
    """Parse FILE (no checks) and print its AST; `--json` wraps it as `boruna_ast` does."""
    from boruna import service

    source = read_source(args.file)
    result = call(service.parse_ast, source, source_limit=source_limit(args))
    if args.json:
        return print_result(console, result)
    if not result.success:
        raise failure_error(result, args.file, source, console)
    console.out(result.pretty_text())
    return 0
