"""A run paused at a slice boundary, snapshotted, restored in another process and finished
there has the outcome of the run that never stopped: result, steps, error, trace, work, UI
trees, event-log SHA-256 (docs/snapshots.md), also when a step, memory or work cap fires
after the restore; and the restored machine snapshots to the same bytes again.

The default suite runs a sample; `BORUNA_SNAPSHOT_CASES=20000` runs at least that many
program x pause-point cases over every family (the figures are in docs/snapshots.md)."""
import os
import sys
import time

import pytest

from boruna.bytecode.axbc import to_json
from boruna.compiler import compile_source

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import snapshot_cases as sc  # noqa: E402


@pytest.fixture(scope="module")
def worker():
    w = sc.Worker()
    yield w
    w.close()


def configs(base):
    """The plain run and caps that fire part-way (after most pause points)."""
    steps, work = base[2], base[7]
    out = [{}, {"trace": True, "trace_limit": 7}]
    if steps > 4:
        out.append({"max_steps": steps // 2})
    out.append({"max_value_memory": 3_000})
    if work > 2:
        out.append({"max_work": work // 2})
    return out


def check_program(worker, fam, seed, slices=(1, 7, 100_000), max_pauses=None):
    """Every case of one program; returns how many pause points were compared."""
    src = sc.families()[fam](seed)
    host = None
    if type(src) is tuple:
        src, host = src
    try:
        module = compile_source(src)
    except Exception:
        return 0
    axbc = to_json(module, pretty=False)
    cases = 0
    for entry, args in sc.entries(module, fam, host, {}):
        base = sc.uninterrupted(module, {}, entry, args)
        for cfg in configs(base):
            want = sc.uninterrupted(module, cfg, entry, args)
            for sl in slices:
                stride = 1
                if max_pauses is not None:
                    stride = max(1, want[2] // sl // max_pauses)
                shots, sliced = sc.pauses(module, cfg, entry, args, sl, stride=stride)
                assert sliced == want, (fam, seed, cfg, sl)
                if not shots:
                    continue
                got = worker.finish_all(axbc, shots, sl if sl < 100 else 0)
                for k, (res, again) in enumerate(got):
                    assert res == want, (fam, seed, cfg, sl, k)
                    assert again is True, ("not canonical", fam, seed, cfg, sl, k)
                cases += len(shots)
    return cases


SAMPLE = [("mixed", 3), ("strs", 1), ("app", 2), ("typed", 4), ("host", 5), ("loops", 1),
          ("enum", 2), ("const", 3), ("list", 7), ("map", 2), ("map", 3), ("strbuild", 0),
          ("strbuild", 3), ("views", 1), ("views", 6)]


@pytest.mark.parametrize("fam,seed", SAMPLE)
def test_restored_run_finishes_like_the_uninterrupted_one(worker, fam, seed):
    check_program(worker, fam, seed, max_pauses=6)


def test_the_sample_compares_pause_points_of_every_family(worker):
    total = sum(check_program(worker, fam, seed, slices=(7,), max_pauses=3)
                for fam, seed in SAMPLE[:4])
    assert total > 10


@pytest.mark.skipif(not os.environ.get("BORUNA_SNAPSHOT_CASES"),
                    reason="long run: set BORUNA_SNAPSHOT_CASES=<number of cases>")
def test_long_equivalence_run(worker):
    want = int(os.environ["BORUNA_SNAPSHOT_CASES"])
    pauses = int(os.environ.get("BORUNA_SNAPSHOT_PAUSES", "40"))   # per program, run, slice
    fams = list(sc.families())
    per = {f: 0 for f in fams}
    programs = 0
    seed = first = int(os.environ.get("BORUNA_SNAPSHOT_SEED", "0"))
    t0 = time.time()
    while sum(per.values()) < want:
        for fam in fams:
            per[fam] += check_program(worker, fam, seed, max_pauses=pauses)
            programs += 1
        seed += 1
    print(f"\nsnapshot equivalence: {sum(per.values())} cases, {programs} programs, seeds "
          f"{first}..{seed - 1}, {time.time() - t0:.0f} s; per family {per}")
