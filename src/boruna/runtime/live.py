"""Live capability handlers: real I/O, only on request (`--live`), each bounded.

`HandlerConfig` is what a caller (the CLI's `boruna run`, `boruna-mcp`) asks for: the
deterministic mock (the default), or live handlers with a file root, a SQLite database and
an LLM endpoint, and whether to record the capability calls. `LiveHandler` answers:

- `net.fetch(url)`: an HTTP GET under the policy's `net_policy` (domains, methods, body
  size, timeout, redirects, each hop checked again); loopback and private addresses are
  refused unless `allowed_domains` names the host exactly.
- `fs.read(path)` / `fs.write(path, content)`: relative paths inside `fs_root` only.
- `db.query(sql)`: one statement on the SQLite file `db` (read-only unless `db_write`).
- `time.now()`, `random()`: the real clock and the OS generator.
- `llm.call(prompt)`: an OpenAI-compatible chat endpoint when one is configured, else the
  mock's answer.

Everything else (`step.input`, `ui.render`, actors) answers as the mock does. A failure is
a `HandlerError` (a clean runtime error), never an exception of the I/O library.
"""
from __future__ import annotations

import http.client
import ipaddress
import json
import os
import random as _random
import socket
import sqlite3
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from boruna.core import capabilities as caps
from boruna.core.display import display
from boruna.core.paths import is_inside
from boruna.core.values import MapValue
from boruna.runtime.handlers import HandlerError, MockHandler

FS_READ_LIMIT = 10 * 1024 * 1024
"""Bytes `fs.read` reads at most (a larger file is an error)."""
DB_ROW_LIMIT = 100_000
"""Rows `db.query` returns at most (more is an error)."""
MAX_REDIRECTS = 10
DEFAULT_NET_TIMEOUT_MS = 30_000
DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024
LLM_ENV = ("BORUNA_LLM_ENDPOINT", "BORUNA_LLM_MODEL", "BORUNA_LLM_API_KEY")


@dataclass(frozen=True)
class HandlerConfig:
    """Which handlers a run gets. `live=False` is the deterministic mock; the other fields
    matter only with `live=True` (no `fs_root`: no file access; no `db`: no database)."""

    live: bool = False
    fs_root: Optional[str] = None
    db: Optional[str] = None
    db_write: bool = False
    llm_endpoint: Optional[str] = None
    llm_model: Optional[str] = None
    llm_api_key: Optional[str] = None

    @classmethod
    def from_env(cls, live: bool = False, fs_root=None, db=None, db_write=False,
                 llm_endpoint=None, llm_model=None, environ=None) -> "HandlerConfig":
        """A config whose LLM settings not given fall back to `BORUNA_LLM_ENDPOINT`,
        `BORUNA_LLM_MODEL` and `BORUNA_LLM_API_KEY`."""
        env = os.environ if environ is None else environ
        return cls(live, None if fs_root is None else str(fs_root),
                   None if db is None else str(db), bool(db_write),
                   llm_endpoint or env.get("BORUNA_LLM_ENDPOINT") or None,
                   llm_model or env.get("BORUNA_LLM_MODEL") or None,
                   env.get("BORUNA_LLM_API_KEY") or None)

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
    """Real I/O for the capabilities, bounded by the config and the policy's `net_policy`."""

    def __init__(self, config: HandlerConfig, net_policy=None):
        self.config = config
        self.net = net_policy
        self.mock = MockHandler()
        self._rng = _random.SystemRandom()

    def handle(self, cap, args):
        try:
            return self._handle(cap, args)
        except HandlerError:
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

    # ------------------------------------------------------------ net.fetch

    def _net(self, field: str, default):
        value = getattr(self.net, field, None) if self.net is not None else None
        return default if value is None else value

    def fetch(self, url: str) -> str:
        domains = list(self._net("allowed_domains", []))
        methods = list(self._net("allowed_methods", []))
        limit = int(self._net("max_response_bytes", DEFAULT_MAX_RESPONSE_BYTES))
        timeout = int(self._net("timeout_ms", DEFAULT_NET_TIMEOUT_MS)) / 1000.0
        redirects = MAX_REDIRECTS if self._net("allow_redirects", True) else 0
        if methods and "GET" not in methods:
            raise HandlerError(f"HTTP method 'GET' not in allowlist: [{', '.join(methods)}]")
        opener = urllib.request.build_opener(_NoRedirect)
        current = url
        while True:
            _check_url(current, domains)
            request = urllib.request.Request(current, method="GET")
            try:
                response = opener.open(request, timeout=timeout)
            except urllib.error.HTTPError as err:
                if err.code in (301, 302, 303, 307, 308) and redirects > 0:
                    location = err.headers.get("Location")
                    err.close()
                    if not location:
                        raise HandlerError(f"redirect {err.code} without a Location header")
                    current = urllib.parse.urljoin(current, location)
                    redirects -= 1
                    continue
                response = err        # a terminal status: its body is the answer
            except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as err:
                reason = getattr(err, "reason", err)
                if isinstance(reason, (socket.timeout, TimeoutError)):
                    raise HandlerError(f"HTTP request timed out after "
                                       f"{self._net('timeout_ms', DEFAULT_NET_TIMEOUT_MS)} ms")
                raise HandlerError(f"HTTP request failed: {reason}")
            return _read_body(response, limit, self._net("timeout_ms", DEFAULT_NET_TIMEOUT_MS))

    # ------------------------------------------------------------ fs.read / fs.write

    def _fs_path(self, path: str, what: str) -> Path:
        root = self.config.fs_root
        if root is None:
            raise HandlerError(f"{what}: no file access (start with --fs-root DIR)")
        if path == "" or "\0" in path:
            raise HandlerError(f"{what}: invalid path {json.dumps(path)}")
        pure = Path(path)
        if pure.is_absolute() or path.startswith(("/", "\\")) or (len(path) > 1 and path[1] == ":"):
            raise HandlerError(f"{what}: absolute path refused: {path}")
        if ".." in pure.parts or ".." in path.replace("\\", "/").split("/"):
            raise HandlerError(f"{what}: `..` refused: {path}")
        base = Path(root)
        target = base / pure
        if not is_inside(base, target):
            raise HandlerError(f"{what}: path leaves the file root: {path}")
        return target.resolve()

    def read_file(self, path: str) -> str:
        target = self._fs_path(path, "fs.read")
        try:
            fd = os.open(target, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError as err:
            raise HandlerError(f"fs.read: cannot open {path}: {err.strerror}")
        with os.fdopen(fd, "rb") as fh:
            data = fh.read(FS_READ_LIMIT + 1)
        if len(data) > FS_READ_LIMIT:
            raise HandlerError(f"fs.read: {path} is larger than {FS_READ_LIMIT} bytes")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise HandlerError(f"fs.read: {path} is not valid UTF-8")

    def write_file(self, path: str, content: str) -> bool:
        target = self._fs_path(path, "fs.write")
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(target, flags, 0o644)
        except OSError as err:
            raise HandlerError(f"fs.write: cannot open {path}: {err.strerror}")
        with os.fdopen(fd, "wb") as fh:
            fh.write(content.encode("utf-8", "replace"))
        return True

    # ------------------------------------------------------------ db.query

    def query(self, sql: str):
        db = self.config.db
        if db is None:
            raise HandlerError("db.query: no database (start with --db FILE)")
        mode = "rw" if self.config.db_write else "ro"
        uri = "file:" + urllib.parse.quote(str(Path(db).resolve())) + f"?mode={mode}"
        try:
            conn = sqlite3.connect(uri, uri=True, timeout=1.0)
        except sqlite3.Error as err:
            raise HandlerError(f"db.query: cannot open the database: {err}")
        conn.set_authorizer(_no_attach)
        try:
            try:
                cursor = conn.execute(sql)
                names = [d[0] for d in cursor.description or ()]
                rows = cursor.fetchmany(DB_ROW_LIMIT + 1)
                conn.commit()
            except (sqlite3.Error, sqlite3.Warning, ValueError, OverflowError) as err:
                raise HandlerError(f"db.query: {err}")
        finally:
            conn.close()
        if len(rows) > DB_ROW_LIMIT:
            raise HandlerError(f"db.query: more than {DB_ROW_LIMIT} rows")
        return tuple(MapValue({name: _db_value(name, v) for name, v in zip(names, row)})
                     for row in rows)

    # ------------------------------------------------------------ llm.call

    def ask_llm(self, prompt: str) -> str:
        cfg = self.config
        body = {"model": cfg.llm_model or "default",
                "messages": [{"role": "user", "content": prompt}]}
        headers = {"Content-Type": "application/json"}
        if cfg.llm_api_key:
            headers["Authorization"] = f"Bearer {cfg.llm_api_key}"
        url = cfg.llm_endpoint.rstrip("/") + "/chat/completions"
        request = urllib.request.Request(url, json.dumps(body).encode("utf-8"), headers,
                                         method="POST")
        try:
            with urllib.request.urlopen(request, timeout=DEFAULT_NET_TIMEOUT_MS / 1000) as resp:
                answer = json.loads(resp.read(DEFAULT_MAX_RESPONSE_BYTES).decode("utf-8"))
            return str(answer["choices"][0]["message"]["content"])
        except (OSError, ValueError, KeyError, IndexError, TypeError) as err:
            raise HandlerError(f"llm.call failed: {err}")


def _no_attach(action, *rest):
    """SQLite authorizer: no ATTACH/DETACH (another database file is outside `--db`)."""
    if action in (sqlite3.SQLITE_ATTACH, sqlite3.SQLITE_DETACH):
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


def _db_value(name: str, value):
    if value is None or type(value) in (int, float, str):
        if type(value) is int and not -2**63 <= value < 2**63:
            raise HandlerError(f"db.query: column `{name}` holds an integer out of range")
        return value
    raise HandlerError(f"db.query: column `{name}` holds a BLOB, which has no .ax type")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Redirects come back as HTTPError, so every hop is checked again before it is taken."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


def _host_allowed(host: str, domains: list) -> bool:
    for pattern in domains:
        if pattern.startswith("*."):
            if host.endswith(pattern[1:]) or host == pattern[2:]:
                return True
        elif host == pattern:
            return True
    return False


def _is_private(ip) -> bool:
    return (ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_unspecified
            or ip.is_reserved or ip.is_multicast or ip in ipaddress.ip_network("100.64.0.0/10"))


def _check_url(url: str, domains: list) -> None:
    """Scheme, host allowlist, and no private address unless the allowlist names the host."""
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError as err:
        raise HandlerError(f"invalid URL '{url}': {err}")
    if parts.scheme not in ("http", "https"):
        raise HandlerError(f"blocked scheme '{parts.scheme}': only http/https allowed")
    host = (parts.hostname or "")
    if not host:
        raise HandlerError("URL has no host")
    if domains and not _host_allowed(host, domains):
        raise HandlerError(f"domain '{host}' not in allowlist: [{', '.join(domains)}]")
    named = host in domains
    if named:
        return
    if host.lower() == "localhost":
        raise HandlerError(f"blocked request to localhost ({host})")
    try:
        addresses = [ipaddress.ip_address(host)]
    except ValueError:
        try:
            infos = socket.getaddrinfo(host, port or (443 if parts.scheme == "https" else 80))
        except (OSError, UnicodeError) as err:
            raise HandlerError(f"failed to resolve host '{host}': {err}")
        addresses = [ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos]
    for ip in addresses:
        if _is_private(ip):
            raise HandlerError(f"blocked request to private/reserved IP ({ip}); name the "
                               f"host in net_policy.allowed_domains to allow it")


def _read_body(response, limit: int, timeout_ms) -> str:
    try:
        with response:
            data = response.read(limit + 1)
    except (socket.timeout, TimeoutError):
        raise HandlerError(f"HTTP request timed out after {timeout_ms} ms")
    except (OSError, http.client.HTTPException) as err:
        raise HandlerError(f"failed to read response body: {err!r}")
    if len(data) > limit:
        raise HandlerError(f"response body exceeds max_response_bytes ({limit})")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise HandlerError("response body is not valid UTF-8")
