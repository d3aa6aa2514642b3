"""The stdio transport: reading a request or writing an answer never waits for a tool call,
and no thread is created while serving.

When stdin is a pipe or a socket (every MCP client's case), `LoopStdinReader` reads it on
the event loop itself: the loop wakes when a line arrives and screens it there, so a request
costs no hand-over between threads (a thread woken on an idle machine, and the interpreter
lock passed back and forth, cost ~0.05 ms a call back to back and ~0.15 ms after a pause).
Any other stdin (a file, a terminal) is read by `StdinReader` on a dedicated thread, which
hands each screened line to the loop. A line that needs a large stack to screen (a deep or
malformed one) is screened on a large-stack thread either way: the loop reader hands those
few to a thread of its own (`_ThreadScreen`). Either reader stops reading while 16 lines
are waiting for the loop. `StdoutWriter` writes and flushes each outgoing line on a thread of
its own. All are started before the first request. No thread waits for the loop to take what
it hands over (`loop_calls.py`). An answer that fits a pipe's atomic write
(PIPE_BUF bytes) is written by the loop itself when the pipe has room and no earlier write is
pending, which never blocks; every other write goes to the writer thread. The
process's fd 0 and fd 1 are pointed at the null device and stderr while serving
(`claim_stdio`), so stray reads or prints of tool code never touch the wire.
"""
from __future__ import annotations

import asyncio
import collections
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


def _start_deep_thread(target, name: str) -> None:
    """Start a thread with a large stack for screening; without room for one, a thread of
    the usual size (deep input then raises RecursionError there instead of decoding)."""
    from boruna.core.deep_stack import start_deep_thread

    try:
        start_deep_thread(target, name)
    except RuntimeError:
        _start_thread(target, name)


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
        self._call_loop = loop_caller()
        _start_deep_thread(self._read, "boruna-mcp-stdin")

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

    def close(self) -> None:
        """Nothing to undo: the thread ends at EOF, and is a daemon."""


class LoopStdinReader:
    """`await receive()` returns `screen(line)` for each non-blank stdin line, None at EOF;
    the descriptor is read on the event loop (non-blocking, `loop.add_reader`) and each line
    screened on the loop when it is received.

    Reading pauses while WAITING lines are read and not yet received, so a client that
    writes faster than the server takes requests is held back by the pipe, as with the
    thread reader. `close()` stops reading and gives the descriptor its blocking mode back.
    """

    WAITING = StdinReader.WAITING
    CHUNK = 1 << 18
    """Bytes asked of the descriptor per wake-up (a long line arrives in several)."""

    def __init__(self, stream, screen, screen_on_loop=None):
        self._fd = stream.fileno()
        self._screen = screen
        self._screen_on_loop = screen_on_loop
        self._thread_screen = _ThreadScreen(screen) if screen_on_loop else None
        self._buffer = bytearray()
        self._scanned = 0                # bytes of `_buffer` known to hold no newline
        self._lines: collections.deque = collections.deque()
        self._eof = False
        self._reading = False
        self._waiter = None
        self._loop = None
        self._was_blocking = True

    def start(self) -> None:
        """Start reading on the running asyncio loop; raises (OSError, NotImplementedError,
        RuntimeError, ValueError) when this descriptor or loop cannot be watched."""
        self._loop = asyncio.get_running_loop()
        self._was_blocking = os.get_blocking(self._fd)
        os.set_blocking(self._fd, False)
        try:
            self._resume()
        except BaseException:
            os.set_blocking(self._fd, self._was_blocking)
            raise
        if self._thread_screen is not None:
            self._thread_screen.start()

    def _resume(self) -> None:
        if not self._reading and not self._eof:
            self._loop.add_reader(self._fd, self._on_readable)
            self._reading = True

    def _pause(self) -> None:
        if self._reading:
            self._loop.remove_reader(self._fd)
            self._reading = False

    def _on_readable(self) -> None:
        try:
            chunk = os.read(self._fd, self.CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if chunk:
            self._take(chunk)
        else:
            self._eof = True
            self._pause()
            if self._buffer:             # a last line without its newline
                self._lines.append(bytes(self._buffer))
                self._buffer.clear()
        if len(self._lines) >= self.WAITING:
            self._pause()
        waiter = self._waiter
        if waiter is not None and not waiter.done() and (self._lines or self._eof):
            waiter.set_result(None)

    def _take(self, chunk: bytes) -> None:
        buffer = self._buffer
        buffer += chunk
        start = 0
        end = buffer.find(b"\n", self._scanned)
        while end >= 0:
            self._lines.append(bytes(buffer[start:end + 1]))
            start = end + 1
            end = buffer.find(b"\n", start)
        if start:
            del buffer[:start]
        self._scanned = len(buffer)

    async def receive(self):
        while True:
            while not self._lines:
                if self._eof:
                    return None
                self._waiter = self._loop.create_future()
                try:
                    await self._waiter
                finally:
                    self._waiter = None
            raw = self._lines.popleft()
            if len(self._lines) < self.WAITING:
                self._resume()
            line = raw.decode("utf-8", errors="replace")
            if not line.strip():
                continue
            try:
                if self._screen_on_loop is None:
                    item = self._screen(line)
                else:
                    screened, item = self._screen_on_loop(line)
                    if not screened:
                        item = await self._thread_screen.screen(line)
            except Exception:        # as on the reader thread: pass the raw line on
                log.debug("screening a stdin line failed", exc_info=True)
                item = (line, None, None)
            if item is not None:
                return item

    def close(self) -> None:
        if self._loop is None:
            return
        self._eof = True
        try:
            self._pause()
        except (RuntimeError, ValueError, OSError):   # the loop is already closed
            pass
        try:
            os.set_blocking(self._fd, self._was_blocking)
        except OSError:
            pass


class _ThreadScreen:
    """`await screen(line)`: `screen(line)` on a large-stack thread of its own, for the rare
    line that `screen_on_loop` declines (its deep decoding must not wait for the deep-stack
    pool, which compiles may hold, with the event loop stopped meanwhile)."""

    def __init__(self, screen):
        self._screen = screen
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._call_loop = None

    def start(self) -> None:
        self._call_loop = loop_caller()
        _start_deep_thread(self._work, "boruna-mcp-screen")

    def _work(self) -> None:
        while True:
            line, done = self._jobs.get()
            try:
                item = self._screen(line)
            except Exception:        # never let the thread die: pass the raw line on
                log.debug("screening a stdin line failed", exc_info=True)
                item = (line, None, None)
            try:
                self._call_loop(done, item)
            except Exception:        # the loop has ended
                return

    async def screen(self, line: str):
        future = asyncio.get_running_loop().create_future()

        def done(item):
            if not future.done():
                future.set_result(item)

        self._jobs.put((line, done))
        return await future


def _pollable(stream) -> bool:
    """Whether `stream` is a pipe or a socket (a descriptor epoll can watch)."""
    try:
        mode = os.fstat(stream.fileno()).st_mode
    except (AttributeError, OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def start_stdin_reader(stream, screen, screen_on_loop=None):
    """A started reader of `stream` (call from the event loop): a `LoopStdinReader` when
    `stream` is a pipe or a socket and the loop is asyncio's, else a `StdinReader` thread.

    `screen(line) -> item | None` (None drops the line) runs on the reader thread, which has
    a large stack. With `screen_on_loop(line) -> (screened, item)` the loop reader screens a
    line on the loop, and hands it to `screen` on a large-stack thread of its own only when
    `screened` is false; without it, `screen` runs on the loop."""
    if _pollable(stream):
        reader = LoopStdinReader(stream, screen, screen_on_loop)
        try:
            reader.start()
            return reader
        except (OSError, NotImplementedError, RuntimeError, ValueError):
            log.debug("stdin cannot be read on the event loop; reading it on a thread",
                      exc_info=True)
    reader = StdinReader(stream, screen)
    reader.start()
    return reader


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
