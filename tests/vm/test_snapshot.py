"""Machine.snapshot / Machine.restore (vm/snapshot.pxi, docs/snapshots.md): canonical bytes,
shared values written once and kept shared, deep nesting, list builders, delegated calls,
and every refusal (not paused, another module, other limits, corrupted bytes)."""
import hashlib
import json

import pytest

from boruna import _vm
from boruna.compiler import compile_source
from boruna.core.suspension import CapabilityDelegated, SnapshotError
from boruna.core.values import MapValue, Record
from boruna.runtime.gateway import CapabilityGateway
from boruna.runtime.handlers import MockHandler

LOOP = """fn main() -> Int {
    let mut i = 0
    let mut xs = []
    while i < 200 { xs = list_push(xs, i * 3)  i = i + 1 }
    list_len(xs) + list_get(xs, 199)
}
"""
SHARED = """type P { a: List<Int>, b: List<Int> }
fn main() -> Int {
    let mut xs = []
    let mut i = 0
    while i < 40 { xs = list_push(xs, i)  i = i + 1 }
    let p = P { a: xs, b: xs }
    let mut k = 0
    while k < 50 { k = k + 1 }
    list_len(p.a) + list_len(p.b)
}
"""
DEEP = """fn main() -> Int {
    let mut x = [0]
    let mut i = 0
    while i < 30000 { x = [x]  i = i + 1 }
    let mut k = 0
    while k < 10 { k = k + 1 }
    k
}
"""
LLM = """fn main() -> String !{llm.call, time.now} {
    let t = time_now()
    let a: String = llm_call("q " ++ __builtin_int_to_string(t))
    let b: String = llm_call(a ++ "!")
    a ++ "|" ++ b
}
"""


def paused(src, steps, **kw):
    module = compile_source(src)
    m = _vm.Machine(module, gateway=CapabilityGateway(), **kw)
    m.set_entry(module.entry)
    assert m.execute_bounded(steps) == _vm.PAUSED
    return module, m


def finish(m):
    while (status := m.execute_bounded(0)) == _vm.PAUSED:
        pass
    return status


def test_restored_machine_finishes_with_the_uninterrupted_result_steps_and_work():
    module = compile_source(LOOP)
    whole = _vm.Machine(module, gateway=CapabilityGateway())
    assert whole.run() == _vm.FINISHED
    for at in (1, 2, 57, 600, whole.steps - 1):
        _, m = paused(LOOP, at)
        r = _vm.Machine.restore(m.snapshot(), module)
        assert r.steps == at
        assert finish(r) == _vm.FINISHED
        assert (r.result, r.steps, r.work) == (whole.result, whole.steps, whole.work) == (
            797, whole.steps, whole.work)


def test_the_same_state_gives_the_same_bytes():
    _, a = paused(LOOP, 300)
    module, b = paused(LOOP, 300)
    data = a.snapshot()
    assert data == b.snapshot() == a.snapshot()
    assert _vm.Machine.restore(data, module).snapshot() == data
    assert data[:16] == _vm.SNAPSHOT_MAGIC and hashlib.sha256(data[:-32]).digest() == data[-32:]


def test_shared_values_are_written_once_and_stay_shared():
    module = compile_source(SHARED)
    whole = _vm.Machine(module)
    whole.run()
    _, m = paused(SHARED, whole.steps - 30)        # the record is built, the k loop runs
    data = m.snapshot()
    r = _vm.Machine.restore(data, module)
    assert finish(r) == _vm.FINISHED and type(r.result) is Record
    assert r.result.fields[0] is r.result.fields[1] and len(r.result.fields[0]) == 40
    assert _vm.Machine.restore(data, module).snapshot() == data


SHARED = SHARED.replace("fn main() -> Int {", "fn main() -> P {").replace(
    "    list_len(p.a) + list_len(p.b)\n", "    p\n")


def test_deep_nesting_is_written_and_read_without_recursion():
    module, m = paused(DEEP, 30000 * 6 + 40)
    data = m.snapshot()
    r = _vm.Machine.restore(data, module)
    assert r.snapshot() == data
    assert finish(r) == _vm.FINISHED and r.result == 10


def test_a_list_builder_keeps_growing_in_place_after_a_restore():
    src = LOOP.replace("200", "5000")
    module = compile_source(src)
    whole = _vm.Machine(module, gateway=CapabilityGateway(), max_value_memory=60_000)
    whole.run()
    for at in (3000, 9000, 15000):
        _, m = paused(src, at, max_value_memory=60_000)
        r = _vm.Machine.restore(m.snapshot(), module)
        finish(r)
        assert (r.error, r.steps, r.work) == (whole.error, whole.steps, whole.work)
    assert whole.error_kind == "memory_limit"


def test_only_a_paused_machine_snapshots():
    module = compile_source(LOOP)
    m = _vm.Machine(module)
    m.run()
    with pytest.raises(SnapshotError, match="the run has ended"):
        m.snapshot()
    fresh = _vm.Machine(module)
    r = _vm.Machine.restore(fresh.snapshot(), module)      # not started: starts at the entry
    assert r.run() == _vm.FINISHED and r.result == 797


def test_another_module_is_refused():
    _, m = paused(LOOP, 50)
    other = compile_source(LOOP.replace("200", "201"))
    with pytest.raises(SnapshotError, match="snapshot is of another module"):
        _vm.Machine.restore(m.snapshot(), other)


def _resealed(data, edit):
    """`data` with its header changed by `edit` and its digest recomputed."""
    m = len(_vm.SNAPSHOT_MAGIC)
    hlen = int.from_bytes(data[m + 4:m + 8], "little")
    header = json.loads(data[m + 8:m + 8 + hlen])
    edit(header)
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    body = data[:m + 4] + len(text).to_bytes(4, "little") + text + data[m + 8 + hlen:-32]
    return body + hashlib.sha256(body).digest()


def test_other_limits_and_another_format_version_are_refused():
    module, m = paused(LOOP, 50)
    data = m.snapshot()

    def stack(h):
        h["vm"]["limits"]["MAX_STACK"] += 1

    with pytest.raises(SnapshotError, match="other VM limits"):
        _vm.Machine.restore(_resealed(data, stack), module)
    m_ = len(_vm.SNAPSHOT_MAGIC)
    v2 = data[:m_] + (2).to_bytes(4, "little") + data[m_ + 4:]
    with pytest.raises(SnapshotError, match="format version 2 is not supported"):
        _vm.Machine.restore(v2, module)
    with pytest.raises(SnapshotError, match="bad magic"):
        _vm.Machine.restore(b"x" + data[1:], module)


def test_a_forged_frame_is_refused_not_run():
    module, m = paused(LOOP, 50)

    def frame(h):
        h["frames"][0][1] = 10 ** 6

    with pytest.raises(SnapshotError, match="frame out of range"):
        _vm.Machine.restore(_resealed(m.snapshot(), frame), module)


def test_every_flipped_byte_and_every_truncation_is_refused_cleanly():
    module, m = paused("fn main() -> Int {\n let mut i = 0\n while i < 9 { i = i + 1 }\n i\n}\n", 7)
    data = m.snapshot()
    assert len(data) < 1500
    for k in range(len(data)):
        bad = bytearray(data)
        bad[k] ^= 0x41
        with pytest.raises(SnapshotError):
            _vm.Machine.restore(bytes(bad), module)
    for n in range(0, len(data), 7):
        with pytest.raises(SnapshotError):
            _vm.Machine.restore(data[:n], module)
    assert _vm.Machine.restore(data, module).snapshot() == data


def test_forged_content_with_a_recomputed_digest_never_crashes():
    """Past the digest (a forger recomputes it) every byte is still checked: a mutated
    snapshot restores to some machine that runs within its limits, or is refused."""
    import random

    module, m = paused(SHARED, 400)
    data = m.snapshot()
    rng = random.Random(7)
    refused = 0
    for _ in range(400):
        bad = bytearray(data[:-32])
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(_vm.SNAPSHOT_MAGIC) + 8, len(bad))
            bad[k] = rng.randrange(256)
        bad = bytes(bad) + hashlib.sha256(bytes(bad)).digest()
        try:
            r = _vm.Machine.restore(bad, module)
        except SnapshotError:
            refused += 1
            continue
        r.max_steps = r.steps + 100_000
        finish(r)
    assert refused > 300          # 393 of 400 on this build


class Delegate:
    def __init__(self, names):
        self.names = names
        self.mock = MockHandler()

    def handle(self, cap, args):
        if cap.wire_name in self.names:
            raise CapabilityDelegated(cap.wire_name)
        return self.mock.handle(cap, args)


class Answers:
    def __init__(self, answers):
        self.answers = list(answers)
        self.mock = MockHandler()

    def handle(self, cap, args):
        if cap.wire_name == "llm.call":
            return self.answers.pop(0)
        return self.mock.handle(cap, args)


def test_a_delegated_call_waits_survives_a_snapshot_and_forks():
    module = compile_source(LLM)
    direct = _vm.Machine(module, gateway=CapabilityGateway(None, Answers(["A", "B"])))
    assert direct.run() == _vm.FINISHED and direct.result == "A|B"
    m = _vm.Machine(module, gateway=CapabilityGateway(None, Delegate({"llm.call"})))
    assert m.run() == _vm.AWAITING
    assert m.pending_call == ("llm.call", ["q 1700000000"])
    assert m.execute_bounded(0) == _vm.AWAITING          # no answer yet: still waiting
    data = m.snapshot()
    runs = []
    for first, second in (("A", "B"), ("x", "y")):
        r = _vm.Machine.restore(data, module,
                                gateway=CapabilityGateway(None, Delegate({"llm.call"})))
        assert r.pending_call == ("llm.call", ["q 1700000000"])
        r.answer(first)
        assert r.execute_bounded(0) == _vm.AWAITING and r.pending_call == ("llm.call", [first + "!"])
        r2 = _vm.Machine.restore(r.snapshot(), module,
                                 gateway=CapabilityGateway(None, Delegate({"llm.call"})))
        r2.answer(second)
        assert r2.execute_bounded(0) == _vm.FINISHED
        runs.append(r2)
    assert [r.result for r in runs] == ["A|B", "x|y"]
    same = runs[0]
    assert (same.steps, same.work) == (direct.steps, direct.work)
    assert same.gateway.log.events == direct.gateway.log.events
    assert same.gateway.usage == direct.gateway.usage == {"time.now": 1, "llm.call": 2}


def test_answering_needs_a_pending_call():
    module, m = paused(LOOP, 5)
    with pytest.raises(RuntimeError, match="no capability call is waiting"):
        m.answer(1)


def test_event_log_and_trace_come_back():
    src = """fn main() -> Int !{time.now} {
    let t = time_now()
    emit_ui(t)
    let mut i = 0
    while i < 20 { i = i + 1 }
    i
}
""".replace("emit_ui(t)", "let u = t")
    module = compile_source(src)
    whole = _vm.Machine(module, gateway=CapabilityGateway(), trace=True)
    whole.run()
    _, m = paused(src, 30, trace=True)
    r = _vm.Machine.restore(m.snapshot(), module, gateway=CapabilityGateway())
    finish(r)
    assert (r.trace, r.trace_total, r.steps) == (whole.trace, whole.trace_total, whole.steps)
    assert r.gateway.log.events == whole.gateway.log.events and len(r.gateway.log.events) == 2


def test_map_order_is_canonical():
    src = """fn main() -> Int {
    let mut m = map_new()
    let mut i = 9
    while i > 0 { m = __builtin_map_set(m, "k" ++ __builtin_int_to_string(i), i)  i = i - 1 }
    let mut k = 0
    while k < 30 { k = k + 1 }
    match __builtin_map_get(m, "k3") { Some(v) => v, None => 0 }
}
"""
    module, m = paused(src, 150)
    data = m.snapshot()
    r = _vm.Machine.restore(data, module)
    assert r.snapshot() == data
    assert finish(r) == _vm.FINISHED and r.result == 3
    assert isinstance(MapValue(), dict)


def test_the_public_api_snapshots_and_restores():
    from boruna import api

    module, m = paused(LOOP, 40)
    r = api.restore(api.snapshot(m), module)
    assert isinstance(r, api.Machine) and finish(r) == _vm.FINISHED and r.result == 797
    with pytest.raises(api.SnapshotError):
        api.restore(b"nope", module)


HOST_HELD = """type St { n: Int, xs: List<Int> }
fn step(st: St) -> St {
    let mut s = st
    let mut i = 0
    while i < 30 { s = St { n: s.n + 1, xs: list_push(s.xs, i) }  i = i + 1 }
    s
}
fn main() -> St { St { n: 0, xs: [1, 2, 3] } }
"""


def test_values_the_host_also_holds_stay_held_after_a_restore():
    """Reuse (vm/reuse.pxi) copies a record or list something outside the machine holds (here
    the host keeps the entry argument): the copy costs work. A restored run makes the same
    decisions, since the snapshot lists such values ("held") and the restored machine holds
    them once more; when nothing outside holds them, nothing is listed."""
    module = compile_source(HOST_HELD)
    step = module.function_index("step")

    def start(host_keeps):
        st = Record(0, (0, tuple(range(1, 4))))
        m = _vm.Machine(module, gateway=CapabilityGateway())
        m.set_entry(step, (st,))
        return m, (st if host_keeps else None)

    for host_keeps, work, held in ((True, 3, [2]), (False, 0, None)):
        whole, kept = start(host_keeps)
        assert finish(whole) == _vm.FINISHED
        assert (whole.steps, whole.work) == (581, work)
        assert whole.result.fields[1] == (1, 2, 3) + tuple(range(30))
        for at in (1, 2, 5, 20):
            m, kept = start(host_keeps)
            assert m.execute_bounded(at) == _vm.PAUSED
            data = m.snapshot()
            # the record's fields List (heap index 2) while the argument is still in a local
            assert _vm.snapshot_header(data).get("held") == (held if at < 20 else None)
            r = _vm.Machine.restore(data, module)
            assert r.snapshot() == data
            assert finish(r) == _vm.FINISHED
            assert (r.result, r.steps, r.work) == (whole.result, 581, work)
            if kept is not None:
                assert kept.fields == (0, (1, 2, 3))     # the host's value is untouched


def test_a_forged_held_list_is_refused():
    module = compile_source(HOST_HELD)
    m = _vm.Machine(module, gateway=CapabilityGateway())
    st = Record(0, (0, tuple(range(1, 4))))
    m.set_entry(module.function_index("step"), (st,))
    assert m.execute_bounded(2) == _vm.PAUSED
    data = m.snapshot()
    m_len = len(_vm.SNAPSHOT_MAGIC)
    hlen = int.from_bytes(data[m_len + 4:m_len + 8], "little")
    header = json.loads(data[m_len + 8:m_len + 8 + hlen])
    for bad in ([], [2, 2], [99], ["2"], 3, [-1]):
        forged = dict(header, held=bad)
        hb = json.dumps(forged, sort_keys=True, separators=(",", ":")).encode()
        body = (data[:m_len + 4] + len(hb).to_bytes(4, "little") + hb
                + data[m_len + 8 + hlen:-32])
        with pytest.raises(SnapshotError, match="malformed snapshot: (a )?held value"):
            _vm.Machine.restore(body + hashlib.sha256(body).digest(), module)


KEEPING = """type Got { url: String, body: String, parts: List<String> }
fn main() -> Int !{net.fetch, llm.call} {
    let base = "http://h" ++ __builtin_int_to_string(7)
    let body = net_fetch(base ++ "/a")
    let g = Got { url: base, body: body, parts: [body, base ++ "/b"] }
    let said: String = llm_call(g.body ++ "?")
    __builtin_string_len(said) + __builtin_string_len(g.url) + list_len(g.parts)
}
"""


class Keeping:
    """A handler that keeps every argument and result it sees (a journal, a cache)."""

    def __init__(self, keep):
        self.keep = keep
        self.kept = []
        self.mock = Delegate({"llm.call"})

    def handle(self, cap, args):
        result = self.mock.handle(cap, args)
        if self.keep:
            self.kept.append((args, list(args), result))
        return result


def test_what_a_host_keeps_of_capability_values_does_not_change_the_snapshot():
    """A capability's arguments and results stay in the event log for the whole run, so reuse
    declines them whoever else holds them: a handler that keeps references to them (a
    journal, a cache) changes neither the run nor its snapshot's bytes (a workflow step gives
    the same snapshot locally and on a Dask worker)."""
    module = compile_source(KEEPING)
    snaps = {}
    for keep in (False, True):
        handler = Keeping(keep)
        m = _vm.Machine(module, gateway=CapabilityGateway(None, handler))
        assert m.run() == _vm.AWAITING
        assert m.pending_call == ("llm.call", ['{"mock": true, "url": ""http://h7/a""}?'])
        snaps[keep] = data = m.snapshot()
        assert _vm.snapshot_header(data).get("held") is None
        assert len(handler.kept) == (1 if keep else 0)
        r = _vm.Machine.restore(data, module, gateway=CapabilityGateway(None, Answers(["yes"])))
        r.answer("yes")
        assert r.execute_bounded(0) == _vm.FINISHED
        assert r.result == 3 + 9 + 2   # "yes", "http://h7", two parts
    assert snaps[False] == snaps[True]


def test_a_machine_stopped_at_its_step_limit_keeps_its_state_and_goes_on():
    """An unsliced run that reaches max_steps fails as before (the step counted, the error,
    its place) and keeps its frames: its snapshot is byte for byte the one of a run paused
    by a slice ending at max_steps, and restored with a raised max_steps it finishes as the
    uninterrupted run with the larger budget (same result, steps, work, trace)."""
    module = compile_source(LOOP)
    whole = _vm.Machine(module, gateway=CapabilityGateway(), trace=True, trace_limit=10_000)
    assert whole.run() == _vm.FINISHED
    for cap in (1, 57, 600, whole.steps - 1):
        m = _vm.Machine(module, gateway=CapabilityGateway(), max_steps=cap, trace=True,
                        trace_limit=10_000)
        assert m.run() == _vm.FAILED
        assert (m.error, m.error_kind, m.steps) == (
            f"max execution steps exceeded ({cap})", "step_limit", cap + 1)
        data = m.snapshot()
        sliced = _vm.Machine(module, gateway=CapabilityGateway(), max_steps=cap, trace=True,
                             trace_limit=10_000)
        sliced.set_entry(module.entry)
        assert sliced.execute_bounded(cap) == _vm.PAUSED and sliced.steps == cap
        assert data == sliced.snapshot()
        assert _vm.snapshot_header(data)["steps"] == cap
        r = _vm.Machine.restore(data, module)
        assert r.execute_bounded(0) == _vm.FAILED and r.steps == cap + 1   # the same cap
        r = _vm.Machine.restore(data, module)
        r.max_steps = whole.steps + 5
        assert finish(r) == _vm.FINISHED
        assert (r.result, r.steps, r.work, r.trace, r.trace_total) == (
            whole.result, whole.steps, whole.work, whole.trace, whole.trace_total)
        assert r.result == 797
    ended = _vm.Machine(module, max_steps=whole.steps + 5)
    assert ended.run() == _vm.FINISHED
    with pytest.raises(SnapshotError, match="the run has ended"):
        ended.snapshot()
    failed = _vm.Machine(compile_source("fn main() -> Int { 1 / 0 }"))
    assert failed.run() == _vm.FAILED
    with pytest.raises(SnapshotError, match="the run has ended"):
        failed.snapshot()
