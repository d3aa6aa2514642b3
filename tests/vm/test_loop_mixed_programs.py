"""The VM's fast paths against its plain ones on random programs mixing every feature
(tests/vm/vm_random_programs.py: Int/Float/String/Bool arithmetic with overflow and division by
0 and -1, loops, matches, records and spreads, enums, Option/Result built, nested, kept in lists,
maps and records and returned, function values, recursion, merge sort, map builtins through
callees, copies and map-only locals, the string and parse builtins on non-ASCII text,
capability calls under the mock handler). Superinstructions, in-place list, map and String building and
unsorted map-only inserts on or off, sliced 1/7/100,000, traced (all entries or few), with a
wall clock or a cancel event, under step caps and memory caps: identical results, errors,
steps and traces. (tools/vmdiff/driver.py runs the same programs against an older build.)"""
import importlib.util
import pathlib
import threading

import pytest

from boruna import _vm
from boruna.compiler import compile_source
from boruna.core.display import display
from boruna.core.values import MapValue
from boruna.runtime.gateway import CapabilityGateway

_spec = importlib.util.spec_from_file_location(
    "vm_random_programs", pathlib.Path(__file__).with_name("vm_random_programs.py"))
_gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_gen)
mixed_program, strings_program = _gen.mixed_program, _gen.strings_program
strbuild_program = _gen.strbuild_program

PLAIN = {"SUPERINSTRUCTIONS": False, "PUSH_IN_PLACE": False,
         "MAP_IN_PLACE": False, "STR_IN_PLACE": False}


def outcome(module, slice_steps=0, trace=False, cancel=False, work=True, **kw):
    kw.setdefault("max_steps", 10_000_000)
    gateway = CapabilityGateway()
    m = _vm.Machine(module, gateway=gateway, trace=trace, **kw)
    if cancel:
        m.cancel_event = threading.Event()
    if slice_steps:
        while m.execute_bounded(slice_steps) == _vm.PAUSED:
            pass
    else:
        m.run()
    result = tuple(m.result.items()) if type(m.result) is MapValue else m.result
    out = (repr(result), m.error, m.steps, tuple(m.trace), m.trace_total, tuple(gateway.called))
    return out + (m.work,) if work else out


def plain(monkeypatch, fn, *args, **kw):
    for name, value in PLAIN.items():
        monkeypatch.setattr(_vm, name, value)
    try:
        return fn(*args, **kw)
    finally:
        monkeypatch.undo()


def check(module, monkeypatch):
    fast = outcome(module)
    # the plain paths copy where the fast ones build in place: all but the work is the same
    assert fast[:-1] == plain(monkeypatch, outcome, module, work=False)
    monkeypatch.setattr(_vm, "SUPERINSTRUCTIONS", False)
    assert outcome(module) == fast
    monkeypatch.undo()
    for size in (1, 7, 100_000):
        assert outcome(module, slice_steps=size) == fast, size
    traced = outcome(module, trace=True, trace_limit=10_000)
    assert traced[:3] == fast[:3]
    assert outcome(module, trace=True, trace_limit=3, slice_steps=7)[:3] == fast[:3]
    assert outcome(module, max_wall_ms=10**9) == fast
    assert outcome(module, cancel=True, slice_steps=7) == fast
    steps = fast[2]
    for cap in sorted({1, 2, steps // 3, steps // 2 + 1, steps - 1} - {0}):
        got = outcome(module, max_steps=cap)
        assert got[:-1] == plain(monkeypatch, outcome, module, max_steps=cap, work=False), cap
        assert outcome(module, max_steps=cap, slice_steps=7) == got, cap
        assert outcome(module, max_steps=cap, trace=True, trace_limit=5)[:3] == got[:3], cap
    for mem in (1_500, 9_000, 40_000):
        got = outcome(module, max_value_memory=mem, work=False)
        assert got == plain(monkeypatch, outcome, module, max_value_memory=mem, work=False), mem
        assert outcome(module, max_value_memory=mem, slice_steps=7, work=False) == got, mem
    return fast


@pytest.mark.parametrize("block", range(4))
def test_mixed_programs_fast_paths_equal_plain_ones(block, monkeypatch):
    for seed in range(block * 40, block * 40 + 40):
        check(compile_source(mixed_program(seed)), monkeypatch)


@pytest.mark.parametrize("block", range(2))
def test_string_builtins_fast_paths_equal_plain_ones(block, monkeypatch):
    for seed in range(block * 60, block * 60 + 60):
        check(compile_source(strings_program(seed)), monkeypatch)


@pytest.mark.parametrize("block", range(2))
def test_strings_built_by_appends_fast_paths_equal_plain_ones(block, monkeypatch):
    for seed in range(block * 30, block * 30 + 30):
        check(compile_source(strbuild_program(seed)), monkeypatch)


def test_mixed_programs_reach_every_outcome():
    errors = set()
    for seed in range(60):
        m = _vm.Machine(compile_source(mixed_program(seed)), gateway=CapabilityGateway())
        m.run()
        errors.add(m.error)
    assert errors == {None, "division by zero", "integer overflow in addition",
                      "integer overflow in multiplication", "integer overflow in division",
                      "integer overflow in subtraction", "stack overflow (max 256)"}


@pytest.mark.parametrize("seed, want", [
    (34, ("Ok(4611686018427387903)", None, 161)), (6, ('[Ok(1), Err("e")]', None, 805)),
    (1, (None, "stack overflow (max 256)", 2355)), (7, (None, "division by zero", 281))])
def test_mixed_programs_exactly(seed, want):
    m = _vm.Machine(compile_source(mixed_program(seed)), gateway=CapabilityGateway())
    m.run()
    assert (None if m.error else display(m.result), m.error, m.steps) == want
