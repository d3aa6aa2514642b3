"""`db.query(sql)`: one statement on the SQLite file `--db`, bounded like a VM value.

- The file must be a regular file (a FIFO or device named by `--db` would block SQLite's
  open): checked with a non-blocking open first. It is opened read-only unless `db_write`,
  never created, and ATTACH/DETACH are refused (another file is outside `--db`).
- The run's clock bounds the statement: SQLite's progress handler stops it once the run's
  wall clock has passed or the run is cancelled (an endless recursive CTE, a huge cross join),
  and the busy timeout is shortened to what is left of the wall clock.
- The result is counted while rows are read (`ResultBudget`): no more than DB_ROW_LIMIT rows,
  no string over the VM's 16 MiB cap (SQLITE_LIMIT_LENGTH makes SQLite itself refuse to build
  a longer string, blob or row), no more than the VM's 256 MiB of live values in all; a
  result that passes one stops with the VM's own `memory_limit` error.
"""
from __future__ import annotations

import errno
import os
import sqlite3
import urllib.parse
from pathlib import Path

from boruna.core import errors
from boruna.core.limits import MAX_STRING_BYTES
from boruna.core.regular_files import NotRegularFile, open_regular
from boruna.core.values import MapValue
from boruna.runtime.handlers import HandlerError
from boruna.runtime.result_limits import ResultBudget

DB_ROW_LIMIT = 100_000
"""Rows `db.query` returns at most (more is an error)."""
BUSY_TIMEOUT = 1.0
"""Seconds a statement waits for another connection's lock (at most)."""
PROGRESS_OPS = 10_000
"""SQLite virtual-machine instructions between two looks at the run's clock."""
FETCH_ROWS = 256


def check_database_file(db: str) -> None:
    """HandlerError when `db` exists but is not a regular file (never blocks)."""
    try:
        os.close(open_regular(db))
    except NotRegularFile as err:
        raise HandlerError(f"db.query: the database {db} is not a regular file (a {err.what})")
    except OSError as err:
        if err.errno in (errno.ENOENT, errno.ENOTDIR):
            return                    # SQLite reports it (and creates nothing: mode=ro/rw)
        raise HandlerError(f"db.query: cannot open the database: {err.strerror}")


def query(db: str, write: bool, sql: str, clock):
    """The rows of `sql` as a tuple of Maps (column name → value)."""
    check_database_file(db)
    mode = "rw" if write else "ro"
    uri = "file:" + urllib.parse.quote(str(Path(db).resolve())) + f"?mode={mode}"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=clock.budget(BUSY_TIMEOUT))
    except sqlite3.Error as err:
        raise HandlerError(f"db.query: cannot open the database: {err}")
    conn.set_authorizer(_no_attach)
    if hasattr(conn, "setlimit"):
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_STRING_BYTES)
    if clock.bounded:
        conn.set_progress_handler(lambda: 1 if clock.stopped() else 0, PROGRESS_OPS)
    budget = ResultBudget()
    rows: list = []
    try:
        try:
            cursor = conn.execute(sql)
            names = [d[0] for d in cursor.description or ()]
            while True:
                batch = cursor.fetchmany(FETCH_ROWS)
                if not batch:
                    break
                for row in batch:
                    if len(rows) >= DB_ROW_LIMIT:
                        raise HandlerError(f"db.query: more than {DB_ROW_LIMIT} rows")
                    rows.append(_row(names, row, budget))
            conn.commit()
        except (sqlite3.Error, sqlite3.Warning, ValueError, OverflowError) as err:
            if "too big" in str(err):
                raise errors.string_too_large() from None
            if clock.stopped():
                raise HandlerError("db.query: interrupted at the run's deadline") from None
            raise HandlerError(f"db.query: {err}") from None
    finally:
        conn.close()
    budget.collection(len(rows))
    return tuple(rows)


def _row(names: list, row, budget: ResultBudget) -> MapValue:
    budget.collection(len(names))
    values = {}
    for name, value in zip(names, row):
        budget.string(name)
        values[name] = _db_value(name, value, budget)
    return MapValue(values)


def _no_attach(action, *rest):
    """SQLite authorizer: no ATTACH/DETACH (another database file is outside `--db`)."""
    if action in (sqlite3.SQLITE_ATTACH, sqlite3.SQLITE_DETACH):
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


def _db_value(name: str, value, budget: ResultBudget):
    kind = type(value)
    if kind is str:
        budget.string(value)
        return value
    if value is None or kind is int or kind is float:
        if kind is int and not -2**63 <= value < 2**63:
            raise HandlerError(f"db.query: column `{name}` holds an integer out of range")
        budget.charge(32)
        return value
    raise HandlerError(f"db.query: column `{name}` holds a BLOB, which has no .ax type")
