"""One bounded HTTP exchange: one deadline for all of it, the checked address, no extras.

`exchange()` is the only way the live handlers speak HTTP (net.fetch, llm.call):

- **One deadline** for the whole request: name resolution, connect, TLS, sending, the status
  line, the headers and the body. A watchdog thread shuts the socket down when the deadline
  passes (or the run is cancelled), so a server trickling one byte at a time cannot keep a
  request alive past it; per-read timeouts alone would let it. The caller picks the deadline:
  its own timeout, shortened to what is left of the run's wall clock (`RunClock.budget`).
- **The checked address is the one connected to**: the host is resolved once (`resolve`,
  itself bounded by the deadline), the caller checks the addresses, and the connection goes
  to exactly those, so a second DNS answer cannot point the request somewhere else.
- **No redirects are followed here** and no header is added but Host, User-Agent,
  Accept-Encoding: identity, Connection: close (and Content-Type/Length with a body): what a
  redirect does is each caller's decision, and credentials are only what it passes itself.

A timeout is `RequestTimeout`, any other failure a `HandlerError`.
"""
from __future__ import annotations

import errno
import http.client
import ipaddress
import os
import select
import socket
import ssl
import threading
import time
import urllib.parse
from dataclasses import dataclass
from typing import Optional

from boruna.runtime.handlers import HandlerError

USER_AGENT = "boruna"
_IN_PROGRESS = {errno.EINPROGRESS, errno.EALREADY, errno.EWOULDBLOCK,
                getattr(errno, "WSAEWOULDBLOCK", errno.EWOULDBLOCK)}
POLL_SECONDS = 0.05
"""How often a waiting request looks at the run's cancel event."""


class RequestTimeout(HandlerError):
    """The request's deadline passed (or its run was cancelled) before it completed."""


@dataclass
class Answer:
    status: int
    reason: str
    headers: object           # http.client.HTTPMessage
    body: bytes               # at most `limit + 1` bytes


def default_port(parts) -> int:
    return parts.port or (443 if parts.scheme == "https" else 80)


def _wait(event: threading.Event, deadline: float, clock) -> bool:
    """Wait for `event` until the deadline; False when it passed or the run was cancelled."""
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or clock.cancelled():
            return False
        if event.wait(min(left, POLL_SECONDS) if clock.cancel_event is not None else left):
            return True


def resolve(host: str, port: int, deadline: float, clock) -> list:
    """`getaddrinfo` answers for (host, port) as (family, sockaddr) pairs, bounded by the
    deadline (the lookup runs on a helper thread; one that never answers is abandoned).
    An IP address literal needs no lookup."""
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        family = socket.AF_INET6 if literal.version == 6 else socket.AF_INET
        return [(family, (host, port))]
    done = threading.Event()
    box: dict = {}

    def lookup():
        try:
            box["infos"] = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError) as err:
            box["error"] = err
        done.set()

    threading.Thread(target=lookup, name="boruna-dns", daemon=True).start()
    if not _wait(done, deadline, clock):
        raise RequestTimeout(f"resolving '{host}' timed out")
    if "error" in box:
        raise HandlerError(f"failed to resolve host '{host}': {box['error']}")
    return [(info[0], info[4]) for info in box["infos"]]


def _connect(addresses: list, deadline: float, clock) -> socket.socket:
    """A socket connected to the first of `addresses` that answers before the deadline."""
    last: Optional[OSError] = None
    for family, sockaddr in addresses:
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setblocking(False)
            code = sock.connect_ex(sockaddr)
            while code != 0:
                if code not in _IN_PROGRESS:
                    raise OSError(code, os.strerror(code))
                left = deadline - time.monotonic()
                if left <= 0 or clock.cancelled():
                    raise RequestTimeout("connect timed out")
                _, writable, _ = select.select([], [sock], [], min(left, POLL_SECONDS))
                if writable:
                    code = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                    if code != 0:
                        raise OSError(code, os.strerror(code))
                    break
            sock.setblocking(True)
            return sock
        except RequestTimeout:
            sock.close()
            raise
        except OSError as err:
            sock.close()
            last = err
    raise HandlerError(f"HTTP request failed: {last if last is not None else 'no address'}")


class _Watchdog:
    """Shuts the socket down once the deadline passes or the run is cancelled."""

    def __init__(self, deadline: float, clock):
        self.deadline = deadline
        self.clock = clock
        self.sock: Optional[socket.socket] = None
        self.done = threading.Event()
        self.fired = False
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._watch, name="boruna-http-deadline",
                                        daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        if _wait(self.done, self.deadline, self.clock):
            return
        with self._lock:
            if self.done.is_set():
                return
            self.fired = True
            if self.sock is not None:
                try:
                    socket.socket.shutdown(self.sock, socket.SHUT_RDWR)
                except OSError:
                    pass

    def stop(self) -> bool:
        """End the watch; True when it fired (the exchange must count as timed out)."""
        with self._lock:
            self.done.set()
            return self.fired


def exchange(method: str, url: str, addresses: list, deadline: float, clock, limit: int, *,
             headers: Optional[dict] = None, body: Optional[bytes] = None) -> Answer:
    """Send one request for `url` to one of `addresses` and read the answer (at most
    `limit + 1` body bytes) before `deadline` (monotonic seconds)."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    target = parts.path or "/"
    if parts.query:
        target += "?" + parts.query
    sock = _connect(addresses, deadline, clock)
    watch = _Watchdog(deadline, clock)
    watch.sock = sock
    response = None
    try:
        sock.settimeout(max(0.001, deadline - time.monotonic()))
        if parts.scheme == "https":
            context = ssl.create_default_context()
            sock = context.wrap_socket(sock, server_hostname=host)
            with watch._lock:
                watch.sock = sock
                if watch.fired:
                    raise RequestTimeout("TLS handshake timed out")
        conn = http.client.HTTPConnection(host, default_port(parts))
        if parts.scheme == "https":
            conn.default_port = 443           # the Host header omits the default port
        conn.sock = sock
        sent = {"User-Agent": USER_AGENT, "Connection": "close"}
        sent.update(headers or {})
        conn.request(method, target, body=body, headers=sent)
        response = conn.getresponse()
        data = response.read(limit + 1)
        answer = Answer(response.status, response.reason, response.msg, data)
    except RequestTimeout:
        raise
    except (OSError, http.client.HTTPException, ValueError) as err:
        if watch.stop() or time.monotonic() >= deadline:
            raise RequestTimeout(str(err)) from None
        if response is None:
            raise HandlerError(f"HTTP request failed: {err}") from None
        raise HandlerError(f"failed to read response body: {err!r}") from None
    finally:
        fired = watch.stop()
        try:
            sock.close()
        except OSError:
            pass
    if fired:
        raise RequestTimeout("the deadline passed while the answer was read")
    return answer
