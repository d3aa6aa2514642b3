"""`boruna policy validate FILE [--json]`: check a policy file with the strict validator.

Exit 0 when valid (`OK: FILE`), 1 when invalid or unreadable (the reference used 2 for an
invalid file; a validation failure is 1 like every other failure of this CLI).
"""
from __future__ import annotations

from boruna.cli.console import Console
from boruna.cli.errors import EXIT_FAILURE, EXIT_OK, CliError
from boruna.cli.files import read_text
from boruna.cli.json_output import call, failure_error, print_response, response_of
from boruna.cli.policy_option import SHORTHANDS, load_policy_option


def cmd_validate(args, console: Console) -> int:
    from boruna import service
    from boruna.service.policy_argument import IO_ERROR

    path = "./" + args.file if args.file in SHORTHANDS and not args.json else args.file
    try:
        text = read_text(path)
    except CliError as exc:
        where = "" if args.json else f"{args.file}: "
        raise CliError(f"{where}{IO_ERROR}: {exc.message}") from None
    result = call(service.validate_policy, text)
    if args.json:
        response = response_of(result)
        print_response(console, response)
        return EXIT_OK if response.get("success") and response.get("ok") else EXIT_FAILURE
    if not result.success:
        raise failure_error(result, args.file, "", console)
    if not result.valid:
        raise CliError(f"{args.file}: {result.problem}")
    console.out(f"{console.out_style.ok('OK')}: {args.file}")
    return EXIT_OK


def cmd_show(args, console: Console) -> int:
    """`boruna policy show FILE|allow-all|deny-all`: the effective policy as text."""
    from boruna import service

    result = call(service.show_policy, load_policy_option(args.file))
    if not result.success:
        if result.exception is not None:
            raise failure_error(result, args.file, "", console)
        raise CliError(f"{args.file}: {result.message}")
    console.out(result.text)
    return EXIT_OK
