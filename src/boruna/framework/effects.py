"""Effects an App's `update` returns, read positionally as [kind, payload, callback_tag]
(docs/spec/tooling.md §3.4). Unrecognised items are not executed; they are reported, not hidden."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from boruna.core.values import LEGACY_LIST_TYPE_ID, Record


@dataclass(frozen=True)
class EffectKind:
    kind: str           # the string an App writes in field 0
    variant: str        # the reference's Rust variant name, used in policy messages
    capability: str     # the capability the effect needs


EFFECT_KINDS: tuple[EffectKind, ...] = (
    EffectKind("http_request", "HttpRequest", "net.fetch"),
    EffectKind("db_query", "DbQuery", "db.query"),
    EffectKind("fs_read", "FsRead", "fs.read"),
    EffectKind("fs_write", "FsWrite", "fs.write"),
    EffectKind("timer", "Timer", "time.now"),
    EffectKind("random", "Random", "random"),
    EffectKind("spawn_actor", "SpawnActor", "actor.spawn"),
    EffectKind("emit_ui", "EmitUi", "ui.render"),
    EffectKind("llm_call", "LlmCall", "llm.call"),
    EffectKind("send_to_actor", "SendToActor", "actor.send"),
)
BY_KIND = {k.kind: k for k in EFFECT_KINDS}
ALL_CAPABILITIES = tuple(k.capability for k in EFFECT_KINDS)

UNKNOWN_KIND = "unknown effect kind"
MALFORMED = "not an effect record [kind, payload, callback_tag]"


@dataclass(frozen=True)
class Effect:
    kind: EffectKind
    payload: Any
    callback_tag: str


@dataclass(frozen=True)
class IgnoredEffect:
    """An item of the effects list that is not a recognised effect (reported per cycle)."""

    index: int
    kind: Optional[str]
    reason: str

    def to_dict(self) -> dict:
        return {"index": self.index, "kind": self.kind, "reason": self.reason}


def effect_items(value: Any) -> tuple:
    """The items of an effects value: a list, or a legacy list-as-record; else none."""
    if type(value) is tuple:
        return value
    if type(value) is Record and value.type_id == LEGACY_LIST_TYPE_ID:
        return value.fields
    return ()


def parse_effects(value: Any) -> tuple[list[Effect], list[IgnoredEffect]]:
    """Split an effects value into recognised effects and reported leftovers."""
    effects: list[Effect] = []
    ignored: list[IgnoredEffect] = []
    for index, item in enumerate(effect_items(value)):
        if type(item) is not Record or len(item.fields) < 3 or type(item.fields[0]) is not str:
            ignored.append(IgnoredEffect(index, None, MALFORMED))
            continue
        kind = BY_KIND.get(item.fields[0])
        if kind is None:
            ignored.append(IgnoredEffect(index, item.fields[0], UNKNOWN_KIND))
            continue
        callback = item.fields[2] if type(item.fields[2]) is str else ""
        effects.append(Effect(kind, item.fields[1], callback))
    return effects, ignored
