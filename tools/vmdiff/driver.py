"""Differential runs of two VMs on random programs compiled by this checkout's compiler.

    python tools/vmdiff/driver.py OLD_PYTHON [--seconds N] [--start SEED] [--stop SEED]
        [--families a,b] [--quick] [--old-cache FILE [--old-only]]

OLD_PYTHON is the python of a venv whose `boruna` is the reference VM (e.g. a worktree at an
older commit); this interpreter's `boruna` is the VM under test. Each program is compiled once,
sent as `.axbc` JSON to tools/vmdiff/server.py under both interpreters and run there under many
configurations (plain, sliced 1/7/100,000, traced, step caps, memory caps, work caps, a wall
clock, without superinstructions); every outcome (canonical result, display text, steps, error,
error kind, trace, work, ui output, capabilities called) must be equal, but for the changes
docs/compatibility.md documents (`classify`: a lower work where in-place updates spend no copy
work; where a memory or work cap is met). Differences are printed with the program's family and
seed and saved under /tmp/vmdiff/.

The reference VM's outcomes depend only on the module's bytes and the configurations, so they
can be computed ahead (`--old-cache FILE --old-only`, e.g. while the new VM is still being
written) and read back later (`--old-cache FILE`): a program whose module bytes or
configurations changed since is run on the reference VM as before. `--stop SEED` ends the run
after that seed instead of after `--seconds`.
"""
import hashlib
import sqlite3
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "vm"))

from boruna.bytecode.axbc import to_json  # noqa: E402
from boruna.compiler import compile_source  # noqa: E402

import vm_random_programs as gen  # noqa: E402
import test_loop_superinstructions as sup  # noqa: E402
import test_maps as tmaps  # noqa: E402


def _map_program(seed):
    src = tmaps.MAP_PROGRAM if seed % 2 == 0 else tmaps.ESCAPING
    ret = "Int" if seed % 2 == 0 else "List<String>"
    src = src.replace("fn main(", "fn body(", 1).replace("COUNT", str(seed % 97 + 1))
    return src + f"fn main() -> {ret} {{\n    body(map_new())\n}}\n"


def _list_program(seed):
    return sup.LIST_PROGRAM.replace("SEED", str(seed)).replace("COUNT", str(seed % 70))


FAMILIES = {
    "mixed": gen.mixed_program,
    "strs": gen.strings_program,
    "app": gen.app_program,
    "typed": gen.typed_program,
    "host": gen.host_program,
    "loops": sup.random_program,
    "enum": sup.random_enum_program,
    "const": sup.constant_program,
    "list": _list_program,
    "map": _map_program,
    "strbuild": gen.strbuild_program,
}


class Server:
    def __init__(self, python, log):
        self.log = open(log, "w")
        self.proc = subprocess.Popen([python, os.path.join(HERE, "server.py")],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.log, text=True, cwd="/tmp")

    def ask(self, axbc, runs):
        self.proc.stdin.write(json.dumps({"axbc": axbc, "runs": runs}) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()
        self.log.close()


def quick_configs(steps, work):
    """A few configurations a program (for long runs on a busy machine): plain, sliced by 7,
    traced, without superinstructions, a step cap, a memory cap and a work cap."""
    runs = [{"slice": 7}, {"trace": True, "trace_limit": 40}, {"super": False},
            {"max_steps": max(1, steps // 2)}, {"max_value_memory": 9_000},
            {"max_value_memory": 30_000, "slice": 7}]
    if work > 1:
        runs.append({"max_work": work // 2})
    return runs


def configs(steps, work):
    runs = [{"slice": 7}, {"slice": 100_000}, {"trace": True}, {"trace": True, "slice": 7},
            {"max_wall_ms": 10**9}, {"super": False}, {"cancel": True}, {"cancel": True, "slice": 7},
            {"trace": True, "trace_limit": 3}, {"trace": True, "trace_limit": 40, "slice": 7}]
    if steps <= 60_000:
        runs.append({"slice": 1})
    for cap in sorted({1, 2, 3, steps // 3, steps // 2 + 1, steps - 1, steps}):
        if cap > 0:
            runs.append({"max_steps": cap})
            runs.append({"max_steps": cap, "slice": 7})
            runs.append({"max_steps": cap, "trace": True, "trace_limit": 5})
    for mem in (1_500, 4_000, 9_000, 30_000, 120_000):
        runs.append({"max_value_memory": mem})
        runs.append({"max_value_memory": mem, "slice": 7})
        runs.append({"max_value_memory": mem, "trace": True, "trace_limit": 20})
        runs.append({"max_value_memory": mem, "cancel": True})
        runs.append({"max_value_memory": mem, "super": False})
    for w in sorted({1, work // 2, work - 1} - {0, -1}):
        runs.append({"max_work": w})
    return runs


class OldCache:
    """The reference VM's answers, keyed by a hash of (module bytes, configurations)."""

    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.execute("CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, answer TEXT)")
        self.hits = 0

    @staticmethod
    def key(axbc, cfgs):
        return hashlib.sha256(json.dumps([axbc, cfgs], sort_keys=True).encode()).hexdigest()

    def ask(self, server, axbc, cfgs):
        key = self.key(axbc, cfgs)
        row = self.db.execute("SELECT answer FROM answers WHERE key = ?", (key,)).fetchone()
        if row is not None:
            self.hits += 1
            return json.loads(row[0])
        got = server.ask(axbc, cfgs)
        self.db.execute("INSERT OR REPLACE INTO answers VALUES (?, ?)", (key, json.dumps(got)))
        self.db.commit()
        return got


class _Direct:
    """No cache: every question goes to the server."""
    hits = 0

    def ask(self, server, axbc, cfgs):
        return server.ask(axbc, cfgs)


WORK = 7       # the work spent, in each call's outcome (server.py's answer order)
ERROR, KIND = 3, 4


def classify(cfg, a, b):
    """How run outcome `b` (new VM) differs from `a` (old VM): "same"; "work_lower" (every
    field equal but the work, which is lower: the new VM's in-place paths spend no copy work,
    docs/compatibility.md); "capped" (a run under a memory or work cap whose only change is
    where the cap is met: both end in an error of the cap's kind or one of them does, and the
    runs that finish agree; moves and in-place updates change what the memory walk counts and
    what the builtins spend); else "diff"."""
    if a == b:
        return "same"
    if a[0] == "EXC" or b[0] == "EXC" or len(a) != len(b):
        return "diff"
    capped = "max_value_memory" in cfg or "max_work" in cfg
    if all(a[k] == b[k] for k in range(len(a)) if k % 10 != WORK):
        if all(b[k] <= a[k] for k in range(WORK, len(a), 10)):
            return "work_lower"
        if not capped:
            return "diff"
        # the work a run that met a cap spent includes the charge it failed on
    if capped:
        kinds = {str(a[k]) for k in range(KIND, len(a), 10)} | {str(b[k]) for k in range(KIND, len(b), 10)}
        if kinds & {"memory_limit", "work_limit"}:
            return "capped"
    return "diff"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old_python")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--families", default=",".join(FAMILIES))
    ap.add_argument("--stop", type=int, default=None, help="the last seed to run")
    ap.add_argument("--quick", action="store_true", help="a few configurations a program")
    ap.add_argument("--old-cache", default=None, help="an sqlite file of the reference VM's answers")
    ap.add_argument("--old-only", action="store_true",
                    help="with --old-cache: only run the reference VM, filling the cache")
    args = ap.parse_args()
    if args.old_only and not args.old_cache:
        ap.error("--old-only needs --old-cache")
    os.makedirs("/tmp/vmdiff", exist_ok=True)
    old = Server(args.old_python, "/tmp/vmdiff/old.log")
    new = None if args.old_only else Server(sys.executable, "/tmp/vmdiff/new.log")
    cache = OldCache(args.old_cache) if args.old_cache else _Direct()
    families = args.families.split(",")
    deadline = time.time() + args.seconds
    programs = runs = diffs = skipped = work_lower = capped = 0
    seed = args.start
    try:
        while (seed <= args.stop) if args.stop is not None else (time.time() < deadline):
            for fam in families:
                src = FAMILIES[fam](seed)
                host = None
                if type(src) is tuple:      # a program and its entry's arguments
                    src, host = src
                try:
                    axbc = to_json(compile_source(src), pretty=False)
                except Exception:
                    skipped += 1
                    continue
                # the configurations follow from the reference VM's plain run (the new VM's
                # plain run is the first configuration compared)
                base = cache.ask(old, axbc, [{"args": host}])[0]
                steps, work = (base[2], base[7]) if base[0] != "EXC" else (1000, 0)
                cfgs = [{}] + (quick_configs if args.quick else configs)(steps, work)
                if fam == "app":
                    cfgs = [dict(c, chain=4) for c in cfgs]
                if host:
                    cfgs = [dict(c, args=host) for c in cfgs]
                got_old = cache.ask(old, axbc, cfgs)
                programs += 1
                runs += len(cfgs)
                if new is None:
                    continue
                got_new = new.ask(axbc, cfgs)
                for cfg, a, b in zip(cfgs, got_old, got_new):
                    kind = classify(cfg, a, b)
                    if kind == "same":
                        continue
                    if kind == "work_lower":
                        work_lower += 1
                        continue
                    if kind == "capped":
                        capped += 1
                        if os.environ.get("VMDIFF_WORK"):
                            with open(f"/tmp/vmdiff/capped-{fam}-{seed}.json", "a") as fh:
                                fh.write(json.dumps({"src": src, "cfg": cfg, "old": a, "new": b}) + "\n")
                        continue
                    diffs += 1
                    name = f"/tmp/vmdiff/{fam}-{seed}.json"
                    with open(name, "a") as fh:
                        fh.write(json.dumps({"src": src, "cfg": cfg, "old": a, "new": b}) + "\n")
                    print(f"DIFF {fam} seed={seed} cfg={cfg} -> {name}", flush=True)
                    break
            seed += 1
    finally:
        old.close()
        if new is not None:
            new.close()
    print(f"programs={programs} runs={runs} (x2 VMs) differing_programs={diffs} "
          f"work_lower_runs={work_lower} capped_runs={capped} "
          f"uncompiled={skipped} seeds={args.start}..{seed - 1} cached_old_answers={cache.hits}"
          + (" (reference VM only)" if new is None else ""))


if __name__ == "__main__":
    main()
