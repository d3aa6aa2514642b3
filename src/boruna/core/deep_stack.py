"""Run a recursive walk over deeply nested input without RecursionError or a C-stack crash.

`call_deep(fn, *args)` runs `fn` in a worker thread with a large C stack while the
interpreter's recursion limit is raised, then restores the limit. The parser, the name
checker and the AST serializer use it; any other recursive walker over a user's AST
(codegen, diagnostics) can use it too. Nested calls run inline in the same worker.
"""
from __future__ import annotations

import sys
import threading

STACK_BYTES = 256 * 1024 * 1024
RECURSION_LIMIT = 150_000

_lock = threading.Lock()
_active = 0
_saved_limit = 0
_local = threading.local()


def call_deep(fn, *args, **kwargs):
    """`fn(*args, **kwargs)`, evaluated where deep recursion is safe; exceptions propagate."""
    if getattr(_local, "deep", False):
        return fn(*args, **kwargs)
    outcome: dict = {}

    def runner():
        _local.deep = True
        try:
            outcome["value"] = fn(*args, **kwargs)
        except BaseException as exc:    # re-raised in the calling thread
            outcome["error"] = exc
        finally:
            _local.deep = False

    global _active, _saved_limit
    with _lock:
        if _active == 0:
            _saved_limit = sys.getrecursionlimit()
            if _saved_limit < RECURSION_LIMIT:
                sys.setrecursionlimit(RECURSION_LIMIT)
        _active += 1
        try:
            previous = threading.stack_size(STACK_BYTES)
            try:
                worker = threading.Thread(target=runner, name="boruna-deep-stack", daemon=True)
                worker.start()
            finally:
                threading.stack_size(previous)
        except BaseException:
            worker = None
    try:
        if worker is None:          # no thread available: run inline with the raised limit
            runner()
        else:
            worker.join()
    finally:
        with _lock:
            _active -= 1
            if _active == 0 and sys.getrecursionlimit() != _saved_limit:
                try:
                    sys.setrecursionlimit(_saved_limit)
                except RecursionError:
                    pass
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")
