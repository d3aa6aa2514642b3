"""What the type checker infers per node, for editors (`types/node_types.py`), and
`check_source_context`, which has the check's own type pass record it."""
from __future__ import annotations

from boruna.diagnostics.collector import check_source, check_source_context
from boruna.diagnostics.context import CheckContext
from boruna.diagnostics.types.infer import Checker, checked
from boruna.diagnostics.types.node_types import RecordingChecker, node_types
from boruna.language import ast as A
from boruna.language.frontend import parse
from boruna.language.walk import iter_nodes

SOURCE = """\
type Box { items: List<Int> }

fn main() -> Int {
    let mut xs = []
    xs = list_push(xs, 3)
    let b = Box { items: xs }
    let first = match list_len(b.items) {
        0 => None,
        n => Some(n),
    }
    match first {
        Some(v) => v,
        None => 0,
    }
}
"""


def nodes(program, kind, pred=lambda n: True):
    return [n for fn in program.functions() for n in iter_nodes(fn)
            if isinstance(n, kind) and pred(n)]


def test_types_are_shown_after_the_whole_function_is_checked():
    found, ctx, libraries = check_source_context(SOURCE, "t.ax")
    assert found.diagnostics == [] and libraries == []
    types = node_types(ctx)
    lets = {n.name: n for n in nodes(ctx.program, A.Let)}
    assert types.text(lets["xs"]) == "List<Int>"        # `[]` got its element type later
    assert types.text(lets["b"]) == "Box"
    assert types.named(lets["b"].value) == "Box"
    assert types.text(lets["first"]) == "Option<Int>"
    [read] = nodes(ctx.program, A.FieldAccess)
    assert types.text(read) == "List<Int>" and types.text(read.object) == "Box"
    [v] = nodes(ctx.program, A.Ident, lambda n: n.name == "v")
    assert types.text(v) == "Int"
    assert types.element(lets["xs"].value) == "Int"
    assert types.signature_text("main") == ([], "Int")


def test_the_check_records_with_a_recording_checker_only_when_asked():
    _found, ctx, _ = check_source_context(SOURCE, "t.ax")
    assert type(ctx.cache["types"]) is RecordingChecker
    assert node_types(ctx)._recorded is ctx.cache["types"].recorded     # no second pass
    plain = CheckContext.build(SOURCE, "t.ax", parse(SOURCE))
    assert type(checked(plain)) is Checker


def test_recording_changes_no_finding():
    bad = SOURCE.replace("Some(v) => v", 'Some(v) => "v"')
    found, ctx, _ = check_source_context(bad, "t.ax")
    assert [d.to_full_dict() for d in found.diagnostics] == [
        d.to_full_dict() for d in check_source(bad, "t.ax").diagnostics]
    assert found.diagnostics[0].code == "E009"


def test_a_source_that_does_not_parse_has_no_context():
    found, ctx, libraries = check_source_context("fn main( {", "t.ax")
    assert ctx is None and libraries == [] and found.diagnostics[0].code == "E002"


BROKEN = [
    'fn main() -> Int {\n    let x: Int = "s"\n    x\n}\n',
    'fn f(a: Int) -> Int { a }\nfn main() -> Int {\n    f("x") + f(1.5)\n}\n',
    'fn main() -> String {\n    if 1 { "a" } else { 2 }\n}\n',
    'enum E { A(Int), B }\nfn main() -> Int {\n    match E::B { A(s) => s ++ "x", B => 0 }\n}\n',
    'type P { x: Int }\nfn main() -> Int {\n    let p = P { x: "no" }\n    p.x + p.y\n}\n',
    'fn main() -> Int {\n    let xs = [1, "two"]\n    for c in "abc" { }\n    return "s"\n}\n',
]


def test_the_recording_check_finds_exactly_what_boruna_check_finds():
    """On every `.ax` file of the repository and on programs with type errors of each kind:
    the same diagnostics, so editors show what `boruna check` prints."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    sources = [p.read_text() for p in [*root.glob("examples/*.ax"),
                                       *root.glob("libs/*/src/core.ax")]] + BROKEN
    libs = str(root / "libs")
    for source in sources:
        found, _ctx, _ = check_source_context(source, "t.ax", libs)
        assert [d.to_full_dict() for d in found.diagnostics] == [
            d.to_full_dict() for d in check_source(source, "t.ax", libs).diagnostics]
    assert all(check_source(b, "t.ax").has_errors() for b in BROKEN)
