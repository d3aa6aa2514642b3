"""Type stub of the VM extension `boruna._vm` (sources: _vm.pyx, _vm.pxd, vm/*.pxi)."""
from collections import deque
from typing import Any, Final, Optional, Sequence

from boruna.bytecode.module import Module

# run status returned by Machine.execute_bounded / Machine.run
FINISHED: Final[int]
PAUSED: Final[int]
FAILED: Final[int]
BLOCKED: Final[int]
AWAITING: Final[int]     # a delegated capability call waits for Machine.answer (vm/snapshot.pxi)

# snapshots (vm/snapshot.pxi, docs/snapshots.md)
SNAPSHOT_MAGIC: Final[bytes]
SNAPSHOT_FORMAT: Final[int]


def snapshot_header(data: bytes) -> dict[str, Any]:
    """The checked header of a snapshot (format, module SHA-256, VM limits, counters, frames,
    pending call), without reading its values; SnapshotError if it is not a sound snapshot."""


def module_sha256(module: Module) -> str:
    """Hex SHA-256 of the module's .axbc image (what ties a snapshot to its module)."""

# resource limits (read from boruna.core.limits)
MAX_STACK: Final[int]
MAX_CALL_DEPTH: Final[int]
MAX_LOCAL_SLOTS: Final[int]
MAX_VALUE_MEMORY: Final[int]
MAX_STRING_BYTES: Final[int]
MAX_COLLECTION_LEN: Final[int]
MAX_WORK: Final[int]
TRACE_LIMIT: Final[int]
EVENT_BYTES: Final[int]
TRACE_ENTRY_BYTES: Final[int]
PUSH_IN_PLACE: Final[bool]
MAP_IN_PLACE: Final[bool]
STR_IN_PLACE: Final[bool]
# `list_tail` of a List of more than 32 elements leaves a view of it (vm/core/views.h)
LIST_VIEWS: Final[bool]
MOVES: Final[bool]
SUPERINSTRUCTIONS: Final[bool]

# opcode name (and OP_* pseudo-op) -> the tag this build dispatches on (bytecode/opcodes.py)
COMPILED_TAGS: Final[dict[str, int]]
# True when the loop's C core was built with computed-goto dispatch (GCC/Clang), False for the
# switch (other compilers, or BORUNA_SWITCH_DISPATCH=1 at build time)
THREADED_DISPATCH: Final[bool]


def values_equal(a: Any, b: Any) -> bool:
    """Type-strict structural equality (docs/spec/vm.md §3.3); iterative, so any depth is safe."""


class Machine:
    """One VM instance for one module (docs/spec/vm.md §4.1)."""

    # results
    @property
    def steps(self) -> int: ...
    @property
    def result(self) -> Any: ...
    @property
    def error(self) -> Optional[str]: ...
    @property
    def error_kind(self) -> Optional[str]: ...
    @property
    def error_obj(self) -> Any: ...
    @property
    def trace(self) -> list[str]: ...
    @property
    def trace_total(self) -> int: ...
    @property
    def work(self) -> int: ...
    @property
    def max_work(self) -> int: ...
    @property
    def module(self) -> Module: ...
    @property
    def gateway(self) -> Any: ...
    @property
    def finished(self) -> bool: ...
    @property
    def call_depth(self) -> int: ...
    ui_output: list[Any]
    max_steps: int
    # actors (runtime/actors.py) and cancellation
    in_actor: bool
    mailbox: deque
    outgoing: list[tuple[int, Any]]
    spawn_requests: list[int]
    next_spawn_id: int
    actor_id: int
    cancel_event: Any

    def __init__(self, module: Module, *, gateway: Any = None, max_steps: int = ...,
                 trace: bool = False, max_wall_ms: Optional[float] = None,
                 max_value_memory: int = ..., trace_limit: int = ...,
                 max_work: int = ...) -> None: ...

    def set_entry(self, fn_index: int, args: Sequence[Any] = ()) -> None:
        """Push the entry frame (no step charged) if the call stack is empty."""

    def execute_bounded(self, slice_steps: Optional[int] = 0) -> int:
        """Run at most `slice_steps` steps (0 or None = no bound): FINISHED, PAUSED, FAILED
        or BLOCKED."""

    def run(self) -> int:
        """Run to completion from the module entry; returns the status."""

    def cancel(self) -> None:
        """Stop at the next 1,024-step checkpoint with `execution cancelled`."""

    def deliver(self, msg: Any) -> None: ...

    # snapshots and delegated capability calls (vm/snapshot.pxi, docs/snapshots.md)
    def snapshot(self) -> bytes:
        """The paused machine as canonical bytes (the same state gives the same bytes);
        `boruna.core.suspension.SnapshotError` for a running, ended or cancelled machine. A
        machine that failed at its step limit (`error_kind == "step_limit"`) keeps its state:
        its snapshot is the one a slice ending at `max_steps` gives (restore it and raise
        `max_steps` to go on)."""

    @classmethod
    def restore(cls, data: bytes, module: Module, *, gateway: Any = None,
                max_wall_ms: Optional[float] = ...) -> "Machine":
        """A new machine for `module` in the state of snapshot `data` (its gateway's event
        log and usage restored into `gateway`, default a new allow-all mock gateway);
        `max_wall_ms` defaults to the snapshot's and starts afresh. SnapshotError for a
        corrupted snapshot or one of another module, VM format or build limits."""

    @property
    def pending_call(self) -> Optional[tuple[str, list[Any]]]:
        """(capability wire name, args) of the delegated call the machine waits on."""

    def answer(self, result: Any) -> None:
        """The delegated call's result; the next `execute_bounded` continues with it."""
