"""The capability table (docs/spec/vm.md §5.1, docs/spec/language.md §3.7, docs/spec/policy.md §4).

Each capability has a numeric id (the `CapCall` operand), a wire name (the
canonical name used in policies, errors and event logs), the reference's Rust
variant name (used in `.axbc` JSON), and the spellings accepted in `.ax`
`!{...}` annotations. Policies accept only the wire name; an alias there is
reported with a hint (`policy.invalid_capability`).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Optional

CAPABILITY_VERSION = "1"


@dataclass(frozen=True)
class Capability:
    id: int
    wire_name: str
    variant: str
    aliases: tuple[str, ...]  # extra spellings accepted in source (not the wire name)

    @property
    def name(self) -> str:
        """The canonical (wire) name."""
        return self.wire_name

    @property
    def version(self) -> str:
        return CAPABILITY_VERSION


CAPABILITIES: tuple[Capability, ...] = (
    Capability(0, "net.fetch", "NetFetch", ("net",)),
    Capability(1, "fs.read", "FsRead", ()),
    Capability(2, "fs.write", "FsWrite", ()),
    Capability(3, "db.query", "DbQuery", ("db",)),
    Capability(4, "ui.render", "UiRender", ("ui",)),
    Capability(5, "time.now", "TimeNow", ("time",)),
    Capability(6, "random", "Random", ()),
    Capability(7, "llm.call", "LlmCall", ("llm",)),
    Capability(8, "actor.spawn", "ActorSpawn", ("actor_spawn",)),
    Capability(9, "actor.send", "ActorSend", ("actor_send",)),
    Capability(10, "step.input", "StepInput", ("step_input",)),
)

NET_FETCH, FS_READ, FS_WRITE, DB_QUERY, UI_RENDER, TIME_NOW, RANDOM, LLM_CALL, \
    ACTOR_SPAWN, ACTOR_SEND, STEP_INPUT = range(11)

_BY_WIRE = {c.wire_name: c for c in CAPABILITIES}
_BY_VARIANT = {c.variant: c for c in CAPABILITIES}
_BY_SPELLING = {**_BY_WIRE, **{a: c for c in CAPABILITIES for a in c.aliases}}
_BY_ALIAS = {a: c for c in CAPABILITIES for a in c.aliases}


def by_id(cap_id: int) -> Optional[Capability]:
    """The capability with numeric id `cap_id`, or None (→ `unknown capability id`)."""
    if type(cap_id) is int and 0 <= cap_id < len(CAPABILITIES):
        return CAPABILITIES[cap_id]
    return None


def by_wire_name(name: str) -> Optional[Capability]:
    """Exact, case-sensitive canonical name lookup (what policies accept)."""
    return _BY_WIRE.get(name)


def by_variant(variant: str) -> Optional[Capability]:
    """Lookup by Rust variant name (`"NetFetch"`), as found in `.axbc` JSON."""
    return _BY_VARIANT.get(variant)


def from_source_name(name: str) -> Optional[Capability]:
    """A `!{...}` spelling: wire name or alias (`net`, `step_input`, ...); None if unknown."""
    return _BY_SPELLING.get(name)


def alias_target(name: str) -> Optional[Capability]:
    """If `name` is an alias (not a wire name), the capability it stands for."""
    return _BY_ALIAS.get(name)


def sorted_by_name() -> list[Capability]:
    return sorted(CAPABILITIES, key=lambda c: c.wire_name)


def capability_set_hash() -> str:
    """`sha256:` + hex SHA-256 of `"{name}\\t{version}\\n"` over all capabilities by name."""
    text = "".join(f"{c.wire_name}\t{c.version}\n" for c in sorted_by_name())
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
