"""Snapshot equivalence cases (tests/vm/test_snapshot_equivalence.py, docs/snapshots.md).

A case is a random program of one of the VM tests' families, a run configuration (slice size,
trace, step / memory / work caps) and a pause point: the run is stopped at a slice boundary,
snapshotted, restored in another process (`python snapshot_cases.py`, a worker reading one
JSON request a line) and finished there; its outcome must equal the uninterrupted run's.

An outcome: [status, canonical result, steps, error, error kind, trace total, trace lines,
work, UI trees, event-log SHA-256, capabilities called]."""
import base64
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tools", "vmdiff"))

from boruna import _vm  # noqa: E402
from boruna.core import values as V  # noqa: E402
from boruna.runtime.gateway import CapabilityGateway  # noqa: E402
from boruna.service.event_log import event_log_sha256  # noqa: E402
from server import canon  # noqa: E402  (tools/vmdiff/server.py)


def families():
    """name -> seed -> source (or (source, host argument expression))."""
    import vm_random_programs as gen
    import test_loop_superinstructions as sup
    import test_maps as tmaps
    import test_list_views as tviews

    def map_program(seed):
        src = tmaps.MAP_PROGRAM if seed % 2 == 0 else tmaps.ESCAPING
        ret = "Int" if seed % 2 == 0 else "List<String>"
        src = src.replace("fn main(", "fn body(", 1).replace("COUNT", str(seed % 97 + 1))
        return src + f"fn main() -> {ret} {{\n    body(map_new())\n}}\n"

    def list_program(seed):
        return sup.LIST_PROGRAM.replace("SEED", str(seed)).replace("COUNT", str(seed % 70))

    return {"mixed": gen.mixed_program, "strs": gen.strings_program, "app": gen.app_program,
            "typed": gen.typed_program, "host": gen.host_program, "loops": sup.random_program,
            "enum": sup.random_enum_program, "const": sup.constant_program,
            "list": list_program, "map": map_program, "strbuild": gen.strbuild_program,
            "views": tviews.views_program}


def host_args(expr):
    if not expr:
        return ()
    return eval(expr, {k: getattr(V, k) for k in dir(V) if not k.startswith("_")})


def machine_kwargs(cfg):
    kw = {"trace": cfg.get("trace", False), "max_steps": cfg.get("max_steps", 10_000_000)}
    for key in ("max_value_memory", "max_work", "trace_limit"):
        if cfg.get(key) is not None:
            kw[key] = cfg[key]
    return kw


def outcome(m, module, status):
    log = m.gateway.log if m.gateway is not None else None
    return [status, canon(m.result) if m.error is None else None, m.steps, m.error,
            str(m.error_kind) if m.error is not None else None, m.trace_total,
            list(m.trace), m.work, [canon(x) for x in m.ui_output],
            event_log_sha256(log, module) if log is not None else None,
            list(m.gateway.called) if m.gateway is not None else []]


def finish(m, step=0):
    while True:
        status = m.execute_bounded(step)
        if status != _vm.PAUSED:
            return status


def start(module, cfg, entry, args):
    m = _vm.Machine(module, gateway=CapabilityGateway(), **machine_kwargs(cfg))
    m.set_entry(entry, args)
    return m


def entries(module, fam, src_args, cfg):
    """The calls a case runs: the entry, and for App reducers the `step` on main's result."""
    args = host_args(src_args)
    calls = [(module.entry, args)]
    if fam == "app":
        m = start(module, {}, module.entry, args)
        if finish(m) == _vm.FINISHED:
            calls = [(module.function_index("step"), (m.result,))]
    return calls


def uninterrupted(module, cfg, entry, args):
    m = start(module, cfg, entry, args)
    return outcome(m, module, finish(m))


def pauses(module, cfg, entry, args, slice_steps, limit=None, stride=1):
    """Snapshots taken at the run's slice boundaries (every `stride`-th, at most `limit`), and
    the outcome of the sliced run itself."""
    m = start(module, cfg, entry, args)
    shots = []
    k = 0
    while True:
        status = m.execute_bounded(slice_steps)
        if status != _vm.PAUSED:
            break
        if k % stride == 0 and (limit is None or len(shots) < limit):
            shots.append(m.snapshot())
        k += 1
    return shots, outcome(m, module, status)


def worker_answer(req):
    from boruna.bytecode.axbc import from_json

    module = from_json(req["axbc"])
    out = []
    for text in req["snapshots"]:
        try:
            m = _vm.Machine.restore(base64.b64decode(text), module,
                                    gateway=CapabilityGateway())
            again = m.snapshot() == base64.b64decode(text)
            out.append([outcome(m, module, finish(m, req.get("slice", 0))), again])
        except Exception as exc:    # a bug: report it, do not die
            out.append(["EXC", f"{type(exc).__name__}: {exc}"])
    return out


class Worker:
    """A fresh process that restores snapshots and finishes the runs."""

    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def finish_all(self, axbc, snapshots, slice_steps=0):
        req = {"axbc": axbc, "snapshots": [base64.b64encode(s).decode() for s in snapshots],
               "slice": slice_steps}
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def main():
    answers = sys.stdout
    sys.stdout = sys.stderr     # anything a run prints stays out of the answers
    for line in sys.stdin:
        answers.write(json.dumps(worker_answer(json.loads(line))) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
