"""The VM's value limits applied to what a capability handler hands back.

A handler's result enters the VM as a value, so it must fit the VM's limits before it does:
no string over MAX_STRING_BYTES, no List or Map over MAX_COLLECTION_LEN elements, and no
more than MAX_VALUE_MEMORY bytes in all (sizes approximated as the VM's memory walk does).
`ResultBudget` counts while a handler builds its result (db.query row by row, so a huge
result stops early); `check_result` walks a finished one (every other handler, and replayed
tape results). Both raise the VM's own `memory_limit` errors (core/errors.py).
"""
from __future__ import annotations

from boruna.core import errors
from boruna.core.limits import MAX_COLLECTION_LEN, MAX_STRING_BYTES, MAX_VALUE_MEMORY

STR_OVERHEAD = 49
SCALAR_BYTES = 32
CONTAINER_OVERHEAD = 64
ENTRY_BYTES = 16


def _utf8_len(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


class ResultBudget:
    """Bytes charged so far against `cap`; every charge raises once a limit is passed."""

    __slots__ = ("cap", "used")

    def __init__(self, cap: int = MAX_VALUE_MEMORY):
        self.cap = cap
        self.used = 0

    def charge(self, nbytes: int) -> None:
        self.used += nbytes
        if self.used > self.cap:
            raise errors.value_memory_exceeded(self.cap)

    def string(self, text: str) -> None:
        size = len(text)
        if size > MAX_STRING_BYTES // 4:
            size = _utf8_len(text)
            if size > MAX_STRING_BYTES:
                raise errors.string_too_large(size)
        self.charge(STR_OVERHEAD + size)

    def collection(self, length: int) -> None:
        if length > MAX_COLLECTION_LEN:
            raise errors.collection_too_large(length)
        self.charge(CONTAINER_OVERHEAD + ENTRY_BYTES * length)

    def value(self, value) -> None:
        """Charge `value` and everything in it (iteratively: any depth)."""
        work = [value]
        while work:
            item = work.pop()
            kind = type(item)
            if kind is str:
                self.string(item)
            elif kind is tuple or kind is list:
                self.collection(len(item))
                work.extend(item)
            elif isinstance(item, dict):      # MapValue is a dict
                self.collection(len(item))
                for key, member in item.items():
                    if type(key) is str:
                        self.string(key)
                    work.append(member)
            elif hasattr(item, "fields"):     # a Record
                self.collection(len(item.fields))
                work.extend(item.fields)
            elif hasattr(item, "payload"):    # an Enum variant
                self.charge(CONTAINER_OVERHEAD)
                work.append(item.payload)
            elif hasattr(item, "value") and not isinstance(item, (int, float)):
                self.charge(CONTAINER_OVERHEAD)   # Some / Ok / Err
                work.append(item.value)
            else:
                self.charge(SCALAR_BYTES)


def check_result(value):
    """`value` unchanged when it fits the VM's limits; the limit's VmError otherwise."""
    if value is None or type(value) in (bool, int, float):
        return value
    ResultBudget().value(value)
    return value
