"""`boruna compile FILE [-o OUT.axbc] [--libs-dir DIR] [--json]`."""
from __future__ import annotations

from pathlib import Path

from boruna.cli.console import Console
from boruna.cli.errors import UsageError
from boruna.cli.files import write_bytes
from boruna.cli.json_output import call, failure_error, print_result, source_limit
from boruna.cli.program import STDIN, module_name, read_source, resolve_libs_dir
from boruna.cli.render import plural


def default_output(path: str) -> str:
    return str(Path(path).with_suffix(".axbc"))


def cmd_compile(args, console: Console) -> int:
    """Compile FILE and write its bytecode; print `compiled A -> B` and the module counts."""
    from boruna import service

    if args.file == STDIN and not args.output:
        raise UsageError("compiling standard input needs -o OUT.axbc")
    source = read_source(args.file)
    out = args.output or default_output(args.file)
    result = call(service.compile_module, source, name=module_name(args.file),
                  libs_dir=resolve_libs_dir(args.libs_dir), source_limit=source_limit(args))
    if result.success:
        write_bytes(out, result.bytecode())
    if args.json:
        return print_result(console, result)
    if not result.success:
        raise failure_error(result, args.file, source, console)
    summary = result.module.summary()
    console.out(f"compiled {args.file} -> {out}")
    console.out(f"  {plural(summary['functions'], 'function')}, "
                f"{plural(summary['constants'], 'constant')}, {plural(summary['types'], 'type')}")
    return 0

