"""`boruna.diagnostics.context.CheckContext`: the per-check indexes the analyzers share."""
from boruna.diagnostics.collector import check_source
from boruna.diagnostics.context import CheckContext
from boruna.language import ast as A
from boruna.language import walk
from boruna.language.frontend import parse

SOURCE = """type P { x: Int, y: Int }
fn f(a: Int) -> Int {
    let p = P { x: a, y: 2 }
    match Some(p.x) { Some(v) => v + f(a - 1), None => 0 }
}
fn main() -> Int { f(3) + f(4) }
"""


def context():
    return CheckContext.build(SOURCE, "t.ax", parse(SOURCE))


def test_nodes_is_the_preorder_walk_built_once_per_function():
    ctx = context()
    f = ctx.program.functions()[0]
    first = ctx.nodes(f)
    assert [type(n).__name__ for n in first] == [
        type(n).__name__ for n in walk.iter_nodes(f)]
    assert ctx.nodes(f) is first            # the second analyzer reuses the first walk


def test_nodes_of_filters_in_source_order():
    ctx = context()
    f, main = ctx.program.functions()
    assert [c.func.name for c in ctx.nodes_of(main, A.Call)] == ["f", "f"]
    assert [type(n).__name__ for n in ctx.nodes_of(f, (A.Match, A.RecordLit, A.Call))] == [
        "RecordLit", "Match", "Call"]
    assert ctx.nodes_of(main, A.Match) == []


def test_nodes_of_is_the_isinstance_filter_of_the_walk():
    """The class index gives what filtering every node gives, for one class, several
    (in pre-order, a class named twice counted once) and a class with subclasses."""
    ctx = context()
    for fn in ctx.program.functions():
        nodes = list(walk.iter_nodes(fn))
        for kinds in (A.Call, A.Ident, (A.Binary, A.Call), (A.Let, A.Match, A.Ident),
                      (A.Call, A.Call), A.Node, (A.Node, A.Call), A.While):
            assert ctx.nodes_of(fn, kinds) == [n for n in nodes if isinstance(n, kinds)]


def test_every_analyzer_walks_each_function_once(monkeypatch):
    calls = []
    real = walk.preorder_by_kind

    def counting(node):
        calls.append(node.name)
        return real(node)

    monkeypatch.setattr("boruna.diagnostics.context.preorder_by_kind", counting)
    assert check_source(SOURCE, "t.ax").diagnostics == []
    assert sorted(calls) == ["f", "main"]
