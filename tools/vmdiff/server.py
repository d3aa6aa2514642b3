"""Run `.axbc` modules on the VM of the `boruna` this interpreter imports; one JSON request a
line on stdin, one JSON answer a line on stdout (tools/vmdiff/driver.py starts one of these per
VM under test: each worktree's venv python imports that worktree's `boruna`).

Request: {"axbc": <module JSON text>, "runs": [{"slice": N, "trace": bool, "max_steps": N,
"max_value_memory": N | null, "max_work": N | null, "max_wall_ms": N | null}, ...]}.
Answer: one outcome per run: [canonical result, display text, steps, error, error kind, trace,
trace_total, work, ui_output, capabilities called] (or ["EXC", text] when the run raised).
"""
import json
import sys

from boruna import _vm
from boruna.bytecode.axbc import from_json
from boruna.core import values as V
from boruna.core.display import display
from boruna.runtime.gateway import CapabilityGateway


def canon(v):
    """A JSON form of a VM value that tells apart every type and keeps map order."""
    t = type(v)
    if v is None:
        return ["Unit"]
    if t is bool:
        return ["Bool", v]
    if t is int:
        return ["Int", str(v)]
    if t is float:
        return ["Float", repr(v)]
    if t is str:
        return ["Str", v]
    if t is tuple or t is list:
        return ["List"] + [canon(x) for x in v]
    if t is V.MapValue:
        return ["Map"] + [[k, canon(x)] for k, x in v.items()]
    if t is V.Record:
        return ["Record", v.type_id] + [canon(x) for x in v.fields]
    if t is V.Enum:
        return ["Enum", v.type_id, v.variant, canon(v.payload)]
    if t in (V.Some, V.Ok, V.Err):
        return [t.__name__, canon(v.value)]
    if t is V.OptNone:
        return ["None"]
    if t is V.FnRef:
        return ["FnRef", v.index]
    if t is V.ActorId:
        return ["Actor", v.id]
    return ["?", t.__name__, repr(v)]


def one(module, cfg):
    """One run of the entry function; with "chain": N, then N calls of `step` on the last
    result (an App-style reducer fed its own state as a host value): the outcomes joined."""
    args = ()
    if cfg.get("args"):     # host values, built here from a Python expression over core.values
        args = eval(cfg["args"], {k: getattr(V, k) for k in dir(V) if not k.startswith("_")})
    out = one_call(module, cfg, module.entry, args)
    for _ in range(cfg.get("chain", 0)):
        if out[0] == "EXC" or out[3] is not None:
            break
        out = out + one_call(module, cfg, module.function_index("step"), (LAST[0],))
    return out


LAST = [None]


def one_call(module, cfg, fn_index, args):
    kw = {"trace": cfg.get("trace", False), "max_steps": cfg.get("max_steps", 10_000_000)}
    for key in ("max_value_memory", "max_work", "max_wall_ms", "trace_limit"):
        if cfg.get(key) is not None:
            kw[key] = cfg[key]
    gateway = CapabilityGateway()
    _vm.SUPERINSTRUCTIONS = cfg.get("super", True)
    try:
        m = _vm.Machine(module, gateway=gateway, **kw)
        if cfg.get("cancel"):
            import threading
            m.cancel_event = threading.Event()     # never set: only the checks run
        m.set_entry(fn_index, args)
        step = cfg.get("slice", 0)
        if step:
            while m.execute_bounded(step) == _vm.PAUSED:
                pass
        else:
            m.run()
    except Exception as exc:   # a VM bug: report it, do not die
        return ["EXC", f"{type(exc).__name__}: {exc}"]
    shown = None
    LAST[0] = m.result
    if m.error is None:
        try:
            shown = display(m.result)
        except Exception as exc:
            shown = f"display raised {type(exc).__name__}"
    return [canon(m.result) if m.error is None else None, shown, m.steps, m.error,
            str(m.error_kind) if m.error is not None else None, [repr(x) for x in m.trace],
            m.trace_total, m.work, [canon(x) for x in m.ui_output], list(gateway.called)]


def main():
    answers = sys.stdout
    sys.stdout = sys.stderr     # anything a run prints stays out of the answers
    for line in sys.stdin:
        req = json.loads(line)
        module = from_json(req["axbc"])
        out = [one(module, cfg) for cfg in req["runs"]]
        answers.write(json.dumps(out) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
