"""Shared fixtures: a loopback HTTP server for the live-capability tests (127.0.0.1 only,
stopped after the test)."""
from __future__ import annotations

import http.server
import threading
import time

import pytest
from hypothesis import settings

# Hypothesis's per-example deadline (200 ms by default) measures the machine's load, not the
# code: on a shared 2-core machine an example can take longer without anything being wrong.
# The property tests bound their work by max_examples and the VM's own limits instead.
settings.register_profile("boruna", deadline=None)
settings.load_profile("boruna")


class _Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def _send(self, status: int, body: bytes, headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.server.paths.append(self.path)
        port = self.server.server_address[1]
        if self.path == "/hello":
            self._send(200, b"hello from loopback")
        elif self.path == "/big":
            self._send(200, b"x" * 2000)
        elif self.path == "/slow":
            time.sleep(1.0)
            self._send(200, b"late")
        elif self.path == "/redirect":
            self._send(302, b"", [("Location", "/hello")])
        elif self.path == "/redirect-out":
            self._send(302, b"", [("Location", f"http://localhost:{port}/hello")])
        elif self.path == "/missing":
            self._send(404, b"no such page")
        else:
            self._send(200, ("path " + self.path).encode())


@pytest.fixture
def loopback():
    """(base URL, list of requested paths) of a server on 127.0.0.1."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    server.paths = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", server.paths
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
