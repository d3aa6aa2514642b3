"""Ctrl-C during a run sets the cancel event (first press) instead of raising."""
import os
import signal
import threading
import time

import pytest

from boruna.cli.interrupt import interrupt_sets


def _deliver_sigint():
    os.kill(os.getpid(), signal.SIGINT)
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:  # let the handler run
        time.sleep(0.01)
        break


def test_first_sigint_sets_the_event_and_handler_is_restored():
    before = signal.getsignal(signal.SIGINT)
    event = threading.Event()
    with interrupt_sets(event):
        _deliver_sigint()
        assert event.is_set()
    assert signal.getsignal(signal.SIGINT) is before


def test_second_sigint_raises():
    event = threading.Event()
    with pytest.raises(KeyboardInterrupt):
        with interrupt_sets(event):
            _deliver_sigint()
            _deliver_sigint()


def test_outside_the_main_thread_nothing_is_installed():
    event = threading.Event()
    seen = []

    def worker():
        with interrupt_sets(event) as got:
            seen.append(got is event)

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert seen == [True]
