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


def _error(source):
    with pytest.raises(CompileError) as info:
        compile_source(source)
    return info.value.code, info.value.message, info.value.line, info.value.col


def test_a_name_error_wins_over_a_codegen_error_found_earlier():
    # codegen would first meet `zz` in the precondition (E008, not name-checked), the name
    # check reports the body's `y` (E009), as check() then compile_program() do
    source = "fn main(x: Int) -> Int requires zz > 0 {\n  y\n}"
    assert _error(source) == ("E009", "undefined variable: y\n  did you mean: 'x'?", 2, 3)
    with pytest.raises(CompileError) as info:
        compile_program(frontend.check("fn main(x: Int) -> Int requires zz > 0 { x }"))
    assert (info.value.code, info.value.message) == ("E008", "undefined: zz")
    assert _error("fn main(x: Int) -> Int requires zz > 0 { x }")[:2] == ("E008", "undefined: zz")


def test_name_errors_codegen_would_accept_are_still_reported():
    # arity: codegen alone would emit the call
    assert _error("fn f(a: Int) -> Int { a }\nfn main() -> Int { f(1, 2) }") == (
        "E009", "function 'f' expects 1 argument, got 2", 2, 20)
    # a builtin used as a value passes the name check, then fails in codegen
    assert _error("fn main() -> Int { let g = list_len\n 1 }")[:2] == (
        "E008", "undefined: list_len")
    # a spread record's field that is no field of the record compiles to no code
    source = ("type P { a: Int }\n"
              "fn main() -> Int { let p = P { a: 1 }\n let q = P { ..p, b: nope }\n 1 }")
    assert _error(source) == ("E009", "undefined variable: nope", 3, 22)
