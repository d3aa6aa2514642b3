"""db.query against runaway SQL and huge results (issue 19, items 2, 3 and 4).

An endless recursive CTE or a huge cross join stops at the run's wall clock and at a
cancel; a value over the VM's string cap is refused by SQLite itself; a result over the
value budget stops while rows are read; a FIFO named as the database is refused at once.
"""
from __future__ import annotations

import functools
import os
import sqlite3
import threading
import time

import pytest

from boruna.compiler import compile_source
from boruna.core import capabilities as caps
from boruna.core.errors import ErrorKind, VmError
from boruna.core.limits import MAX_STRING_BYTES
from boruna.runtime import result_limits
from boruna.runtime.deadline import RunClock
from boruna.runtime.execute import run
from boruna.runtime.handlers import HandlerError
from boruna.runtime.live import HandlerConfig, LiveHandler
from boruna.runtime.live import db as live_db

CAP = {c.id: c for c in caps.CAPABILITIES}
ENDLESS = ("with recursive r(n) as (select 1 union all select n + 1 from r) "
           "select count(*) as c from r")
CROSS = ("with recursive r(n) as (select 1 union all select n + 1 from r limit 100000) "
         "select count(*) as c from r a, r b, r c")


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "d.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("create table t (s text)")
    conn.commit()
    conn.close()
    return path


def program(sql: str):
    return compile_source('fn main() -> Int !{db.query} { list_len(db_query("' + sql + '")) }')


@pytest.mark.parametrize("sql", [ENDLESS, CROSS])
def test_runaway_sql_stops_at_the_wall_clock(db, sql):
    handler = HandlerConfig(live=True, db=str(db)).handler()
    start = time.monotonic()
    outcome = run(program(sql), handler=handler, max_wall_ms=300)
    assert (outcome.error_kind, outcome.error) == (
        ErrorKind.WALL_TIME, "wall-clock execution limit exceeded (300 ms)")
    assert time.monotonic() - start < 3.0


def test_runaway_sql_stops_when_the_run_is_cancelled(db):
    cancel = threading.Event()
    threading.Timer(0.2, cancel.set).start()
    handler = HandlerConfig(live=True, db=str(db)).handler()
    start = time.monotonic()
    outcome = run(program(ENDLESS), handler=handler, cancel_event=cancel)
    assert (outcome.error_kind, outcome.error) == (ErrorKind.CANCELLED, "execution cancelled")
    assert time.monotonic() - start < 3.0


def test_a_value_over_the_string_cap_is_refused_by_sqlite(db):
    handler = LiveHandler(HandlerConfig(live=True, db=str(db)))
    # hex() of 9 MB of zeros is 18 MB of text: SQLite refuses to build it at all
    with pytest.raises(VmError) as info:
        handler.handle(CAP[caps.DB_QUERY], ["select hex(zeroblob(9000000)) as s"])
    assert info.value.kind == ErrorKind.MEMORY_LIMIT
    assert info.value.message == (f"string too large: a value exceeds the limit of "
                                  f"{MAX_STRING_BYTES} bytes")
    rows = handler.handle(CAP[caps.DB_QUERY], ["select hex(zeroblob(1000)) as s"])
    assert rows[0]["s"] == "00" * 1000


def test_a_result_over_the_value_budget_stops_while_rows_are_read(db, monkeypatch):
    cap = 1_000_000
    read = []

    class Counting(result_limits.ResultBudget):
        def __init__(self):
            super().__init__(cap)

        def collection(self, length):
            read.append(length)
            super().collection(length)

    monkeypatch.setattr(live_db, "ResultBudget", Counting)
    handler = LiveHandler(HandlerConfig(live=True, db=str(db)))
    sql = ("with recursive r(n) as (select 1 union all select n + 1 from r limit 50000) "
           "select printf('%.1000c', 'x') as s from r")
    with pytest.raises(VmError) as info:
        handler.handle(CAP[caps.DB_QUERY], [sql])
    assert info.value.message == f"memory limit exceeded: live values use more than {cap} bytes"
    assert info.value.kind == ErrorKind.MEMORY_LIMIT
    assert len(read) < 1000                       # it stopped early: under 1,000 of 50,000 rows


def test_the_vm_reports_the_memory_limit_of_a_query(db, monkeypatch):
    monkeypatch.setattr(live_db, "ResultBudget", functools.partial(result_limits.ResultBudget,
                                                                   10_000))
    sql = "with recursive r(n) as (select 1 union all select n + 1 from r limit 5000) select n from r"
    outcome = run(program(sql), handler=HandlerConfig(live=True, db=str(db)).handler())
    assert outcome.error == "memory limit exceeded: live values use more than 10000 bytes"
    assert outcome.vm_error.kind == ErrorKind.MEMORY_LIMIT


def test_a_fifo_named_as_the_database_is_refused_at_once(tmp_path):
    fifo = tmp_path / "db.fifo"
    os.mkfifo(fifo)
    handler = LiveHandler(HandlerConfig(live=True, db=str(fifo)))
    start = time.monotonic()
    with pytest.raises(HandlerError) as info:
        handler.handle(CAP[caps.DB_QUERY], ["select 1"])
    assert info.value.message == f"db.query: the database {fifo} is not a regular file (a FIFO)"
    assert time.monotonic() - start < 5.0


def test_the_busy_timeout_is_capped_by_the_run_clock(db):
    locker = sqlite3.connect(db, isolation_level=None)
    locker.execute("begin exclusive")
    try:
        handler = LiveHandler(HandlerConfig(live=True, db=str(db), db_write=True))
        handler.bind_clock(RunClock(150))
        start = time.monotonic()
        with pytest.raises(HandlerError):
            handler.handle(CAP[caps.DB_QUERY], ["insert into t values ('x')"])
        assert time.monotonic() - start < 0.9           # not the whole 1 s busy timeout
    finally:
        locker.close()
