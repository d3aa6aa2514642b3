"""Arbitrary (hand-built, decoded) bytecode never crashes the VM: every run ends in a result or
a runtime error message, within its step limit, with all invariants intact."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boruna import _vm
from boruna.bytecode import axbc
from boruna.bytecode.module import Function, MatchArm, Module
from boruna.bytecode.opcodes import OPCODES
from boruna.core.values import NONE, Enum, Err, FnRef, MapValue, Ok, Record, Some

NAMES = [n for n in OPCODES if n != "GetFieldNamed"]

scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**63 - 1),
                    st.floats(allow_nan=True), st.text(max_size=5), st.just(NONE),
                    st.integers(0, 3).map(FnRef))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3).map(tuple),
    inner.map(Some), inner.map(Ok), inner.map(Err),
    st.tuples(st.integers(0, 3), st.lists(inner, max_size=3)).map(lambda t: Record(t[0], t[1])),
    st.tuples(st.integers(0, 3), st.integers(0, 3), inner).map(lambda t: Enum(*t)),
    st.dictionaries(st.text(max_size=3), inner, max_size=3).map(MapValue),
    st.integers(65535, 65535).map(lambda t: Record(t, (1, 2))),
), max_leaves=6)


@st.composite
def instructions(draw):
    name = draw(st.sampled_from(NAMES + ["GetFieldNamed"]))
    info = OPCODES[name]
    if name == "GetFieldNamed":
        return (name, draw(st.sampled_from(["a", "b", "zz"])))
    if name == "Assert":
        return (name, draw(st.integers(0, 6)), draw(st.sampled_from(["Requires", "Ensures"])),
                draw(st.integers(0, 3)))
    ops = tuple(draw(st.one_of(st.integers(0, 8), st.integers(0, 2**32 - 1)))
                for _ in info.operands)
    return (name,) + ops


@st.composite
def modules(draw):
    nfun = draw(st.integers(1, 3))
    functions = []
    for i in range(nfun):
        code = draw(st.lists(instructions(), max_size=25))
        tables = draw(st.lists(st.lists(st.tuples(st.integers(-6, 4), st.integers(0, 30))
                                        .map(lambda t: MatchArm(*t)), max_size=3), max_size=2))
        functions.append(Function(f"f{i}", draw(st.integers(0, 3)), draw(st.integers(0, 4)),
                                  code, draw(st.lists(st.integers(0, 10), max_size=2)), None,
                                  tables))
    consts = draw(st.lists(values, max_size=6))
    from boruna.bytecode.module import TypeInfo
    types = [TypeInfo("A", "Record", [("a", "Int"), ("b", "Int")]),
             TypeInfo("B", "Record", [("b", "Int"), ("a", "Int")]),
             TypeInfo("E", "Enum", [("X", None), ("Y", "Int")])]
    return Module("fuzz", constants=consts, globals=["g"] * draw(st.integers(0, 1)),
                  types=types, functions=functions, entry=draw(st.integers(0, nfun)))


def test_machine_cannot_be_reinitialised():
    m = _vm.Machine(Module("m", functions=[Function("main", 0, 0, [("Ret",)])]))
    try:
        m.__init__(Module("m"))
    except RuntimeError as exc:
        assert str(exc) == "Machine is already initialised"
    else:
        raise AssertionError("re-initialisation must be refused")
    assert m.run() == _vm.FINISHED


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(modules(), st.integers(1, 2000), st.sampled_from([0, 1, 5]), st.booleans())
def test_random_bytecode_never_crashes(module, max_steps, slice_steps, trace):
    m = _vm.Machine(module, max_steps=max_steps, trace=trace)
    status = m.execute_bounded(slice_steps)
    rounds = 0
    while status == _vm.PAUSED and rounds < 5000:
        status = m.execute_bounded(slice_steps)
        rounds += 1
    assert status in (_vm.FINISHED, _vm.FAILED, _vm.PAUSED)
    assert m.steps <= max_steps + 1
    if status == _vm.FAILED:
        assert isinstance(m.error, str) and m.error
        assert not m.error.startswith("internal error"), m.error
    # the module round-trips through .axbc unless an operand exceeds its serde width
    try:
        back = axbc.from_bytes(axbc.to_bytes(module))
    except axbc.AxbcError as exc:
        assert any(w in exc.message for w in ("expected u8", "expected u16", "expected f64"))
    else:
        assert back.functions == module.functions


def test_reentrant_execution_is_refused_not_corrupting():
    from boruna.compiler import compile_source
    from boruna.runtime.gateway import CapabilityGateway

    holder = {}

    class Reenter:
        def handle(self, cap, args):
            return holder["m"].execute_bounded(10)

    module = compile_source('fn main() -> String { step_input("x") }\n')
    m = _vm.Machine(module, gateway=CapabilityGateway(None, Reenter()))
    holder["m"] = m
    assert m.run() == _vm.FAILED
    assert m.error == ("internal error: RuntimeError: Machine is already running "
                       "(re-entrant or concurrent call)")
