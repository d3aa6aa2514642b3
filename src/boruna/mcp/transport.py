"""The stdio transport on threads of its own: reading a request or writing an answer never
waits for a tool call, and no thread is created while serving.

`StdinReader` reads stdin on one dedicated thread (with a large stack, so screening a deeply
nested line is safe) and hands each screened line to the event loop; `StdoutWriter` writes
and flushes each outgoing line on another. Both are started before the first request. The
process's fd 0 and fd 1 are pointed at the null device and stderr while serving
(`claim_stdio`), so stray reads or prints of tool code never touch the wire.
"""
from __future__ import annotations

import logging
import os
import queue
import threading
from contextlib import contextmanager

import anyio
import anyio.from_thread
import anyio.lowlevel

log = logging.getLogger("boruna.mcp")

_EOF = object()


class StartupFailure(Exception):
    """A transport thread could not be started (the process is out of threads or of
    address space): the server cannot serve at all."""


def _start_thread(target, name: str) -> None:
    try:
        threading.Thread(target=target, name=name, daemon=True).start()
    except RuntimeError as exc:
        raise StartupFailure(f"no thread for {name} ({exc}); raise the address-space or "
                             "thread limit") from None


@contextmanager
def claim_stdio():
    """Yield (stdin, stdout) binary files of the wire while fd 0 reads the null device and
    fd 1 writes to stderr; both descriptors are restored afterwards."""
    import sys

    try:
        wire_in, wire_out = os.dup(0), os.dup(1)
    except OSError:                  # no descriptors to move: serve the streams in place
        yield sys.stdin.buffer, sys.stdout.buffer
        return
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            os.dup2(null, 0)
        finally:
            os.close(null)
        os.dup2(2, 1)
        with open(wire_in, "rb", closefd=False) as wire_reader, \
                open(wire_out, "wb", buffering=0, closefd=False) as wire_writer:
            yield wire_reader, wire_writer
    finally:
        for saved, fd in ((wire_in, 0), (wire_out, 1)):
            try:
                os.dup2(saved, fd)
                os.close(saved)
            except OSError:
                pass


class StdinReader:
    """`await receive()` returns `screen(line)` for each non-blank stdin line, None at EOF.

    `screen(line) -> item | None` runs on the reader thread (None skips the line)."""

    def __init__(self, stream, screen):
        self._stream = stream
        self._screen = screen
        self._send, self._receive = anyio.create_memory_object_stream(16)
        self._token = None

    def start(self) -> None:
        """Start the reader thread (call from the event loop)."""
        from boruna.core.deep_stack import start_deep_thread

        self._token = anyio.lowlevel.current_token()
        try:
            start_deep_thread(self._read, "boruna-mcp-stdin")
        except RuntimeError:         # no room for a large stack: screening falls back inline
            _start_thread(self._read, "boruna-mcp-stdin")

    def _deliver(self, item) -> bool:
        try:
            anyio.from_thread.run(self._send.send, item, token=self._token)
            return True
        except Exception:            # the loop has ended or stopped receiving
            return False

    def _read(self) -> None:
        while True:
            try:
                raw = self._stream.readline()
            except (OSError, ValueError):
                raw = b""
            if not raw:
                self._deliver(_EOF)
                return
            line = raw.decode("utf-8", errors="replace")
            if not line.strip():
                continue
            try:
                item = self._screen(line)
            except Exception:        # never let the reader die: pass the raw line on
                log.debug("screening a stdin line failed", exc_info=True)
                item = (line, None, None)
            if item is not None and not self._deliver(item):
                return

    async def receive(self):
        item = await self._receive.receive()
        return None if item is _EOF else item


class StdoutWriter:
    """An anyio-file-like `write(text)`/`flush()` whose writes happen on a dedicated thread,
    in order; `write` returns once the text is written and flushed."""

    def __init__(self, stream):
        self._stream = stream
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._token = None

    def start(self) -> None:
        self._token = anyio.lowlevel.current_token()
        _start_thread(self._write, "boruna-mcp-stdout")

    def _write(self) -> None:
        while True:
            text, done = self._jobs.get()
            error = None
            try:
                data = text.encode("utf-8")
                while data:
                    written = self._stream.write(data)
                    data = data[written:] if written else b""
                self._stream.flush()
            except (OSError, ValueError) as exc:
                error = exc
            try:
                anyio.from_thread.run_sync(done, error, token=self._token)
            except Exception:        # the loop has ended
                return

    async def write(self, text: str) -> None:
        finished = anyio.Event()
        outcome: list = []

        def done(error):
            outcome.append(error)
            finished.set()

        self._jobs.put((text, done))
        await finished.wait()
        if outcome and outcome[0] is not None:
            raise outcome[0]

    async def flush(self) -> None:
        return None
