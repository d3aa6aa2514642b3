"""net.fetch and llm.call against slow and hostile loopback servers (issue 19, items 5-8).

A server trickling a byte every 0.1 s (in the headers or in the body) cannot keep a request
past its one deadline; the run's wall clock shortens that deadline; a cancel stops it;
llm.call never follows a redirect (so its key never reaches another host) and a slow
endpoint cannot hold a run past its wall clock; net.fetch sends no credentials to anyone.
"""
from __future__ import annotations

import socketserver
import threading
import time

import pytest

from boruna.compiler import compile_source
from boruna.core import capabilities as caps
from boruna.core.errors import ErrorKind
from boruna.runtime.deadline import RunClock
from boruna.runtime.execute import run
from boruna.runtime.handlers import HandlerError
from boruna.runtime.live import HandlerConfig, LiveHandler
from boruna.runtime.policy import parse_policy

CAP = {c.id: c for c in caps.CAPABILITIES}
TRICKLE_FOR = 4.0          # seconds a trickling answer would last (the server's own bound)


class _Hostile(socketserver.BaseRequestHandler):
    def handle(self):
        self.request.settimeout(TRICKLE_FOR + 1)
        head = b""
        while b"\r\n\r\n" not in head and len(head) < 65536:
            chunk = self.request.recv(4096)
            if not chunk:
                return
            head += chunk
        line, _, rest = head.decode("latin-1").partition("\r\n")
        path = line.split(" ")[1]
        headers = dict(h.split(": ", 1) for h in rest.split("\r\n\r\n")[0].split("\r\n") if h)
        self.server.seen.append((path, headers))
        route = self.server.routes.get(path.split("?")[0])
        if route is not None:
            try:
                route(self.request)
            except OSError:
                pass


def _trickle(sock, prefix: bytes, filler: bytes = b"x"):
    sock.sendall(prefix)
    end = time.monotonic() + TRICKLE_FOR
    while time.monotonic() < end:
        sock.sendall(filler)
        time.sleep(0.1)


def _answer(body: bytes, status="200 OK", extra=""):
    def send(sock):
        sock.sendall(f"HTTP/1.1 {status}\r\nContent-Length: {len(body)}\r\n{extra}"
                     f"Connection: close\r\n\r\n".encode() + body)
    return send


@pytest.fixture
def servers():
    """Two loopback servers (`main`, `other`): each `.base`, `.routes`, `.seen`."""
    started = []
    for _ in range(2):
        server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Hostile)
        server.daemon_threads = True
        server.routes, server.seen = {}, []
        server.base = f"http://127.0.0.1:{server.server_address[1]}"
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        started.append(server)
    try:
        yield started
    finally:
        for server in started:
            server.shutdown()
            server.server_close()


def fetcher(**net):
    policy = parse_policy({"default_allow": True,
                           "net_policy": {"allowed_domains": ["127.0.0.1"], **net}})
    return LiveHandler(HandlerConfig(live=True), policy.net_policy), policy


def timed_fetch(handler, url):
    start = time.monotonic()
    with pytest.raises(HandlerError) as info:
        handler.handle(CAP[caps.NET_FETCH], [url])
    return info.value.message, time.monotonic() - start


@pytest.mark.parametrize("prefix", [
    b"HTTP/1.1 200 OK\r\nX-Slow: ",                                   # headers never end
    b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n",             # body never ends
])
def test_a_trickling_server_cannot_stretch_the_request_past_its_timeout(servers, prefix):
    main, _ = servers
    main.routes["/slow"] = lambda sock: _trickle(sock, prefix)
    handler, _ = fetcher(timeout_ms=500)
    message, took = timed_fetch(handler, main.base + "/slow")
    assert message == "HTTP request timed out after 500 ms"
    assert 0.4 < took < 3.0


def test_the_run_wall_clock_shortens_the_request_deadline(servers):
    main, _ = servers
    main.routes["/slow"] = lambda sock: _trickle(sock, b"HTTP/1.1 200 OK\r\nX-Slow: ")
    handler, policy = fetcher()                                       # timeout_ms 30,000
    source = f'fn main() -> String !{{net.fetch}} {{ net_fetch("{main.base}/slow") }}'
    start = time.monotonic()
    outcome = run(compile_source(source), policy=policy, handler=handler, max_wall_ms=400)
    assert (outcome.error_kind, outcome.error) == (
        ErrorKind.WALL_TIME, "wall-clock execution limit exceeded (400 ms)")
    assert time.monotonic() - start < 3.0


def test_a_cancel_stops_a_request_in_flight(servers):
    main, _ = servers
    main.routes["/slow"] = lambda sock: _trickle(sock, b"HTTP/1.1 200 OK\r\nX-Slow: ")
    handler, _ = fetcher()
    cancel = threading.Event()
    handler.bind_clock(RunClock(None, cancel))
    threading.Timer(0.2, cancel.set).start()
    message, took = timed_fetch(handler, main.base + "/slow")
    assert message == "HTTP request timed out after 30000 ms" and took < 3.0


def test_a_redirect_to_another_origin_carries_no_credentials(servers):
    main, other = servers
    main.routes["/go"] = _answer(b"", "302 Found", f"Location: {other.base}/landing\r\n")
    other.routes["/landing"] = _answer(b"landed")
    handler, _ = fetcher()
    assert handler.handle(CAP[caps.NET_FETCH], [main.base + "/go"]) == "landed"
    (path, headers), = other.seen
    assert path == "/landing"
    assert sorted(headers) == ["Accept-Encoding", "Connection", "Host", "User-Agent"]


def llm(endpoint, key="sk-secret-key"):
    return LiveHandler(HandlerConfig(live=True, llm_endpoint=endpoint, llm_api_key=key))


def test_llm_call_never_follows_a_redirect_and_its_key_stays_home(servers):
    main, other = servers
    main.routes["/v1/chat/completions"] = _answer(
        b"", "307 Temporary Redirect", f"Location: {other.base}/v1/chat/completions\r\n")
    other.routes["/v1/chat/completions"] = _answer(
        b'{"choices": [{"message": {"content": "forged"}}]}')
    with pytest.raises(HandlerError) as info:
        llm(main.base + "/v1").handle(CAP[caps.LLM_CALL], ["hi"])
    assert info.value.message == (
        f"llm.call failed: the endpoint answered 307 (a redirect to {other.base}"
        "/v1/chat/completions); llm.call does not follow redirects")
    assert other.seen == []
    (path, headers), = main.seen
    assert headers["Authorization"] == "Bearer sk-secret-key"


def test_llm_call_answers_from_its_endpoint(servers):
    main, _ = servers
    main.routes["/v1/chat/completions"] = _answer(
        b'{"choices": [{"message": {"content": "hello"}}]}')
    assert llm(main.base + "/v1").handle(CAP[caps.LLM_CALL], ["hi"]) == "hello"


def test_a_slow_llm_endpoint_cannot_hold_the_run_past_its_wall_clock(servers):
    main, _ = servers
    main.routes["/v1/chat/completions"] = lambda sock: _trickle(sock, b"HTTP/1.1 200 OK\r\n")
    source = 'fn main() -> String !{llm.call} { llm_call("hi") }'
    start = time.monotonic()
    outcome = run(compile_source(source), handler=llm(main.base + "/v1"), max_wall_ms=300)
    assert (outcome.error_kind, outcome.error) == (
        ErrorKind.WALL_TIME, "wall-clock execution limit exceeded (300 ms)")
    assert time.monotonic() - start < 3.0
