"""State history of a running App: bounded snapshots, rewind and field diffs (tooling.md §3.6)."""
from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from typing import Any

from boruna.service.encoding import format_value_brief
from boruna.core.values import Record

from .errors import state_error

MAX_SNAPSHOTS = 1000


@dataclass(frozen=True)
class Snapshot:
    cycle: int
    value: Any
    module: Any = None

    @property
    def json(self) -> str:
        """Compact JSON of the brief encoding (computed on demand; values can be deep)."""
        data = format_value_brief(self.value, self.module)
        try:
            return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        except RecursionError:
            raise state_error(f"cycle {self.cycle} state is too deeply nested for JSON") from None


@dataclass(frozen=True)
class FieldChange:
    field: str          # `field_<i>` for records, `root` otherwise
    before: Any
    after: Any


class StateHistory:
    """The last `MAX_SNAPSHOTS` states, oldest dropped first."""

    def __init__(self, module=None, limit: int = MAX_SNAPSHOTS):
        self._module = module
        self._snapshots: deque[Snapshot] = deque(maxlen=limit)

    def record(self, cycle: int, value: Any) -> Snapshot:
        snap = Snapshot(cycle, value, self._module)
        self._snapshots.append(snap)
        return snap

    def __len__(self) -> int:
        return len(self._snapshots)

    def cycles(self) -> list[int]:
        return [s.cycle for s in self._snapshots]

    def at(self, cycle: int) -> Snapshot:
        for snap in self._snapshots:
            if snap.cycle == cycle:
                return snap
        raise state_error(f"cycle {cycle} not in history")

    def diff_from(self, cycle: int, current: Any) -> list[FieldChange]:
        """Changes from the state at `cycle` to `current`."""
        return diff_values(self.at(cycle).value, current)


def diff_values(before: Any, after: Any) -> list[FieldChange]:
    """Records field by field (a missing field counts as Unit); anything else as `root`."""
    if type(before) is Record and type(after) is Record:
        n = max(len(before.fields), len(after.fields))
        changes = []
        for i in range(n):
            a = before.fields[i] if i < len(before.fields) else None
            b = after.fields[i] if i < len(after.fields) else None
            if not _same(a, b):
                changes.append(FieldChange(f"field_{i}", a, b))
        return changes
    return [] if _same(before, after) else [FieldChange("root", before, after)]


def _same(a: Any, b: Any) -> bool:
    """Type-strict structural equality (1 != 1.0 != True), via the value classes' own rule."""
    return Record(0, (a,)) == Record(0, (b,))
