"""Tapes that cannot be forged quietly (issue 19, items 2, 10 and 11).

Every tape carries a content hash over its calls and outcome, always checked; a tape
recorded with a key carries an HMAC, and a replay given the key accepts only tapes signed
with it. Tapes nested deeper than the reader allows, and replayed results larger than the
VM's string cap, are clean errors. A FIFO is never read or written as a tape or a key.
"""
from __future__ import annotations

import json
import os
import time

import pytest

from boruna import service
from boruna.core.limits import MAX_STRING_BYTES
from boruna.runtime import tape as tapes

SOURCE = 'fn main() -> Int !{time.now} { time_now() }'
KEY = b"0123456789abcdef-key"


def run(source, **kw):
    return service.run(service.RunRequest.of(source, None, **kw))


def recorded(key=None) -> str:
    return run(SOURCE, record=True).tape(key)


def forge(text: str, result) -> str:
    tape = json.loads(text)
    tape["calls"][0]["result"] = result
    tape["outcome"]["result"] = result
    return json.dumps(tape)


def rehash(text: str) -> str:
    """What a forger without the key can do: fix the plain content hash."""
    tape = json.loads(text)
    tape["sha256"] = json.loads(tapes.tape_json(tape["calls"], tape["outcome"]))["sha256"]
    return json.dumps(tape)


def test_a_tape_replays_and_carries_its_content_hash():
    text = recorded()
    tape = service.read_tape(text)
    assert set(tape) == {"format", "version", "calls", "outcome", "sha256"}
    assert run(SOURCE, replay=tape).to_json()["result"] == 1700000000


def test_a_changed_result_is_refused_before_anything_replays():
    with pytest.raises(tapes.TapeError) as info:
        service.read_tape(forge(recorded(), 42))
    assert str(info.value) == ("the tape's content hash does not match its calls and outcome: "
                               "it was changed after it was recorded")


def test_a_signed_tape_needs_its_key_and_a_rehashed_forgery_is_refused():
    text = recorded(KEY)
    assert service.read_tape(text, KEY)["hmac_sha256"]
    forged = rehash(forge(text, 42))
    assert service.read_tape(forged)["calls"][0]["result"] == 42   # no key: hash only
    with pytest.raises(tapes.TapeError) as info:
        service.read_tape(forged, KEY)
    assert str(info.value) == ("the tape's signature does not match the tape key (another key "
                               "signed it, or it was changed after it was recorded)")
    with pytest.raises(tapes.TapeError) as info:
        service.read_tape(text, b"another-key-of-16-bytes")
    assert "signature does not match" in str(info.value)
    with pytest.raises(tapes.TapeError) as info:
        service.read_tape(recorded(), KEY)
    assert str(info.value) == ("the tape is not signed, but a tape key was given: record it "
                               "with --tape-key")


def test_a_tape_nested_deeper_than_the_reader_allows_is_a_tape_error():
    deep = "[" * 5000 + "]" * 5000
    text = ('{"format": "boruna-capability-tape", "version": 2, "calls": [{"capability": '
            '"time.now", "args": [], "result": ' + deep + '}], "outcome": {}, "sha256": "0"}')
    with pytest.raises(tapes.TapeError) as info:
        service.read_tape(text)
    assert str(info.value).startswith("not a tape (invalid JSON: recursion limit exceeded at "
                                      "line 1 column ")


def test_recording_a_value_nested_too_deeply_is_a_clean_capability_error():
    source = ('fn wrap(x: List<Int>, n: Int) -> List<Int> { if n == 0 { x } else '
              '{ wrap([x], n - 1) } }\n'
              'fn main() -> String !{fs.read} { fs_read(wrap([1], 150)) }')
    response = run(source, record=True).to_json()
    assert response["error_kind"] == "runtime_error"
    assert response["message"] == ("assertion failed: capability error: cannot tape the call: "
                                   "a tape cannot hold a value nested deeper than 100")


def test_a_replayed_result_over_the_string_cap_is_the_vm_limit_error():
    big = "x" * (MAX_STRING_BYTES + 1)
    tape = {"capability": "time.now", "args": [], "result": big}
    text = tapes.tape_json([tape], {"success": True, "result": 1, "steps": 3})
    response = run(SOURCE, replay=service.read_tape(text)).to_json()
    assert response["error_kind"] == "replay_mismatch"
    assert response["message"] == (f"replay mismatch: success differs: recorded true, replay "
                                   f"false (string too large: {MAX_STRING_BYTES + 1} bytes "
                                   f"exceeds the limit of {MAX_STRING_BYTES} bytes)")


def test_key_files_must_be_regular_and_long_enough(tmp_path):
    short = tmp_path / "short.key"
    short.write_bytes(b"tiny\n")
    with pytest.raises(tapes.TapeError) as info:
        tapes.read_tape_key(short)
    assert str(info.value) == (f"the tape key file {short} holds 4 byte(s); a key needs at "
                               "least 16 (e.g. `head -c 32 /dev/urandom | base64`)")
    good = tmp_path / "good.key"
    good.write_bytes(KEY + b"\n")
    assert tapes.read_tape_key(good) == KEY


def test_fifos_are_never_read_or_written_as_tapes_or_keys(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    start = time.monotonic()
    for action, what in ((lambda: tapes.read_tape_file(fifo), "read the tape"),
                         (lambda: tapes.read_tape_key(fifo), "read the tape key")):
        with pytest.raises(tapes.TapeError) as info:
            action()
        assert str(info.value) == f"cannot {what} {fifo}: not a regular file (a FIFO)"
    with pytest.raises(tapes.TapeError) as info:
        tapes.write_tape_file(fifo, "{}")
    assert str(info.value) == f"cannot write the tape to {fifo}: not a regular file (a FIFO)"
    assert time.monotonic() - start < 5.0


def test_a_query_stopped_at_a_vm_limit_records_and_replays_the_same_error(tmp_path, monkeypatch):
    import functools
    import sqlite3

    from boruna.runtime import result_limits
    from boruna.runtime.live import HandlerConfig
    from boruna.runtime.live import db as live_db

    monkeypatch.setattr(live_db, "ResultBudget",
                        functools.partial(result_limits.ResultBudget, 5_000))
    path = tmp_path / "d.sqlite"
    sqlite3.connect(path).close()
    source = ('fn main() -> Int !{db.query} { list_len(db_query("with recursive r(n) as '
              '(select 1 union all select n + 1 from r limit 1000) select n from r")) }')
    live = run(source, handlers=HandlerConfig(live=True, db=str(path)), record=True)
    assert live.to_json()["message"] == \
        "memory limit exceeded: live values use more than 5000 bytes"
    tape = service.read_tape(live.tape())
    assert tape["calls"][0]["vm_error"] == "memory_limit"
    assert run(source, replay=tape).to_json() == live.to_json()
