"""service/module_cache.py: recent small run sources are compiled once."""
import pytest

from boruna.language.errors import CompileError
from boruna.service import module_cache, run_tool

TINY = "fn main() -> Int { 1 + 2 }"


@pytest.fixture(autouse=True)
def _empty_cache():
    module_cache.clear()
    yield
    module_cache.clear()


def test_the_same_source_and_name_give_the_same_module():
    first = module_cache.compiled(TINY, "module")
    assert module_cache.compiled(TINY, "module") is first
    assert module_cache.compiled(TINY, "other") is not first
    assert module_cache.size() == (2, 2 * len(TINY))


def test_a_run_compiles_its_source_once(monkeypatch):
    import boruna.compiler as compiler

    calls = []
    real = compiler.compile_source

    def counting(source, name="module", libs_dir=None):
        calls.append(source)
        return real(source, name=name, libs_dir=libs_dir)

    monkeypatch.setattr(compiler, "compile_source", counting)
    answers = [run_tool(TINY) for _ in range(3)]
    assert answers == [{"success": True, "protocol_version": 1, "result": 3, "steps": 5,
                        "ui_output": []}] * 3
    assert calls == [TINY]


def test_sources_that_import_or_are_large_are_never_kept():
    importing = 'import "std/none"\nfn main() -> Int { 1 }'
    assert not module_cache.cacheable(importing)
    large = "fn main() -> Int { 1 }\n" + "// x\n" * (module_cache.MAX_SOURCE_CHARS // 5)
    assert len(large) > module_cache.MAX_SOURCE_CHARS
    assert module_cache.compiled(large, "module") is not module_cache.compiled(large, "module")
    assert module_cache.size() == (0, 0)


def test_compile_errors_are_raised_every_time_and_not_kept():
    for _ in range(2):
        with pytest.raises(CompileError):
            module_cache.compiled("fn main() -> Int { 1 + }", "module")
    assert module_cache.size() == (0, 0)
    want = {"success": False, "protocol_version": 1, "errors": [
        {"severity": "error", "code": "E002", "message": "expected expression, found RBrace",
         "line": 1, "col": 24}]}
    assert run_tool("fn main() -> Int { 1 + }") == want
    assert run_tool("fn main() -> Int { 1 + }") == want
    assert module_cache.size() == (0, 0)


def test_the_least_recently_used_module_leaves_first(monkeypatch):
    monkeypatch.setattr(module_cache, "MAX_ENTRIES", 3)
    sources = [f"fn main() -> Int {{ {k} }}" for k in range(4)]
    modules = [module_cache.compiled(src, "module") for src in sources[:3]]
    assert module_cache.compiled(sources[0], "module") is modules[0]   # now the most recent
    module_cache.compiled(sources[3], "module")                         # evicts sources[1]
    assert module_cache.size()[0] == 3
    assert module_cache.compiled(sources[0], "module") is modules[0]
    assert module_cache.compiled(sources[2], "module") is modules[2]
    assert module_cache.compiled(sources[1], "module") is not modules[1]


def test_the_total_source_size_is_bounded(monkeypatch):
    monkeypatch.setattr(module_cache, "MAX_TOTAL_CHARS", 100)
    for k in range(10):
        module_cache.compiled(f"fn main() -> Int {{ {k} }}  // {'x' * 20}", "module")
    count, chars = module_cache.size()
    assert chars <= 100 and count == chars // len("fn main() -> Int { 0 }  // " + "x" * 20)


def test_a_cached_module_runs_like_a_fresh_compile():
    source = ("type P { x: Int, y: Int }\n"
              "fn main() -> P { let mut xs: List<Int> = [] let mut i = 0 "
              "while i < 10 { xs = list_push(xs, i) i = i + 1 } P { x: list_len(xs), y: 2 } }")
    first = run_tool(source, trace=True)
    again = run_tool(source, trace=True)
    assert first == again and first["success"] and first["result"]["fields"] == [10, 2]
