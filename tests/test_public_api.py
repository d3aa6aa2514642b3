"""The lazy top-level API of `boruna` (src/boruna/__init__.py): every documented name
resolves to the right object and works on a tiny program."""
import subprocess
import sys

import pytest

import boruna

ADD = "fn main() -> Int { 1 + 2 }"
DIV0 = "fn main() -> Int {\n    let z = 0\n    10 / z\n}\n"
STEP_INPUT = 'fn main() -> String {\n    step_input("doc")\n}\n'


def test_names_resolve_to_their_modules():
    from boruna.bytecode.module import Module
    from boruna.compiler import compile_source
    from boruna.language.errors import CompileError
    from boruna.language.frontend import check, parse
    from boruna.api import run
    from boruna.runtime.execute import RunOutcome

    assert boruna.parse is parse
    assert boruna.check is check
    assert boruna.compile is compile_source
    assert boruna.run is run
    assert boruna.CompileError is CompileError
    assert boruna.RunOutcome is RunOutcome
    assert boruna.Module is Module
    assert boruna.__all__ == ["CompileError", "Module", "RunOutcome", "check", "compile",
                              "parse", "run", "__version__"]
    assert boruna.__version__ == "0.1.0"


def test_import_is_lazy_and_star_import_works():
    code = ("import sys, boruna\n"
            "print(sorted(m for m in ('boruna.compiler', 'boruna.language.parser', "
            "'boruna._vm') if m in sys.modules))\n"
            "from boruna import *\n"
            "print(compile(ADD, name='t').summary()['constants'])\n".replace(
                "ADD", repr(ADD)))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert (out.returncode, out.stderr) == (0, "")
    assert out.stdout == "[]\n2\n"


def test_unknown_attribute_is_an_attribute_error():
    with pytest.raises(AttributeError) as info:
        boruna.no_such_name
    assert str(info.value) == "module 'boruna' has no attribute 'no_such_name'"
    assert not hasattr(boruna, "generate")


def test_dir_lists_the_lazy_names_before_they_resolve():
    code = ("import boruna\n"
            "names = ('parse', 'check', 'compile', 'run', 'CompileError', 'RunOutcome', 'Module')\n"
            "print(all(n in dir(boruna) for n in names), 'parse' in vars(boruna))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert (out.returncode, out.stdout, out.stderr) == (0, "True False\n", "")


def test_parse():
    program = boruna.parse(ADD)
    (fn,) = program.items
    assert fn.name == "main" and fn.params == [] and fn.return_type.name == "Int"
    (stmt,) = fn.body.stmts
    assert (stmt.expr.op, stmt.expr.left.value, stmt.expr.right.value) == ("Add", 1, 2)
    assert boruna.parse(ADD.encode()) == program


def test_parse_error_is_compile_error():
    with pytest.raises(boruna.CompileError) as info:
        boruna.parse("fn main( {")
    err = info.value
    assert (err.code, err.message, err.line, err.col) == (
        "E002", "expected identifier, found LBrace", 1, 10)


def test_check():
    assert boruna.check(ADD) == boruna.parse(ADD)
    with pytest.raises(boruna.CompileError) as info:
        boruna.check("fn main() -> Int { x }")
    err = info.value
    assert (err.code, err.message, err.line, err.col) == ("E009", "undefined variable: x", 1, 20)


def test_compile():
    module = boruna.compile(ADD, name="t")
    assert isinstance(module, boruna.Module)
    assert module.summary() == {"name": "t", "version": 1, "functions": 1, "types": 0,
                                "constants": 2, "entry": 0}
    (main,) = module.functions
    assert main.code == [("PushConst", 0), ("PushConst", 1), ("Add",), ("Ret",)]
    assert boruna.compile(ADD).name == "module"


def test_run_source_and_module():
    outcome = boruna.run(ADD)
    assert isinstance(outcome, boruna.RunOutcome)
    assert (outcome.ok, outcome.result, outcome.steps, outcome.error) == (True, 3, 5, None)
    again = boruna.run(boruna.compile(ADD))
    assert (again.ok, again.result, again.steps) == (True, 3, 5)


def test_run_trace():
    outcome = boruna.run(ADD, trace=True)
    assert outcome.trace == ["[main:0] PushConst(0)  stack_depth=0",
                             "[main:1] PushConst(1)  stack_depth=1",
                             "[main:2] Add  stack_depth=2",
                             "[main:3] Ret  stack_depth=1"]
    assert outcome.trace_total == 4


def test_run_failures_are_outcomes_not_exceptions():
    failed = boruna.run(DIV0)
    assert (failed.ok, failed.result, failed.error, failed.error_kind, failed.steps) == (
        False, None, "division by zero", "runtime_error", 5)
    loop = "fn main() -> Int {\n    let mut i = 0\n    while true { i = i + 1 }\n    i\n}\n"
    limited = boruna.run(loop, max_steps=100)
    assert (limited.ok, limited.error, limited.steps) == (
        False, "max execution steps exceeded (100)", 101)


def test_run_policy():
    allowed = boruna.run(STEP_INPUT)
    assert (allowed.ok, allowed.result, allowed.steps, allowed.capabilities_called) == (
        True, "", 4, ["step.input"])
    denied = boruna.run(STEP_INPUT, policy="deny-all")
    assert (denied.ok, denied.error, denied.steps) == (
        False, "capability denied: step.input", 2)


def test_run_of_bad_source_raises_compile_error():
    with pytest.raises(boruna.CompileError) as info:
        boruna.run("fn main() -> Int { y }")
    assert (info.value.code, info.value.message) == ("E009", "undefined variable: y")
