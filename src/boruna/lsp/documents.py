"""Open documents and their analyses: each change schedules one analysis after a quiet
period (debounce); analyses run one at a time on a worker thread, at most one per document,
and the text that changed meanwhile is analysed once when it ends; a result is published only
while it is still the document's latest version, so no stale diagnostics are ever shown.
Requests wait for the analysis of the version they were sent for."""
from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Optional

from boruna.service.editor.analysis import Analysis, analyse

log = logging.getLogger("boruna.lsp")


@dataclass
class DocumentState:
    uri: str
    file: str
    version: int = 0
    text: str = ""
    analysis: Optional[Analysis] = None         # of the latest version, when done
    last_parsed: Optional[Analysis] = None      # the latest analysis whose source parsed
    pending: Optional[asyncio.Future] = None    # analysis under way (of `pending_version`)
    pending_version: Optional[int] = None
    timer: Optional[asyncio.TimerHandle] = None
    waiters: list = field(default_factory=list)


class Documents:
    """The open documents of one server."""

    WARM_DELAY_S = 0.3

    def __init__(self, publish: Callable[[DocumentState, Analysis], None],
                 libs_dir: Callable[[], Optional[str]], debounce_s: float = 0.15):
        self.publish = publish
        self.libs_dir = libs_dir
        self.debounce_s = debounce_s
        self.states: dict[str, DocumentState] = {}
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="boruna-analysis")

    # ------------------------------------------------------------ document events
    def opened(self, uri: str, file: str, version: int, text: str) -> None:
        state = self.states.get(uri) or DocumentState(uri, file)
        self.states[uri] = state
        state.version, state.text = version, text
        self._start(state)

    def changed(self, uri: str, version: int, text: str) -> None:
        state = self.states.get(uri)
        if state is None:
            return
        state.version, state.text = version, text
        if state.timer is not None:
            state.timer.cancel()
        loop = asyncio.get_running_loop()
        state.timer = loop.call_later(self.debounce_s, self._start, state)

    def saved(self, uri: str) -> None:
        """A file was written: check again every open document importing it (libraries are
        read from disk), so none keeps diagnostics of the library's old text."""
        state = self.states.get(uri)
        if state is None:
            return
        for other in self.states.values():
            if other is state or other.analysis is None:
                continue
            if any(lib.path == state.file for lib in other.analysis.libraries):
                other.analysis = None
                self._start(other)

    def closed(self, uri: str) -> Optional[DocumentState]:
        state = self.states.pop(uri, None)
        if state is not None and state.timer is not None:
            state.timer.cancel()
        return state

    # ------------------------------------------------------------ analyses
    def _start(self, state: DocumentState) -> asyncio.Future:
        if state.timer is not None:
            state.timer.cancel()
            state.timer = None
        if state.pending is not None:
            # one analysis of a document at a time: a newer text waits for the one under
            # way, then is analysed once however many changes came meanwhile (`_finished`)
            return state.pending
        loop = asyncio.get_running_loop()
        version, text = state.version, state.text
        future = loop.run_in_executor(self.worker, self._analyse, text, state.file, version)
        state.pending, state.pending_version = future, version
        future.add_done_callback(lambda f: self._finished(state, version, f))
        return future

    def _analyse(self, text: str, file: str, version: int) -> Analysis:
        return analyse(text, file, self.libs_dir(), version)

    def _warm(self, state: DocumentState, analysis: Analysis) -> None:
        """Compute the name index now, on the analysis worker, so the next hover is quick;
        step by step, stopping once a newer version of the document exists (its analysis
        then waits for one step at most)."""
        try:
            for step in (lambda: analysis.types, lambda: analysis.spans,
                         lambda: analysis.index, lambda: analysis.library_indexes):
                if state.version != analysis.version:
                    return
                step()
        except Exception:       # a failure here shows up again (and is answered) on use
            log.exception("warming an analysis failed")

    def _finished(self, state: DocumentState, version: int, future) -> None:
        if state.pending is future:
            state.pending, state.pending_version = None, None
        if future.cancelled():
            return
        error = future.exception()
        if error is not None:
            log.error("analysis of %s failed: %r", state.uri, error)
            return
        analysis = future.result()
        if analysis.ctx is not None:
            if state.last_parsed is None or (state.last_parsed.version or 0) <= version:
                state.last_parsed = analysis
        if self.states.get(state.uri) is not state:
            return          # the document closed
        if version != state.version:
            # a newer text exists: never publish stale; analyse it now unless its debounce
            # timer is still waiting
            if state.timer is None:
                self._start(state)
            return
        state.analysis = analysis
        self.publish(state, analysis)
        # the name index once the typing pauses (a change within the delay skips it)
        asyncio.get_running_loop().call_later(
            max(self.WARM_DELAY_S, 2 * self.debounce_s),
            lambda: state.version == version and self.worker.submit(self._warm, state,
                                                                    analysis))

    async def current(self, uri: str) -> Optional[Analysis]:
        """The analysis of the document's latest version (waiting for it, or starting it
        now instead of after the debounce), None for a document that is not open."""
        for _ in range(50):
            state = self.states.get(uri)
            if state is None:
                return None
            if state.analysis is not None and state.analysis.version == state.version:
                return state.analysis
            future = self._start(state)
            try:
                analysis = await asyncio.shield(future)
            except Exception:
                return None
            if analysis.version == state.version:
                return analysis
        return None

    def fallback(self, uri: str) -> Optional[Analysis]:
        state = self.states.get(uri)
        return None if state is None else state.last_parsed

    def analyses(self) -> list[Analysis]:
        """The latest finished analysis of every open document."""
        return [s.analysis for s in self.states.values() if s.analysis is not None]

    def shutdown(self) -> None:
        self.worker.shutdown(wait=False, cancel_futures=True)
