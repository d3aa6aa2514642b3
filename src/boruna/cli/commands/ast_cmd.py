"""`boruna ast FILE [--json]`: the syntax tree as pretty JSON (declaration order)."""
from __future__ import annotations

from boruna.cli.console import Console
from boruna.cli.json_output import call_tool, print_response
from boruna.cli.program import read_source, report_compile_error


def cmd_ast(args, console: Console) -> int:
    """Parse FILE (no checks) and print its AST; `--json` wraps it as `boruna_ast` does."""
    source = read_source(args.file)
    if args.json:
        from boruna.service import ast_tool

        return print_response(console, call_tool(ast_tool, source))
    from boruna.language.errors import CompileError
    from boruna.language.frontend import parse

    try:
        program = parse(source)
    except CompileError as err:
        raise report_compile_error(err, args.file, source, console) from None
    from boruna.language import ast_json

    console.out(ast_json.pretty_json(program))
    return 0
