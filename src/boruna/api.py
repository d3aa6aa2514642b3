"""`boruna.run`: the public entry that takes source or a compiled module.

The compile pipeline (`boruna.compiler`) and the VM driver (`boruna.runtime.execute`) stay
apart; this is where they meet for callers of the public API.
"""
from __future__ import annotations

from boruna.bytecode.module import Module
from boruna.runtime.execute import RunOutcome, run as run_module


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
