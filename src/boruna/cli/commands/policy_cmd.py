"""`boruna policy validate FILE [--json]`: check a policy file with the strict validator.

Exit 0 when valid (`OK: FILE`), 1 when invalid or unreadable (the reference used 2 for an
invalid file; a validation failure is 1 like every other failure of this CLI).
"""
from __future__ import annotations

from boruna.cli.console import Console
from boruna.cli.errors import EXIT_FAILURE, EXIT_OK, CliError
from boruna.cli.files import read_text
from boruna.cli.json_output import call_tool, print_response
from boruna.cli.policy_option import IO_ERROR, load_policy_option


def cmd_validate(args, console: Console) -> int:
    if args.json:
        from boruna.service import policy_validate_tool

        try:
            text = read_text(args.file)
        except CliError as exc:
            raise CliError(f"{IO_ERROR}: {exc.message}") from None
        response = call_tool(policy_validate_tool, text)
        print_response(console, response)
        return EXIT_OK if response.get("success") and response.get("ok") else EXIT_FAILURE
    option = load_policy_option(args.file if args.file not in ("allow-all", "deny-all")
                                else "./" + args.file)
    if option.error_kind is not None:
        raise CliError(f"{args.file}: {option.message}")
    console.out(f"{console.out_style.ok('OK')}: {args.file}")
    return EXIT_OK


def cmd_show(args, console: Console) -> int:
    """`boruna policy show FILE|allow-all|deny-all`: the effective policy as text."""
    option = load_policy_option(args.file)
    if option.error_kind is not None:
        raise CliError(f"{args.file}: {option.message}")
    from boruna.runtime import policy as policy_mod

    value = option.policy
    if isinstance(value, str):
        value = policy_mod.Policy.allow_all() if value == "allow-all" else policy_mod.Policy.deny_all()
    console.out(policy_mod.show_policy(value))
    return EXIT_OK
