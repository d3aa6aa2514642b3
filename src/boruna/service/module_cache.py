"""Compiled modules of recent run sources, so running the same small source again (an agent's
run-edit-run loop, a retry, a tiny `boruna_run` through MCP) does not compile it again.

A compile is a pure function of the source and the module name when the source imports
nothing (an import reads library files, which may change between calls: such sources are
never cached). The cache holds at most MAX_ENTRIES modules of sources of at most
MAX_SOURCE_CHARS characters each, MAX_TOTAL_CHARS in all, least recently used first out;
only successful compiles are kept (a compile error is raised again by compiling again).
A cached `Module` is shared by every run of its source: the runs only read it (the VM
copies its code when a machine is built). Thread-safe (the MCP server's run workers share
it).
"""
from __future__ import annotations

import threading
from collections import OrderedDict

MAX_ENTRIES = 64
MAX_SOURCE_CHARS = 16_384
MAX_TOTAL_CHARS = 262_144

_lock = threading.Lock()
_entries: "OrderedDict[tuple, object]" = OrderedDict()
_total = 0


def cacheable(source) -> bool:
    return type(source) is str and len(source) <= MAX_SOURCE_CHARS and "import" not in source


def compiled(source: str, name: str, libs_dir=None):
    """`compiler.compile_source(source, name, libs_dir)`, from the cache when the same
    cacheable source was compiled under the same name before. Raises CompileError as
    compile_source does."""
    cache = cacheable(source)
    if cache:
        with _lock:
            module = _entries.get((source, name))
            if module is not None:
                _entries.move_to_end((source, name))
                return module
    from boruna.compiler import compile_source   # only on a miss: a hit imports nothing

    module = compile_source(source, name=name, libs_dir=libs_dir)
    if cache:
        _store((source, name), module)
    return module


def _store(key: tuple, module) -> None:
    global _total
    with _lock:
        if key in _entries:
            return
        _entries[key] = module
        _total += len(key[0])
        while len(_entries) > MAX_ENTRIES or _total > MAX_TOTAL_CHARS:
            (source, _name), _module = _entries.popitem(last=False)
            _total -= len(source)


def clear() -> None:
    """Forget every cached module."""
    global _total
    with _lock:
        _entries.clear()
        _total = 0


def size() -> tuple[int, int]:
    """(modules cached, characters of their sources)."""
    with _lock:
        return len(_entries), _total
