"""Calls into the event loop from another thread that do not wait for the loop.

`anyio.from_thread.run_sync` blocks its thread until the loop has run the call, so a lane
worker handing back an answer, or the stdout writer reporting a write, wakes up once more
while the loop is busy with that very answer and competes with it for the interpreter lock.
`loop_caller()`, taken on the loop, returns a thread-safe `call(fn, *args)` that only
schedules `fn(*args)` there (on asyncio, the loop's `call_soon_threadsafe`; on other backends
it falls back to `anyio.from_thread.run_sync`). It raises RuntimeError once the loop is closed.
"""
from __future__ import annotations

import asyncio

import anyio.from_thread
import anyio.lowlevel


def loop_caller():
    """The current event loop's thread-safe `call(fn, *args)` (call it from the loop)."""
    token = anyio.lowlevel.current_token()
    if isinstance(token.native_token, asyncio.AbstractEventLoop):
        return token.native_token.call_soon_threadsafe

    def call(fn, *args):
        anyio.from_thread.run_sync(fn, *args, token=token)

    return call
