"""Every editor query at every name of every `.ax` file in the repository (the examples and
the standard libraries, checked with the libs directory): no query fails, every name that
is not a builtin resolves to a declaration, and each declaration's references include it."""
from __future__ import annotations

from pathlib import Path

import pytest

from boruna.service.editor import completion, hover, inlay_hints, navigation, outline
from boruna.service.editor import signature_help
from boruna.service.editor.analysis import analyse

ROOT = Path(__file__).resolve().parents[3]
FILES = sorted([*ROOT.glob("examples/*.ax"), *ROOT.glob("libs/*/src/core.ax")])


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_query_at_every_name(path):
    source = path.read_text()
    analysis = analyse(source, str(path), str(ROOT / "libs"))
    assert analysis.ctx is not None, [d.message for d in analysis.diagnostics]
    index = analysis.index
    assert index.occurrences
    for n, occ in enumerate(index.occurrences):
        line, col = occ.line, occ.col
        assert navigation.symbol_at(analysis, line, col).key == occ.key
        assert hover.hover(analysis, line, col) is not None, (occ.key, line, col)
        if occ.key[0] != "builtin":
            [found] = navigation.definition(analysis, line, col)
            refs = navigation.references(analysis, line, col)
            assert navigation.Location.of(occ) in refs
            assert found in refs
        if occ.key[0] == "field" and type(occ.node).__name__ == "FieldAccess":
            labels = [i.label for i in completion.complete(analysis, line, col)]
            assert occ.name in labels, (occ, labels)     # a field read's own name is offered
        if n % 7 == 0:          # a sample: these read the same tables at every name
            assert completion.complete(analysis, line, col)
            signature_help.signature_help(analysis, line, col)
    symbols = outline.document_symbols(analysis)
    assert [s.name for s in symbols] == [
        i.name for i in analysis.program.items if hasattr(i, "kind") or hasattr(i, "body")]
    inlay_hints.inlay_hints(analysis)
