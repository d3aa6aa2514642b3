"""Generated programs give identical outcomes and steps whatever the slice size (the fix to
the reference's extra yield steps), and under any max_steps."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boruna import _vm
from boruna.compiler import compile_source
from boruna.api import run

OPS = ["+", "-", "*", "/", "%", "==", "<", ">=", "&&"]


def exprs(names):
    leaf = st.one_of(st.integers(-20, 20).map(lambda n: f"({n})"), st.sampled_from(names))

    def extend(inner):
        return st.one_of(
            st.tuples(inner, st.sampled_from(OPS), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(inner, inner, inner).map(
                lambda t: f"(if {t[0]} > 0 {{ {t[1]} }} else {{ {t[2]} }})"),
            inner.map(lambda e: f"f({e})"),
            st.lists(inner, min_size=1, max_size=3).map(
                lambda xs: f"list_len([{', '.join(xs)}])"),
        )

    return st.recursive(leaf, extend, max_leaves=6)


@st.composite
def programs(draw):
    body_f = draw(exprs(["x"]))
    a0, b0 = draw(st.integers(-5, 5)), draw(st.integers(-5, 5))
    n = draw(st.integers(0, 12))
    ea, eb, er = draw(exprs(["a", "b", "i"])), draw(exprs(["a", "b", "i"])), \
        draw(exprs(["a", "b"]))
    return (f"fn f(x: Int) -> Int {{\n    {body_f}\n}}\n"
            f"fn main() -> Int {{\n    let mut a = {a0}\n    let mut b = {b0}\n"
            f"    let mut i = 0\n    while i < {n} {{\n        a = {ea}\n        b = {eb}\n"
            f"        i = i + 1\n    }}\n    {er}\n}}\n")


def outcome(out):
    return (out.ok, out.result if out.ok else out.error, out.steps)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), st.sampled_from([1, 2, 7, 100_000]))
def test_sliced_runs_are_identical(src, slice_steps):
    module = compile_source(src)
    whole = run(module)
    sliced = run(module, slice_steps=slice_steps, on_progress=lambda s: None)
    assert outcome(sliced) == outcome(whole)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), st.integers(0, 400), st.sampled_from([1, 3, 50]))
def test_step_limit_is_exact_under_slicing(src, max_steps, slice_steps):
    module = compile_source(src)
    full = run(module)
    limited = run(module, max_steps=max_steps)
    sliced = run(module, max_steps=max_steps, slice_steps=slice_steps, on_progress=lambda s: None)
    assert outcome(limited) == outcome(sliced)
    if full.steps <= max_steps:
        assert outcome(limited) == outcome(full)
    else:
        assert limited.error == f"max execution steps exceeded ({max_steps})"
        assert limited.steps == max_steps + 1


@settings(max_examples=60, deadline=None)
@given(programs(), st.lists(st.integers(1, 40), min_size=1, max_size=30))
def test_irregular_slices_on_one_machine(src, slices):
    module = compile_source(src)
    whole = run(module)
    m = _vm.Machine(module)
    m.set_entry(module.entry)
    status = _vm.PAUSED
    for s in slices * 200:
        status = m.execute_bounded(s)
        if status != _vm.PAUSED:
            break
    if status == _vm.PAUSED:
        status = m.execute_bounded(0)
    assert m.steps == whole.steps
    if whole.ok:
        assert status == _vm.FINISHED and m.result == whole.result
    else:
        assert status == _vm.FAILED and m.error == whole.error
