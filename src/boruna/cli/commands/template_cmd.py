"""`boruna template list [--dir DIR] [--json]` and
`boruna template apply NAME --args "k=v,..." [--arg k=v] [-o FILE] [--validate] [--json]`."""
from __future__ import annotations

from boruna.cli.console import Console
from boruna.cli.errors import EXIT_FAILURE, EXIT_OK, CliError, UsageError
from boruna.cli.files import write_text
from boruna.cli.json_output import (call, failure_error, print_response, print_result,
                                    response_of)
from boruna.core.errors import ErrorKind


def resolve_templates_dir(option: str | None) -> str:
    """`--dir DIR` as given, else ./templates, else the bundled templates."""
    if option is not None:
        return option
    from boruna.assets.directories import TEMPLATES, resolve_dir

    return str(resolve_dir(None, TEMPLATES))


def parse_template_args(args_text: str, single: list[str]) -> dict[str, str]:
    """`--args "k=v,k2=v2"` (pieces trimmed, empty ones skipped) then each `--arg k=v`."""
    from boruna.assets.templates import TemplateArgsError, parse_arg_pieces

    pieces = [p.strip() for p in args_text.split(",")] + list(single)
    try:
        return parse_arg_pieces(pieces)
    except TemplateArgsError as err:
        raise UsageError(err.message) from None


def cmd_list(args, console: Console) -> int:
    from boruna import service

    templates_dir = resolve_templates_dir(args.dir)
    result = call(service.list_templates, templates_dir)
    if args.json:
        return print_result(console, result)
    if not result.success:
        raise failure_error(result, templates_dir, "", console)
    templates = result.templates
    if not templates:
        console.out(f"no templates found in {templates_dir}")
        return EXIT_OK
    style = console.out_style
    console.out("available templates:")
    for t in templates:
        console.out(f"  {style.bold(t.name)} v{t.version} - {t.description}")
        if t.args:
            console.out(f"    args: {', '.join(_arg_text(t, arg) for arg in t.args)}")
        if t.dependencies:
            console.out(f"    deps: {', '.join(t.dependencies)}")
        if t.capabilities:
            console.out(f"    caps: {', '.join(t.capabilities)}")
    return EXIT_OK


def _arg_text(template, arg: str) -> str:
    """`name`, or `name (optional, default 1000)` for an argument that may be left out."""
    optional = getattr(template, "optional", {}) or {}
    if arg not in optional:
        return arg
    default = optional[arg]
    return f"{arg} (optional, default {default})" if default else f"{arg} (optional)"


def cmd_apply(args, console: Console) -> int:
    from boruna import service

    values = parse_template_args(args.args, args.arg)
    templates_dir = resolve_templates_dir(args.dir)
    pairs = [f"{k}={v}" for k, v in values.items()] if args.json else values
    result = call(service.apply_template, templates_dir, args.name, pairs,
                  validate=args.validate)
    if args.json:
        response = response_of(result)
        passed = response.get("validation", {"passed": True}).get("passed", True)
        if response.get("success") and passed and args.out != "-":
            write_text(args.out or response["output_file"], response["source"])
        print_response(console, response)
        return EXIT_OK if response.get("success") and passed else EXIT_FAILURE
    if not result.success:
        if result.error_kind == ErrorKind.INVALID_ARGS:
            raise UsageError(result.message)
        if result.exception is not None:
            raise failure_error(result, templates_dir, "", console)
        raise CliError(result.message + _apply_hint(result, args.name))
    applied = result.applied
    style = console.out_style
    if args.validate:
        validation = applied.validation or {"passed": True}
        if not validation.get("passed"):
            raise CliError(f"{validation.get('error')} (nothing written)")
    if args.out == "-":
        console.out(applied.source.rstrip("\n"))
        return EXIT_OK
    out = args.out or applied.output_file
    write_text(out, applied.source)
    console.out(f"generated {out} from template '{applied.template_name}'")
    if args.validate:
        console.out(f"  validation: {style.ok('passed')} (the output compiles)")
    console.out(f"  deps: {', '.join(applied.dependencies) or '(none)'}")
    console.out(f"  caps: {', '.join(applied.capabilities) or '(none)'}")
    return EXIT_OK


def _apply_hint(failure, name: str) -> str:
    """What to type instead: the closest template names, or the arguments NAME takes."""
    import difflib

    from boruna.assets.templates import MISSING_ARGUMENT, NOT_FOUND

    templates = failure.templates
    if templates is None:
        return ""
    if failure.reason == NOT_FOUND:
        names = [t.name for t in templates]
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
        guess = f"did you mean '{close[0]}'? " if close else ""
        return f" ({guess}available: {', '.join(names) or 'none'})"
    if failure.reason == MISSING_ARGUMENT:
        for t in templates:
            if t.name == name and t.args:
                optional = getattr(t, "optional", {}) or {}
                example = ",".join(f"{arg}=..." for arg in t.args if arg not in optional)
                takes = ", ".join(_arg_text(t, arg) for arg in t.args)
                return f" ({name} takes {takes}: --args \"{example}\")"
    return ""
