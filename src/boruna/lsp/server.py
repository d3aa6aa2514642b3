"""The language server: LSP requests and notifications → `service.editor` queries → LSP
results. Every handler is guarded: an internal failure is logged (stderr and
`window/logMessage`) and answered with an empty result, never a traceback; a request that
cannot be read is answered with -32602; an unknown method with -32601."""
from __future__ import annotations

import functools
import logging
import os
from pathlib import Path
from typing import Any, Optional

from lsprotocol import types as T
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path

from boruna.service.editor import actions, completion, hover, inlay_hints, navigation, outline
from boruna.service.editor import signature_help as sighelp
from boruna.service.editor.analysis import Analysis, for_position

from .documents import Documents, DocumentState
from .positions import Lines

log = logging.getLogger("boruna.lsp")

NAME = "boruna-lsp"
SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning,
            "info": T.DiagnosticSeverity.Information, "hint": T.DiagnosticSeverity.Hint}
COMPLETION_KIND = {
    "variable": T.CompletionItemKind.Variable, "function": T.CompletionItemKind.Function,
    "builtin": T.CompletionItemKind.Function, "type": T.CompletionItemKind.Struct,
    "enum": T.CompletionItemKind.Enum, "field": T.CompletionItemKind.Field,
    "variant": T.CompletionItemKind.EnumMember, "capability": T.CompletionItemKind.Constant,
    "keyword": T.CompletionItemKind.Keyword,
}
SYMBOL_KIND = {"function": T.SymbolKind.Function, "struct": T.SymbolKind.Struct,
               "enum": T.SymbolKind.Enum, "field": T.SymbolKind.Field,
               "variant": T.SymbolKind.EnumMember}
FIX_ALL_KIND = "source.fixAll.boruna"


class RequestFailed(JsonRpcException):
    """LSP's RequestFailed (-32803): a request understood but refused (a rename that cannot
    be made); the message says why."""

    CODE = -32803
    MESSAGE = "Request failed"


class _Unreadable:
    """A request whose parameters do not fit its method: answered with -32602."""

    jsonrpc = "2.0"

    def __init__(self, msg_id, method: str):
        self.id, self.method = msg_id, method


class BorunaProtocol(LanguageServerProtocol):
    """pygls's protocol, answering requests with unreadable parameters (instead of dropping
    them) and never sending a traceback in an error's data."""

    def structure_message(self, data):
        try:
            return super().structure_message(data)
        except JsonRpcException:
            if isinstance(data, dict) and "id" in data and "method" in data and isinstance(
                    data["id"], (int, str)):
                return _Unreadable(data["id"], str(data["method"]))
            raise

    def handle_message(self, message):
        if isinstance(message, _Unreadable):
            log.warning("unreadable parameters for %s", message.method)
            self._send_response(message.id, None, JsonRpcInvalidParams(
                f"invalid parameters for {message.method}").to_response_error())
            return
        super().handle_message(message)

    def _send_response(self, msg_id, result=None, error=None):
        if error is not None and getattr(error, "data", None) is not None:
            error = T.ResponseError(code=error.code, message=error.message)   # no traceback
        super()._send_response(msg_id, result, error)


class BorunaLanguageServer(LanguageServer):
    def __init__(self, libs_dir: Optional[str] = None, debounce_ms: int = 150):
        super().__init__(NAME, _version(), protocol_cls=BorunaProtocol,
                         text_document_sync_kind=T.TextDocumentSyncKind.Incremental)
        self.explicit_libs_dir = libs_dir
        self.option_libs_dir: Optional[str] = None
        self.documents = Documents(self.publish, self.libs_dir, debounce_ms / 1000)

    def report_server_error(self, error, source):
        log.error("server error: %s", error)

    # ------------------------------------------------------------ configuration
    def libs_dir(self) -> Optional[str]:
        """`--libs-dir`, else the `libsDir` initialization option, else the workspace's
        `libs/`, else the CLI's default (`./libs`, the bundled libraries)."""
        for candidate in (self.explicit_libs_dir, self.option_libs_dir):
            if candidate:
                return candidate
        root = self.workspace.root_path if self.protocol._workspace is not None else None
        if root and os.path.isdir(os.path.join(root, "libs")):
            return os.path.join(root, "libs")
        from boruna.assets.directories import LIBS, resolve_dir
        found = resolve_dir(None, LIBS)
        return str(found) if os.path.isdir(found) else None

    def encoding(self):
        try:
            return self.workspace.position_encoding or "utf-16"
        except Exception:
            return "utf-16"

    def lines(self, text: str) -> Lines:
        return Lines(text, self.encoding())

    # ------------------------------------------------------------ diagnostics
    def publish(self, state: DocumentState, analysis: Analysis) -> None:
        lines = self.lines(analysis.source)
        diagnostics = [self.diagnostic(d, lines, analysis) for d in analysis.diagnostics]
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
            uri=state.uri, diagnostics=diagnostics, version=state.version))

    def diagnostic(self, d, lines: Lines, analysis: Analysis) -> T.Diagnostic:
        span = d.span
        if span is None:
            rng = T.Range(T.Position(0, 0), T.Position(0, 0))
        else:
            rng = lines.range(span.line, span.col, span.end_line, span.end_col)
        related = []
        for label in d.labels:
            loc = label.location
            if loc is None:
                continue
            uri, other = self.uri_of(loc.file, analysis)
            related.append(T.DiagnosticRelatedInformation(
                location=T.Location(uri=uri, range=other.range(loc.line, loc.col, loc.end_line,
                                                               loc.end_col)),
                message=label.message))
        href = code_href(d.code)
        return T.Diagnostic(range=rng, message=d.message, severity=SEVERITY.get(d.severity),
                            code=d.code, source="boruna",
                            code_description=T.CodeDescription(href=href) if href else None,
                            related_information=related or None)

    def uri_of(self, file: str, analysis: Analysis) -> tuple[str, Lines]:
        """The URI and lines of a file an analysis knows (the document or a library)."""
        for state in self.documents.states.values():
            if state.file == file:
                return state.uri, self.lines(state.text)
        text = analysis.source_of_file(file) if analysis is not None else None
        return (from_fs_path(file) or file), self.lines(text or "")


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("boruna")
    except Exception:
        return "0"


def code_href(code: str) -> Optional[str]:
    """A `file:` URI of the code's explanation (the markdown `boruna explain` prints)."""
    try:
        from importlib import resources
        path = resources.files("boruna").joinpath("docs_agent", "codes", f"{code}.md")
        if path.is_file():
            return Path(str(path)).resolve().as_uri()
    except Exception:
        return None
    return None


def guarded(default: Any = None):
    """Answer `default` (and log) when a handler fails, so no failure reaches the client as
    a crash; `RequestFailed` passes (it is a proper refusal)."""
    def wrap(fn):
        @functools.wraps(fn)
        async def handler(ls: BorunaLanguageServer, params):
            try:
                return await fn(ls, params)
            except RequestFailed:
                raise
            except Exception as exc:
                log.exception("%s failed", fn.__name__)
                try:
                    ls.window_log_message(T.LogMessageParams(
                        type=T.MessageType.Error,
                        message=f"{NAME}: {fn.__name__} failed: {type(exc).__name__}: {exc}"))
                except Exception:
                    pass
                return default() if callable(default) else default
        return handler
    return wrap


def document_request(default: Any = None):
    """A guarded handler of a request about one open document: it is called as
    `fn(ls, params, analysis, lines)` with the analysis of the document's latest version and
    its lines; a document that is not open is answered `default`."""
    def wrap(fn):
        @functools.wraps(fn)
        async def handler(ls, params):
            analysis = await analysis_of(ls, params.text_document.uri)
            if analysis is None:
                return default() if callable(default) else default
            return fn(ls, params, analysis, lines_of(ls, analysis))
        return guarded(default)(handler)
    return wrap


def build_server(libs_dir: Optional[str] = None, debounce_ms: int = 150
                 ) -> BorunaLanguageServer:
    server = BorunaLanguageServer(libs_dir, debounce_ms)
    _register(server)
    return server


def deep(fn, *args, **kwargs):
    """Run a query where deeply nested programs cannot exhaust the stack."""
    from boruna.core.deep_stack import call_deep

    return call_deep(functools.partial(fn, **kwargs), *args) if kwargs else call_deep(fn, *args)


def _file_of(uri: str) -> str:
    try:
        path = to_fs_path(uri)
    except Exception:
        path = None
    return path or uri


def _location(ls, loc: navigation.Location, analysis: Analysis) -> T.Location:
    uri, lines = ls.uri_of(loc.file, analysis)
    return T.Location(uri=uri, range=lines.range(loc.line, loc.col, loc.end_line, loc.end_col))


def _workspace_edit(ls, edits: dict, analysis: Analysis) -> T.WorkspaceEdit:
    changes: dict = {}
    for file, file_edits in edits.items():
        uri, lines = ls.uri_of(file, analysis)
        changes.setdefault(uri, []).extend(
            T.TextEdit(range=lines.range(e.location.line, e.location.col,
                                         e.location.end_line, e.location.end_col),
                       new_text=e.new_text) for e in file_edits)
    return T.WorkspaceEdit(changes=changes)


def _symbol(ls, s: outline.Symbol, analysis: Analysis) -> T.DocumentSymbol:
    _, lines = ls.uri_of(s.location.file, analysis)
    loc, sel = s.location, s.selection
    return T.DocumentSymbol(
        name=s.name, kind=SYMBOL_KIND[s.kind], detail=s.detail,
        range=lines.range(loc.line, loc.col, loc.end_line, loc.end_col),
        selection_range=lines.range(sel.line, sel.col, sel.end_line, sel.end_col),
        children=[_symbol(ls, c, analysis) for c in s.children] or None)


async def analysis_of(ls, uri: str) -> Optional[Analysis]:
    """The analysis of the open document's latest version (None: not open)."""
    return await ls.documents.current(uri)


def lines_of(ls, analysis: Analysis) -> Lines:
    return ls.lines(analysis.source)


def _register(server: BorunaLanguageServer) -> None:
    _register_documents(server)
    _register_navigation(server)
    _register_assistance(server)
    _register_formatting(server)


def _register_documents(server: BorunaLanguageServer) -> None:
    docs = server.documents

    # ------------------------------------------------------------ lifecycle and sync
    @server.feature(T.INITIALIZE)
    def initialize(ls, params: T.InitializeParams):
        options = params.initialization_options
        if isinstance(options, dict):
            libs = options.get("libsDir")
            if isinstance(libs, str) and libs:
                ls.option_libs_dir = libs
            debounce = options.get("debounceMs")
            if isinstance(debounce, (int, float)) and 0 <= debounce <= 10_000:
                docs.debounce_s = debounce / 1000

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    @guarded()
    async def did_open(ls, params: T.DidOpenTextDocumentParams):
        doc = params.text_document
        docs.opened(doc.uri, _file_of(doc.uri), doc.version, doc.text)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    @guarded()
    async def did_change(ls, params: T.DidChangeTextDocumentParams):
        uri = params.text_document.uri
        document = ls.workspace.get_text_document(uri)
        docs.changed(uri, params.text_document.version, document.source)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    @guarded()
    async def did_save(ls, params: T.DidSaveTextDocumentParams):
        docs.saved(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    @guarded()
    async def did_close(ls, params: T.DidCloseTextDocumentParams):
        if docs.closed(params.text_document.uri) is not None:
            ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
                uri=params.text_document.uri, diagnostics=[]))

    @server.feature(T.SHUTDOWN)
    @guarded()
    async def shutdown(ls, params):
        docs.shutdown()


def _register_navigation(server: BorunaLanguageServer) -> None:
    docs = server.documents

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    @document_request()
    def on_hover(ls, params: T.HoverParams, analysis, lines):
        line, col = lines.from_position(params.position)
        analysis = for_position(analysis, docs.fallback(params.text_document.uri), line)
        found = deep(hover.hover, analysis, line, col)
        if found is None:
            return None
        loc = found.location
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown,
                                                value=found.markdown),
                       range=lines.range(loc.line, loc.col, loc.end_line, loc.end_col))

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    @document_request(list)
    def on_definition(ls, params: T.DefinitionParams, analysis, lines):
        line, col = lines.from_position(params.position)
        analysis = for_position(analysis, docs.fallback(params.text_document.uri), line)
        return [_location(ls, loc, analysis) for loc in
                deep(navigation.definition, analysis, line, col)]

    @server.feature(T.TEXT_DOCUMENT_REFERENCES)
    @document_request(list)
    def on_references(ls, params: T.ReferenceParams, analysis, lines):
        found = deep(navigation.references, analysis, *lines.from_position(params.position),
                                      include_declaration=params.context.include_declaration,
                                      others=docs.analyses())
        return [_location(ls, loc, analysis) for loc in found]

    @server.feature(T.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    @document_request(list)
    def on_highlight(ls, params: T.DocumentHighlightParams, analysis, lines):
        return [T.DocumentHighlight(
            range=lines.range(loc.line, loc.col, loc.end_line, loc.end_col),
            kind=T.DocumentHighlightKind.Write if write else T.DocumentHighlightKind.Read)
            for loc, write in deep(navigation.highlights, analysis,
                                   *lines.from_position(params.position))]

    @server.feature(T.TEXT_DOCUMENT_PREPARE_RENAME)
    @document_request()
    def on_prepare_rename(ls, params: T.PrepareRenameParams, analysis, lines):
        try:
            occ = deep(navigation.prepare_rename, analysis, *lines.from_position(params.position))
        except navigation.RenameRefused as refused:
            raise RequestFailed(str(refused)) from None
        return T.PrepareRenamePlaceholder(
            range=lines.range(occ.line, occ.col, occ.line, occ.end_col), placeholder=occ.name)

    @server.feature(T.TEXT_DOCUMENT_RENAME, T.RenameOptions(prepare_provider=True))
    @document_request()
    def on_rename(ls, params: T.RenameParams, analysis, lines):
        try:
            edits = deep(navigation.rename, analysis, *lines.from_position(params.position),
                                      params.new_name, others=docs.analyses())
        except navigation.RenameRefused as refused:
            raise RequestFailed(str(refused)) from None
        return _workspace_edit(ls, edits, analysis)

    # ------------------------------------------------------------ symbols
    @server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @document_request(list)
    def on_document_symbol(ls, params: T.DocumentSymbolParams, analysis, lines):
        uri = params.text_document.uri
        if analysis.ctx is None:
            analysis = docs.fallback(uri) or analysis
        return [_symbol(ls, s, analysis) for s in deep(outline.document_symbols, analysis)]

    @server.feature(T.WORKSPACE_SYMBOL)
    @guarded(list)
    async def on_workspace_symbol(ls, params: T.WorkspaceSymbolParams):
        analyses = docs.analyses() + _workspace_files(ls, docs)
        out = []
        for s in deep(outline.workspace_symbols, analyses, params.query or ""):
            out.append(T.WorkspaceSymbol(
                name=s.name, kind=SYMBOL_KIND[s.kind],
                location=_location(ls, s.selection, _owner(analyses, s.selection.file)),
                container_name=None))
        return out


def _register_assistance(server: BorunaLanguageServer) -> None:
    docs = server.documents

    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(
        trigger_characters=[".", ":", "{", ","], resolve_provider=False))
    @document_request(lambda: T.CompletionList(is_incomplete=False, items=[]))
    def on_completion(ls, params: T.CompletionParams, analysis, lines):
        uri = params.text_document.uri
        items = deep(completion.complete, analysis, *lines.from_position(params.position),
                                    fallback=docs.fallback(uri))
        return T.CompletionList(is_incomplete=False, items=[
            T.CompletionItem(
                label=i.label, kind=COMPLETION_KIND.get(i.kind), detail=i.detail or None,
                documentation=T.MarkupContent(kind=T.MarkupKind.Markdown, value=i.documentation)
                if i.documentation else None,
                insert_text=i.insert_text, sort_text=f"{i.sort_group}{i.label}")
            for i in items])

    @server.feature(T.TEXT_DOCUMENT_SIGNATURE_HELP, T.SignatureHelpOptions(
        trigger_characters=["(", ","], retrigger_characters=[","]))
    @document_request()
    def on_signature_help(ls, params: T.SignatureHelpParams, analysis, lines):
        uri = params.text_document.uri
        found = deep(sighelp.signature_help, analysis, *lines.from_position(params.position),
                                       fallback=docs.fallback(uri))
        if found is None:
            return None
        active = min(found.active_parameter, max(len(found.parameters) - 1, 0))
        return T.SignatureHelp(signatures=[T.SignatureInformation(
            label=found.label,
            documentation=T.MarkupContent(kind=T.MarkupKind.Markdown,
                                          value=found.documentation)
            if found.documentation else None,
            parameters=[T.ParameterInformation(label=p) for p in found.parameters],
            active_parameter=active)], active_signature=0, active_parameter=active)

    @server.feature(T.TEXT_DOCUMENT_INLAY_HINT)
    @document_request(list)
    def on_inlay_hint(ls, params: T.InlayHintParams, analysis, lines):
        start = params.range.start.line + 1
        end = params.range.end.line + 1
        return [T.InlayHint(position=lines.position(h.line, h.col), label=h.label,
                            kind=T.InlayHintKind.Type, padding_left=False)
                for h in deep(inlay_hints.inlay_hints, analysis, start, end)]

    # ------------------------------------------------------------ code actions
    @server.feature(T.TEXT_DOCUMENT_CODE_ACTION, T.CodeActionOptions(
        code_action_kinds=[T.CodeActionKind.QuickFix, FIX_ALL_KIND]))
    @document_request(list)
    def on_code_action(ls, params: T.CodeActionParams, analysis, lines):
        wanted = params.context.only
        out = []
        for action in deep(actions.code_actions, analysis, params.range.start.line + 1,
                                           params.range.end.line + 1):
            # `quickfix.safe`, `quickfix.unsafe`, `quickfix.display_only`: the fix's
            # applicability, under the kind every client lists
            kind = (f"{T.CodeActionKind.QuickFix.value}.{action.applicability.name.lower()}"
                    if action.kind == "quickfix" else FIX_ALL_KIND)
            if wanted and not any(str(kind).startswith(str(w)) for w in wanted):
                continue
            diags = ([ls.diagnostic(action.diagnostic, lines, analysis)]
                     if action.diagnostic is not None else None)
            out.append(T.CodeAction(
                title=action.title, kind=kind, diagnostics=diags,
                is_preferred=action.preferred or None,
                edit=_workspace_edit(ls, action.edits, analysis),
                data={"applicability": action.applicability.name.lower(),
                      "confidence": action.applicability.confidence.value}))
        return out


def _register_formatting(server: BorunaLanguageServer) -> None:
    """Document and range formatting through `boruna fmt`'s formatter, when this
    installation has it."""
    from boruna.service.editor import formatting

    if not formatting.available():
        return

    def edits(ls, uri: str, start=None, end=None) -> list[T.TextEdit]:
        document = ls.workspace.get_text_document(uri)
        source = document.source
        from boruna.language.errors import CompileError
        try:
            found = deep(formatting.format_document, _file_of(uri), source, start, end)
        except CompileError as err:
            raise RequestFailed(f"cannot format: {err.message} (line {err.line})") from None
        lines = ls.lines(source)
        return [T.TextEdit(range=lines.range(e.location.line, e.location.col,
                                             e.location.end_line, e.location.end_col),
                           new_text=e.new_text) for e in found]

    @server.feature(T.TEXT_DOCUMENT_FORMATTING)
    @guarded(list)
    async def on_formatting(ls, params: T.DocumentFormattingParams):
        return edits(ls, params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_RANGE_FORMATTING)
    @guarded(list)
    async def on_range_formatting(ls, params: T.DocumentRangeFormattingParams):
        return edits(ls, params.text_document.uri, params.range.start.line + 1,
                     params.range.end.line + 1)


def _owner(analyses: list[Analysis], file: str) -> Optional[Analysis]:
    for a in analyses:
        if a.source_of_file(file) is not None:
            return a
    return analyses[0] if analyses else None


_WORKSPACE_LIMIT = 200
_SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", "build", "dist"}


def _workspace_files(ls: BorunaLanguageServer, docs: Documents) -> list[Analysis]:
    """Analyses of the `.ax` files under the workspace root that are not open (at most
    200, cached by modification time)."""
    from boruna.service.editor.analysis import analyse

    try:
        root = ls.workspace.root_path
    except Exception:
        return []
    if not root or not os.path.isdir(root):
        return []
    cache: dict = getattr(ls, "_file_cache", {})
    ls._file_cache = cache
    open_files = {s.file for s in docs.states.values()}
    out, count = [], 0
    for directory, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in _SKIP_DIRS and not d.startswith(".")]
        for name in sorted(files):
            if not name.endswith(".ax"):
                continue
            path = os.path.join(directory, name)
            count += 1
            if count > _WORKSPACE_LIMIT:
                return out
            if path in open_files:
                continue
            try:
                mtime = os.stat(path).st_mtime
                if path not in cache or cache[path][0] != mtime:
                    with open(path, encoding="utf-8", errors="surrogateescape") as handle:
                        cache[path] = (mtime, analyse(handle.read(), path, ls.libs_dir()))
            except OSError:
                continue
            out.append(cache[path][1])
    return out
