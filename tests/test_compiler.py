"""`compile_source` / `compile_program`: the whole compile runs with the cyclic garbage
collector paused (the AST is acyclic) and leaves the collector as it found it."""
import gc

import pytest

from boruna import compiler
from boruna.compiler import compile_program, compile_source
from boruna.language import frontend
from boruna.language.errors import CompileError

SOURCE = "fn main() -> Int { let x = 2\n x * 21 }"


@pytest.fixture
def gc_state():
    was = gc.isenabled()
    yield
    (gc.enable if was else gc.disable)()


def test_the_compile_runs_without_the_collector_and_restores_it(gc_state, monkeypatch):
    seen = []
    real_generate, real_check = compiler.generate, frontend._check

    def generate(program, name, **options):
        seen.append(("generate", gc.isenabled()))
        return real_generate(program, name, **options)

    def check(source, libs_dir, *options):
        seen.append(("check", gc.isenabled()))
        return real_check(source, libs_dir, *options)

    monkeypatch.setattr(compiler, "generate", generate)
    monkeypatch.setattr(frontend, "_check", check)
    gc.enable()
    module = compile_source(SOURCE)
    assert [f.name for f in module.functions] == ["main"]
    assert seen == [("check", False), ("generate", False)]
    assert gc.isenabled()
    compile_program(frontend.check(SOURCE))
    assert seen[2:] == [("check", False), ("generate", False)]
    assert gc.isenabled()


def test_errors_restore_the_collector_and_a_disabled_one_stays_disabled(gc_state):
    gc.enable()
    with pytest.raises(CompileError) as info:
        compile_source("fn main() { y }")
    assert (info.value.code, info.value.message) == ("E009", "undefined variable: y")
    assert gc.isenabled()
    with pytest.raises(CompileError):
        frontend.parse("fn main( {")
    assert gc.isenabled()
    gc.disable()
    compile_source(SOURCE)
    frontend.parse(SOURCE)
    assert not gc.isenabled()
