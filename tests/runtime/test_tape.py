"""Capability tapes: plain values, recording, replay order and mismatches."""
from __future__ import annotations

import pytest

from boruna.core import capabilities as caps
from boruna.core.values import MapValue, Record
from boruna.runtime.handlers import HandlerError, MockHandler
from boruna.runtime.tape import (RecordingHandler, TapeError, TapeReplayHandler,
                                 first_outcome_difference, to_plain)

CAP = {c.id: c for c in caps.CAPABILITIES}


def test_values_become_plain_json():
    assert to_plain((MapValue({"b": 1.5, "a": None}), "x", True, 3)) == \
        [{"a": None, "b": 1.5}, "x", True, 3]
    with pytest.raises(TapeError):
        to_plain(float("nan"))
    with pytest.raises(TapeError):
        to_plain(Record(0, ()))


def test_recording_keeps_calls_results_and_errors():
    class Failing(MockHandler):
        def handle(self, cap, args):
            if cap.id == caps.FS_READ:
                raise HandlerError("nope")
            return super().handle(cap, args)

    rec = RecordingHandler(Failing())
    assert rec.handle(CAP[caps.TIME_NOW], []) == 1700000000
    with pytest.raises(HandlerError):
        rec.handle(CAP[caps.FS_READ], ["a"])
    assert rec.calls == [{"capability": "time.now", "args": [], "result": 1700000000},
                         {"capability": "fs.read", "args": ["a"], "error": "nope"}]


def test_replay_answers_in_order_and_keeps_the_first_mismatch():
    tape = TapeReplayHandler([{"capability": "time.now", "args": [], "result": 5},
                              {"capability": "fs.read", "args": ["a"], "error": "nope"}])
    assert tape.handle(CAP[caps.TIME_NOW], []) == 5
    with pytest.raises(HandlerError) as info:
        tape.handle(CAP[caps.FS_READ], ["b"])
    assert info.value.message == ('replay mismatch at capability call 2: the tape has '
                                  'fs.read("a"), the program asked for fs.read("b")')
    assert tape.mismatch == info.value.message and tape.unused() == 1
    with pytest.raises(HandlerError) as info:
        tape.handle(CAP[caps.FS_READ], ["a"])
    assert info.value.message == "nope" and tape.unused() == 0


def test_replayed_lists_and_maps_are_vm_values():
    tape = TapeReplayHandler([{"capability": "db.query", "args": ["q"],
                               "result": [{"id": 1, "tags": ["a"]}]}])
    assert tape.handle(CAP[caps.DB_QUERY], ["q"]) == (MapValue({"id": 1, "tags": ("a",)}),)


def test_true_is_not_one():
    tape = TapeReplayHandler([{"capability": "fs.read", "args": [1], "result": "x"}])
    with pytest.raises(HandlerError) as info:
        tape.handle(CAP[caps.FS_READ], [True])
    assert info.value.message == ("replay mismatch at capability call 1: the tape has "
                                  "fs.read(1), the program asked for fs.read(true)")


def test_the_first_outcome_difference_is_named():
    a = {"success": True, "result": 1, "steps": 3, "ui_output": [], "event_log_sha256": "x"}
    assert first_outcome_difference(a, dict(a)) is None
    assert first_outcome_difference(a, {**a, "steps": 4, "result": 2}) == \
        "result differs: recorded 1, replay 2"
    assert first_outcome_difference(a, {**a, "event_log_sha256": "y"}) == \
        'event_log_sha256 differs: recorded "x", replay "y"'
