"""The Dask engine (`--engine dask`, `pip install 'boruna[dask]'`): ready steps run as Dask
tasks on the scheduler at `--scheduler ADDR`, or on a `LocalCluster` started for the run.

The journal stays on the coordinating process. A worker compiles and runs the step with
`step.run_step`; each capability call is sent back over a loopback/TCP connection (the
coordinator's `_JournalServer`, authenticated with a per-run key) and the worker waits for
the journal's answer before the step continues, exactly as on the local engine. The
coordinator keeps each running attempt's effects as journaled so far: a task that Dask runs
again because its worker died asks for them first, replays them, and goes on live.
Cancellation does not reach a step already running on a worker; its `timeout_ms` does.
"""
from __future__ import annotations

import secrets
import socket
import threading
import uuid
from concurrent.futures import Future
from multiprocessing.connection import Client as _Connect
from multiprocessing.connection import Listener

from boruna.workflow.engines.base import StepOutcome, StepTask


class _JournalServer(threading.Thread):
    """Answers workers: `("replay", key)` → the attempt's journaled effects so far,
    `("effect", key, fields)` → journal it, then `None` or the failure `(kind, message)`."""

    def __init__(self, host: str):
        super().__init__(name="boruna-dask-journal", daemon=True)
        self.authkey = secrets.token_bytes(32)
        self.listener = Listener((host, 0), authkey=self.authkey)
        self.address = self.listener.address
        self.tasks: dict = {}          # key → (journal fn, effects so far)
        self.lock = threading.Lock()
        self.closed = False

    def run(self):
        while not self.closed:
            try:
                conn = self.listener.accept()
            except Exception:  # noqa: BLE001 - a bad handshake or the listener closing
                continue
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        try:
            while True:
                message = conn.recv()
                with self.lock:
                    journal, effects = self.tasks.get(message[1], (None, None))
                if journal is None:
                    conn.send(("journal_error", "the coordinator no longer runs this step"))
                elif message[0] == "replay":
                    conn.send(list(effects))
                else:
                    fields = message[2]
                    try:
                        journal(**fields)
                    except Exception as exc:  # noqa: BLE001 - the worker reports it
                        conn.send((getattr(exc, "kind", "journal_error"),
                                   getattr(exc, "message", str(exc))))
                        continue
                    effect = {k: fields[k] for k in ("capability", "args") if k in fields}
                    effect.update({"error": fields["error"]} if fields.get("error") is not None
                                  else {"result": fields.get("result")})
                    effects.append(effect)
                    conn.send(None)
        except (EOFError, OSError):
            pass
        finally:
            conn.close()

    def close(self):
        self.closed = True
        try:
            _Connect(self.address, authkey=self.authkey).close()
        except Exception:  # noqa: BLE001
            pass
        self.listener.close()


class _RemoteJournalError(Exception):
    def __init__(self, kind, message):
        self.kind, self.message = kind, message
        super().__init__(message)


def run_remote(task: StepTask, address, authkey: bytes, key: str) -> StepOutcome:
    """The Dask task: fetch the attempt's journal so far, run the step, journal each call
    through the coordinator before going on."""
    from boruna.workflow.engines.step import run_step

    conn = _Connect(address, authkey=authkey)
    try:
        conn.send(("replay", key))
        replay = conn.recv()
        if isinstance(replay, tuple):
            raise _RemoteJournalError(*replay)
        task.replay = replay

        def journal(**fields):
            conn.send(("effect", key, fields))
            answer = conn.recv()
            if answer is not None:
                raise _RemoteJournalError(*answer)

        return run_step(task, journal)
    finally:
        conn.close()


def _advertised_host(client) -> str:
    """An address of this process the workers can reach: loopback for a local cluster."""
    try:
        scheduler = client.scheduler.address
    except AttributeError:
        scheduler = ""
    if "127.0.0.1" in scheduler or "localhost" in scheduler or scheduler.startswith("inproc"):
        return "127.0.0.1"
    return socket.gethostbyname(socket.gethostname())


class DaskExecutor:
    name = "dask"

    def __init__(self, concurrency: int = 1, scheduler_address=None, n_workers: int = 2):
        from distributed import Client, LocalCluster

        self.cluster = None
        if scheduler_address:
            self.client = Client(scheduler_address)
        else:
            self.cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1,
                                        processes=True, dashboard_address=None)
            self.client = Client(self.cluster)
        self.server = _JournalServer(_advertised_host(self.client))
        self.server.start()

    def submit(self, task: StepTask, journal, cancel: threading.Event, on_progress=None) -> Future:
        key = f"boruna-step-{task.step_id}-{task.attempt}-{uuid.uuid4().hex[:8]}"
        with self.server.lock:
            self.server.tasks[key] = (journal, list(task.replay))
        done: Future = Future()
        remote = self.client.submit(run_remote, task, self.server.address, self.server.authkey,
                                    key, key=key, pure=False)

        def finished(f):
            with self.server.lock:
                self.server.tasks.pop(key, None)
            try:
                done.set_result(f.result())
            except _RemoteJournalError as exc:
                done.set_result(StepOutcome(False, aborted=exc.message, aborted_kind=exc.kind))
            except Exception as exc:  # noqa: BLE001 - a lost task is a journal-level stop
                done.set_result(StepOutcome(False, aborted=f"dask task failed: {exc}",
                                            aborted_kind="journal_error"))

        remote.add_done_callback(finished)
        return done

    def shutdown(self) -> None:
        self.server.close()
        try:
            self.client.close()
        finally:
            if self.cluster is not None:
                self.cluster.close()
