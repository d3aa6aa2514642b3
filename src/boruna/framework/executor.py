"""Turning effects into callback messages without touching the world (tooling.md §3.4).

`MockEffectExecutor.execute(effects)` answers each effect with `(callback_tag, value)`:
the configured response for that callback tag, else actor ids 1, 2, 3… for `spawn_actor`,
`"delivered"` for `send_to_actor`, `"mock_result"` for the rest. `emit_ui` is
fire-and-forget and answers nothing.
"""
from __future__ import annotations

from typing import Any, Iterable, Optional

from boruna.core.values import ActorId

from .effects import Effect

DEFAULT_RESULT = "mock_result"


class MockEffectExecutor:
    def __init__(self, responses: Optional[dict[str, Any]] = None):
        self.responses = dict(responses or {})
        self._next_actor = 1

    def execute(self, effects: Iterable[Effect]) -> list[tuple[str, Any]]:
        callbacks: list[tuple[str, Any]] = []
        for effect in effects:
            kind = effect.kind.kind
            if kind == "emit_ui":
                continue
            if effect.callback_tag in self.responses:
                value = self.responses[effect.callback_tag]
            elif kind == "spawn_actor":
                value = ActorId(self._next_actor)
                self._next_actor += 1
            elif kind == "send_to_actor":
                value = "delivered"
            else:
                value = DEFAULT_RESULT
            callbacks.append((effect.callback_tag, value))
        return callbacks
