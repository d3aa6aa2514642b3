"""`boruna-lsp` under abuse: malformed messages, unreadable parameters, unknown methods,
huge files, documents that change faster than they can be checked, positions off the text.
Nothing crashes the server, no traceback reaches the client, no stale diagnostics."""
from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time

import pytest
from lsprotocol import types as T


def alive(session) -> None:
    """The server still answers (and its process still runs)."""
    uri = session.open(session.root / f"alive{time.monotonic_ns()}.ax", "fn main() -> Int { 1 }\n")
    assert session.diagnostics(uri, 1) == []
    assert session.returncode is None


class RawServer:
    """`boruna-lsp` spoken to byte by byte (for what no client library sends)."""

    def __init__(self, root):
        self.proc = subprocess.Popen([sys.executable, "-m", "boruna.lsp"], cwd=str(root),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.messages: "queue.Queue[dict]" = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
                if line in (b"\r\n", b"\n"):
                    break
            self.messages.put(json.loads(out.read(length)))

    def send_bytes(self, body: bytes, length=None):
        n = len(body) if length is None else length
        self.proc.stdin.write(f"Content-Length: {n}\r\n\r\n".encode() + body)
        self.proc.stdin.flush()

    def send(self, message: dict):
        self.send_bytes(json.dumps(message).encode())

    def response(self, msg_id, timeout=20.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            message = self.messages.get(timeout=max(deadline - time.monotonic(), 0.01))
            if message.get("id") == msg_id and "method" not in message:
                return message

    def close(self):
        try:
            self.send({"jsonrpc": "2.0", "id": "bye", "method": "shutdown"})
            self.response("bye", 10)
            self.send({"jsonrpc": "2.0", "method": "exit"})
            self.proc.wait(10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture(scope="module")
def raw(lsp_root):
    server = RawServer(lsp_root)
    server.send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                 "params": {"processId": None, "rootUri": lsp_root.as_uri(),
                            "capabilities": {}}})
    assert "capabilities" in server.response(0)["result"]
    server.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    yield server
    server.close()


def raw_alive(raw, msg_id):
    raw.send({"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": "file:///nowhere.ax"}, "position": {"line": 0,
                                                                    "character": 0}}})
    assert raw.response(msg_id) == {"jsonrpc": "2.0", "id": msg_id, "result": None}
    assert raw.proc.poll() is None


def test_malformed_json_is_skipped(raw):
    raw.send_bytes(b"{this is not json")
    raw.send_bytes(b'{"jsonrpc": "2.0", "id": 1')          # truncated object
    raw.send_bytes(b"[1, 2, 3]")
    raw.send_bytes(b'"just a string"')
    raw.send_bytes(b"\xff\xfe\x00 not utf-8")
    raw.send({"jsonrpc": "1.0", "id": 77, "method": "textDocument/hover"})
    raw_alive(raw, 2)


def test_unreadable_parameters_are_answered_with_invalid_params(raw):
    raw.send({"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover",
              "params": {"textDocument": 5, "position": "here"}})
    answer = raw.response(3)
    assert answer["error"]["code"] == -32602
    assert "Traceback" not in json.dumps(answer)
    raw.send({"jsonrpc": "2.0", "id": 4, "method": "textDocument/rename", "params": None})
    assert raw.response(4)["error"]["code"] == -32602
    raw_alive(raw, 5)


def test_unknown_methods(raw):
    raw.send({"jsonrpc": "2.0", "id": 6, "method": "boruna/noSuchMethod", "params": {}})
    answer = raw.response(6)
    assert answer["error"]["code"] == -32601
    assert "Traceback" not in json.dumps(answer)
    raw.send({"jsonrpc": "2.0", "method": "boruna/noSuchNotification", "params": {"x": 1}})
    raw.send({"jsonrpc": "2.0", "method": "$/noSuchThing"})
    raw_alive(raw, 7)


def test_requests_on_documents_that_are_not_open(session):
    uri = (session.root / "never_opened.ax").as_uri()
    assert session.request(T.TEXT_DOCUMENT_HOVER, T.HoverParams(**session.pos(uri, 0, 0))) is None
    assert session.request(T.TEXT_DOCUMENT_DEFINITION, T.DefinitionParams(
        **session.pos(uri, 0, 0))) == []
    alive(session)


def test_positions_beyond_the_text(session):
    uri = session.open(session.root / "short.ax", "fn main() -> Int { 1 }\n")
    session.diagnostics(uri, 1)
    for line, char in ((0, 500), (400, 0), (400, 400)):
        session.request(T.TEXT_DOCUMENT_HOVER, T.HoverParams(**session.pos(uri, line, char)))
        session.request(T.TEXT_DOCUMENT_COMPLETION, T.CompletionParams(
            **session.pos(uri, line, char)))
        session.request(T.TEXT_DOCUMENT_SIGNATURE_HELP, T.SignatureHelpParams(
            **session.pos(uri, line, char)))
        session.request(T.TEXT_DOCUMENT_REFERENCES, T.ReferenceParams(
            context=T.ReferenceContext(include_declaration=True),
            **session.pos(uri, line, char)))
    alive(session)


def test_an_incremental_change_outside_the_text(session):
    uri = session.open(session.root / "outside.ax", "fn main() -> Int { 1 }\n")
    session.diagnostics(uri, 1)
    session.change(uri, 2, [T.TextDocumentContentChangePartial(
        range=T.Range(T.Position(50, 3), T.Position(60, 9)), text="garbage")])
    session.diagnostics(uri, 2)
    alive(session)


def test_a_file_over_the_source_limit_gets_one_diagnostic(session):
    from boruna.core.limits import MAX_SOURCE_BYTES

    text = "// " + "x" * (MAX_SOURCE_BYTES + 10) + "\nfn main() -> Int { 1 }\n"
    uri = session.open(session.root / "huge.ax", text)
    [d] = session.diagnostics(uri, 1, timeout=60)
    assert d.message.startswith("the file is too large to analyse")
    alive(session)


def test_a_deeply_nested_file(session):
    text = "fn main() -> Int {\n    let x = " + "[" * 300 + "1" + "]" * 300 + "\n    1\n}\n"
    uri = session.open(session.root / "deep.ax", text)
    assert session.diagnostics(uri, 1, timeout=60) == []
    found = session.request(T.TEXT_DOCUMENT_HOVER, T.HoverParams(**session.pos(uri, 1, 8)))
    assert found.contents.value.startswith("```boruna\nx: List<List<")
    hints = session.request(T.TEXT_DOCUMENT_INLAY_HINT, T.InlayHintParams(
        text_document=T.TextDocumentIdentifier(uri=uri),
        range=T.Range(T.Position(0, 0), T.Position(5, 0))))
    assert hints[0].label.endswith("Int" + ">" * 300)
    alive(session)


def test_rapid_changes_leave_only_the_latest_diagnostics(session):
    good = "fn main() -> Int {\n    let n = 1\n    n\n}\n"
    bad = 'fn main() -> Int {\n    let n = "s"\n    n\n}\n'
    uri = session.open(session.root / "rapid.ax", good)
    session.diagnostics(uri, 1)
    for version in range(2, 42):
        session.replace(uri, version, bad if version % 2 else good)
    final = 41                                   # odd: the bad text
    [d] = session.diagnostics(uri, final)
    assert d.code == "E009"
    time.sleep(0.3)                              # nothing older arrives after it
    versions = [p.version for p in session.published[uri]]
    assert versions[-1] == final
    assert versions == sorted(versions)
    assert len(versions) < 20                    # debounced: not one check per keystroke
    # a request right after a change answers for the new text
    session.replace(uri, 42, good)
    hover = session.request(T.TEXT_DOCUMENT_HOVER, T.HoverParams(**session.pos(uri, 2, 4)))
    assert hover.contents.value == "```boruna\nn: Int\n```"
    assert session.diagnostics(uri, 42) == []


def test_no_traceback_reached_the_client(session):
    texts = [m.message for m in session.logs] + [m.message for m in session.shown]
    assert not any("Traceback" in t for t in texts)
    assert session.returncode is None
