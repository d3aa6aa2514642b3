"""Run a recursive walk over deeply nested input without RecursionError or a C-stack crash.

`call_deep(fn, *args)` runs `fn` on a thread with a large C stack while the interpreter's
recursion limit is raised, then restores the limit. The parser, the name checker and the AST
serializer use it; any other recursive walker over a user's AST (codegen, diagnostics) can
use it too. Nested calls run inline on the same thread.

The large-stack threads are few and long-lived: a pool of POOL_SIZE workers, started when
first needed, serves every `call_deep` (callers beyond it wait their turn), so concurrent
compiles never reserve more than POOL_SIZE stacks of address space. `start_deep_thread`
starts one more long-lived large-stack thread for a caller that must never wait behind the
pool (the MCP server's stdin reader thread, or the thread screening the odd lines of stdin
read on the event loop). When no large-stack thread can be started (an address-space
limit), `fn` runs on the caller's own stack at its usual recursion limit, so deep input
raises RecursionError instead of crashing.

`call_shallow(fn, *args)` is for small input (at most SHALLOW_INPUT characters of source, no
imported libraries): it runs `fn` on the caller's own thread, the `call_deep` calls inside it
inline at the caller's recursion limit, and only when that limit runs out starts `fn` over
through `call_deep`. A tiny compile so costs no hand-over to a pool thread and back (two per
compile, the larger part of a tiny `boruna_run`'s time in the MCP server).

`paused_gc()` keeps Python's cyclic garbage collector off while any thread is inside it (the
compiler wraps a compile in it: an AST is acyclic, so nothing waits for the collector).
"""
from __future__ import annotations

import gc
import queue
import sys
import threading
from contextlib import contextmanager

STACK_BYTES = 256 * 1024 * 1024
RECURSION_LIMIT = 150_000
POOL_SIZE = 2
SHALLOW_INPUT = 1024
"""Characters of source `call_shallow` is meant for: the compiler's recursion over them stays
a few thousand frames, which any thread's stack holds (even when another thread has raised
the recursion limit meanwhile)."""

_limit_lock = threading.Lock()
_active = 0
_saved_limit = 0
_local = threading.local()


@contextmanager
def _raised_limit():
    """The recursion limit at least RECURSION_LIMIT while any deep call is running."""
    global _active, _saved_limit
    with _limit_lock:
        if _active == 0:
            _saved_limit = sys.getrecursionlimit()
            if _saved_limit < RECURSION_LIMIT:
                sys.setrecursionlimit(RECURSION_LIMIT)
        _active += 1
    try:
        yield
    finally:
        with _limit_lock:
            _active -= 1
            if _active == 0 and sys.getrecursionlimit() != _saved_limit:
                try:
                    sys.setrecursionlimit(_saved_limit)
                except RecursionError:
                    pass


_gc_lock = threading.Lock()
_gc_active = 0
_gc_was_enabled = False


@contextmanager
def paused_gc():
    """The cyclic garbage collector disabled while any thread is inside; on the last exit
    it is enabled again if it was enabled at the first entry. Reference counting still
    frees everything acyclic at once; cycles made meanwhile wait for the next collection."""
    global _gc_active, _gc_was_enabled
    with _gc_lock:
        if _gc_active == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_active += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_active -= 1
            if _gc_active == 0 and _gc_was_enabled:
                gc.enable()


_start_lock = threading.Lock()


def start_deep_thread(target, name: str) -> threading.Thread:
    """Start a daemon thread running `target()` on a STACK_BYTES stack; inside it
    `call_deep` runs inline. Raises RuntimeError when the thread cannot be started."""

    def body():
        _local.deep = True
        target()

    with _start_lock:           # threading.stack_size is process-wide
        previous = threading.stack_size(STACK_BYTES)
        try:
            thread = threading.Thread(target=body, name=name, daemon=True)
            thread.start()
        finally:
            threading.stack_size(previous)
    return thread


class _Job:
    __slots__ = ("fn", "args", "kwargs", "done", "value", "error")

    def __init__(self, fn, args, kwargs):
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.done = threading.Event()
        self.value = self.error = None

    def run(self) -> None:
        try:
            with _raised_limit():
                self.value = self.fn(*self.args, **self.kwargs)
        except BaseException as exc:    # re-raised in the calling thread
            self.error = exc
        finally:
            self.done.set()


class _Pool:
    """POOL_SIZE large-stack workers taking jobs from one queue, started on demand."""

    def __init__(self, size: int):
        self.size = size
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        self.workers = 0
        self.lock = threading.Lock()

    def _work(self) -> None:
        while True:
            self.jobs.get().run()

    def ensure_started(self) -> int:
        """Start missing workers (as many as the system allows); the number running."""
        if self.workers >= self.size:
            return self.workers
        with self.lock:
            while self.workers < self.size:
                try:
                    start_deep_thread(self._work, f"boruna-deep-stack-{self.workers + 1}")
                except (RuntimeError, MemoryError):      # no address space for a stack
                    break
                self.workers += 1
            return self.workers


_pool = _Pool(POOL_SIZE)


def start_pool() -> int:
    """Start the large-stack workers now (a server does so before taking requests, while
    address space is available); returns how many are running."""
    return _pool.ensure_started()


class ShallowStackExhausted(BaseException):
    """A `call_deep` inside `call_shallow` ran out of the caller's recursion limit: the
    shallow attempt is abandoned and `fn` runs again through `call_deep`. A BaseException,
    so no `except Exception` of the code in between mistakes it for a failure of its own."""


def shallow_exhausted() -> None:
    """Called by code that turns a RecursionError into a result of its own (the parser's
    nesting error): inside `call_shallow` it raises ShallowStackExhausted instead, since
    only a deep stack's RecursionError is a real answer."""
    if getattr(_local, "shallow", False):
        raise ShallowStackExhausted


def call_shallow(fn, *args, **kwargs):
    """`fn(*args, **kwargs)` on the caller's own stack and recursion limit, its `call_deep`s
    inline; if the recursion limit runs out, `call_deep(fn, *args, **kwargs)`. For pure `fn`
    over small input (SHALLOW_INPUT); exceptions propagate."""
    if getattr(_local, "deep", False) or getattr(_local, "shallow", False):
        return call_deep(fn, *args, **kwargs)
    _local.shallow = True
    try:
        return fn(*args, **kwargs)
    except ShallowStackExhausted:
        pass
    finally:
        _local.shallow = False
    return call_deep(fn, *args, **kwargs)


def call_deep(fn, *args, **kwargs):
    """`fn(*args, **kwargs)`, evaluated where deep recursion is safe; exceptions propagate."""
    if getattr(_local, "shallow", False):
        try:
            return fn(*args, **kwargs)
        except RecursionError:
            raise ShallowStackExhausted from None
    if getattr(_local, "deep", False):
        with _raised_limit():
            return fn(*args, **kwargs)
    if _pool.ensure_started() == 0:
        return fn(*args, **kwargs)      # no large stack available: the caller's own limit
    job = _Job(fn, args, kwargs)
    _pool.jobs.put(job)
    job.done.wait()
    if job.error is not None:
        error, job.error = job.error, None
        raise error
    return job.value
