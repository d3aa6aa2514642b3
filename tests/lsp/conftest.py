"""`boruna-lsp` started as a subprocess and driven over stdio by a real LSP client (pytest-lsp's
`LanguageClient`, a pygls client), on an asyncio loop in a background thread so tests stay
plain functions: `session.request(method, params)` waits for the server's answer,
`session.diagnostics(uri, version)` for the diagnostics of that version."""
from __future__ import annotations

import asyncio
import os
import sys
import threading
import time
from pathlib import Path

import pytest
from lsprotocol import types as T
from pytest_lsp import LanguageClient

TIMEOUT = 20.0


class LspSession:
    def __init__(self, root: Path, args=(), init_options=None, encodings=None):
        self.root = root
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.published: dict[str, list[T.PublishDiagnosticsParams]] = {}
        self.logs: list[T.LogMessageParams] = []
        self.shown: list[T.ShowMessageParams] = []
        self.cond = threading.Condition()
        self.client = self.run(self._start(list(args), init_options, encodings))

    def run(self, coro, timeout: float = TIMEOUT):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def _start(self, args, init_options, encodings):
        client = LanguageClient()

        @client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: T.PublishDiagnosticsParams):
            with self.cond:
                self.published.setdefault(params.uri, []).append(params)
                self.cond.notify_all()

        @client.feature(T.WINDOW_LOG_MESSAGE)
        def on_log(params):
            self.logs.append(params)

        @client.feature(T.WINDOW_SHOW_MESSAGE)
        def on_show(params):
            self.shown.append(params)

        env = dict(os.environ)
        await client.start_io(sys.executable, "-m", "boruna.lsp", "--debounce-ms", "30", *args,
                              cwd=str(self.root), env=env)
        general = T.GeneralClientCapabilities(position_encodings=encodings) if encodings \
            else None
        self.init = await client.initialize_session(T.InitializeParams(
            capabilities=T.ClientCapabilities(
                general=general, text_document=T.TextDocumentClientCapabilities(
                    rename=T.RenameClientCapabilities(prepare_support=True),
                    hover=T.HoverClientCapabilities(content_format=[T.MarkupKind.Markdown]),
                    completion=T.CompletionClientCapabilities(
                        completion_item=T.ClientCompletionItemOptions(
                            documentation_format=[T.MarkupKind.Markdown])),
                    signature_help=T.SignatureHelpClientCapabilities(
                        signature_information=T.ClientSignatureInformationOptions(
                            documentation_format=[T.MarkupKind.Markdown])))),
            root_uri=self.root.as_uri(), initialization_options=init_options))
        return client

    # ------------------------------------------------------------ documents
    def open(self, path: Path, text: str, version: int = 1) -> str:
        uri = path.as_uri()
        self.client.text_document_did_open(T.DidOpenTextDocumentParams(
            T.TextDocumentItem(uri=uri, language_id="boruna", version=version, text=text)))
        return uri

    def change(self, uri: str, version: int, changes) -> None:
        self.client.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=changes))

    def replace(self, uri: str, version: int, text: str) -> None:
        self.change(uri, version, [T.TextDocumentContentChangeWholeDocument(text=text)])

    def diagnostics(self, uri: str, version: int, timeout: float = TIMEOUT
                    ) -> list[T.Diagnostic]:
        """The diagnostics published for `version` of `uri` (waiting for them)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for params in self.published.get(uri, []):
                    if params.version == version:
                        return list(params.diagnostics)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no diagnostics for {uri} version {version}: "
                                       f"{[p.version for p in self.published.get(uri, [])]}")
                self.cond.wait(left)

    def request(self, method: str, params, timeout: float = TIMEOUT):
        return self.run(self.client.protocol.send_request_async(method, params), timeout)

    def pos(self, uri: str, line: int, character: int) -> dict:
        return {"text_document": T.TextDocumentIdentifier(uri=uri), "position":
                T.Position(line=line, character=character)}

    def close(self):
        try:
            self.run(self.client.shutdown_session(), 10)
        except Exception:
            pass
        try:
            self.run(self.client.stop(), 10)
        except Exception:
            pass
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)

    @property
    def returncode(self):
        server = getattr(self.client, "_server", None)
        return None if server is None else server.returncode


@pytest.fixture(scope="module")
def lsp_root(tmp_path_factory) -> Path:
    """A workspace with a `libs/` directory holding one library (`geometry`)."""
    root = tmp_path_factory.mktemp("workspace")
    lib = root / "libs" / "geometry" / "src"
    lib.mkdir(parents=True)
    (lib / "core.ax").write_text(LIBRARY)
    (root / "libs" / "geometry" / "manifest.json").write_text(
        '{"name": "geometry", "version": "0.1.0", "description": "test library"}')
    return root


@pytest.fixture
def make_session(lsp_root):
    """Start another server with other client settings (closed by the test)."""
    return lambda **kwargs: LspSession(lsp_root, **kwargs)


@pytest.fixture(scope="module")
def library_text() -> str:
    return LIBRARY


@pytest.fixture(scope="module")
def session(lsp_root):
    s = LspSession(lsp_root)
    yield s
    s.close()


LIBRARY = """\
// A point on the plane.
type Vec { x: Int, y: Int }

// The sum of two vectors.
fn vec_add(a: Vec, b: Vec) -> Vec {
    Vec { x: a.x + b.x, y: a.y + b.y }
}
"""
