"""`boruna symbols FILE [--json]`: the declared API of a file (functions, records, enums)."""
from __future__ import annotations

from boruna.cli.console import Console
from boruna.cli.errors import EXIT_OK
from boruna.cli.json_output import call_tool, print_response
from boruna.cli.program import read_source, report_compile_error, resolve_libs_dir


def cmd_symbols(args, console: Console) -> int:
    source = read_source(args.file)
    libs_dir = resolve_libs_dir(args.libs_dir)
    from boruna.service import symbols_tool

    response = call_tool(symbols_tool, source, libs_dir=libs_dir)
    if args.json:
        return print_response(console, response)
    if not response.get("success"):
        from boruna.language.errors import CompileError
        from boruna.language.frontend import parse
        from boruna.language.imports import resolve_imports

        try:
            parse(resolve_imports(source, libs_dir)[0])
        except CompileError as err:
            raise report_compile_error(err, args.file, source, console) from None
        return print_response(console, response)
    style = console.out_style
    for symbol in response["symbols"]:
        prefix = "export " if symbol.get("exported") else ""
        console.out(prefix + style.bold(symbol["signature"]))
        if symbol.get("intent"):
            console.out(f"    intent: {symbol['intent']}")
    if not response["symbols"]:
        console.out("no symbols")
    return EXIT_OK
