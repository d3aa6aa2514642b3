"""The journal file's creation and opening (`boruna.workflow.journal.store`).

Two processes that opened a new `runs.db` at the same moment used to meet in SQLite's switch
to WAL mode and wait on each other until the busy timeout ran out (`journal_locked`, seen in
CI as a reader polling for a run the MCP server was starting). A new journal is now made
aside and linked into place, and opening an existing one writes nothing."""
import multiprocessing as mp
import os
import sqlite3

import pytest

from boruna.workflow.journal.store import DB_NAME, SCHEMA_VERSION, Journal, JournalError


def _open_many(base: str, count: int, barrier, results, create: bool) -> None:
    failures = []
    for i in range(count):
        barrier.wait()
        data_dir = os.path.join(base, str(i))
        try:
            if not create:
                while not os.path.exists(os.path.join(data_dir, DB_NAME)):
                    pass
            journal = Journal(data_dir, create=create)
            journal.list_runs()
            journal.close()
        except JournalError as err:
            failures.append(err.kind)
    results.put(failures)


def test_processes_creating_and_reading_one_new_journal_at_once_never_wait_on_each_other(
        tmp_path):
    count = 40
    ctx = mp.get_context("spawn")
    barrier, results = ctx.Barrier(3), ctx.Queue()
    procs = [ctx.Process(target=_open_many, args=(str(tmp_path), count, barrier, results, c))
             for c in (True, True, False)]
    for p in procs:
        p.start()
    failures = [results.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    assert failures == [[], [], []]
    for i in range(count):       # one journal per directory, nothing left of the making
        names = set(os.listdir(tmp_path / str(i)))
        # (a -wal / -shm file may stay when the last two connections close at once)
        assert DB_NAME in names and names <= {DB_NAME, DB_NAME + "-wal", DB_NAME + "-shm"}


def test_a_new_journal_is_in_wal_mode_with_the_current_schema_and_no_leftovers(tmp_path):
    journal = Journal(tmp_path / "d")
    assert journal.schema_version() == SCHEMA_VERSION
    assert journal.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    journal.close()
    assert sorted(os.listdir(tmp_path / "d")) == [DB_NAME]


def test_opening_an_existing_journal_writes_nothing(tmp_path):
    Journal(tmp_path).close()
    before = (tmp_path / DB_NAME).read_bytes()
    holder = sqlite3.connect(str(tmp_path / DB_NAME), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")              # another process is writing
    try:
        journal = Journal(tmp_path, create=False)  # opens and reads without waiting
        assert journal.list_runs() == []
        journal.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert (tmp_path / DB_NAME).read_bytes() == before


def test_a_journal_made_by_an_older_build_is_migrated_and_one_from_a_newer_is_refused(
        tmp_path):
    old = sqlite3.connect(str(tmp_path / DB_NAME))
    old.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    old.commit()
    old.close()                                       # rollback-journal mode, version 0
    journal = Journal(tmp_path, create=False)
    assert journal.schema_version() == SCHEMA_VERSION
    assert journal.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    journal.conn.execute("INSERT INTO schema_version (version) VALUES (?)",
                         (SCHEMA_VERSION + 1,))
    journal.close()
    with pytest.raises(JournalError) as err:
        Journal(tmp_path, create=False)
    assert err.value.kind == "journal_error"
    assert f"schema version {SCHEMA_VERSION + 1}" in err.value.message


def test_a_file_that_is_not_a_database_is_reported_as_corrupt(tmp_path):
    (tmp_path / DB_NAME).write_bytes(b"not a database at all, " * 100)
    with pytest.raises(JournalError) as err:
        Journal(tmp_path, create=False)
    assert err.value.kind == "journal_corrupt"


def test_opening_a_missing_journal_without_create_is_not_found_and_makes_nothing(tmp_path):
    with pytest.raises(JournalError) as err:
        Journal(tmp_path / "none", create=False)
    assert err.value.kind == "not_found"
    assert not (tmp_path / "none").exists()
