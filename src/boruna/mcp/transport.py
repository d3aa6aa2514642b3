"""The stdio transport on threads of its own: reading a request or writing an answer never
waits for a tool call, and no thread is created while serving.

`StdinReader` reads stdin on one dedicated thread (with a large stack, so screening a deeply
nested line is safe) and hands each screened line to the event loop; `StdoutWriter` writes
and flushes each outgoing line on another. Both are started before the first request. Neither
thread waits for the loop to take what it hands over (`loop_calls.py`): the reader waits only
when 16 lines are already waiting for the loop. An answer that fits a pipe's atomic write
(PIPE_BUF bytes) is written by the loop itself when the pipe has room and no earlier write is
pending, which never blocks; every other write goes to the writer thread. The
process's fd 0 and fd 1 are pointed at the null device and stderr while serving
(`claim_stdio`), so stray reads or prints of tool code never touch the wire.
"""
from __future__ import annotations

import logging
import os
import queue
import select
import stat
import threading
from contextlib import contextmanager

import anyio

from boruna.mcp.loop_calls import loop_caller

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

    WAITING = 16
    """Lines handed to the loop and not yet received before the reader thread waits."""

    def __init__(self, stream, screen):
        self._stream = stream
        self._screen = screen
        self._send, self._receive = anyio.create_memory_object_stream(self.WAITING)
        self._slots = threading.Semaphore(self.WAITING)
        self._closed = False
        self._call_loop = None

    def start(self) -> None:
        """Start the reader thread (call from the event loop)."""
        from boruna.core.deep_stack import start_deep_thread

        self._call_loop = loop_caller()
        try:
            start_deep_thread(self._read, "boruna-mcp-stdin")
        except RuntimeError:         # no room for a large stack: screening falls back inline
            _start_thread(self._read, "boruna-mcp-stdin")

    def _put(self, item) -> None:
        """On the loop: queue one item (a slot is held for it, so there is room)."""
        try:
            self._send.send_nowait(item)
        except Exception:            # the loop stopped receiving
            self._closed = True
            self._slots.release()

    def _deliver(self, item) -> bool:
        self._slots.acquire()
        if self._closed:
            return False
        try:
            self._call_loop(self._put, item)
            return True
        except Exception:            # the loop has ended
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
        self._slots.release()
        return None if item is _EOF else item


def _pipe_poller(stream):
    """A poll object watching `stream`'s descriptor for room, when it is a pipe (else None:
    only a pipe promises that a write of PIPE_BUF bytes into room does not block)."""
    try:
        fd = stream.fileno()
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return None
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        return poller
    except (AttributeError, OSError, ValueError):
        return None


class StdoutWriter:
    """An anyio-file-like `write(text)`/`flush()`, writes in order; `write` returns once the
    text is written and flushed. A text of at most PIPE_BUF bytes is written on the calling
    (loop) thread when the wire is a pipe with room and no write is pending; the rest on a
    dedicated thread, so a client that stops reading never blocks the loop."""

    def __init__(self, stream):
        self._stream = stream
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._call_loop = None
        self._pending = 0                      # writes handed to the thread, not yet done
        self._poller = _pipe_poller(stream)

    def start(self) -> None:
        self._call_loop = loop_caller()
        _start_thread(self._write, "boruna-mcp-stdout")

    def _write(self) -> None:
        while True:
            text, done = self._jobs.get()
            error = None
            try:
                data = text.encode("utf-8") if isinstance(text, str) else text
                while data:
                    written = self._stream.write(data)
                    data = data[written:] if written else b""
                self._stream.flush()
            except (OSError, ValueError) as exc:
                error = exc
            try:
                self._call_loop(done, error)
            except Exception:        # the loop has ended
                return

    def _write_inline(self, data: bytes) -> bool:
        """Write `data` here when that cannot block: a pipe with room, nothing pending."""
        if self._pending or self._poller is None or len(data) > select.PIPE_BUF:
            return False
        ready = self._poller.poll(0)
        if not ready or ready[0][1] != select.POLLOUT:
            return False             # full, or an error the writer thread is to meet
        written = self._stream.write(data)
        if written != len(data):     # never for a pipe with room; the thread writes the rest
            raise BlockingIOError(written or 0)
        self._stream.flush()
        return True

    async def write(self, text: str) -> None:
        data = text
        if self._poller is not None and len(text) <= select.PIPE_BUF:
            data = text.encode("utf-8")
            try:
                if self._write_inline(data):
                    return
            except BlockingIOError as partial:
                data = data[partial.args[0]:]
        finished = anyio.Event()
        outcome: list = []

        def done(error):
            self._pending -= 1
            outcome.append(error)
            finished.set()

        self._pending += 1
        self._jobs.put((data, done))
        await finished.wait()
        if outcome and outcome[0] is not None:
            raise outcome[0]

    async def flush(self) -> None:
        return None
