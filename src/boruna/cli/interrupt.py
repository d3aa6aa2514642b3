"""Ctrl-C during a run: the first press sets a `threading.Event` that the VM checks between
slices (so the run stops cleanly and reports its steps so far); a second press raises
KeyboardInterrupt as usual.
"""
from __future__ import annotations

import contextlib
import signal
import threading


@contextlib.contextmanager
def interrupt_sets(event: threading.Event):
    """Within the block, SIGINT sets `event` instead of raising (main thread only)."""
    def handler(signum, frame):
        if event.is_set():
            raise KeyboardInterrupt
        event.set()

    try:
        previous = signal.signal(signal.SIGINT, handler)
    except (ValueError, OSError):  # not the main thread: keep the default behaviour
        yield event
        return
    try:
        yield event
    finally:
        signal.signal(signal.SIGINT, previous)
