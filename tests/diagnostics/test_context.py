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


def test_function_defs_is_a_new_dict_of_one_index_made_per_program():
    ctx = context()
    first = ctx.function_defs()
    assert list(first) == ["f", "main"]
    first["g"] = None                       # a caller's change stays in its copy
    assert list(ctx.function_defs()) == ["f", "main"]
    assert ctx.function_defs() is not ctx.function_defs()
    library = parse("fn lib_fn(x: Int) -> Int { x }\nfn f() -> Int { 0 }\n")
    ctx.attach_library(library)             # an imported library's functions join it
    defs = ctx.function_defs()
    assert list(defs) == ["f", "main", "lib_fn"]
    assert defs["f"] is ctx.program.functions()[0]      # the user's own `f` wins
    ctx.attach(parse("fn h() -> Int { 1 }\n"))          # a new program: a new index
    assert list(ctx.function_defs()) == ["h", "lib_fn", "f"]


def test_nodes_of_a_function_not_walked_yet_and_after_another_program():
    ctx = context()
    f, main = ctx.program.functions()
    assert [c.func.name for c in ctx.nodes_of(f, A.Call)] == ["f"]     # walks it first
    assert ctx.nodes(f) is ctx.nodes(f)
    other = parse(SOURCE).functions()[1]
    assert [type(n).__name__ for n in ctx.nodes_of(other, (A.Call, A.Binary))] == [
        "Binary", "Call", "Call"]
    assert ctx.nodes_of(main, A.Call) == ctx.nodes_of(main, (A.Call,))


def test_split_lines_with_and_without_carriage_returns():
    from boruna.diagnostics.source_text import split_lines
    assert split_lines("a\nb\n") == ["a", "b"]
    assert split_lines("a\n\nb") == ["a", "", "b"]
    assert split_lines("a\r\nb\r\n\r") == ["a", "b", ""]
    assert split_lines("a\rb\n") == ["a\rb"]
    assert split_lines("\n") == [""]
    assert split_lines("") == []
