"""Module counts (`boruna_compile`) and codegen errors: docs/spec/language.md §6 / Appendix A, docs/spec/vm.md §8.1."""
import pytest

from boruna.compiler import compile_source
from boruna.language.errors import CompileError
from boruna.api import run


def counts(src, name="module"):
    return compile_source(src, name=name).summary()


@pytest.mark.parametrize("src, expected", [
    ("fn main() -> Int {\n    let base: Int = 40\n    base + 2\n}\n",
     dict(functions=1, types=0, constants=2, entry=0)),
    ("", dict(functions=0, types=0, constants=0, entry=0)),
    ("fn helper() { 1 }\n", dict(functions=1, types=0, constants=1, entry=0)),
    ("fn clock() -> Int !{time, net, llm, ui, db} { 0 }\n"
     "fn main() -> Int !{made.up, fs.read} { clock() }\n",
     dict(functions=2, types=0, constants=1, entry=1)),
    ("fn main() -> Int { [1, 2, 3,]\n 0 }\ntype R { a: Int, }\nenum E { X, Y, }\n",
     dict(functions=1, types=2, constants=4, entry=0)),
    ("fn worker() -> Int { receive }\nfn main() -> Int {\n    let w = spawn worker\n"
     "    send w \"hi\"\n    emit w\n    0\n}\n",
     dict(functions=2, types=0, constants=2, entry=1)),
    ("fn pos(n: Int) -> Int ensures result >= 0 { n }\nfn main() -> Int { pos(5) }\n",
     dict(functions=2, types=0, constants=3, entry=1)),
    ("fn main() -> Int {\n    let r = Nothing { a: 1, b: 2 }\n    r.whatever\n}\n",
     dict(functions=1, types=0, constants=2, entry=0)),
])
def test_module_counts(src, expected):
    s = counts(src)
    assert s == {"name": "module", "version": 1, **expected}


def test_module_name_is_passed_through():
    assert counts("fn main() { }\n", name="demo")["name"] == "demo"


def test_appendix_a_eighteen_constants():
    src = (
        "enum E { A, B(Int) }\n"
        "fn g(x: Int) -> Int requires x > 0 ensures result > 0 { x }\n"
        "fn main() -> Int {\n"
        "    let f = g\n"
        "    let s = Some(1)\n"
        "    let e = E::A\n"
        "    let e2 = E::B(2)\n"
        "    for i in [1, 2] { i }\n"
        "    match \"x\" { \"a\" => 1, _ => 2 }\n"
        "    return\n"
        "}\n")
    module = compile_source(src)
    assert module.summary()["constants"] == 18
    assert module.entry == 1


def test_capabilities_recorded_as_ids_unknown_dropped():
    module = compile_source("fn clock() -> Int !{time, net, llm, ui, db} { 0 }\n"
                            "fn main() -> Int !{made.up, fs.read} { clock() }\n")
    assert module.functions[0].capabilities == [5, 0, 7, 4, 3]
    assert module.functions[1].capabilities == [1]


def test_step_input_adds_capability_once():
    module = compile_source('fn main() -> String { step_input("a") ++ step_input("b") }\n')
    assert module.functions[0].capabilities == [10]
    assert ("CapCall", 10, 1) in module.functions[0].code


@pytest.mark.parametrize("src, message", [
    ("fn helper() -> Int { 1 }\nfn main() -> Int {\n    helper = 2\n    0\n}\n",
     "undefined variable: helper"),
    ("fn main() -> Int {\n    let g = __builtin_list_len\n    0\n}\n",
     "undefined: __builtin_list_len"),
    ("fn check(n: Int) -> Int requires limit > n { n }\nfn main() -> Int { check(1) }\n",
     "undefined: limit"),
    ("fn main() -> Int { Shade::Dark }\n", "unknown enum: Shade"),
    ("enum Shade { Light, Dark }\nfn main() -> Int { Shade::Dim }\n",
     "enum 'Shade' has no variant 'Dim'"),
    ("type P { x: Int }\nfn main() -> Int { P::X }\n", "'P' is not an enum"),
    ("fn main() -> Int { spawn 42 }\n", "spawn requires a function name"),
    ("fn main() -> Int {\n    match \"k\" {\n        \"a\" => 1\n        Some(v) => v\n"
     "        _ => 0\n    }\n}\n", "undefined: v"),
    ("fn main() -> Int {\n    let xs = [" + ", ".join(["0"] * 256) + "]\n    0\n}\n",
     "list literal has 256 elements; max 255"),
])
def test_codegen_errors_e008(src, message):
    with pytest.raises(CompileError) as info:
        compile_source(src)
    assert info.value.code == "E008"
    assert info.value.message == message


def test_spawn_of_local_is_unknown_function():
    with pytest.raises(CompileError) as info:
        compile_source("fn main() -> Int {\n    let w = 1\n    let a = spawn w\n    0\n}\n")
    assert info.value.message == "unknown function: w"


def test_too_many_parameters():
    params = ", ".join(f"p{i}: Int" for i in range(256))
    with pytest.raises(CompileError) as info:
        compile_source(f"fn big({params}) -> Int {{ 0 }}\n")
    assert info.value.message == "function `big` has 256 parameters; max 255"


PURE = """fn main() -> Int {
    let mut acc = 0
    let mut i = 0
    while i < N {
        acc = acc + i
        i = i + 1
    }
    acc
}
"""
RECORD = """type Pair { a: Int, b: Int }
fn step(p: Pair) -> Pair {
    Pair { a: p.a + 1, b: p.b + p.a }
}
fn main() -> Int {
    let mut p = Pair { a: 0, b: 0 }
    let mut i = 0
    while i < N {
        p = step(p)
        i = i + 1
    }
    p.a + p.b
}
"""
DISPATCH = """fn inner(x: Int) -> Int { x + 1 }
fn middle(x: Int) -> Int { inner(x) + inner(x + 1) }
fn outer(x: Int) -> Int { middle(x) + middle(x + 2) }
fn main() -> Int {
    let mut acc = 0
    let mut i = 0
    while i < N {
        acc = acc + outer(i)
        i = i + 1
    }
    acc
}
"""


@pytest.mark.parametrize("template, n, result, steps", [
    (PURE, 1000, 499_500, 13 * 1000 + 11),
    (PURE, 10_000, 49_995_000, 13 * 10_000 + 11),
    (RECORD, 1000, 500_500, 23 * 1000 + 17),
    (DISPATCH, 1000, 2_008_000, 54 * 1000 + 11),
])
def test_benchmark_programs_results_and_steps(template, n, result, steps):
    out = run(template.replace("N", str(n)))
    assert out.ok, out.error
    assert out.result == result
    assert out.steps == steps


def test_deeply_nested_program_compiles_and_runs():
    depth = 5000
    src = "fn main() -> Int {\n    " + "(" * depth + "1" + " + 1)" * depth + "\n}\n"
    out = run(src)
    assert out.ok, out.error
    assert out.result == depth + 1
    nested = "fn main() -> Int {\n    list_len(" + "[" * depth + "]" * depth + ")\n}\n"
    assert run(nested).result == 1
