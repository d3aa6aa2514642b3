"""The VM's value model as Python objects (docs/spec/vm.md §3.1).

Representation, shared by the VM, the runtime helpers and every tool:

  Unit      -> None                  (Python None)
  Bool      -> bool                  (test with `type(v) is bool` before int!)
  Int       -> int                   (always within i64; the VM checks overflow)
  Float     -> float
  String    -> str
  None      -> NONE                  (the singleton OptNone instance below)
  Some/Ok/Err -> Some(v) / Ok(v) / Err(v)
  Record    -> Record(type_id, fields: tuple)
  Enum      -> Enum(type_id, variant: int, payload)
  List      -> tuple                 (values are immutable; "updates" build new tuples)
  Map       -> MapValue (a dict subclass read in key order; only the VM changes one, in place,
                                    when nothing else holds it)
  ActorId   -> ActorId(id)
  FnRef     -> FnRef(index)

Python's `==` on plain values is NOT the language's equality (1 == 1.0 and True == 1 in
Python); `values_equal` below is (docs/spec/vm.md §3.3), and the value classes' `==` use it.
"""
from __future__ import annotations

from typing import Any

SOME_TYPE_ID = 65534     # reserved ids (docs/spec/vm.md §3.1)
RESULT_TYPE_ID = 65533
LEGACY_LIST_TYPE_ID = 65535


class OptNone:
    """Value::None. Use the NONE singleton."""

    __slots__ = ()
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NONE"

    def __reduce__(self):
        return (OptNone, ())


NONE = OptNone()


class _Wrapper:
    __slots__ = ("value",)
    TAG = ""

    def __init__(self, value: Any):
        self.value = value

    def __eq__(self, other):
        return values_equal(self, other)

    def __hash__(self):
        return hash((self.TAG, _hashable(self.value)))

    def __repr__(self) -> str:
        return f"{self.TAG}({self.value!r})"


class Some(_Wrapper):
    __slots__ = ()
    TAG = "Some"


class Ok(_Wrapper):
    __slots__ = ()
    TAG = "Ok"


class Err(_Wrapper):
    __slots__ = ()
    TAG = "Err"


class Record:
    __slots__ = ("type_id", "fields")

    def __init__(self, type_id: int, fields: tuple):
        self.type_id = type_id
        self.fields = tuple(fields)

    def __eq__(self, other):
        return values_equal(self, other)

    def __hash__(self):
        return hash(("Record", self.type_id, _hashable(self.fields)))

    def __repr__(self) -> str:
        return f"Record({self.type_id}, {self.fields!r})"


class Enum:
    __slots__ = ("type_id", "variant", "payload")

    def __init__(self, type_id: int, variant: int, payload: Any = None):
        self.type_id = type_id
        self.variant = variant
        self.payload = payload

    def __eq__(self, other):
        return values_equal(self, other)

    def __hash__(self):
        return hash(("Enum", self.type_id, self.variant, _hashable(self.payload)))

    def __repr__(self) -> str:
        return f"Enum({self.type_id}, {self.variant}, {self.payload!r})"


class MapValue(dict):
    """Value::Map: string keys, iteration always in sorted key order.

    The VM may insert keys into a map nothing else holds in place, appended (`_unsorted`
    is then True: the VM sets the slot in C); every way of reading the order (iteration,
    keys/values/items, repr, copy, pickling) puts the keys back in sorted order first, so
    no reader ever sees the insertion order. Lookups, `len`, `in` and equality do not
    depend on the order and leave it alone."""

    __slots__ = ("_unsorted",)

    def __init__(self, items=()):
        super().__init__(sorted(dict(items).items()))
        self._unsorted = False

    def _order(self):
        """Put the keys back in sorted order (after in-place inserts by the VM)."""
        if getattr(self, "_unsorted", False):
            items = sorted(dict.items(self))
            dict.clear(self)
            dict.update(self, items)
            self._unsorted = False

    def __iter__(self):
        self._order()
        return dict.__iter__(self)

    def __reversed__(self):
        self._order()
        return dict.__reversed__(self)

    def keys(self):
        self._order()
        return dict.keys(self)

    def values(self):
        self._order()
        return dict.values(self)

    def items(self):
        self._order()
        return dict.items(self)

    def copy(self):
        return MapValue(dict.items(self))

    def __repr__(self):
        self._order()
        return dict.__repr__(self)

    def __reduce__(self):
        return (MapValue, (list(self.items()),))

    def __hash__(self):  # values are immutable by convention
        return hash(("Map", tuple((k, _hashable(v)) for k, v in self.items())))


class ActorId:
    __slots__ = ("id",)

    def __init__(self, id: int):
        self.id = id

    def __eq__(self, other):
        return type(other) is ActorId and self.id == other.id

    def __hash__(self):
        return hash(("ActorId", self.id))

    def __repr__(self) -> str:
        return f"ActorId({self.id})"


class FnRef:
    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index

    def __eq__(self, other):
        return type(other) is FnRef and self.index == other.index

    def __hash__(self):
        return hash(("FnRef", self.index))

    def __repr__(self) -> str:
        return f"FnRef({self.index})"


def values_equal(a: Any, b: Any) -> bool:
    """Type-strict structural equality (docs/spec/vm.md §3.3): 1 != 1.0 != True, lists, records, enums,
    wrappers and maps compared item by item. Iterative, so any depth is safe."""
    work = [(a, b)]
    while work:
        x, y = work.pop()
        tx = type(x)
        if tx is not type(y):
            return False
        if tx is tuple:
            if len(x) != len(y):
                return False
            work.extend(zip(x, y))
        elif tx is Record:
            if x.type_id != y.type_id or len(x.fields) != len(y.fields):
                return False
            work.extend(zip(x.fields, y.fields))
        elif tx is Enum:
            if x.type_id != y.type_id or x.variant != y.variant:
                return False
            work.append((x.payload, y.payload))
        elif tx is Some or tx is Ok or tx is Err:
            work.append((x.value, y.value))
        elif tx is MapValue:
            if x.keys() != y.keys():
                return False
            work.extend((x[k], y[k]) for k in x)
        elif x != y:
            return False
    return True


_same = values_equal


def _hashable(v: Any):
    if type(v) is tuple:
        return tuple((type(x).__name__, _hashable(x)) for x in v)
    return (type(v).__name__, v if not isinstance(v, dict) else hash(v))


def type_name(v: Any) -> str:
    """The value's `type_name` as used in runtime type errors (docs/spec/vm.md §3.1)."""
    t = type(v)
    if v is None:
        return "Unit"
    if t is bool:
        return "Bool"
    if t is int:
        return "Int"
    if t is float:
        return "Float"
    if t is str:
        return "String"
    if t is tuple:
        return "List"
    return {OptNone: "None", Some: "Some", Ok: "Ok", Err: "Err", Record: "Record",
            Enum: "Enum", MapValue: "Map", ActorId: "ActorId", FnRef: "FnRef"}.get(t, t.__name__)
