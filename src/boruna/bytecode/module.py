"""The bytecode module model (docs/spec/vm.md §1.1–§1.3, §1.7).

`Module` holds everything codegen produces and the VM runs. Instructions are tuples
`(op_name, *operands)` (see `opcodes.py`); constants use the value representation of
`boruna.core.values`; `Function.capabilities` holds capability ids (ints, docs/spec/vm.md §5.1),
in declaration order, duplicates kept; match tables are lists of `MatchArm(tag, target)`.
`Function.lines` is the line table: flat `(pc, line, col)` runs, `pc` ascending, an entry
only where the source position changes (instruction `pc` comes from the last entry at or
before it); empty for hand-built modules and `.axbc` files written before it existed.
Nothing reads it while a program runs: `position(pc)` looks a place up when an error is
reported.
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Optional

MODULE_VERSION = 1          # wire-format version (`module::VERSION`)


class MatchArm(NamedTuple):
    tag: int
    target: int


# slotted: no per-function dict, and codegen's C core (`_emit.c`) writes the slots directly
@dataclass(slots=True)
class Function:
    name: str
    arity: int
    locals: int
    code: list[tuple] = field(default_factory=list)
    capabilities: list[int] = field(default_factory=list)
    intent: Optional[str] = None
    match_tables: list[list[MatchArm]] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)

    def position(self, pc: int) -> Optional[tuple[int, int]]:
        """The source `(line, col)` of instruction `pc`, or None without a line table."""
        lines = self.lines
        if not lines or pc < 0:
            return None
        pcs = lines[0::3]
        k = bisect_right(pcs, pc) - 1
        if k < 0:
            k = 0
        return lines[3 * k + 1], lines[3 * k + 2]


@dataclass
class TypeInfo:
    """A `type`/`enum` declaration. `kind` is "Record" or "Enum"; `members` holds
    `(field_name, type_string)` for records, `(variant_name, payload_type_or_None)` for enums."""

    name: str
    kind: str
    members: list[tuple[str, Optional[str]]] = field(default_factory=list)

    @property
    def is_record(self) -> bool:
        return self.kind == "Record"

    @property
    def is_enum(self) -> bool:
        return self.kind == "Enum"

    def member_names(self) -> list[str]:
        return [m[0] for m in self.members]


@dataclass
class Module:
    name: str
    version: int = MODULE_VERSION
    constants: list[Any] = field(default_factory=list)
    globals: list[str] = field(default_factory=list)
    types: list[TypeInfo] = field(default_factory=list)
    functions: list[Function] = field(default_factory=list)
    entry: int = 0

    def summary(self) -> dict:
        """The `boruna_compile` counts, in the seed's key order."""
        return {
            "name": self.name,
            "version": self.version,
            "functions": len(self.functions),
            "types": len(self.types),
            "constants": len(self.constants),
            "entry": self.entry,
        }

    def function_index(self, name: str) -> Optional[int]:
        """Index of the first function called `name`, or None."""
        for i, f in enumerate(self.functions):
            if f.name == name:
                return i
        return None

    def enum_variant_name(self, type_id: int, variant: int) -> Optional[str]:
        """The declared name of variant `variant` of enum `type_id`, or None if unknown."""
        if 0 <= type_id < len(self.types):
            t = self.types[type_id]
            if t.is_enum and 0 <= variant < len(t.members):
                return t.members[variant][0]
        return None
