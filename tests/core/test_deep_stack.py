"""`call_deep`: deep recursion on a few long-lived large-stack threads, never one per call;
`paused_gc`: the cyclic collector off while any thread is inside, its state restored after."""
import gc
import sys
import threading

import pytest

from boruna.core import deep_stack
from boruna.core.deep_stack import POOL_SIZE, RECURSION_LIMIT, call_deep, paused_gc


def _depth(n):
    return 0 if n == 0 else 1 + _depth(n - 1)


def _deep_threads():
    return {t.ident for t in threading.enumerate() if t.name.startswith("boruna-deep-stack")}


def test_deep_recursion_runs_and_the_limit_is_restored():
    before = sys.getrecursionlimit()
    assert call_deep(_depth, 50_000) == 50_000
    assert sys.getrecursionlimit() == before


def test_exceptions_propagate_and_nested_calls_run_inline():
    def outer():
        inner_thread = call_deep(lambda: threading.get_ident())
        assert sys.getrecursionlimit() >= RECURSION_LIMIT
        return threading.get_ident(), inner_thread

    here, nested = call_deep(outer)
    assert here == nested and here != threading.get_ident()
    with pytest.raises(ZeroDivisionError):
        call_deep(lambda: 1 // 0)


def test_concurrent_calls_share_the_pool_instead_of_starting_threads():
    call_deep(int)
    pool = _deep_threads()
    assert len(pool) == POOL_SIZE
    seen, lock = set(), threading.Lock()

    def work():
        for _ in range(20):
            ident = call_deep(threading.get_ident)
            with lock:
                seen.add(ident)

    callers = [threading.Thread(target=work) for _ in range(16)]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join(timeout=60)
    assert seen <= pool and _deep_threads() == pool


def test_without_a_large_stack_calls_run_on_the_callers_stack(monkeypatch):
    monkeypatch.setattr(deep_stack, "_pool", deep_stack._Pool(0))
    assert call_deep(threading.get_ident) == threading.get_ident()
    with pytest.raises(RecursionError):
        call_deep(_depth, 10 * sys.getrecursionlimit())


@pytest.fixture
def gc_state():
    was = gc.isenabled()
    yield
    (gc.enable if was else gc.disable)()


def test_paused_gc_disables_and_restores_the_collector(gc_state):
    gc.enable()
    with paused_gc():
        assert not gc.isenabled()
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ZeroDivisionError):
        with paused_gc():
            1 // 0
    assert gc.isenabled()


def test_paused_gc_leaves_a_disabled_collector_disabled(gc_state):
    gc.disable()
    with paused_gc():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_paused_gc_counts_threads_and_the_last_one_out_restores(gc_state):
    gc.enable()
    inside, release = threading.Event(), threading.Event()

    def other():
        with paused_gc():
            inside.set()
            release.wait(timeout=30)

    thread = threading.Thread(target=other)
    thread.start()
    assert inside.wait(timeout=30)
    with paused_gc():
        assert not gc.isenabled()
    assert not gc.isenabled()       # the other thread is still inside
    release.set()
    thread.join(timeout=30)
    assert gc.isenabled()
    assert deep_stack._gc_active == 0
