"""Capability handlers: what an allowed capability call returns (docs/spec/vm.md §5.5).

A handler has `handle(cap: Capability, args: list) -> value` and signals failure
by raising `HandlerError(message)`; the gateway turns that into
`assertion failed: capability error: {message}`.
"""
from __future__ import annotations

from typing import Iterable

from boruna.core import capabilities as caps
from boruna.core.capabilities import Capability
from boruna.core.display import display


class HandlerError(Exception):
    """A capability handler failure; `message` is the handler's own text."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class MockHandler:
    """The reference's sandbox handler: fixed, deterministic values, no I/O."""

    def handle(self, cap: Capability, args) -> object:
        cid = cap.id
        if cid == caps.STEP_INPUT:
            return ""
        if cid == caps.TIME_NOW:
            return 1700000000
        if cid == caps.RANDOM:
            return 0.42
        if cid == caps.NET_FETCH:
            url = display(args[0]) if args else ""
            return '{"mock": true, "url": "' + url + '"}'
        if cid == caps.FS_READ:
            path = display(args[0]) if args else ""
            return "mock file content for " + path
        if cid == caps.FS_WRITE:
            return True
        if cid == caps.DB_QUERY:
            return ()
        if cid == caps.LLM_CALL:
            return '{"mock": true, "status": "ok"}'     # text, as a live answer is
        # ui.render, actor.spawn, actor.send
        return None


class ReplayHandler:
    """Returns recorded capability results in order, ignoring the capability and
    its args; running out raises `replay log exhausted`."""

    def __init__(self, results: Iterable[object]):
        self._results = list(results)
        self._cursor = 0

    def handle(self, cap: Capability, args) -> object:
        if self._cursor >= len(self._results):
            raise HandlerError("replay log exhausted")
        value = self._results[self._cursor]
        self._cursor += 1
        return value
