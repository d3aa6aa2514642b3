"""`boruna codes [--json]` (also `boruna lang codes`): the diagnostic code registry."""
from __future__ import annotations

from boruna.cli.console import Console
from boruna.cli.render import pretty_json


def _registry():
    from boruna.diagnostics import registry

    return list(getattr(registry, "ALL_CODES", registry.CODES).values())


def cmd_codes(args, console: Console) -> int:
    codes = _registry()
    if args.json:
        console.out(pretty_json({"version": 1, "codes": [c.to_dict() for c in codes]}))
        return 0
    style = console.out_style
    name_w = max([len("NAME")] + [len(c.name) for c in codes])
    cat_w = max([len("CATEGORY")] + [len(c.category) for c in codes])
    code_w = max([len("CODE")] + [len(c.code) for c in codes])
    console.out(style.bold(f"{'CODE':<{code_w}}  {'NAME':<{name_w}}  {'CATEGORY':<{cat_w}}  SUMMARY"))
    for c in codes:
        console.out(f"{c.code:<{code_w}}  {c.name:<{name_w}}  {c.category:<{cat_w}}  {c.summary}")
    return 0
