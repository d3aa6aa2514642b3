"""Hostile Python objects handed to the VM extension (compiled with bounds checks off): values
from a caller (set_entry's arguments, module constants, a gateway's or `answer`'s result, a
delivered message), a module's fields and an edited snapshot. Each is a clear error, never a
read past an object. The cases marked "segfaulted" crashed the interpreter before they were
fixed (vm/core/dispatch.h indexed a Record's fields slot as a tuple; vm/snapshot.pxi indexed
an event's shape lists unchecked; Machine.set_entry compared an int subclass as it said and
indexed C arrays with its value)."""
import copy
import os
import sys

import pytest

from boruna import _vm
from boruna.compiler import compile_source
from boruna.core.suspension import CapabilityDelegated, SnapshotError
from boruna.core.values import NONE, Enum, FnRef, MapValue, Record, Some

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_snapshot import _resealed, paused  # noqa: E402

SRC = """type P { a: Int, b: Int }
enum Shape { Dot, Seg(Int), Box(Int) }
fn field(p: P) -> Int { p.a }
fn area(s: Shape) -> Int { match s { Dot => 1, Seg(n) => n, Box(n) => n * 3, } }
fn unwrap(o: Option<Int>) -> Int { match o { Some(v) => v, None => 0 - 1, } }
fn inc(x: Int) -> Int { x + 1 }
fn apply(f: Fn(Int) -> Int, v: Int) -> Int { f(v) }
fn len(xs: List<Int>) -> Int { list_len(xs) }
fn mget(m: Map<String, Int>, k: String) -> Option<Int> { __builtin_map_get(m, k) }
fn mset(m: Map<String, Int>, k: String) -> Map<String, Int> { __builtin_map_set(m, k, 1) }
fn sum(p: P) -> Int { let mut i = 0 let mut s = 0 while i < 100 { s = s + p.a  i = i + 1 } s }
fn main() -> Int { 0 }
"""
MODULE = compile_source(SRC)
FIELD_ERROR = "type error: expected valid field index, got out of bounds"


def _index(name, module=MODULE):
    return next(i for i, f in enumerate(module.functions) if f.name == name)


def _call(name, *args, module=MODULE, gateway=None):
    """(result, error) of function `name` (of MODULE's functions: its index) on `args`."""
    m = _vm.Machine(module, max_steps=10**6, gateway=gateway)
    m.set_entry(_index(name), args)
    m.run()
    return m.result, m.error


def _unset_record():
    return Record.__new__(Record)


def _record_with(fields):
    r = Record(0, (1, 2))
    r.fields = fields
    return r


# ---------------------------------------------------------------- values from a caller

@pytest.mark.parametrize("record", [
    _unset_record(),                  # segfaulted: the fields slot unset (NULL)
    _record_with([1, 2]),             # segfaulted: a Python list read as a tuple
    _record_with(7),                  # segfaulted
    Record(0, ()),                    # fewer fields than the type (was already an error)
])
def test_a_record_whose_fields_are_not_a_list_of_enough_values_is_a_field_error(record):
    assert _call("field", record) == (None, FIELD_ERROR)


def test_record_fields_changed_or_deleted_while_the_machine_is_paused():
    # segfaulted: the host holds the Record it passed and changes it between two slices
    for change in ("set", "delete"):
        r = Record(0, (1, 2))
        m = _vm.Machine(MODULE)
        m.set_entry(_index("sum"), (r,))
        assert m.execute_bounded(20) == _vm.PAUSED
        if change == "set":
            r.fields = [5, 6]
        else:
            del r.fields
        assert m.execute_bounded() == _vm.FAILED
        assert m.error == FIELD_ERROR


def test_records_with_odd_type_ids_read_their_fields():
    assert _call("field", Record(2**70, (1, 2))) == (1, None)
    assert _call("field", Record("x", (1, 2))) == (1, None)
    assert _call("field", Record(0, (2**70, 2))) == (None, "integer overflow in conversion")


@pytest.mark.parametrize("name, arg, error", [
    ("area", Enum(0, 2**70, None), "internal error: OverflowError: int too big to convert"),
    ("area", Enum(2**70, 1, 3), "internal error: OverflowError: int too big to convert"),
    ("area", Enum(0, -5, None), "no match found for value"),
    ("area", Enum(0, "a", 1),
     "internal error: TypeError: 'str' object cannot be interpreted as an integer"),
    ("area", Enum.__new__(Enum),
     "internal error: AttributeError: 'Enum' object has no attribute 'variant'"),
    ("area", Enum(0, 1, 2**70), "integer overflow in conversion"),
    ("unwrap", Some.__new__(Some),
     "internal error: AttributeError: 'Some' object has no attribute 'value'"),
    ("unwrap", Some(2**70), "integer overflow in conversion"),
])
def test_enums_and_options_with_odd_slots(name, arg, error):
    assert _call(name, arg) == (None, error)


@pytest.mark.parametrize("ref, error", [
    (FnRef.__new__(FnRef), "internal error: AttributeError: 'FnRef' object has no attribute "
                           "'index'"),
    (FnRef(-1), "invalid function index: -1"),
    (FnRef(2**31), "invalid function index: 2147483648"),
    (FnRef(2**70), "internal error: OverflowError: int too big to convert"),
    (FnRef("x"), "internal error: TypeError: 'str' object cannot be interpreted as an integer"),
])
def test_function_references_out_of_range_or_odd(ref, error):
    assert _call("apply", ref, 1) == (None, error)


def test_containers_of_other_python_types_are_type_errors():
    class T(tuple):
        pass

    class MV(MapValue):
        pass

    assert _call("len", [1, 2]) == (None, "type error: expected List, got list")
    assert _call("len", T((1,))) == (None, "type error: expected List, got T")
    assert _call("mget", {"a": 1}, "a") == (None, "type error: expected Map, got dict")
    assert _call("mget", MV({"a": 1}), "a") == (None, "type error: expected Map, got MV")
    assert _call("mget", MapValue({1: 2}), "a") == (NONE, None)
    assert _call("mset", MapValue({1: 2}), "a") == (
        None, "internal error: TypeError: '<' not supported between instances of 'str' and 'int'")
    assert _call("mset", MapValue.__new__(MapValue), "a") == ({"a": 1}, None)


def test_set_entry_with_an_int_subclass_uses_its_value():
    class Liar(int):        # segfaulted: every compare true, so 10**6 indexed the C arrays
        def __lt__(self, other):
            return True
        __le__ = __gt__ = __ge__ = __lt__

    for index in (10**6, -3):
        m = _vm.Machine(MODULE)
        m.set_entry(Liar(index), ())
        assert m.run() == _vm.FAILED and m.error == f"invalid function index: {index}"
    m = _vm.Machine(MODULE)
    m.set_entry(True, (1,))              # a bool is the Int it stands for: function 1
    assert (m.run(), m.error) == (_vm.FAILED, "no match found for value")
    m = _vm.Machine(MODULE)
    m.set_entry(2**80, ())
    assert m.error == f"invalid function index: {2**80}"


def test_set_entry_with_arguments_that_are_not_a_sequence_leaves_the_machine_unstarted():
    m = _vm.Machine(MODULE)
    with pytest.raises(TypeError):
        m.set_entry(_index("inc"), 5)
    assert m.run() == _vm.FINISHED and m.result == 0      # main, the module's entry
    assert _call("inc", 1, 2, 3, 4, 5) == (2, None)       # extra arguments are dropped
    assert _call("inc", 2**70) == (None, "integer overflow in conversion")


def test_a_delivered_message_and_a_constant_that_are_broken_records():
    recv = compile_source("type P { a: Int }\nfn main() -> Int { let p: P = receive\n p.a }")
    m = _vm.Machine(recv)
    m.deliver(_unset_record())          # segfaulted
    assert (m.run(), m.error) == (_vm.FAILED, FIELD_ERROR)
    const = compile_source("type P { a: Int }\nfn main() -> Int { 1 }")
    const.constants = [_unset_record()]         # segfaulted
    const.functions[0].code = [("PushConst", 0), ("GetField", 0), ("Ret",)]
    m = _vm.Machine(const)
    assert (m.run(), m.error) == (_vm.FAILED, FIELD_ERROR)
    named = compile_source("type P { a: Int }\nfn main() -> Int { 1 }")
    named.constants = [_record_with([7])]
    named.functions[0].code = [("PushConst", 0), ("GetFieldNamed", "a"), ("Ret",)]
    m = _vm.Machine(named)
    assert (m.run(), m.result) == (_vm.FINISHED, 7)


class _Returns:
    """A gateway whose every capability call returns `value`."""

    def __init__(self, value):
        self.value = value

    def call(self, declared, cap_id, args):
        return self.value


CAP = "type P { a: Int }\nfn main() -> Int !{time.now} { let t: P = time_now()\n t.a }"
CAP_INT = "fn main() -> Int !{time.now} { time_now() + 1 }"


def test_capability_results_that_are_hostile():
    cap, cap_int = compile_source(CAP), compile_source(CAP_INT)

    def run(module, value):
        m = _vm.Machine(module, gateway=_Returns(value))
        return m.run(), m.error

    cyclic = []
    cyclic.append(cyclic)
    assert run(cap, _record_with([3])) == (_vm.FAILED, FIELD_ERROR)       # segfaulted
    assert run(cap, _unset_record()) == (
        _vm.FAILED, "internal error: AttributeError: 'Record' object has no attribute 'fields'")
    assert run(cap_int, 2**70) == (_vm.FAILED, "integer overflow in conversion")
    assert run(cap_int, cyclic) == (
        _vm.FAILED, "internal error: RecursionError: maximum recursion depth exceeded")
    assert run(cap_int, object()) == (_vm.FAILED, "type error: expected numeric, got object")
    m = _vm.Machine(cap_int, gateway=object())
    assert (m.run(), m.error) == (
        _vm.FAILED, "internal error: AttributeError: 'object' object has no attribute 'call'")


def test_answers_that_are_hostile():
    class Delegates:
        def call(self, declared, cap_id, args):
            raise CapabilityDelegated("time.now")

    for src, answer, error in (
            (CAP, _record_with([3]), FIELD_ERROR),
            (CAP_INT, 2**70, "integer overflow in conversion")):
        m = _vm.Machine(compile_source(src), gateway=Delegates())
        assert m.run() == _vm.AWAITING
        m.answer(answer)
        assert (m.execute_bounded(), m.error) == (_vm.FAILED, error)


# ---------------------------------------------------------------- a module's fields

def _inc_module(**fields):
    module = copy.deepcopy(MODULE)
    for name, value in fields.items():
        setattr(module.functions[_index("inc")], name, value)
    return module


@pytest.mark.parametrize("fields, outcome", [
    ({"locals": -5}, (None, "invalid local index: 0")),
    ({"locals": 2**40}, (None, "memory limit exceeded: more than 4194304 local slots")),
    ({"arity": 2**40}, (2, None)),
    ({"arity": -3}, (2, None)),
    ({"capabilities": "ab"}, (2, None)),
    ({"name": object()}, (2, None)),
])
def test_function_fields_out_of_range_run_or_fail_cleanly(fields, outcome):
    assert _call("inc", 1, module=_inc_module(**fields)) == outcome


@pytest.mark.parametrize("fields, exc", [
    ({"locals": 2**70}, OverflowError),
    ({"locals": "x"}, ValueError),
    ({"capabilities": None}, TypeError),
    ({"capabilities": 5}, TypeError),
])
def test_function_fields_of_odd_types_refuse_the_module(fields, exc):
    with pytest.raises(exc):
        _vm.Machine(_inc_module(**fields))


def test_entry_constants_globals_types_and_match_tables_out_of_range():
    for entry, text in ((999, "999"), ("x", "x"), (2**80, str(2**80))):
        module = copy.deepcopy(MODULE)
        module.entry = entry
        m = _vm.Machine(module)
        assert (m.run(), m.error) == (_vm.FAILED, f"invalid function index: {text}")
    odd = compile_source("fn main() -> Int { 41 + 1 }")
    odd.constants = [object() for _ in odd.constants]
    m = _vm.Machine(odd)
    assert (m.run(), m.error) == (_vm.FAILED, "type error: expected numeric, got object")
    big = compile_source("fn main() -> Int { 41 + 1 }")
    big.constants = [2**70 for _ in big.constants]
    with pytest.raises(Exception, match="integer overflow in conversion"):
        _vm.Machine(big)
    for types, error in ((None, "TypeError: object of type 'NoneType' has no len()"),
                         ([5], "AttributeError: 'int' object has no attribute 'is_record'")):
        named = compile_source("type P { a: Int }\nfn main() -> Int { 1 }")
        named.types = types
        named.constants = [Record(0, (5,))]
        named.functions[0].code = [("PushConst", 0), ("GetFieldNamed", "a"), ("Ret",)]
        m = _vm.Machine(named)
        assert (m.run(), m.error) == (_vm.FAILED, "internal error: " + error)
    src = "fn f(x: Int) -> Int { match x { 1 => 5, _ => 6 } }\nfn main() -> Int { f(1) }"
    for arm, outcome in ((lambda a: (a[0], 10**30), (_vm.FINISHED, None, None)),
                         (lambda a: (10**30, a[1]), (_vm.FAILED, None, "no match found for value"))):
        module = compile_source(src)
        f = module.functions[0]
        f.match_tables = [[arm(a) for a in table] for table in f.match_tables]
        m = _vm.Machine(module)
        assert (m.run(), m.result, m.error) == outcome


# ---------------------------------------------------------------- edited snapshots

LOOP = ("fn main() -> Int { let mut i = 0 let mut xs = []\n"
        "  while i < 200 { xs = list_push(xs, i * 3) i = i + 1 } list_len(xs) }")


def _edited(edit):
    """(module, a paused LOOP's snapshot with its header changed by `edit`, resealed)."""
    module, m = paused(LOOP, 50)
    return module, _resealed(m.snapshot(), edit)


def _set(key, value):
    def edit(header):
        header[key] = value
    return edit


def _set_builder(value):
    def edit(header):
        header["builders"][0] = value
    return edit


@pytest.mark.parametrize("edit, message", [
    # segfaulted: an event's field shorter than its kind says
    (_set("events", [[[]]]), "malformed snapshot: IndexError: list index out of range"),
    (_set("events", [[["k", 2]]]), "malformed snapshot: IndexError: list index out of range"),
    (_set("events", [[["k"]]]), "malformed snapshot: IndexError: list index out of range"),
    (_set("events", [[5]]), "malformed snapshot: TypeError: 'int' object is not subscriptable"),
    (_set("events", ["ab"]), "malformed snapshot: IndexError: string index out of range"),
    (_set("events", 3), "malformed snapshot: TypeError: 'int' object is not iterable"),
    (_set("pending", {}), "malformed snapshot: KeyError: 'nargs'"),
    (_set("pending", {"nargs": 0, "answered": False, "id": 10**30}),
     "malformed snapshot: the pending call"),
    (_set("frames", [[]]), "malformed snapshot: a frame"),
    (_set("frames", "abcd"), "malformed snapshot: frames"),
    (_set("builders", 5), "malformed snapshot: list builders"),
    (_set_builder([]), "malformed snapshot: a list builder"),
    (_set_builder([0, "x", 0]), "malformed snapshot: a list builder's capacity"),
    (_set_builder([0, 4, 2**70]),
     "malformed snapshot: OverflowError: Python int too large to convert to C long"),
    (_set("str_builders", [[]] * 4), "malformed snapshot: a String builder"),
    (_set("held", [[]]), "malformed snapshot: a held value"),
    (_set("trace", []), "malformed snapshot: trace"),
    (_set("usage", 5), "malformed snapshot: AttributeError: 'int' object has no attribute "
                       "'items'"),
    (_set("outgoing", [[]]), "malformed snapshot: fewer values than its sections"),
    (_set("spawn_requests", 7), "malformed snapshot: TypeError: 'int' object is not iterable"),
    (_set("drained", []), "malformed snapshot: drained"),
    (_set("locals_cap", 2**40), "malformed snapshot: locals_cap"),
    (_set("max_wall_ms", "x"), "malformed snapshot: max_wall_ms"),
])
def test_an_edited_snapshot_header_is_refused(edit, message):
    module, data = _edited(edit)
    with pytest.raises(SnapshotError) as info:
        _vm.Machine.restore(data, module)
    assert str(info.value) == message


def test_every_truncation_of_a_snapshot_is_refused():
    module, data = _edited(lambda header: None)
    for n in range(len(data)):
        with pytest.raises(SnapshotError):
            _vm.Machine.restore(data[:n], module)
    with pytest.raises(SnapshotError, match="a snapshot is bytes"):
        _vm.Machine.restore("abc", module)


def test_snapshotting_a_machine_holding_a_broken_record_is_refused():
    src = "fn f(p: Int) -> Int { let mut i = 0\n while i < 100 { i = i + 1 }\n i }\n" \
          "fn main() -> Int { 0 }"
    module = compile_source(src)
    for value in (_unset_record(), _record_with([1])):     # (the first: an AttributeError)
        m = _vm.Machine(module)
        m.set_entry(0, (value,))
        assert m.execute_bounded(20) == _vm.PAUSED
        with pytest.raises(SnapshotError, match="a Record's fields are not a List"):
            m.snapshot()
