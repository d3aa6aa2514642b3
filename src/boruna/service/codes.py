"""The diagnostic code registry (`boruna codes`): every code with its name, category, summary."""
from __future__ import annotations

from dataclasses import dataclass

from boruna.service.results import use_case


@dataclass
class CodeList:
    """The registry's codes (`diagnostics.registry.CodeInfo`) in registry order."""

    codes: list
    success = True

    def to_json(self) -> dict:
        """`{"version": 1, "codes": [...]}` (no tool envelope: no MCP tool lists the codes)."""
        return {"version": 1, "codes": [c.to_dict() for c in self.codes]}


@use_case
def list_codes() -> CodeList:
    from boruna.diagnostics import registry

    return CodeList(list(registry.ALL_CODES.values()))
