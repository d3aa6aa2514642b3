"""`boruna compile FILE [-o OUT.axbc] [--libs-dir DIR] [--json]`."""
from __future__ import annotations

from pathlib import Path

from boruna.cli.console import Console
from boruna.cli.files import write_bytes
from boruna.cli.json_output import call_tool, print_response
from boruna.cli.errors import UsageError
from boruna.cli.program import (STDIN, compile_file, module_name, read_source,
                                resolve_libs_dir)
from boruna.cli.render import plural


def default_output(path: str) -> str:
    return str(Path(path).with_suffix(".axbc"))


def cmd_compile(args, console: Console) -> int:
    """Compile FILE and write its bytecode; print `compiled A -> B` and the module counts."""
    if args.file == STDIN and not args.output:
        raise UsageError("compiling standard input needs -o OUT.axbc")
    source = read_source(args.file)
    libs_dir = resolve_libs_dir(args.libs_dir)
    out = args.output or default_output(args.file)
    if args.json:
        from boruna.service import compile_tool

        response = call_tool(compile_tool, source, name=module_name(args.file), libs_dir=libs_dir)
        if response.get("success"):
            _write(compile_file(args.file, source, libs_dir, console), out)
        return print_response(console, response)
    module = compile_file(args.file, source, libs_dir, console)
    _write(module, out)
    summary = module.summary()
    console.out(f"compiled {args.file} -> {out}")
    console.out(f"  {plural(summary['functions'], 'function')}, "
                f"{plural(summary['constants'], 'constant')}, {plural(summary['types'], 'type')}")
    return 0


def _write(module, out: str) -> None:
    from boruna.bytecode import axbc

    write_bytes(out, axbc.to_bytes(module))
