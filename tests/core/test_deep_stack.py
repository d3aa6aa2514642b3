"""`call_deep`: deep recursion on a few long-lived large-stack threads, never one per call."""
import sys
import threading

import pytest

from boruna.core import deep_stack
from boruna.core.deep_stack import POOL_SIZE, RECURSION_LIMIT, call_deep


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
