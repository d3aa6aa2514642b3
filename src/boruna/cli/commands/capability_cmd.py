"""`boruna capability list [--json]`: the capability set and its identity hash."""
from __future__ import annotations

from boruna.cli.console import Console
from boruna.cli.json_output import call_tool, print_response


def cmd_list(args, console: Console) -> int:
    from boruna.service import capability_list_tool

    response = call_tool(capability_list_tool)
    if args.json or not response.get("success"):
        return print_response(console, response)
    caps = response["capabilities"]
    width = max([len(c["name"]) for c in caps] + [4])
    console.out(f"{response['name']} {response['version']}")
    console.out(f"capability_set_hash: {response['capability_set_hash']}")
    console.out(f"protocol_version: {response['protocol_version']}")
    console.out("")
    console.out(f"capabilities ({len(caps)}):")
    for cap in caps:
        console.out(f"  {cap['name']:<{width}}  v{cap['version']}")
    return 0
