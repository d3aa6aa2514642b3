"""`boruna-lsp` over stdio, as an editor uses it: every feature on real files (a program that
imports a library from the workspace's `libs/`)."""
from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as T

PROGRAM = """\
import geometry

type Point { x: Int, y: Int }

enum Shape { Circle(Int), Square(Int), Empty }

// Adds two numbers.
fn add(a: Int, b: Int) -> Int {
    a + b
}

fn area(s: Shape) -> Int {
    match s {
        Circle(r) => r * r * 3,
        Square(side) => side * side,
        Empty => 0,
    }
}

// Downloads a page.
fn fetch(url: String) -> String !{net.fetch} intent "read one page" {
    net_fetch(url)
}

fn main() -> Int {
    let p = Point { x: 1, y: 2 }
    let total = add(p.x, p.y)
    let xs = [1, 2, 3]
    let n = list_len(xs)
    let v = vec_add(Vec { x: 1, y: 2 }, Vec { x: 3, y: 4 })
    total + area(Shape::Circle(n)) + v.x
}
"""


def at(text: str, needle: str, offset: int = 0, nth: int = 0) -> tuple[int, int]:
    """(0-based line, character) of the `nth` occurrence of `needle`, plus `offset`."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    index += offset
    line = text.count("\n", 0, index)
    return line, index - (text.rfind("\n", 0, index) + 1)


@pytest.fixture(scope="module")
def program(session, lsp_root):
    uri = session.open(lsp_root / "main.ax", PROGRAM)
    assert session.diagnostics(uri, 1) == []
    return uri


def position(session, uri, text, needle, offset=0, nth=0):
    return session.pos(uri, *at(text, needle, offset, nth))


def hover_text(session, uri, needle, offset=0, nth=0, text=PROGRAM):
    found = session.request(T.TEXT_DOCUMENT_HOVER,
                            T.HoverParams(**position(session, uri, text, needle, offset, nth)))
    return None if found is None else found.contents.value


# ---------------------------------------------------------------- initialize

def test_capabilities_advertise_every_feature(session):
    caps = session.init.capabilities
    assert session.init.server_info.name == "boruna-lsp"
    assert caps.text_document_sync.change == T.TextDocumentSyncKind.Incremental
    assert caps.hover_provider and caps.definition_provider and caps.references_provider
    assert caps.rename_provider.prepare_provider is True
    assert caps.document_symbol_provider and caps.workspace_symbol_provider
    assert set(caps.completion_provider.trigger_characters) == {".", ":", "{", ","}
    assert list(caps.signature_help_provider.trigger_characters) == ["(", ","]
    assert caps.inlay_hint_provider
    assert T.CodeActionKind.QuickFix in caps.code_action_provider.code_action_kinds
    assert caps.position_encoding == "utf-16"
    from boruna.service.editor.formatting import available
    assert bool(caps.document_formatting_provider) is available()
    assert bool(caps.document_range_formatting_provider) is available()


# ---------------------------------------------------------------- diagnostics

def test_diagnostics_have_ranges_codes_links_and_related(session, lsp_root):
    text = PROGRAM.replace("add(p.x, p.y)", 'add(p.x, "two")')
    uri = session.open(lsp_root / "mismatch.ax", text)
    [d] = session.diagnostics(uri, 1)
    line, char = at(text, '"two"')
    assert d.range == T.Range(T.Position(line, char), T.Position(line, char + 5))
    assert d.severity == T.DiagnosticSeverity.Error
    assert d.code == "E009" and d.source == "boruna"
    assert d.message == "type mismatch: the 2nd argument of `add` should be `Int`, but it is `String`"
    assert d.code_description.href.startswith("file:///")
    assert d.code_description.href.endswith("/docs_agent/codes/E009.md")
    assert Path(d.code_description.href[len("file://"):]).read_text().strip()
    [related] = d.related_information
    assert related.message == "`add` declares `b: Int` here"
    assert related.location.uri == uri
    bline, bchar = at(text, "b: Int", offset=3)     # `b: Int` in add's parameters
    assert related.location.range == T.Range(T.Position(bline, bchar),
                                             T.Position(bline, bchar + 3))


def test_warning_severity_and_unused_file_cleared_on_close(session, lsp_root):
    text = "fn main() -> Int {\n    let n = 3\n    if n { 1 } else { 2 }\n}\n"
    uri = session.open(lsp_root / "warn.ax", text)
    [d] = session.diagnostics(uri, 1)
    assert d.severity == T.DiagnosticSeverity.Warning
    assert d.message.startswith("the condition of this `if` is `Int`, not `Bool`")
    assert d.range.start == T.Position(2, 7) and d.range.end == T.Position(2, 8)
    session.client.text_document_did_close(T.DidCloseTextDocumentParams(
        T.TextDocumentIdentifier(uri=uri)))
    deadline_cleared = session.published[uri]
    import time
    for _ in range(200):
        if deadline_cleared[-1].diagnostics == [] and len(deadline_cleared) >= 2:
            break
        time.sleep(0.02)
    assert list(session.published[uri][-1].diagnostics) == []


def test_incremental_changes_are_applied_and_checked(session, lsp_root):
    text = "fn main() -> Int {\n    let n = 3\n    n\n}\n"
    uri = session.open(lsp_root / "incremental.ax", text)
    assert session.diagnostics(uri, 1) == []
    # replace `3` with `"x"`: the result no longer is an Int
    session.change(uri, 2, [T.TextDocumentContentChangePartial(
        range=T.Range(T.Position(1, 12), T.Position(1, 13)), text='"x"')])
    [d] = session.diagnostics(uri, 2)
    assert d.code == "E009"
    assert "`String`" in d.message
    # and back
    session.change(uri, 3, [T.TextDocumentContentChangePartial(
        range=T.Range(T.Position(1, 12), T.Position(1, 15)), text="4")])
    assert session.diagnostics(uri, 3) == []


def test_parse_error_is_reported_with_its_position(session, lsp_root):
    uri = session.open(lsp_root / "broken.ax", "fn main() -> Int {\n    let = 3\n}\n")
    [d] = session.diagnostics(uri, 1)
    assert d.code == "E002"
    assert d.range.start.line == 1
    assert d.severity == T.DiagnosticSeverity.Error


def test_library_errors_use_the_workspace_libs_directory(session, lsp_root):
    uri = session.open(lsp_root / "missing_lib.ax",
                       'import "no-such-lib"\nfn main() -> Int { 1 }\n')
    [d] = session.diagnostics(uri, 1)
    assert d.message.startswith("import error: library 'no-such-lib' not found")
    assert d.range == T.Range(T.Position(0, 7), T.Position(0, 20))    # the quoted name


# ---------------------------------------------------------------- hover

def test_hover_on_locals_shows_inferred_types(session, program):
    assert hover_text(session, program, "total =") == "```boruna\ntotal: Int\n```"
    assert hover_text(session, program, "xs)") == "```boruna\nxs: List<Int>\n```"
    assert hover_text(session, program, "p = Point") == "```boruna\np: Point\n```"
    assert hover_text(session, program, "side * side") == "```boruna\nside: Int\n```"
    assert hover_text(session, program, "a + b") == "```boruna\n(parameter) a: Int\n```"


def test_hover_on_functions_shows_signature_capabilities_and_doc(session, program):
    assert hover_text(session, program, "add(p.x") == (
        "```boruna\nfn add(a: Int, b: Int) -> Int\n```\n\nAdds two numbers.")
    assert hover_text(session, program, "fetch(url") == (
        "```boruna\nfn fetch(url: String) -> String !{net.fetch}\n```\n\nDownloads a page."
        "\n\nIntent: read one page")


def test_hover_on_builtins_reads_the_builtin_table(session, program):
    from boruna.core.builtins import BY_NAME

    doc = BY_NAME["list_len"].doc
    assert hover_text(session, program, "list_len") == (
        f"```boruna\nfn list_len(List<T>) -> Int\n```\n\n{doc[0].upper()}{doc[1:]}")
    assert hover_text(session, program, "net_fetch").startswith(
        "```boruna\nfn net_fetch(String) -> String !{net.fetch}\n```")


def test_hover_on_types_fields_variants_and_expressions(session, program):
    assert hover_text(session, program, "Point {") == (
        "```boruna\ntype Point { x: Int, y: Int }\n```")
    assert hover_text(session, program, "x, p.y", offset=0) == "```boruna\nPoint.x: Int\n```"
    assert hover_text(session, program, "Circle(n)") == "```boruna\nShape::Circle(Int)\n```"
    # an operator: the innermost expression around it
    assert hover_text(session, program, "* 3") == "```boruna\nInt\n```"
    # a library's type and field
    assert hover_text(session, program, "v.x", offset=2) == "```boruna\nVec.x: Int\n```"
    assert hover_text(session, program, "vec_add") == (
        "```boruna\nfn vec_add(a: Vec, b: Vec) -> Vec\n```\n\nThe sum of two vectors.")


def test_hover_and_definition_above_an_edit_that_does_not_parse(session, lsp_root):
    uri = session.open(lsp_root / "editing.ax", PROGRAM)
    assert session.diagnostics(uri, 1) == []
    broken = PROGRAM.replace("    total + area(", "    total + area(((")
    session.replace(uri, 2, broken)
    assert session.diagnostics(uri, 2)[0].code == "E002"
    assert hover_text(session, uri, "a + b", text=broken) == "```boruna\n(parameter) a: Int\n```"
    [loc] = session.request(T.TEXT_DOCUMENT_DEFINITION, T.DefinitionParams(
        **position(session, uri, broken, "add(p.x")))
    assert loc.range.start == T.Position(*at(broken, "add(a"))


def test_hover_on_nothing_is_null(session, program):
    assert hover_text(session, program, "// Adds") is None


# ---------------------------------------------------------------- navigation

def test_definition_of_local_function_field_and_library_function(session, program, lsp_root,
                                                                library_text):
    def definition(needle, offset=0, nth=0):
        return session.request(T.TEXT_DOCUMENT_DEFINITION, T.DefinitionParams(
            **position(session, program, PROGRAM, needle, offset, nth)))

    [loc] = definition("total +")
    assert loc.uri == program and loc.range.start == T.Position(*at(PROGRAM, "total ="))
    [loc] = definition("add(p.x")
    assert loc.range.start == T.Position(*at(PROGRAM, "add(a"))
    [loc] = definition("y)", nth=0)
    assert loc.range.start == T.Position(*at(PROGRAM, "y: Int"))
    [loc] = definition("vec_add")
    library = lsp_root / "libs" / "geometry" / "src" / "core.ax"
    assert loc.uri == library.as_uri()
    assert loc.range.start == T.Position(*at(library_text, "vec_add"))


def test_definition_and_hover_on_an_import_line(session, program, lsp_root):
    [loc] = session.request(T.TEXT_DOCUMENT_DEFINITION, T.DefinitionParams(
        **position(session, program, PROGRAM, "geometry", offset=2)))
    library = lsp_root / "libs" / "geometry" / "src" / "core.ax"
    assert loc.uri == library.as_uri() and loc.range.start == T.Position(0, 0)
    text = hover_text(session, program, "geometry", offset=2)
    assert text == f"library `geometry` ({library})\n\nFunctions: `vec_add`"


def test_references_cover_declaration_and_uses(session, program):
    refs = session.request(T.TEXT_DOCUMENT_REFERENCES, T.ReferenceParams(
        context=T.ReferenceContext(include_declaration=True),
        **position(session, program, PROGRAM, "Circle", nth=0)))
    starts = sorted((r.range.start.line, r.range.start.character) for r in refs)
    assert starts == [at(PROGRAM, "Circle", nth=n) for n in range(3)]
    refs = session.request(T.TEXT_DOCUMENT_REFERENCES, T.ReferenceParams(
        context=T.ReferenceContext(include_declaration=False),
        **position(session, program, PROGRAM, "p = Point")))
    assert sorted((r.range.start.line, r.range.start.character) for r in refs) == [
        at(PROGRAM, "p.x"), at(PROGRAM, "p.y")]


def test_document_highlight_marks_writes(lsp_root, session):
    text = "fn main() -> Int {\n    let mut n = 1\n    n = n + 1\n    n\n}\n"
    uri = session.open(lsp_root / "highlight.ax", text)
    session.diagnostics(uri, 1)
    found = session.request(T.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT, T.DocumentHighlightParams(
        **session.pos(uri, 3, 4)))
    assert [(h.range.start.line, h.range.start.character, h.kind) for h in found] == [
        (1, 12, T.DocumentHighlightKind.Write), (2, 4, T.DocumentHighlightKind.Write),
        (2, 8, T.DocumentHighlightKind.Read), (3, 4, T.DocumentHighlightKind.Read)]


def test_rename_a_local_and_a_field(session, program):
    edit = session.request(T.TEXT_DOCUMENT_RENAME, T.RenameParams(
        new_name="count", **position(session, program, PROGRAM, "n = list_len")))
    edits = edit.changes[program]
    assert sorted((e.range.start.line, e.range.start.character) for e in edits) == [
        at(PROGRAM, "n = list_len"), at(PROGRAM, "n))")]
    assert {e.new_text for e in edits} == {"count"}
    edit = session.request(T.TEXT_DOCUMENT_RENAME, T.RenameParams(
        new_name="left", **position(session, program, PROGRAM, "x: Int")))
    starts = sorted((e.range.start.line, e.range.start.character)
                    for e in edit.changes[program])
    assert starts == [at(PROGRAM, "x: Int"), at(PROGRAM, "x: 1, y: 2 }"), at(PROGRAM, "x, p.y")]


def test_rename_a_library_function_edits_the_library_file(session, program, lsp_root):
    edit = session.request(T.TEXT_DOCUMENT_RENAME, T.RenameParams(
        new_name="vec_sum", **position(session, program, PROGRAM, "vec_add")))
    library = (lsp_root / "libs" / "geometry" / "src" / "core.ax").as_uri()
    assert {program, library} <= set(edit.changes)
    assert len(edit.changes[library]) == 1 and len(edit.changes[program]) == 1
    # other open documents importing the same library are renamed too; others are not
    for uri in set(edit.changes) - {program, library}:
        assert session.request(T.TEXT_DOCUMENT_DEFINITION, T.DefinitionParams(
            text_document=T.TextDocumentIdentifier(uri=uri),
            position=edit.changes[uri][0].range.start))[0].uri == library
    # the library's record type and its field read in the program
    edit = session.request(T.TEXT_DOCUMENT_RENAME, T.RenameParams(
        new_name="Vector", **position(session, program, PROGRAM, "Vec {")))
    assert len(edit.changes[program]) == 2
    assert len(edit.changes[library]) == 5      # the type, three annotations, the literal


def test_prepare_rename_and_refusals(session, program):
    found = session.request(T.TEXT_DOCUMENT_PREPARE_RENAME, T.PrepareRenameParams(
        **position(session, program, PROGRAM, "area(s")))
    assert found.placeholder == "area"
    with pytest.raises(Exception, match="builtin"):
        session.request(T.TEXT_DOCUMENT_RENAME, T.RenameParams(
            new_name="size", **position(session, program, PROGRAM, "list_len")))
    with pytest.raises(Exception, match="capital letter"):
        session.request(T.TEXT_DOCUMENT_RENAME, T.RenameParams(
            new_name="shape", **position(session, program, PROGRAM, "Shape {")))
    with pytest.raises(Exception, match="already exists"):
        session.request(T.TEXT_DOCUMENT_RENAME, T.RenameParams(
            new_name="area", **position(session, program, PROGRAM, "add(a")))
    with pytest.raises(Exception, match="keyword"):
        session.request(T.TEXT_DOCUMENT_RENAME, T.RenameParams(
            new_name="match", **position(session, program, PROGRAM, "total =")))


def test_document_symbols(session, program):
    symbols = session.request(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL, T.DocumentSymbolParams(
        text_document=T.TextDocumentIdentifier(uri=program)))
    assert [(s.name, s.kind) for s in symbols] == [
        ("Point", T.SymbolKind.Struct), ("Shape", T.SymbolKind.Enum),
        ("add", T.SymbolKind.Function), ("area", T.SymbolKind.Function),
        ("fetch", T.SymbolKind.Function), ("main", T.SymbolKind.Function)]
    assert [c.name for c in symbols[1].children] == ["Circle", "Square", "Empty"]
    assert symbols[2].detail == "fn add(a: Int, b: Int) -> Int"
    assert symbols[2].range.start == T.Position(*at(PROGRAM, "fn add"))
    assert symbols[2].range.end == T.Position(*at(PROGRAM, "}\n\nfn area", offset=1))


def test_workspace_symbols_include_imported_libraries(session, program, lsp_root):
    found = session.request(T.WORKSPACE_SYMBOL, T.WorkspaceSymbolParams(query="vec"))
    names = {(s.name, s.location.uri) for s in found}
    library = (lsp_root / "libs" / "geometry" / "src" / "core.ax").as_uri()
    assert ("vec_add", library) in names and ("Vec", library) in names


# ---------------------------------------------------------------- completion

def complete(session, uri, text, needle, offset=0, nth=0):
    found = session.request(T.TEXT_DOCUMENT_COMPLETION, T.CompletionParams(
        **position(session, uri, text, needle, offset, nth)))
    return {item.label: item for item in found.items}


def test_completion_offers_locals_functions_builtins_types(session, program):
    from boruna.core.builtins import BUILTINS

    items = complete(session, program, PROGRAM, "total + area")
    assert items["p"].detail == "p: Point" and items["xs"].detail == "xs: List<Int>"
    assert items["p"].kind == T.CompletionItemKind.Variable
    assert "side" not in items          # a match arm's binding is not in scope here
    assert items["add"].detail == "fn add(a: Int, b: Int) -> Int"
    assert items["vec_add"].kind == T.CompletionItemKind.Function
    assert {b.name for b in BUILTINS} <= set(items)
    assert items["list_push"].detail == "fn list_push(List<T>, T) -> List<T>"
    assert items["Point"].kind == T.CompletionItemKind.Struct
    assert items["Shape"].kind == T.CompletionItemKind.Enum


def test_completion_of_fields_after_a_dot_while_typing(session, lsp_root):
    text = PROGRAM.replace("    total + area", "    let q = p.\n    total + area")
    uri = session.open(lsp_root / "typing.ax", text)
    session.diagnostics(uri, 1)
    items = complete(session, uri, text, "p.\n", offset=2)
    assert set(items) == {"x", "y"}
    assert items["x"].detail == "Point.x: Int"
    # a library record through a call's result
    text2 = PROGRAM.replace("    total + area", "    let w = vec_add(v, v).\n    total + area")
    session.replace(uri, 2, text2)
    session.diagnostics(uri, 2)
    items = complete(session, uri, text2, "v, v).", offset=6)
    assert set(items) == {"x", "y"}


def test_completion_of_variants_and_capabilities(session, program, lsp_root):
    items = complete(session, program, PROGRAM, "Shape::Circle", offset=7)
    assert set(items) == {"Circle", "Square", "Empty"}
    items = complete(session, program, PROGRAM, "Empty =>", offset=0)
    first = sorted(items.values(), key=lambda i: i.sort_text)[:3]
    assert {i.label for i in first} == {"Circle", "Square", "Empty"}
    from boruna.core.capabilities import CAPABILITIES

    items = complete(session, program, PROGRAM, "net.fetch}", offset=0)
    assert {c.wire_name for c in CAPABILITIES} <= set(items)
    assert items["net.fetch"].kind == T.CompletionItemKind.Constant


# ---------------------------------------------------------------- signature help, hints

def test_signature_help_tracks_the_active_parameter(session, lsp_root):
    good = "fn add(a: Int, b: Int) -> Int {\n    a + b\n}\n\nfn main() -> Int {\n    add(1, 2)\n}\n"
    uri = session.open(lsp_root / "sig.ax", good)
    assert session.diagnostics(uri, 1) == []
    text = good.replace("add(1, 2)", "add(1, ")      # being typed: does not parse
    session.replace(uri, 2, text)
    assert session.diagnostics(uri, 2)[0].code == "E002"
    help_ = session.request(T.TEXT_DOCUMENT_SIGNATURE_HELP, T.SignatureHelpParams(
        **position(session, uri, text, "add(1, ", offset=7)))
    [sig] = help_.signatures
    assert sig.label == "fn add(a: Int, b: Int) -> Int"
    assert [p.label for p in sig.parameters] == ["a: Int", "b: Int"]
    assert help_.active_parameter == 1
    help_ = session.request(T.TEXT_DOCUMENT_SIGNATURE_HELP, T.SignatureHelpParams(
        **position(session, uri, text, "add(1", offset=4)))
    assert help_.signatures[0].label == "fn add(a: Int, b: Int) -> Int"
    assert help_.active_parameter == 0


def test_signature_help_for_builtins(session, program):
    help_ = session.request(T.TEXT_DOCUMENT_SIGNATURE_HELP, T.SignatureHelpParams(
        **position(session, program, PROGRAM, "xs)", offset=1)))
    assert help_.signatures[0].label == "fn list_len(List<T>) -> Int"
    assert [p.label for p in help_.signatures[0].parameters] == ["List<T>"]


def test_inlay_hints_show_inferred_let_types(session, program):
    hints = session.request(T.TEXT_DOCUMENT_INLAY_HINT, T.InlayHintParams(
        text_document=T.TextDocumentIdentifier(uri=program),
        range=T.Range(T.Position(0, 0), T.Position(60, 0))))
    got = [(h.position.line, h.position.character, h.label) for h in hints]
    assert got == [
        (*at(PROGRAM, " = Point"), ": Point"), (*at(PROGRAM, " = add("), ": Int"),
        (*at(PROGRAM, " = [1"), ": List<Int>"), (*at(PROGRAM, " = list_len"), ": Int"),
        (*at(PROGRAM, " = vec_add"), ": Vec")]


# ---------------------------------------------------------------- code actions

def test_code_actions_are_the_repair_fixes(session, lsp_root):
    from boruna.diagnostics import check_source

    text = "fn main() -> Int {\n    let total = 5\n    totl\n}\n"
    uri = session.open(lsp_root / "fixme.ax", text)
    [d] = session.diagnostics(uri, 1)
    found = check_source(text, str(lsp_root / "fixme.ax"))
    [fix] = found.diagnostics[0].fixes
    actions = session.request(T.TEXT_DOCUMENT_CODE_ACTION, T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=uri), range=d.range,
        context=T.CodeActionContext(diagnostics=[d])))
    quick = [a for a in actions if a.kind.startswith("quickfix")]
    [action] = quick
    assert action.kind == f"quickfix.{fix.applicability.name.lower()}"
    assert action.title == f"{fix.description} ({found.diagnostics[0].code})"
    [edit] = action.edit.changes[uri]
    assert edit.new_text == fix.edits[0].new_text == "    total"
    assert edit.range == T.Range(T.Position(2, 0), T.Position(2, 8))
    assert action.data["confidence"] == fix.confidence.value
    assert bool(action.is_preferred) == (fix.applicability.name == "SAFE")


def test_safe_fix_is_preferred_and_fix_all_applies_repair(session, lsp_root):
    text = "fn half(x: Float) -> Float {\n    x / 2.0\n}\n\nfn main() -> Float {\n    half(3)\n}\n"
    uri = session.open(lsp_root / "float.ax", text)
    [d] = session.diagnostics(uri, 1)
    actions = session.request(T.TEXT_DOCUMENT_CODE_ACTION, T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=uri), range=d.range,
        context=T.CodeActionContext(diagnostics=[d])))
    quick = [a for a in actions if a.kind.startswith("quickfix")]
    assert quick[0].is_preferred is True and quick[0].kind == "quickfix.safe"
    only = session.request(T.TEXT_DOCUMENT_CODE_ACTION, T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=uri), range=d.range,
        context=T.CodeActionContext(diagnostics=[d], only=[T.CodeActionKind.QuickFix])))
    assert [a.kind for a in only] == [a.kind for a in quick]
    assert quick[0].edit.changes[uri][0].new_text == "    half(3.0)"
    [fix_all] = [a for a in actions if a.kind == "source.fixAll.boruna"]
    from boruna.diagnostics.repair import repair_source
    expected = repair_source(text, strategy="conservative",
                             file=str(lsp_root / "float.ax")).repaired_source
    assert fix_all.edit.changes[uri][0].new_text == expected


def test_utf8_positions_when_the_client_offers_them(make_session, lsp_root):
    session = make_session(encodings=[T.PositionEncodingKind.Utf8])
    try:
        assert session.init.capabilities.position_encoding == "utf-8"
        text = 'fn main() -> Int {\n    let s = "é😀" ++ 1\n    1\n}\n'
        uri = session.open(lsp_root / "utf8.ax", text)
        [d] = session.diagnostics(uri, 1)
        column = len('    let s = "é😀" ++ '.encode())          # UTF-8 code units
        assert d.range == T.Range(T.Position(1, column), T.Position(1, column + 1))
        found = session.request(T.TEXT_DOCUMENT_HOVER, T.HoverParams(
            **session.pos(uri, 1, column)))
        assert found.contents.value == "```boruna\nInt\n```"
        assert found.range.start == T.Position(1, column)
    finally:
        session.close()


def test_a_failing_handler_answers_its_default_and_logs_without_traceback(caplog):
    import asyncio

    from boruna.lsp.server import RequestFailed, guarded

    class FakeServer:
        def __init__(self):
            self.logged = []

        def window_log_message(self, params):
            self.logged.append(params)

    @guarded(list)
    async def broken(ls, params):
        raise KeyError("boom")

    @guarded()
    async def refusing(ls, params):
        raise RequestFailed("no")

    fake = FakeServer()
    assert asyncio.run(broken(fake, None)) == []
    [message] = fake.logged
    assert message.type == T.MessageType.Error
    assert message.message == "boruna-lsp: broken failed: KeyError: 'boom'"
    with pytest.raises(RequestFailed):
        asyncio.run(refusing(fake, None))


def test_saving_a_library_checks_its_importers_again(session, lsp_root):
    lib = lsp_root / "libs" / "counter" / "src"
    lib.mkdir(parents=True)
    (lib / "core.ax").write_text("fn bump(n: Int) -> Int {\n    n + 1\n}\n")
    main = "import counter\n\nfn main() -> Int {\n    bump(1)\n}\n"
    uri = session.open(lsp_root / "uses_counter.ax", main)
    assert session.diagnostics(uri, 1) == []
    lib_uri = session.open(lib / "core.ax", (lib / "core.ax").read_text())
    renamed = "fn bump_by(n: Int, k: Int) -> Int {\n    n + k\n}\n"
    session.replace(lib_uri, 2, renamed)
    (lib / "core.ax").write_text(renamed)                   # the editor writes it, then
    session.client.text_document_did_save(T.DidSaveTextDocumentParams(
        text_document=T.TextDocumentIdentifier(uri=lib_uri)))
    import time
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        latest = session.published[uri][-1]
        if latest.diagnostics:
            break
        time.sleep(0.05)
    [d] = session.published[uri][-1].diagnostics
    assert d.code == "E003" and d.message.startswith("undefined variable: bump")


def apply_edits(text: str, edits) -> str:
    """LSP text edits applied (UTF-16 positions; the texts here are ASCII)."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    order = sorted(enumerate(edits), key=lambda p: (p[1].range.start.line,
                                                    p[1].range.start.character, p[0]),
                   reverse=True)
    for _, e in order:
        start = offsets[e.range.start.line] + e.range.start.character
        end = offsets[e.range.end.line] + e.range.end.character
        text = text[:start] + e.new_text + text[end:]
    return text


def test_document_and_range_formatting_use_the_formatter(session, lsp_root):
    from boruna.format import format_source

    text = "fn add(a:Int,b:Int)->Int{a+b}\n\n\nfn main()->Int{\n  add(1,2)\n}\n"
    uri = session.open(lsp_root / "unformatted.ax", text)
    session.diagnostics(uri, 1)
    options = T.FormattingOptions(tab_size=4, insert_spaces=True)
    edits = session.request(T.TEXT_DOCUMENT_FORMATTING, T.DocumentFormattingParams(
        text_document=T.TextDocumentIdentifier(uri=uri), options=options))
    assert apply_edits(text, edits) == format_source(text)
    # only the range's lines change (here: main, lines 3-5, 0-based)
    edits = session.request(T.TEXT_DOCUMENT_RANGE_FORMATTING, T.DocumentRangeFormattingParams(
        text_document=T.TextDocumentIdentifier(uri=uri),
        range=T.Range(T.Position(3, 0), T.Position(5, 1)), options=options))
    ranged = apply_edits(text, edits)
    assert ranged.startswith("fn add(a:Int,b:Int)->Int{a+b}\n")
    assert ranged.endswith("fn main() -> Int {\n    add(1, 2)\n}\n")
    # a formatted document gets no edit; one that does not parse is refused with the error
    formatted_uri = session.open(lsp_root / "formatted.ax", format_source(text))
    assert list(session.request(T.TEXT_DOCUMENT_FORMATTING, T.DocumentFormattingParams(
        text_document=T.TextDocumentIdentifier(uri=formatted_uri), options=options))) == []
    broken = session.open(lsp_root / "unformattable.ax", "fn main( {\n")
    with pytest.raises(Exception, match="cannot format"):
        session.request(T.TEXT_DOCUMENT_FORMATTING, T.DocumentFormattingParams(
            text_document=T.TextDocumentIdentifier(uri=broken), options=options))
