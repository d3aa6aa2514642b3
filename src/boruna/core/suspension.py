"""What the VM and the runtime share about suspending a run (docs/snapshots.md).

`CapabilityDelegated` is how a capability handler says "the caller of the run answers this
call": the VM stops at the call with it pending (`Machine.pending_call`, status AWAITING) and
continues when it is given the answer (`Machine.answer`). `SnapshotError` is every refusal of
`Machine.snapshot` and `Machine.restore` (a machine that is not paused, a corrupted snapshot,
one of another module, VM format or build limits)."""
from __future__ import annotations


class CapabilityDelegated(Exception):
    """Raised by a capability handler's `handle(cap, args)`: the run's caller answers."""

    def __init__(self, capability: str = ""):
        super().__init__(f"capability call `{capability}` delegated to the caller")
        self.capability = capability


class SnapshotError(ValueError):
    """A snapshot that cannot be taken or read; `message` is the whole text."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message
