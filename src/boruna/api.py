"""`boruna.run`: the public entry that takes source or a compiled module.

The compile pipeline (`boruna.compiler`) and the VM driver (`boruna.runtime.execute`) stay
apart; this is where they meet for callers of the public API.
"""
from __future__ import annotations

from boruna.bytecode.module import Module
from boruna.core.suspension import CapabilityDelegated, SnapshotError
from boruna.runtime.execute import RunOutcome, run as run_module

__all__ = ["run", "snapshot", "restore", "Machine", "Module", "RunOutcome", "SnapshotError",
           "CapabilityDelegated"]


def run(source_or_module, *args, name: str = "module", **options) -> RunOutcome:
    """Compile `source_or_module` when it is source (raises `CompileError`), then run it.

    `args`/`options` are `runtime.execute.run`'s: `policy="allow-all"`,
    `max_steps=10_000_000`, `trace=False`, `max_wall_ms=None`, `on_progress=None`,
    `slice_steps=100_000`, `cancel_event=None`, `handler=None`, `trace_limit=500`,
    `event_log=None`. `name` names the module compiled from source."""
    if isinstance(source_or_module, Module):
        module = source_or_module
    else:
        from boruna.compiler import compile_source
        module = compile_source(source_or_module, name=name)
    return run_module(module, *args, **options)


def snapshot(machine) -> bytes:
    """`machine.snapshot()`: a paused `boruna._vm.Machine` as bytes (docs/snapshots.md)."""
    return machine.snapshot()


def restore(data: bytes, module: Module, **options):
    """`Machine.restore(data, module, gateway=None, max_wall_ms=...)`: the paused machine
    back, in this or another process; `SnapshotError` when `data` is not a sound snapshot of
    `module` for this VM."""
    from boruna._vm import Machine

    return Machine.restore(data, module, **options)


def __getattr__(name):
    if name == "Machine":       # the VM class, loaded on first use
        from boruna._vm import Machine

        return Machine
    raise AttributeError(name)
