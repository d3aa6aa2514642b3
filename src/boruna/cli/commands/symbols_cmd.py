"""`boruna symbols FILE [--json]`: the declared API of a file (functions, records, enums)."""
from __future__ import annotations

from boruna.cli.console import Console
from boruna.cli.errors import EXIT_OK
from boruna.cli.json_output import call, failure_error, print_result, source_limit
from boruna.cli.program import read_source, resolve_libs_dir


def cmd_symbols(args, console: Console) -> int:
    from boruna import service

    source = read_source(args.file)
    result = call(service.list_symbols, source, libs_dir=resolve_libs_dir(args.libs_dir),
                  source_limit=source_limit(args))
    if args.json:
        return print_result(console, result)
    if not result.success:
        raise failure_error(result, args.file, source, console)
    style = console.out_style
    for symbol in result.symbols:
        prefix = "export " if symbol.get("exported") else ""
        console.out(prefix + style.bold(symbol["signature"]))
        if symbol.get("intent"):
            console.out(f"    intent: {symbol['intent']}")
    if not result.symbols:
        console.out("no symbols")
    return EXIT_OK
