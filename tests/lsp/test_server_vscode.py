"""`boruna-lsp` driven by pytest-lsp's checking client with VS Code's client capabilities:
every answer is checked against what that client declared it understands (pytest-lsp's
`LspSpecificationWarning`s are failures here)."""
from __future__ import annotations

import asyncio
import sys
import warnings

from lsprotocol import types as T
from pytest_lsp import LspSpecificationWarning, client_capabilities, make_test_lsp_client

TEXT = """\
type Point { x: Int, y: Int }

// Adds two numbers.
fn add(a: Int, b: Int) -> Int {
    a + b
}

fn main() -> Int {
    let p = Point { x: 1, y: 2 }
    let total = add(p.x, p.y)
    total + totl
}
"""


def test_answers_fit_vs_code_capabilities(tmp_path):
    uri = (tmp_path / "main.ax").as_uri()
    doc = T.TextDocumentIdentifier(uri=uri)

    async def scenario():
        client = make_test_lsp_client()
        await client.start_io(sys.executable, "-m", "boruna.lsp", "--debounce-ms", "0",
                              cwd=str(tmp_path))
        await client.initialize_session(T.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"), root_uri=tmp_path.as_uri()))
        client.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(
            uri=uri, language_id="boruna", version=1, text=TEXT)))
        await asyncio.wait_for(client.wait_for_notification(
            T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 20)
        out = {"diagnostics": client.diagnostics[uri]}
        out["hover"] = await client.text_document_hover_async(T.HoverParams(
            doc, T.Position(9, 9)))
        out["completion"] = await client.text_document_completion_async(T.CompletionParams(
            doc, T.Position(10, 4)))
        out["fields"] = await client.text_document_completion_async(T.CompletionParams(
            doc, T.Position(9, 22)))
        out["signature"] = await client.text_document_signature_help_async(
            T.SignatureHelpParams(doc, T.Position(9, 21)))
        out["symbols"] = await client.text_document_document_symbol_async(
            T.DocumentSymbolParams(doc))
        out["hints"] = await client.text_document_inlay_hint_async(T.InlayHintParams(
            doc, T.Range(T.Position(0, 0), T.Position(12, 0))))
        d = out["diagnostics"][0]
        out["actions"] = await client.text_document_code_action_async(T.CodeActionParams(
            doc, d.range, T.CodeActionContext(diagnostics=[d])))
        out["rename"] = await client.text_document_rename_async(T.RenameParams(
            doc, T.Position(9, 9), "sum"))
        out["definition"] = await client.text_document_definition_async(T.DefinitionParams(
            doc, T.Position(9, 16)))
        out["references"] = await client.text_document_references_async(T.ReferenceParams(
            context=T.ReferenceContext(include_declaration=True), text_document=doc,
            position=T.Position(9, 9)))
        await client.shutdown_session()
        await client.stop()
        return out

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LspSpecificationWarning)
        out = asyncio.run(scenario())
    assert [w for w in caught if issubclass(w.category, LspSpecificationWarning)] == []
    [d] = out["diagnostics"]
    assert d.code == "E003" and d.range == T.Range(T.Position(10, 12), T.Position(10, 16))
    assert out["hover"].contents.value == "```boruna\ntotal: Int\n```"
    assert {"p", "total", "add", "Point"} <= {i.label for i in out["completion"].items}
    assert [i.label for i in out["fields"].items] == ["x", "y"]
    assert out["signature"].signatures[0].label == "fn add(a: Int, b: Int) -> Int"
    assert [s.name for s in out["symbols"]] == ["Point", "add", "main"]
    assert [h.label for h in out["hints"]] == [": Point", ": Int"]
    assert out["actions"][0].edit.changes[uri][0].new_text == "    total + total"
    assert len(out["rename"].changes[uri]) == 2
    assert out["definition"][0].range.start == T.Position(3, 3)
    assert len(out["references"]) == 2
