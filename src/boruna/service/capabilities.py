"""`boruna_capability_list`: the capability set this build enforces, and its identity hash."""
from __future__ import annotations

from boruna.service.boundary import tool_boundary
from boruna.service.results import Success, use_case


class CapabilityList(Success):
    """`fields`: name, version, capabilities ([{name, version, builtins}] by name),
    capability_set_hash. `builtins` names the source builtins whose call reaches the
    capability (empty for those reached by a construct: `emit`, `spawn`, `send`)."""


@use_case
def list_capabilities() -> CapabilityList:
    """Every capability (name, contract version) sorted by name, plus `capability_set_hash`."""
    from boruna import __version__
    from boruna.core.builtins import BUILTINS
    from boruna.core.capabilities import capability_set_hash, sorted_by_name

    return CapabilityList({
        "name": "boruna",
        "version": __version__,
        "capabilities": [{"name": c.wire_name, "version": c.version,
                          "builtins": [b.name for b in BUILTINS if b.capability == c.wire_name]}
                         for c in sorted_by_name()],
        "capability_set_hash": capability_set_hash(),
    })


@tool_boundary
def capability_list_tool() -> dict:
    """See `list_capabilities`."""
    return list_capabilities().to_json()
