"""List views (vm/core/views.h, vm/lists.pxi `_view_op`): `list_tail` of a List of more than
32 elements leaves a view of it, so consuming a List by tails costs O(1) a tail. Nothing else
observable changes: results (a view leaves the machine as the tuple of its items), errors,
steps, traces, memory-cap accounting, snapshots; only the work a tail spends does (none, where
the copy spent the List's length)."""
import random
import threading

import pytest

from boruna import _vm
from boruna.api import run
from boruna.compiler import compile_source
from boruna.core.values import MapValue, Record, Some
from boruna.runtime.gateway import CapabilityGateway

UPTO = """fn upto(n: Int, k: Int) -> List<Int> {
    let mut xs: List<Int> = []
    let mut i = 0
    while i < n { xs = list_push(xs, i * k)  i = i + 1 }
    xs
}
"""

CONSUME = UPTO + """fn total(xs: List<Int>) -> Int {
    let mut t = 0
    let mut c = xs
    while !__builtin_list_is_empty(c) {
        t = t + match __builtin_list_head(c) { Some(v) => v, None => 0 }
        c = __builtin_list_tail(c)
    }
    t
}
fn main() -> Int {
    let mut xs = upto(COUNT, 3)
    total(xs)
}
"""


def machine(module, args=(), **kw):
    kw.setdefault("max_steps", 50_000_000)
    m = _vm.Machine(module, gateway=CapabilityGateway(), **kw)
    m.set_entry(next(i for i, f in enumerate(module.functions) if f.name == "main"), args)
    return m


def outcome(module, args=(), slice_steps=0, cancel=False, **kw):
    m = machine(module, args, **kw)
    if cancel:
        m.cancel_event = threading.Event()
    if slice_steps:
        while m.execute_bounded(slice_steps) == _vm.PAUSED:
            pass
    else:
        m.run()
    result = tuple(m.result.items()) if type(m.result) is MapValue else m.result
    return (repr(result), m.error, m.steps, tuple(m.trace), m.trace_total, m.work)


def copying(monkeypatch, fn, *args, **kw):
    monkeypatch.setattr(_vm, "LIST_VIEWS", False)
    try:
        return fn(*args, **kw)
    finally:
        monkeypatch.undo()


def test_recursion_over_tails_and_a_tail_passed_through_calls():
    src = UPTO + """fn sum(xs: List<Int>) -> Int {
    if __builtin_list_is_empty(xs) { 0 } else { list_get(xs, 0) + sum(__builtin_list_tail(xs)) }
}
fn step(xs: List<Int>) -> List<Int> { __builtin_list_tail(xs) }
fn main() -> Int {
    let xs = upto(200, 1)
    let mut c = xs
    let mut k = 0
    while k < 150 { c = step(c)  k = k + 1 }
    sum(xs) * 1000 + list_len(c) + list_get(c, 0)
}
"""
    out = run(src)
    assert (out.ok, out.result) == (True, 19900 * 1000 + 50 + 150)


RECORD_CONSUME = {
    "field": UPTO + """type S { c: List<Int>, n: Int }
fn main() -> Int {
    let mut xs = upto(COUNT, 3)
    let mut s = S { c: xs, n: 0 }
    xs = []
    while !__builtin_list_is_empty(s.c) {
        s = S { ..s, c: __builtin_list_tail(s.c), n: s.n + list_get(s.c, 0) }
    }
    s.n
}
""",
    "reducer": UPTO + """type S { c: List<Int>, n: Int }
enum Msg { Pop, Tick }
fn update(s: S, msg: Msg) -> S {
    match msg {
        Pop => S { ..s, c: __builtin_list_tail(s.c), n: s.n + list_get(s.c, 0) },
        Tick => S { ..s, n: s.n + 0 },
    }
}
fn main() -> Int {
    let mut xs = upto(COUNT, 3)
    let mut s = S { c: xs, n: 0 }
    xs = []
    let mut k = 0
    while !__builtin_list_is_empty(s.c) {
        s = update(s, Msg::Pop)
        if k % 5 == 0 { s = update(s, Msg::Tick) }
        k = k + 1
    }
    s.n
}
""",
}


CONSUMERS = {"local": CONSUME, **RECORD_CONSUME}


@pytest.mark.parametrize("holder", list(CONSUMERS))
@pytest.mark.parametrize("n", [0, 1, 31, 32, 33, 34, 100, 1000, 50_000])
def test_consuming_by_tails_is_exact_and_spends_only_the_short_rests_work(holder, n, monkeypatch):
    module = compile_source(CONSUMERS[holder].replace("COUNT", str(n)))
    got = outcome(module)
    want = copying(monkeypatch, outcome, module)
    assert got[0] == want[0] == repr(3 * n * (n - 1) // 2)
    assert got[1:5] == want[1:5]
    # a view spends nothing; the rests of at most 32 elements are copied as before
    m = min(n, 32)
    assert got[5] == m * (m + 1) // 2
    assert want[5] == n * (n + 1) // 2


def test_a_record_holding_a_view_leaves_as_a_record_of_tuples():
    src = UPTO + """type Box { items: List<Int>, n: Int }
type Two { a: Box, b: List<Box> }
fn main() -> Two {
    let xs = upto(60, 1)
    let mut bx = Box { items: xs, n: 0 }
    let mut k = 0
    while k < 5 { bx = Box { ..bx, items: __builtin_list_tail(bx.items) }  k = k + 1 }
    let kept = bx
    bx = Box { ..bx, items: __builtin_list_tail(bx.items), n: 1 }
    let same = if bx == Box { items: __builtin_list_tail(kept.items), n: 1 } { 1 } else { 0 }
    Two { a: bx, b: [kept, Box { ..kept, n: same }] }
}
"""
    out = run(src)
    assert out.ok, out.error
    a, b = out.result.fields
    assert a.fields == (tuple(range(6, 60)), 1) and type(a.fields[0]) is tuple
    assert [r.fields for r in b] == [(tuple(range(5, 60)), 0), (tuple(range(5, 60)), 1)]
    assert all(type(r.fields[0]) is tuple for r in b)


def test_a_record_holding_a_view_is_the_result_as_a_record_of_tuples():
    src = UPTO + """type Box { items: List<Int>, n: Int }
fn main() -> Box {
    let xs = upto(50, 1)
    Box { items: __builtin_list_tail(xs), n: 7 }
}
"""
    out = run(src)
    assert out.result.fields == (tuple(range(1, 50)), 7)
    assert type(out.result.fields[0]) is tuple


def test_a_host_list_is_left_as_it_was():
    module = compile_source("""fn main(c0: List<String>) -> Int {
    let mut c = c0
    let mut t = 0
    while !__builtin_list_is_empty(c) {
        t = t + __builtin_string_len(list_get(c, 0))
        c = __builtin_list_tail(c)
    }
    t
}
""")
    host = tuple(f"item{i:03d}" for i in range(200))
    before = tuple(host)
    m = machine(module, (host,))
    m.run()
    assert (m.result, m.error) == (7 * 200, None)
    assert host == before


def test_a_kept_view_and_a_kept_list_keep_their_items():
    src = UPTO + """fn main() -> List<Int> {
    let xs = upto(100, 1)
    let mut a = __builtin_list_tail(xs)
    let keep = a
    let mut k = 0
    while k < 60 { a = __builtin_list_tail(a)  k = k + 1 }
    let b = __builtin_list_tail(keep)
    [list_len(xs), list_get(xs, 0), list_len(keep), list_get(keep, 0), list_len(a),
     list_get(a, 0), list_len(b), list_get(b, 0), list_get(keep, 98)]
}
"""
    out = run(src)
    assert out.result == (100, 0, 99, 1, 39, 61, 98, 2, 99)


def test_a_view_leaves_every_slot_as_the_tuple_of_its_items():
    src = UPTO + """type Box { items: List<Int>, n: Int }
type Out { boxed: Box, nested: List<List<Int>>, opt: Option<List<Int>>,
           keyed: Map<String, List<Int>>, plain: List<Int> }
fn main() -> Out {
    let xs = upto(80, 1)
    let mut v = xs
    let mut k = 0
    while k < 10 { v = __builtin_list_tail(v)  k = k + 1 }
    Out { boxed: Box { items: v, n: 1 }, nested: [v, v], opt: Some(v),
          keyed: __builtin_map_set(map_new(), "k", v), plain: v }
}
"""
    out = run(src)
    assert out.ok, out.error
    want = tuple(range(10, 80))
    r = out.result
    assert type(r) is Record
    boxed, nested, opt, keyed, plain = r.fields
    assert type(boxed.fields[0]) is tuple and boxed.fields == (want, 1)
    assert nested == (want, want) and all(type(x) is tuple for x in nested)
    assert type(opt) is Some and opt.value == want and type(opt.value) is tuple
    assert dict(keyed) == {"k": want} and type(keyed["k"]) is tuple
    assert plain == want and type(plain) is tuple


def test_equality_between_views_lists_and_literals():
    src = """fn main() -> List<Bool> {
    let mut xs: List<Int> = []
    let mut i = 0
    while i < 40 { xs = list_push(xs, i % 3)  i = i + 1 }
    let a = __builtin_list_tail(xs)
    let b = __builtin_list_tail(xs)
    let mut ys: List<Int> = []
    let mut j = 1
    while j < 40 { ys = list_push(ys, j % 3)  j = j + 1 }
    let c = __builtin_list_tail(__builtin_list_tail(__builtin_list_tail(a)))
    let d = __builtin_list_tail(__builtin_list_tail(__builtin_list_tail(ys)))
    [a == b, a == ys, ys == a, a != ys, a == xs, c == d, c == a, d != c, [a] == [ys]]
}
"""
    out = run(src)
    assert out.result == (True, True, True, False, False, True, False, False, True)


def test_the_list_builtins_on_a_view():
    src = UPTO + """fn main() -> List<Int> {
    let xs = upto(50, 1)
    let v = __builtin_list_tail(__builtin_list_tail(xs))
    let mut s = 0
    for x in v { s = s + x }
    let pushed = list_push(v, 7)
    let joined = __builtin_list_concat(v, v)
    let back = __builtin_list_reverse(v)
    let h = match __builtin_list_head(v) { Some(x) => x, None => 0 - 1 }
    let e = if __builtin_list_is_empty(v) { 1 } else { 0 }
    let words = __builtin_string_join(__builtin_list_tail(__builtin_string_split(
        "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,0,1,2,3,4,5,6,7,8,9", ",")), "")
    [s, list_len(v), list_get(v, 47), list_len(pushed), list_get(pushed, 48), list_len(joined),
     list_get(joined, 48), list_get(back, 0), h, e, __builtin_string_len(words)]
}
"""
    out = run(src)
    assert out.result == (sum(range(2, 50)), 48, 49, 49, 7, 96, 2, 49, 2, 0, 35)


def test_an_index_outside_a_view_fails_as_outside_its_list(monkeypatch):
    module = compile_source(UPTO + """fn main() -> Int {
    let xs = upto(64, 1)
    let v = __builtin_list_tail(xs)
    list_get(v, 63)
}
""")
    got = outcome(module)
    assert got[1] == "list index out of bounds: index 63, length 63"
    assert got[:5] == copying(monkeypatch, outcome, module)[:5]


def test_a_paused_machine_with_a_view_snapshots_and_finishes_the_same():
    module = compile_source(CONSUME.replace("COUNT", "300"))
    whole = machine(module)
    whole.run()
    for at in (2_000, 3_001, 4_500, whole.steps - 3):
        m = machine(module)
        assert m.execute_bounded(at) == _vm.PAUSED
        r = _vm.Machine.restore(m.snapshot(), module)
        while r.execute_bounded(0) == _vm.PAUSED:
            pass
        assert (r.result, r.steps, r.work) == (whole.result, whole.steps, whole.work)
        # the paused original finishes the same as well
        while m.execute_bounded(0) == _vm.PAUSED:
            pass
        assert (m.result, m.steps, m.work) == (whole.result, whole.steps, whole.work)


# --- random programs: views on against views off -------------------------------------------

HEAD = """type Box { items: List<Int>, n: Int }
fn pass(xs: List<Int>) -> List<Int> { xs }
fn upd(b: Box, k: Int) -> Box {
    if k % 3 == 0 { Box { ..b, n: b.n + 1 } } else { Box { ..b, items: __builtin_list_tail(b.items) } }
}
fn drop(xs: List<Int>, k: Int) -> List<Int> {
    let mut c = xs
    let mut i = 0
    while i < k && !__builtin_list_is_empty(c) { c = __builtin_list_tail(c)  i = i + 1 }
    c
}
fn build(n: Int, seed: Int) -> List<Int> {
    let mut xs: List<Int> = []
    let mut i = 0
    while i < n { xs = list_push(xs, (i * seed) % 97)  i = i + 1 }
    xs
}
"""

STATEMENTS = [
    "a = __builtin_list_tail(a)",
    "b = __builtin_list_tail(a)",
    "b = __builtin_list_tail(b)",
    "a = drop(a, {k})",
    "b = drop(b, {k})",
    "acc = acc + list_len(a) + 2 * list_len(b)",
    "if !__builtin_list_is_empty(a) {{ acc = acc + list_get(a, list_len(a) / 2) }}",
    "if list_len(b) > {k} {{ acc = acc + list_get(b, {k}) }}",
    "acc = acc + match __builtin_list_head(a) {{ Some(v) => v, None => 0 - 1 }}",
    "if a == b {{ acc = acc + 1 }} else {{ acc = acc + 2 }}",
    "if keep == a {{ acc = acc + 5 }}",
    "a = list_push(a, acc % 100)",
    "b = __builtin_list_concat(a, [1, 2, 3])",
    "bx = Box {{ items: a, n: acc }}  a = bx.items",
    "bx = Box {{ ..bx, items: __builtin_list_tail(bx.items) }}",
    "a = pass(a)",
    "for x in b {{ acc = acc + x }}",
    "m = __builtin_map_set(m, \"k\", a)  b = match __builtin_map_get(m, \"k\") {{ Some(v) => v, None => [] }}",
    "acc = acc + list_len(__builtin_list_reverse(b))",
    "keep = a",
    "a = build({n}, {k})",
    "b = build({n}, {k} + 1)",
    "acc = acc + list_get(a, {k})",
    "acc = (acc * 31) % 1000003",
    "if list_len(a) > {k} {{ if list_len(b) > {k} {{ if list_get(a, {k}) < list_get(b, {k}) {{ acc = acc + 3 }} }} }}",
    "let mut q = 0  while q < list_len(a) {{ acc = acc + list_get(a, q)  q = q + 7 }}",
    "bx = upd(bx, {k})",
    "bx = upd(upd(bx, {k}), {k} + 1)",
    "a = bx.items",
    "acc = acc + list_len(bx.items) + bx.n",
    "if bx == Box {{ items: a, n: bx.n }} {{ acc = acc + 11 }}",
    "bl = [bx, bx]  acc = acc + list_len(list_get(bl, 1).items)",
    "ob = Some(bx)  bx = match ob {{ Some(v) => v, None => bx }}",
    "bx = Box {{ items: __builtin_list_tail(a), n: {k} }}",
]


def views_program(seed):
    rnd = random.Random(seed)
    lines = ["fn main() -> List<Int> {",
             f"    let mut a = build({rnd.randint(0, 150)}, {rnd.randint(1, 9)})",
             f"    let mut b = build({rnd.randint(0, 150)}, {rnd.randint(1, 9)})",
             "    let mut keep = a",
             "    let mut acc = 0",
             "    let mut bx = Box { items: [], n: 0 }",
             "    let mut bl: List<Box> = []",
             "    let mut ob: Option<Box> = None",
             "    let mut m: Map<String, List<Int>> = map_new()"]
    for _ in range(rnd.randint(10, 40)):
        st = rnd.choice(STATEMENTS).format(k=rnd.randint(0, 40), n=rnd.randint(0, 150))
        if rnd.random() < 0.2:
            st = f"let mut r = 0  while r < {rnd.randint(1, 30)} {{ {st}  r = r + 1 }}"
        lines.append("    " + st)
    lines.append(rnd.choice(["    [acc, list_len(a), list_len(b), list_len(keep), list_len(bx.items)]",
                             "    a", "    __builtin_list_concat(b, [acc])", "    keep",
                             "    bx.items", "    list_push(bx.items, acc)"]))
    lines.append("}")
    return HEAD + "\n".join(lines) + "\n"


def check(module, monkeypatch):
    fast = outcome(module)
    # the copying tails spend the List's length: all but the work is the same
    assert fast[:5] == copying(monkeypatch, outcome, module)[:5]
    for size in (1, 7, 100_000):
        assert outcome(module, slice_steps=size) == fast, size
    monkeypatch.setattr(_vm, "SUPERINSTRUCTIONS", False)
    assert outcome(module) == fast
    monkeypatch.undo()
    traced = outcome(module, trace=True, trace_limit=10_000)
    assert traced[:3] == copying(monkeypatch, outcome, module, trace=True,
                                 trace_limit=10_000)[:3] == fast[:3]
    assert outcome(module, cancel=True, slice_steps=7) == fast
    steps = fast[2]
    for cap in sorted({1, steps // 3, steps // 2 + 1, steps - 1} - {0}):
        got = outcome(module, max_steps=cap)
        assert got[:5] == copying(monkeypatch, outcome, module, max_steps=cap)[:5], cap
    for mem in (1_500, 9_000, 40_000):
        got = outcome(module, max_value_memory=mem)
        assert got[:5] == copying(monkeypatch, outcome, module, max_value_memory=mem)[:5], mem
    # paused anywhere, snapshotted and restored: the same outcome
    for at in sorted({1, steps // 4, steps // 2, steps - 2} - {0}):
        m = machine(module)
        if m.execute_bounded(at) != _vm.PAUSED:
            continue
        r = _vm.Machine.restore(m.snapshot(), module)
        while r.execute_bounded(0) == _vm.PAUSED:
            pass
        assert (repr(r.result), r.error, r.steps, r.work) == (fast[0], fast[1], fast[2],
                                                              fast[5]), at


@pytest.mark.parametrize("block", range(4))
def test_random_programs_with_views_equal_the_copying_vm(block, monkeypatch):
    for seed in range(block * 25, block * 25 + 25):
        check(compile_source(views_program(seed)), monkeypatch)


def test_random_programs_reach_views_and_every_outcome():
    errors = set()
    for seed in range(100):
        m = machine(compile_source(views_program(seed)))
        m.run()
        errors.add(m.error.split(":")[0] if m.error else None)
    assert None in errors and "list index out of bounds" in errors


def test_a_snapshot_writes_a_view_as_a_view_and_reads_it_back_to_the_same_bytes():
    module = compile_source(CONSUME.replace("COUNT", "300"))
    m = machine(module)
    assert m.execute_bounded(3_500) == _vm.PAUSED
    data = m.snapshot()
    assert m.snapshot() == data           # (writing it changed nothing)
    r = _vm.Machine.restore(data, module)
    assert r.snapshot() == data
    # the view was restored as a view: the rest of the run spends no more work than the run
    while r.execute_bounded(0) == _vm.PAUSED:
        pass
    assert (r.result, r.work) == (3 * 300 * 299 // 2, 528)


def test_a_snapshot_keeps_a_record_holding_a_view_as_it_was():
    module = compile_source(RECORD_CONSUME["reducer"].replace("COUNT", "200"))
    whole = machine(module)
    whole.run()
    for at in (1_500, 2_222, 3_000):
        m = machine(module)
        assert m.execute_bounded(at) == _vm.PAUSED
        data = m.snapshot()
        r = _vm.Machine.restore(data, module)
        assert r.snapshot() == data
        while r.execute_bounded(0) == _vm.PAUSED:
            pass
        assert (r.result, r.steps, r.work) == (whole.result, whole.steps, whole.work)
        assert r.work == 528


@pytest.mark.parametrize("src", [CONSUME, RECORD_CONSUME["field"]])
def test_forged_view_snapshots_are_refused_or_run_within_their_limits(src):
    """Every byte of the heap and the roots of a snapshot holding a view set to each kind and
    slot tag (a view's offset, its List, a view inside a List or outside the slots), the
    digest recomputed: refused, or restored to a machine that runs within its limits."""
    import hashlib

    from boruna.core.suspension import SnapshotError

    module = compile_source(src.replace("COUNT", "40"))
    m = machine(module)
    assert m.execute_bounded(700) == _vm.PAUSED
    data = m.snapshot()
    n = len(_vm.SNAPSHOT_MAGIC)
    start = n + 8 + int.from_bytes(data[n + 4:n + 8], "little")
    refused = ran = 0
    messages = set()
    for k in range(start, len(data) - 32):
        for v in (0, 1, 2, 3, 5, 6, 13, 14, 40, 127, 255):
            bad = bytearray(data[:-32])
            if bad[k] == v:
                continue
            bad[k] = v
            bad = bytes(bad) + hashlib.sha256(bytes(bad)).digest()
            try:
                r = _vm.Machine.restore(bad, module)
            except SnapshotError as exc:
                refused += 1
                messages.add(str(exc))
                continue
            ran += 1
            r.max_steps = r.steps + 100_000
            while r.execute_bounded(0) == _vm.PAUSED:
                pass
    assert refused > 0 and ran > 0
    assert any(e.startswith("malformed snapshot: a List view") for e in messages)


# --- hand-built bytecode: views reaching every op -------------------------------------------

def _fuzz_module(draw_code, consts):
    from boruna.bytecode.module import Function, Module, TypeInfo
    types = [TypeInfo("A", "Record", [("a", "List<Int>"), ("b", "Int")])]
    return Module("views", constants=consts, globals=["g"], types=types,
                  functions=[Function("main", 0, 4, draw_code, [], None, [])], entry=0)


def test_views_reaching_any_op_fail_or_finish_as_the_copies_do(monkeypatch):
    """Raw bytecode (no type checker) hands views, and records holding them, to every op:
    each run ends as it does with views off (result, error, steps), never an internal
    error."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from boruna.bytecode.opcodes import OPCODES
    from boruna.core.values import Record

    long_list = tuple(range(40))
    consts = [long_list, Record(0, (long_list, 1)), 0, 1, 39, "s", tuple(str(i) for i in range(36))]
    names = [n for n in OPCODES if n not in ("GetFieldNamed", "Assert")]
    setup = [("PushConst", 0), ("ListTail",), ("StoreLocal", 0),            # a view
             ("LoadLocal", 0), ("PushConst", 3), ("MakeRecord", 0, 2), ("StoreLocal", 1),
             ("PushConst", 6), ("ListTail",), ("StoreLocal", 2)]            # views of Strings

    @st.composite
    def instruction(draw):
        if draw(st.booleans()):
            return ("LoadLocal", draw(st.integers(0, 3)))
        name = draw(st.sampled_from(names))
        return (name,) + tuple(draw(st.integers(0, 6)) for _ in OPCODES[name].operands)

    seen = set()

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(instruction(), min_size=1, max_size=12), st.sampled_from([0, 1, 3]))
    def run_both(code, slice_steps):
        module = _fuzz_module(setup + code, consts)

        def one():
            m = _vm.Machine(module, max_steps=2_000)
            status = m.execute_bounded(slice_steps)
            while status == _vm.PAUSED:
                status = m.execute_bounded(slice_steps)
            return (status, repr(m.result), m.error, m.steps)

        got = one()
        monkeypatch.setattr(_vm, "LIST_VIEWS", False)
        try:
            want = one()
        finally:
            monkeypatch.undo()
        assert got == want
        assert not (got[2] or "").startswith("internal error"), got
        seen.add(got[0])

    run_both()
    assert _vm.FAILED in seen and _vm.FINISHED in seen
