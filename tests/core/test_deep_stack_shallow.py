"""`call_shallow`: small input runs on the caller's thread; running out of the caller's
recursion limit starts over through `call_deep`, with the same answer."""
import threading

import pytest

from boruna.bytecode.module import Module
from boruna.compiler import compile_source
from boruna.core import deep_stack
from boruna.core.deep_stack import SHALLOW_INPUT, ShallowStackExhausted, call_deep, call_shallow
from boruna.language.errors import CompileError


def test_small_input_runs_on_the_callers_thread():
    seen = []

    def fn(x):
        seen.append(threading.current_thread())
        return call_deep(lambda y: (seen.append(threading.current_thread()), y + 1)[1], x)

    assert call_shallow(fn, 41) == 42
    assert seen == [threading.current_thread()] * 2
    assert not getattr(deep_stack._local, "shallow", False)


def test_out_of_recursion_starts_over_on_a_deep_stack():
    calls = []

    def nest(n):
        return 0 if n == 0 else 1 + nest(n - 1)

    def fn(n):
        calls.append(threading.current_thread())
        return call_deep(nest, n)

    assert call_shallow(fn, 20_000) == 20_000
    assert len(calls) == 2 and calls[0] is threading.current_thread()
    assert calls[1] is not threading.current_thread()


def test_exceptions_propagate_once():
    def fn():
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        call_shallow(fn)


def test_exhaustion_signal_is_no_exception():
    assert not issubclass(ShallowStackExhausted, Exception)


def _code(module: Module):
    return [(f.name, list(f.code)) for f in module.functions], module.constants


@pytest.mark.parametrize("body", [
    "(" * 490 + "1" + ")" * 490,               # deeper than the default recursion limit
    "{" * 480 + "1" + "}" * 480,
    "-" * 990 + "1",
    "1 + 2",
])
def test_compile_within_shallow_size_matches_the_deep_compile(body):
    source = "fn main() -> Int { " + body + " }"
    assert len(source) <= SHALLOW_INPUT
    shallow = compile_source(source)
    deep = call_deep(compile_source.__globals__["_compile_source"], source, "module", None)
    assert _code(shallow) == _code(deep)


def test_too_deep_error_within_shallow_size_is_the_deep_one():
    source = "fn main() -> Int { " + "(" * 1000 + " }"
    assert len(source) <= SHALLOW_INPUT
    with pytest.raises(CompileError) as shallow:
        compile_source(source)
    with pytest.raises(CompileError) as deep:
        call_deep(compile_source.__globals__["_compile_source"], source, "module", None)
    assert (shallow.value.code, shallow.value.message, shallow.value.line, shallow.value.col) \
        == (deep.value.code, deep.value.message, deep.value.line, deep.value.col)
