"""`boruna capability list [--json]`: the capability set and its identity hash."""
from __future__ import annotations

from boruna.cli.console import Console
from boruna.cli.json_output import call, print_result


def cmd_list(args, console: Console) -> int:
    from boruna import service

    result = call(service.list_capabilities)
    if args.json or not result.success:
        return print_result(console, result)
    listed = result.to_json()
    caps = listed["capabilities"]
    width = max([len(c["name"]) for c in caps] + [4])
    console.out(f"{listed['name']} {listed['version']}")
    console.out(f"capability_set_hash: {listed['capability_set_hash']}")
    console.out(f"protocol_version: {listed['protocol_version']}")
    console.out("")
    console.out(f"capabilities ({len(caps)}):")
    for cap in caps:
        reached = "".join(f"  {name}()" for name in cap.get("builtins", []))
        console.out(f"  {cap['name']:<{width}}  v{cap['version']}{reached}")
    return 0
