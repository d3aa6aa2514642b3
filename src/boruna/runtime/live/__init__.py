"""Live capability handlers: real I/O, only on request (`--live`), each bounded.

`HandlerConfig` is what a caller (the CLI's `boruna run`, `boruna-mcp`) asks for: the
deterministic mock (the default), or live handlers with a file root, a SQLite database and
an LLM endpoint. `LiveHandler` answers, one module per concern:

- `net.fetch(url)` (`net.py`): an HTTP GET under the policy's `net_policy`; loopback and
  private addresses are refused unless `allowed_domains` names the host exactly.
- `fs.read(path)` / `fs.write(path, content)` (`fs.py`): relative paths inside `fs_root`,
  resolved by directory descriptors, regular files with one link only.
- `db.query(sql)` (`db.py`): one statement on the SQLite file `db` (read-only unless
  `db_write`), stopped at the run's deadline, its result counted against the VM's limits.
- `time.now()`, `random()`: the real clock and the OS generator.
- `llm.call(prompt)` (`llm.py`): an OpenAI-compatible chat endpoint when one is configured,
  else the mock's answer; redirects are never followed.

Every blocking call takes its deadline from the run's clock (`deadline.RunClock`, bound by
the gateway through `bind_clock`). Everything else (`step.input`, `ui.render`, actors)
answers as the mock does. A failure is a `HandlerError` (a clean runtime error), never an
exception of the I/O library.
"""
from __future__ import annotations

import os
import random as _random
import time
from dataclasses import dataclass
from typing import Any, Optional

from boruna.core import capabilities as caps
from boruna.core.display import display
from boruna.core.errors import VmError
from boruna.runtime.deadline import UNBOUNDED
from boruna.runtime.handlers import HandlerError, MockHandler
from boruna.runtime.live import db as _db
from boruna.runtime.live import llm as _llm
from boruna.runtime.live import net as _net
from boruna.runtime.live.db import DB_ROW_LIMIT
from boruna.runtime.live.fs import FS_READ_LIMIT, FileRoot
from boruna.runtime.live.net import (
    DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_NET_TIMEOUT_MS, MAX_REDIRECTS, host_allowed,
)

_host_allowed = host_allowed
LLM_ENV = ("BORUNA_LLM_ENDPOINT", "BORUNA_LLM_MODEL", "BORUNA_LLM_API_KEY")
__all__ = ["HandlerConfig", "LiveHandler", "MOCK", "FS_READ_LIMIT", "DB_ROW_LIMIT",
           "MAX_REDIRECTS", "DEFAULT_NET_TIMEOUT_MS", "DEFAULT_MAX_RESPONSE_BYTES", "LLM_ENV"]


@dataclass(frozen=True)
class HandlerConfig:
    """Which handlers a run gets. `live=False` is the deterministic mock; the other fields
    matter only with `live=True` (no `fs_root`: no file access; no `db`: no database).
    `default_policy` (a Policy, or None) is the policy of a run that names none (the MCP
    server's `--live` sets deny-all unless `--policy FILE` names another)."""

    live: bool = False
    fs_root: Optional[str] = None
    db: Optional[str] = None
    db_write: bool = False
    llm_endpoint: Optional[str] = None
    llm_model: Optional[str] = None
    llm_api_key: Optional[str] = None
    default_policy: Any = None

    @classmethod
    def from_env(cls, live: bool = False, fs_root=None, db=None, db_write=False,
                 llm_endpoint=None, llm_model=None, environ=None,
                 default_policy=None) -> "HandlerConfig":
        """A config whose LLM settings not given fall back to `BORUNA_LLM_ENDPOINT`,
        `BORUNA_LLM_MODEL` and `BORUNA_LLM_API_KEY`."""
        env = os.environ if environ is None else environ
        return cls(live, None if fs_root is None else str(fs_root),
                   None if db is None else str(db), bool(db_write),
                   llm_endpoint or env.get("BORUNA_LLM_ENDPOINT") or None,
                   llm_model or env.get("BORUNA_LLM_MODEL") or None,
                   env.get("BORUNA_LLM_API_KEY") or None, default_policy)

    def handler(self, policy=None):
        """A fresh handler for one run under `policy` (its `net_policy` bounds `net.fetch`)."""
        if not self.live:
            return MockHandler()
        return LiveHandler(self, getattr(policy, "net_policy", None))


MOCK = HandlerConfig()


def _arg_text(args, index: int, what: str) -> str:
    if len(args) <= index:
        raise HandlerError(f"{what} requires {index + 1} argument(s)")
    value = args[index]
    return value if type(value) is str else display(value)


class LiveHandler:
    """Real I/O for the capabilities, bounded by the config, the policy's `net_policy` and
    the run's clock (`bind_clock`; a handler used outside a run has no deadline)."""

    def __init__(self, config: HandlerConfig, net_policy=None):
        self.config = config
        self.net = net_policy
        self.mock = MockHandler()
        self.clock = UNBOUNDED
        self._rng = _random.SystemRandom()
        self._files = None if config.fs_root is None else FileRoot(config.fs_root)

    def bind_clock(self, clock) -> None:
        self.clock = clock

    def handle(self, cap, args):
        try:
            return self._handle(cap, args)
        except (HandlerError, VmError):    # a VmError: a VM limit the result would pass
            raise
        except Exception as exc:   # an I/O library's own error is still a clean runtime error
            raise HandlerError(f"{cap.wire_name} failed: {type(exc).__name__}: {exc}") from None

    def _handle(self, cap, args):
        cid = cap.id
        if cid == caps.NET_FETCH:
            return self.fetch(_arg_text(args, 0, "net.fetch"))
        if cid == caps.FS_READ:
            return self.read_file(_arg_text(args, 0, "fs.read"))
        if cid == caps.FS_WRITE:
            return self.write_file(_arg_text(args, 0, "fs.write"), _arg_text(args, 1, "fs.write"))
        if cid == caps.DB_QUERY:
            return self.query(_arg_text(args, 0, "db.query"))
        if cid == caps.TIME_NOW:
            return int(time.time())
        if cid == caps.RANDOM:
            return self._rng.random()
        if cid == caps.LLM_CALL and self.config.llm_endpoint:
            return self.ask_llm(_arg_text(args, 0, "llm.call"))
        return self.mock.handle(cap, args)

    def fetch(self, url: str) -> str:
        return _net.fetch(url, self.net, self.clock)

    def _root(self, what: str) -> FileRoot:
        if self._files is None:
            raise HandlerError(f"{what}: no file access (start with --fs-root DIR)")
        return self._files

    def read_file(self, path: str) -> str:
        return self._root("fs.read").read(path)

    def write_file(self, path: str, content: str) -> bool:
        return self._root("fs.write").write(path, content)

    def query(self, sql: str):
        if self.config.db is None:
            raise HandlerError("db.query: no database (start with --db FILE)")
        return _db.query(self.config.db, self.config.db_write, sql, self.clock)

    def ask_llm(self, prompt: str) -> str:
        cfg = self.config
        return _llm.ask(cfg.llm_endpoint, cfg.llm_model, cfg.llm_api_key, prompt, self.clock)
