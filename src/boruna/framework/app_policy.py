"""The App's PolicySet (`policies()` → [capabilities, max_effects, max_steps]) and the
per-cycle effect check (docs/spec/tooling.md §3.4)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

from boruna.core.capabilities import from_source_name
from boruna.core.limits import DEFAULT_MAX_STEPS
from boruna.core.values import Record

from .effects import ALL_CAPABILITIES, Effect, effect_items
from .errors import policy_violation


@dataclass(frozen=True)
class AppPolicy:
    """`max_effects` 0 or negative means unlimited; `max_steps` bounds each VM call."""

    capabilities: tuple[str, ...]
    max_effects: int = 0
    max_steps: int = DEFAULT_MAX_STEPS

    @classmethod
    def allow_all(cls) -> "AppPolicy":
        """What an App without `policies()` gets: every effect capability, no effect limit."""
        return cls(ALL_CAPABILITIES, 0, DEFAULT_MAX_STEPS)

    @classmethod
    def from_value(cls, value: Any) -> "AppPolicy":
        """Read a `policies()` result positionally; a non-record is the empty (deny) policy."""
        if type(value) is not Record:
            return cls((), 0, DEFAULT_MAX_STEPS)
        fields = value.fields
        caps = tuple(c for c in effect_items(fields[0]) if type(c) is str) if fields else ()
        max_effects = fields[1] if len(fields) > 1 and type(fields[1]) is int else 0
        max_steps = fields[2] if len(fields) > 2 and type(fields[2]) is int else DEFAULT_MAX_STEPS
        return cls(caps, max_effects, max_steps)

    @classmethod
    def from_mapping(cls, obj: dict) -> "AppPolicy":
        """An override given by a caller: {capabilities, max_effects?, max_steps?}."""
        caps = obj.get("capabilities", [])
        if not isinstance(caps, (list, tuple)) or not all(isinstance(c, str) for c in caps):
            raise ValueError("policy capabilities must be a list of strings")
        max_effects = obj.get("max_effects", 0)
        max_steps = obj.get("max_steps", DEFAULT_MAX_STEPS)
        for name, v in (("max_effects", max_effects), ("max_steps", max_steps)):
            if type(v) is not int:
                raise ValueError(f"policy {name} must be an integer")
        return cls(tuple(caps), max_effects, max_steps)

    def allows(self, capability: str) -> bool:
        for name in self.capabilities:
            cap = from_source_name(name)
            if name == capability or (cap is not None and cap.wire_name == capability):
                return True
        return False

    def step_limit(self) -> Optional[int]:
        """The per-call step bound this policy asks for (None when it asks for none)."""
        return self.max_steps if self.max_steps > 0 else None

    def check(self, effects: Sequence[Effect]) -> None:
        """Raise `policy violation: ...` for too many effects or a missing capability."""
        if self.max_effects > 0 and len(effects) > self.max_effects:
            raise policy_violation(
                f"too many effects: {len(effects)} exceeds limit of {self.max_effects}")
        for effect in effects:
            if not self.allows(effect.kind.capability):
                raise policy_violation(
                    f"effect {effect.kind.variant} requires capability "
                    f"'{effect.kind.capability}' which is not in the policy")
