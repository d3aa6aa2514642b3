"""`boruna codes [--json]` (also `boruna lang codes`): the diagnostic code registry."""
from __future__ import annotations

from boruna.cli.console import Console
from boruna.cli.json_output import call, failure_error, print_json
from boruna.cli.render import pretty_json


def cmd_codes(args, console: Console) -> int:
    from boruna import service

    result = call(service.list_codes)
    if args.json:
        print_json(console, pretty_json(result.to_json()))
        return 0
    if not result.success:
        raise failure_error(result, "", "", console)
    codes = result.codes
    style = console.out_style
    name_w = max([len("NAME")] + [len(c.name) for c in codes])
    cat_w = max([len("CATEGORY")] + [len(c.category) for c in codes])
    code_w = max([len("CODE")] + [len(c.code) for c in codes])
    console.out(style.bold(f"{'CODE':<{code_w}}  {'NAME':<{name_w}}  {'CATEGORY':<{cat_w}}  SUMMARY"))
    for c in codes:
        console.out(f"{c.code:<{code_w}}  {c.name:<{name_w}}  {c.category:<{cat_w}}  {c.summary}")
    return 0
