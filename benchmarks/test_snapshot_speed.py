"""Snapshot speed and size (issue 24, docs/snapshots.md): a run holding about 1 MB of live
values (the `boruna_run` JSON of the list it holds: records with an Int, a String, a List of
two Strings and a Float) paused near its end, then `Machine.snapshot()` + `Machine.restore()`.

Targets: snapshot + restore <= 20 ms; the snapshot within 2x the size of the live values'
JSON. The size ratio is computed in the run; the time is pytest-benchmark's (and, as a ratio,
against `json.dumps` of the same values' JSON in the same run, since timings vary with load).

Run: `python -m pytest benchmarks/test_snapshot_speed.py --benchmark-only -s`.
"""
import json
import time

from boruna import _vm
from boruna.compiler import compile_source
from boruna.service.encoding import format_value

ITEMS = 13_400          # ~1 MB of boruna_run JSON
SRC = """type Item { id: Int, name: String, tags: List<String>, score: Float }
fn main() -> RET {
    let mut xs = []
    let mut i = 0
    while i < N {
        xs = list_push(xs, Item { id: i, name: "item-" ++ __builtin_int_to_string(i),
                                  tags: ["a", "tag" ++ __builtin_int_to_string(i % 10)],
                                  score: 0.5 })
        i = i + 1
    }
    let mut k = 0
    while k < 100 { k = k + 1 }
    RESULT
}
""".replace("N", str(ITEMS))


def _paused():
    module = compile_source(SRC.replace("RET", "Int").replace("RESULT", "list_len(xs)"))
    whole = _vm.Machine(module)
    whole.run()
    m = _vm.Machine(module)
    m.set_entry(module.entry)
    assert m.execute_bounded(whole.steps - 50) == _vm.PAUSED
    return module, m, whole


def _live_json() -> str:
    module = compile_source(SRC.replace("RET", "List<Item>").replace("RESULT", "xs"))
    m = _vm.Machine(module)
    m.run()
    return json.dumps(format_value(m.result, module), separators=(",", ":"))


def test_snapshot_and_restore_of_1_mb_of_live_values(benchmark):
    module, m, whole = _paused()
    text = _live_json()
    _vm.Machine.restore(m.snapshot(), module)       # warm: imports the gateway once

    def round_trip():
        return _vm.Machine.restore(m.snapshot(), module)

    restored = benchmark.pedantic(round_trip, rounds=15, iterations=1, warmup_rounds=2)
    assert restored.run() == _vm.FINISHED and restored.result == whole.result == ITEMS
    assert restored.steps == whole.steps
    data = m.snapshot()
    # the baseline, interleaved in the same run: parsing and writing the values' JSON
    ours, theirs = [], []
    for _ in range(7):
        t0 = time.perf_counter()
        round_trip()
        t1 = time.perf_counter()
        json.dumps(json.loads(text), separators=(",", ":"))
        t2 = time.perf_counter()
        ours.append(t1 - t0)
        theirs.append(t2 - t1)
    best = benchmark.stats.stats.min
    print(f"\nlive values: {len(text):,} bytes of JSON; snapshot {len(data):,} bytes "
          f"(ratio {len(data) / len(text):.2f}); snapshot+restore min {best * 1000:.1f} ms; "
          f"interleaved: {min(ours) * 1000:.1f} ms vs {min(theirs) * 1000:.1f} ms for "
          f"json.loads+dumps of the values' JSON (ratio {min(ours) / min(theirs):.2f})")
    assert len(text) > 950_000
    assert len(data) <= 2 * len(text)
