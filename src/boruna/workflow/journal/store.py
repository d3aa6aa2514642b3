"""The SQLite run journal: the single source of truth of every run, and its only writer.

`runs.db` holds the runs, their steps, every capability call of a step with its result
(`effects`, written before the step continues past the call) and the hash-chained audit log
(`audit`, appended in the same transaction as the state change it describes). The
connection runs in WAL mode with foreign keys on and a busy timeout; the schema carries a
version (`schema_version`) and `MIGRATIONS` bring an older file up to date. A run is driven
by one process at a time: a lease (`lease_owner`, `lease_expires_ms`) that the driver renews;
a lease whose owner died on this host, or that expired, may be taken over.

Every SQLite failure becomes a `JournalError` with a kind the service reports:
`journal_corrupt` (not a database), `journal_locked` (busy beyond the timeout),
`disk_full`, `journal_error`; `lease_held` and `not_found` for runs.
"""
from __future__ import annotations

import hashlib
import json
import os
import socket
import sqlite3
import threading
import time
import uuid
from pathlib import Path
from typing import Optional

from boruna.workflow.evidence import GENESIS, chain_entry

DB_NAME = "runs.db"
SCHEMA_VERSION = 2
BUSY_TIMEOUT_MS = 5_000
LEASE_MS = 15_000

MIGRATIONS: list[tuple[int, str]] = [
    (1, """
CREATE TABLE runs (
    run_id TEXT PRIMARY KEY,
    workflow_name TEXT NOT NULL,
    workflow_hash TEXT NOT NULL,
    workflow_dir TEXT,
    workflow_json TEXT NOT NULL,
    sources_json TEXT NOT NULL,
    inputs_json TEXT NOT NULL,
    policy_json TEXT NOT NULL,
    options_json TEXT NOT NULL,
    status TEXT NOT NULL,
    error TEXT,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    lease_owner TEXT,
    lease_expires_ms INTEGER
);
CREATE INDEX runs_status ON runs(status);
CREATE TABLE steps (
    run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    step_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    attempt INTEGER NOT NULL DEFAULT 0,
    live_attempt INTEGER,
    outputs_json TEXT,
    error_kind TEXT,
    error TEXT,
    retry_at_ms INTEGER,
    wait_json TEXT,
    vm_steps INTEGER,
    started_ms INTEGER,
    finished_ms INTEGER,
    PRIMARY KEY (run_id, step_id)
);
CREATE TABLE effects (
    run_id TEXT NOT NULL,
    step_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    capability TEXT NOT NULL,
    args_json TEXT NOT NULL,
    result_json TEXT,
    error TEXT,
    created_ms INTEGER NOT NULL,
    PRIMARY KEY (run_id, step_id, attempt, seq),
    FOREIGN KEY (run_id, step_id) REFERENCES steps(run_id, step_id) ON DELETE CASCADE
);
CREATE TABLE audit (
    run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    step_id TEXT,
    data_json TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    entry_hash TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    PRIMARY KEY (run_id, seq)
);
"""),
    (2, """
CREATE TABLE suspensions (
    run_id TEXT NOT NULL,
    step_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    capability TEXT NOT NULL,
    args_json TEXT NOT NULL,
    snapshot BLOB NOT NULL,
    snapshot_sha256 TEXT NOT NULL,
    vm_steps INTEGER NOT NULL,
    answered INTEGER NOT NULL DEFAULT 0,
    created_ms INTEGER NOT NULL,
    PRIMARY KEY (run_id, step_id),
    FOREIGN KEY (run_id, step_id) REFERENCES steps(run_id, step_id) ON DELETE CASCADE
);
"""),
]

RUN_STATUSES = ("running", "completed", "failed", "paused", "cancelled")
STEP_STATUSES = ("pending", "running", "completed", "failed", "skipped", "awaiting_approval",
                 "awaiting_external_event", "awaiting_input")
WAITING_STEP = ("awaiting_approval", "awaiting_external_event", "awaiting_input")
TERMINAL_STEP = ("completed", "failed", "skipped")


class JournalError(Exception):
    def __init__(self, kind: str, message: str):
        self.kind = kind
        self.message = message
        super().__init__(message)


def now_ms() -> int:
    return int(time.time() * 1000)


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def translate(err: Exception, path) -> JournalError:
    """A sqlite3/OS error as a JournalError with a clear message."""
    text = str(err)
    low = text.lower()
    if isinstance(err, JournalError):
        return err
    if "not a database" in low or "malformed" in low or "file is encrypted" in low:
        return JournalError("journal_corrupt", f"{path} is not a readable run journal "
                                               f"({text}); move it aside to start afresh")
    if "locked" in low or "busy" in low:
        return JournalError("journal_locked", f"{path} is locked by another process beyond "
                                              f"{BUSY_TIMEOUT_MS} ms ({text}); retry later")
    if "full" in low or getattr(err, "errno", None) == 28:
        return JournalError("disk_full", f"cannot write {path}: the disk is full ({text}); "
                                         f"nothing was lost: free space and resume the run")
    return JournalError("journal_error", f"run journal {path}: {text}")


def default_data_dir(explicit=None, environ=None) -> Path:
    """`--data-dir`, else `$BORUNA_DATA_DIR`, else `./.boruna/data`."""
    env = os.environ if environ is None else environ
    return Path(explicit or env.get("BORUNA_DATA_DIR") or Path(".boruna") / "data")


def lease_owner_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _owner_alive(owner: Optional[str]) -> bool:
    """False when `owner` is a process of this host that no longer exists."""
    if not owner:
        return False
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return True
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


class Journal:
    """One open `runs.db`. Thread-safe: every method is one transaction under one lock."""

    def __init__(self, data_dir=None, create: bool = True):
        self.data_dir = default_data_dir(data_dir)
        self.path = self.data_dir / DB_NAME
        self._lock = threading.RLock()
        if not create and not self.path.exists():
            raise JournalError("not_found", f"no workflow runs in {self.data_dir} (no {DB_NAME}; "
                                            f"pass the --data-dir the run used)")
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            if not self.path.exists():
                self._create_aside()
            self.conn = self._connect(self.path)
            if self.conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                self.conn.execute("PRAGMA journal_mode = WAL")   # a file made elsewhere
            if self._current_version() != SCHEMA_VERSION:
                self._migrate()
        except (sqlite3.Error, OSError) as err:
            raise translate(err, self.path) from None

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000,
                               isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    def _create_aside(self) -> None:
        """Make a new `runs.db` whole beside its place, then link it in.

        A process that opens the journal never sees a half-made file: two processes that
        create the same journal at once used to meet in SQLite's switch to WAL mode, each
        holding a lock the other waited for until the busy timeout ran out. The file is made
        under a name of this process's own, put in WAL mode (which the file keeps) with its
        schema, closed, and hard-linked to `runs.db`; whoever links first wins and the other
        opens the winner's file."""
        aside = self.path.with_name(f".{DB_NAME}.{os.getpid()}.{uuid.uuid4().hex[:8]}")
        try:
            conn = self._connect(aside)
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                self._migrate(conn)
            finally:
                conn.close()
            try:
                os.link(aside, self.path)
            except FileExistsError:
                pass
            except OSError:                         # no hard links here: a rename that
                if not self.path.exists():          # loses a race loses an empty journal
                    os.replace(aside, self.path)
        finally:
            for leftover in (aside, aside.with_name(aside.name + "-wal"),
                             aside.with_name(aside.name + "-shm")):
                try:
                    leftover.unlink()
                except FileNotFoundError:
                    pass

    def _current_version(self) -> int:
        try:
            row = self.conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
        except sqlite3.OperationalError as err:
            if "no such table" in str(err).lower():
                return 0
            raise
        return row[0] or 0

    def close(self) -> None:
        with self._lock:
            try:
                self.conn.close()
            except sqlite3.Error:
                pass

    # ------------------------------------------------------------------ transactions

    def _tx(self, fn, conn: Optional[sqlite3.Connection] = None):
        """`fn(conn)` in one write transaction on `conn` (the journal's own by default)."""
        conn = self.conn if conn is None else conn
        with self._lock:
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    value = fn(conn)
                except BaseException:
                    self._rollback(conn)
                    raise
                conn.execute("COMMIT")
                return value
            except (sqlite3.Error, OSError) as err:
                self._rollback(conn)
                raise translate(err, self.path) from None

    @staticmethod
    def _rollback(conn: sqlite3.Connection) -> None:
        """Roll back what is open (SQLite may already have, e.g. on SQLITE_FULL)."""
        try:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass

    def _read(self, sql: str, args=()) -> list:
        with self._lock:
            try:
                return self.conn.execute(sql, args).fetchall()
            except sqlite3.Error as err:
                raise translate(err, self.path) from None

    def _migrate(self, conn: Optional[sqlite3.Connection] = None) -> None:
        def migrate(conn):
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
            current = row[0] or 0
            if current > SCHEMA_VERSION:
                raise JournalError("journal_error", f"{self.path} has schema version {current}; "
                                                    f"this build reads up to {SCHEMA_VERSION}: "
                                                    f"upgrade Boruna")
            for version, script in MIGRATIONS:
                if version > current:
                    for statement in script.split(";"):
                        if statement.strip():
                            conn.execute(statement)
                    conn.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
        self._tx(migrate, conn)

    def schema_version(self) -> int:
        return self._read("SELECT MAX(version) FROM schema_version")[0][0]

    # ------------------------------------------------------------------ audit

    @staticmethod
    def _audit(conn, run_id: str, event: str, step: Optional[str], data) -> dict:
        row = conn.execute("SELECT seq, entry_hash FROM audit WHERE run_id = ? "
                           "ORDER BY seq DESC LIMIT 1", (run_id,)).fetchone()
        seq, prev = (row[0] + 1, row[1]) if row else (1, GENESIS)
        entry = chain_entry(seq, prev, event, step, data)
        conn.execute("INSERT INTO audit (run_id, seq, event, step_id, data_json, content_hash, "
                     "prev_hash, entry_hash, created_ms) VALUES (?,?,?,?,?,?,?,?,?)",
                     (run_id, seq, event, step, _dumps(data), entry["content_hash"], prev,
                      entry["entry_hash"], now_ms()))
        return entry

    def audit_entries(self, run_id: str) -> list[dict]:
        rows = self._read("SELECT seq, event, step_id, data_json, content_hash, prev_hash, "
                          "entry_hash FROM audit WHERE run_id = ? ORDER BY seq", (run_id,))
        return [{"seq": r["seq"], "event": r["event"], "step": r["step_id"],
                 "data": json.loads(r["data_json"]), "content_hash": r["content_hash"],
                 "prev_hash": r["prev_hash"], "entry_hash": r["entry_hash"]} for r in rows]

    def audit_head(self, run_id: str) -> str:
        rows = self._read("SELECT entry_hash FROM audit WHERE run_id = ? ORDER BY seq DESC "
                          "LIMIT 1", (run_id,))
        return rows[0][0] if rows else GENESIS

    # ------------------------------------------------------------------ runs

    def create_run(self, *, run_id: str, workflow_name: str, workflow_hash: str,
                   workflow_dir: Optional[str], workflow_json: str, sources: dict,
                   inputs: dict, policy, options: dict, steps: dict, owner: str,
                   audit_data: dict) -> None:
        """Insert the run (leased to `owner`) with every step pending; `steps` = id → kind."""
        def insert(conn):
            t = now_ms()
            conn.execute("INSERT INTO runs (run_id, workflow_name, workflow_hash, workflow_dir, "
                         "workflow_json, sources_json, inputs_json, policy_json, options_json, "
                         "status, created_ms, updated_ms, lease_owner, lease_expires_ms) "
                         "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                         (run_id, workflow_name, workflow_hash, workflow_dir, workflow_json,
                          _dumps(sources), _dumps(inputs), _dumps(policy), _dumps(options),
                          "running", t, t, owner, t + LEASE_MS))
            conn.executemany("INSERT INTO steps (run_id, step_id, kind, status) "
                             "VALUES (?,?,?,'pending')",
                             [(run_id, sid, kind) for sid, kind in sorted(steps.items())])
            self._audit(conn, run_id, "run_started", None, audit_data)
        self._tx(insert)

    def run(self, run_id: str) -> dict:
        rows = self._read("SELECT * FROM runs WHERE run_id = ?", (run_id,))
        if not rows:
            raise JournalError("not_found", f"no run '{run_id}' in {self.path}")
        row = dict(rows[0])
        for key in ("sources_json", "inputs_json", "policy_json", "options_json"):
            row[key[:-5]] = json.loads(row.pop(key))
        return row

    def run_status(self, run_id: str) -> Optional[str]:
        rows = self._read("SELECT status FROM runs WHERE run_id = ?", (run_id,))
        return rows[0][0] if rows else None

    def effects_count(self, run_id: str) -> int:
        return self._read("SELECT COUNT(*) FROM effects WHERE run_id = ?", (run_id,))[0][0]

    def list_runs(self, status: Optional[str] = None) -> list[dict]:
        sql = ("SELECT run_id, workflow_name, workflow_hash, status, error, created_ms, "
               "updated_ms FROM runs")
        args: tuple = ()
        if status:
            sql += " WHERE status = ?"
            args = (status,)
        return [dict(r) for r in self._read(sql + " ORDER BY created_ms, run_id", args)]

    def steps(self, run_id: str) -> dict:
        rows = self._read("SELECT * FROM steps WHERE run_id = ? ORDER BY step_id", (run_id,))
        out = {}
        for r in rows:
            row = dict(r)
            raw = row.pop("outputs_json")
            row["outputs"] = json.loads(raw) if raw else None
            raw = row.pop("wait_json")
            row["wait"] = json.loads(raw) if raw else None
            out[row["step_id"]] = row
        return out

    def step_states(self, run_id: str, step_ids: list) -> dict:
        """step id → (status, outputs) for the given steps (the waiting ones, polled)."""
        out = {}
        for sid in step_ids:
            rows = self._read("SELECT status, outputs_json FROM steps WHERE run_id = ? AND "
                              "step_id = ?", (run_id, sid))
            if rows:
                out[sid] = (rows[0][0], json.loads(rows[0][1]) if rows[0][1] else None)
        return out

    def effects(self, run_id: str, step_id: Optional[str] = None,
                attempt: Optional[int] = None) -> list[dict]:
        sql = "SELECT * FROM effects WHERE run_id = ?"
        args: list = [run_id]
        if step_id is not None:
            sql += " AND step_id = ?"
            args.append(step_id)
        if attempt is not None:
            sql += " AND attempt = ?"
            args.append(attempt)
        rows = self._read(sql + " ORDER BY step_id, attempt, seq", tuple(args))
        return [{"step": r["step_id"], "attempt": r["attempt"], "seq": r["seq"],
                 "capability": r["capability"], "args": json.loads(r["args_json"]),
                 **({"error": r["error"]} if r["error"] is not None
                    else {"result": json.loads(r["result_json"])})} for r in rows]

    def set_run_status(self, run_id: str, status: str, error: Optional[str] = None,
                       audit_data: Optional[dict] = None) -> None:
        def update(conn):
            row = conn.execute("SELECT status FROM runs WHERE run_id = ?", (run_id,)).fetchone()
            conn.execute("UPDATE runs SET status = ?, error = ?, updated_ms = ? WHERE run_id = ?",
                         (status, error, now_ms(), run_id))
            if row is not None and row[0] != status and status != "running":
                self._audit(conn, run_id, f"run_{status}", None, audit_data or {})
        self._tx(update)

    def resume_run(self, run_id: str, audit: bool) -> None:
        """Back to `running`; cancelled and paused runs log `run_resumed` (a crash does not:
        an uninterrupted run and a crashed-and-resumed one keep the same chain)."""
        def update(conn):
            conn.execute("UPDATE runs SET status = 'running', error = NULL, updated_ms = ? "
                         "WHERE run_id = ?", (now_ms(), run_id))
            if audit:
                self._audit(conn, run_id, "run_resumed", None, {})
        self._tx(update)

    # ------------------------------------------------------------------ leases

    def acquire_lease(self, run_id: str, owner: str) -> None:
        def take(conn):
            row = conn.execute("SELECT lease_owner, lease_expires_ms FROM runs WHERE run_id = ?",
                               (run_id,)).fetchone()
            if row is None:
                raise JournalError("not_found", f"no run '{run_id}' in {self.path}")
            held, expires = row[0], row[1] or 0
            if held and held != owner and expires > now_ms() and _owner_alive(held):
                raise JournalError("lease_held", f"run '{run_id}' is being driven by another "
                                                 f"runner ({held}, lease valid for "
                                                 f"{max(0, expires - now_ms())} ms); wait for "
                                                 f"it to finish or stop it first")
            conn.execute("UPDATE runs SET lease_owner = ?, lease_expires_ms = ? WHERE run_id = ?",
                         (owner, now_ms() + LEASE_MS, run_id))
        self._tx(take)

    def renew_lease(self, run_id: str, owner: str) -> bool:
        def renew(conn):
            cur = conn.execute("UPDATE runs SET lease_expires_ms = ? WHERE run_id = ? AND "
                               "lease_owner = ?", (now_ms() + LEASE_MS, run_id, owner))
            return cur.rowcount == 1
        return self._tx(renew)

    def release_lease(self, run_id: str, owner: str) -> None:
        self._tx(lambda conn: conn.execute(
            "UPDATE runs SET lease_owner = NULL, lease_expires_ms = NULL WHERE run_id = ? AND "
            "lease_owner = ?", (run_id, owner)))

    # ------------------------------------------------------------------ steps

    def start_attempt(self, run_id: str, step_id: str) -> tuple[int, list]:
        """The attempt to run and the effects to replay: an attempt that was interrupted
        (crash, cancellation) is run again with its journal; otherwise a new attempt."""
        def start(conn):
            row = conn.execute("SELECT attempt, live_attempt FROM steps WHERE run_id = ? AND "
                               "step_id = ?", (run_id, step_id)).fetchone()
            if row["live_attempt"] is not None:
                attempt = row["live_attempt"]
                conn.execute("UPDATE steps SET status = 'running' WHERE run_id = ? AND "
                             "step_id = ?", (run_id, step_id))
                return attempt, True
            attempt = row["attempt"] + 1
            conn.execute("UPDATE steps SET status = 'running', attempt = ?, live_attempt = ?, "
                         "retry_at_ms = NULL, started_ms = ? WHERE run_id = ? AND step_id = ?",
                         (attempt, attempt, now_ms(), run_id, step_id))
            self._audit(conn, run_id, "step_started", step_id, {"attempt": attempt})
            return attempt, False
        attempt, resumed = self._tx(start)
        return attempt, (self.effects(run_id, step_id, attempt) if resumed else [])

    def record_effect(self, run_id: str, step_id: str, attempt: int, seq: int,
                      capability: str, args, result=None, error: Optional[str] = None) -> None:
        """Journal one capability call and its result (or handler error), and its audit entry."""
        def insert(conn):
            conn.execute("INSERT INTO effects (run_id, step_id, attempt, seq, capability, "
                         "args_json, result_json, error, created_ms) VALUES (?,?,?,?,?,?,?,?,?)",
                         (run_id, step_id, attempt, seq, capability, _dumps(args),
                          None if error is not None else _dumps(result), error, now_ms()))
            data = {"attempt": attempt, "seq": seq, "capability": capability, "args": args}
            data.update({"error": error} if error is not None else {"result": result})
            self._audit(conn, run_id, "capability_call", step_id, data)
        self._tx(insert)

    def complete_step(self, run_id: str, step_id: str, outputs: dict, vm_steps: int = 0,
                      event: str = "step_completed", data: Optional[dict] = None) -> None:
        def update(conn):
            conn.execute("UPDATE steps SET status = 'completed', outputs_json = ?, "
                         "live_attempt = NULL, vm_steps = ?, error_kind = NULL, error = NULL, "
                         "wait_json = NULL, finished_ms = ? WHERE run_id = ? AND step_id = ?",
                         (_dumps(outputs), vm_steps, now_ms(), run_id, step_id))
            self._drop_suspension(conn, run_id, step_id)
            self._audit(conn, run_id, event, step_id, dict(data or {}, outputs=outputs))
        self._tx(update)

    def fail_step(self, run_id: str, step_id: str, error_kind: str, error: str,
                  retry_at_ms: Optional[int] = None, vm_steps: int = 0,
                  event: Optional[str] = None, data: Optional[dict] = None) -> None:
        """A failed attempt: `pending` again when a retry is due at `retry_at_ms`, else
        `failed`."""
        def update(conn):
            status = "pending" if retry_at_ms is not None else "failed"
            conn.execute("UPDATE steps SET status = ?, live_attempt = NULL, error_kind = ?, "
                         "error = ?, retry_at_ms = ?, vm_steps = ?, wait_json = NULL, "
                         "finished_ms = ? WHERE run_id = ? AND step_id = ?",
                         (status, error_kind, error, retry_at_ms, vm_steps, now_ms(), run_id,
                          step_id))
            self._drop_suspension(conn, run_id, step_id)
            name = event or ("step_retry_scheduled" if retry_at_ms is not None else "step_failed")
            self._audit(conn, run_id, name, step_id,
                        dict(data or {}, error_kind=error_kind, error=error))
        self._tx(update)

    def skip_steps(self, run_id: str, skipped: dict) -> None:
        """`skipped` = step id → the failed step it depends on."""
        def update(conn):
            for sid in sorted(skipped):
                conn.execute("UPDATE steps SET status = 'skipped', error_kind = 'skipped', "
                             "error = ? WHERE run_id = ? AND step_id = ?",
                             (f"skipped: upstream step '{skipped[sid]}' did not complete",
                              run_id, sid))
                self._audit(conn, run_id, "step_skipped", sid, {"because": skipped[sid]})
        self._tx(update)

    def interrupt_step(self, run_id: str, step_id: str) -> None:
        """A cancelled attempt: pending again, its attempt and journal kept for replay."""
        self._tx(lambda conn: conn.execute(
            "UPDATE steps SET status = 'pending' WHERE run_id = ? AND step_id = ? AND "
            "status = 'running'", (run_id, step_id)))

    def await_step(self, run_id: str, step_id: str, status: str, wait: dict,
                   audit_data: dict) -> None:
        def update(conn):
            conn.execute("UPDATE steps SET status = ?, wait_json = ?, started_ms = ? "
                         "WHERE run_id = ? AND step_id = ?",
                         (status, _dumps(wait), now_ms(), run_id, step_id))
            event = "approval_requested" if status == "awaiting_approval" else "trigger_awaited"
            self._audit(conn, run_id, event, step_id, audit_data)
        self._tx(update)

    # ------------------------------------------------------------------ suspended steps

    @staticmethod
    def _drop_suspension(conn, run_id: str, step_id: str) -> None:
        conn.execute("DELETE FROM suspensions WHERE run_id = ? AND step_id = ?",
                     (run_id, step_id))

    def suspend_step(self, run_id: str, step_id: str, attempt: int, seq: int,
                     capability: str, args, snapshot: bytes, vm_steps: int) -> None:
        """A step stopped at a delegated capability call (its `seq`-th call): the VM's
        snapshot (its own SHA-256 at the end, also kept here and in the audit entry) and the
        request are stored and the step waits (`awaiting_input`), its attempt kept."""
        digest = hashlib.sha256(snapshot).hexdigest()
        request = {"capability": capability, "args": args}

        def update(conn):
            conn.execute("INSERT OR REPLACE INTO suspensions (run_id, step_id, attempt, seq, "
                         "capability, args_json, snapshot, snapshot_sha256, vm_steps, answered, "
                         "created_ms) VALUES (?,?,?,?,?,?,?,?,?,0,?)",
                         (run_id, step_id, attempt, seq, capability, _dumps(args),
                          sqlite3.Binary(snapshot), digest, vm_steps, now_ms()))
            conn.execute("UPDATE steps SET status = 'awaiting_input', wait_json = ?, "
                         "vm_steps = ? WHERE run_id = ? AND step_id = ?",
                         (_dumps({"request": request, "steps": vm_steps}), vm_steps, run_id,
                          step_id))
            self._audit(conn, run_id, "input_requested", step_id,
                        {"attempt": attempt, "seq": seq, "capability": capability,
                         "args": args, "snapshot_sha256": digest, "vm_steps": vm_steps})
        self._tx(update)

    def suspension(self, run_id: str, step_id: str) -> Optional[dict]:
        """The step's stored snapshot and request (None when it has none); a snapshot whose
        bytes no longer match their digest is `journal_corrupt`."""
        rows = self._read("SELECT * FROM suspensions WHERE run_id = ? AND step_id = ?",
                          (run_id, step_id))
        if not rows:
            return None
        r = rows[0]
        snapshot = bytes(r["snapshot"])
        if hashlib.sha256(snapshot).hexdigest() != r["snapshot_sha256"]:
            raise JournalError("journal_corrupt", f"{self.path}: the stored snapshot of step "
                                                  f"'{step_id}' of run '{run_id}' does not "
                                                  f"match its SHA-256")
        return {"attempt": r["attempt"], "seq": r["seq"], "capability": r["capability"],
                "args": json.loads(r["args_json"]), "snapshot": snapshot,
                "snapshot_sha256": r["snapshot_sha256"], "vm_steps": r["vm_steps"],
                "answered": bool(r["answered"])}

    def answer_step(self, run_id: str, step_id: str, result) -> None:
        """The caller's answer to a step's delegated call: journaled as that call's effect
        (so a run of the attempt from its start replays it), the snapshot marked answered,
        the step pending again (it goes on from the snapshot). `invalid_state` when the
        step no longer waits (another answer came first)."""
        def update(conn):
            row = conn.execute("SELECT s.status, p.attempt, p.seq, p.capability, p.args_json, "
                               "p.answered FROM steps s JOIN suspensions p ON p.run_id = "
                               "s.run_id AND p.step_id = s.step_id WHERE s.run_id = ? AND "
                               "s.step_id = ?", (run_id, step_id)).fetchone()
            if row is None or row["status"] != "awaiting_input" or row["answered"]:
                raise JournalError("invalid_state", f"step '{step_id}' of run '{run_id}' "
                                                    f"waits for no answer")
            conn.execute("INSERT INTO effects (run_id, step_id, attempt, seq, capability, "
                         "args_json, result_json, error, created_ms) "
                         "VALUES (?,?,?,?,?,?,?,NULL,?)",
                         (run_id, step_id, row["attempt"], row["seq"], row["capability"],
                          row["args_json"], _dumps(result), now_ms()))
            conn.execute("UPDATE suspensions SET answered = 1 WHERE run_id = ? AND "
                         "step_id = ?", (run_id, step_id))
            conn.execute("UPDATE steps SET status = 'pending', wait_json = NULL WHERE "
                         "run_id = ? AND step_id = ?", (run_id, step_id))
            self._audit(conn, run_id, "input_answered", step_id,
                        {"attempt": row["attempt"], "seq": row["seq"],
                         "capability": row["capability"],
                         "args": json.loads(row["args_json"]), "result": result})
        self._tx(update)
