"""Cost that grows with the work (issue 25): each container builtin that builds or changes a
container, run n times at n = 1k, 10k, 100k and 1M on a value held in a local, passed through
a function, held in a record field and threaded through an App-style reducer; printed as ns
per element and the ratio of the cost per element at 1M to that at 1k (target <= 3), each size beside CPython doing the same n
operations on a list / dict in a local (`/py`, measured interleaved: the machine's own growth of
the cost per element with the size, caches and allocator, shows there). Then a
map of 100k String keys built with map_set and read back with map_get, against CPython's dict
doing the same, interleaved in the same run (target <= 3x).

Run: `python -m pytest benchmarks/test_vm_scaling.py --benchmark-only -s` (about a minute).
With `--benchmark-disable` only n = 1k runs and the results are checked. Nothing here asserts
a timing.
"""
import time

import pytest

from boruna import _vm
from boruna.compiler import compile_source
from boruna.core.values import MapValue

SIZES = (1_000, 10_000, 100_000, 1_000_000)

# the container's type, its first value, the operation on the container `@` and the loop
# counter `i`, and the builtin giving its length
OPS = {
    "list_push": ("List<Int>", "[]", "list_push(@, i)", "list_len"),
    "list_append": ("List<Int>", "[]", "__builtin_list_append(@, i)", "list_len"),
    "map_set": ("Map<String, Int>", "m0", "__builtin_map_set(@, __builtin_int_to_string(i), i)",
                "__builtin_map_len"),
    # sets a key per round and removes the one set half the rounds before: the map stays at
    # n / 2 keys
    "map_remove": ("Map<String, Int>", "m0",
                   "__builtin_map_remove(__builtin_map_set(@, __builtin_int_to_string(i), i), "
                   "__builtin_int_to_string(i - COUNT / 2))", "__builtin_map_len"),
}

HOLDERS = {
    "local": """fn main(m0: Map<String, Int>) -> Int {
    let mut c: T = INIT
    let mut i = 0
    while i < COUNT { c = OP  i = i + 1 }
    LEN(c)
}
""",
    "call": """fn step(c: T, i: Int) -> T { OP }
fn main(m0: Map<String, Int>) -> Int {
    let mut c: T = INIT
    let mut i = 0
    while i < COUNT { c = step(c, i)  i = i + 1 }
    LEN(c)
}
""",
    "field": """type S { c: T, n: Int }
fn main(m0: Map<String, Int>) -> Int {
    let mut s = S { c: INIT, n: 0 }
    let mut i = 0
    while i < COUNT { s = S { ..s, c: OP_S }  i = i + 1 }
    LEN(s.c)
}
""",
    "reducer": """type S { c: T, n: Int, last: Int }
enum Msg { Put(Int), Tick }
fn update(s: S, msg: Msg) -> S {
    match msg {
        Put(i) => S { ..s, c: OP_S, last: i },
        Tick => S { ..s, n: s.n + 1 },
    }
}
fn main(m0: Map<String, Int>) -> Int {
    let mut s = S { c: INIT, n: 0, last: 0 }
    let mut i = 0
    while i < COUNT {
        s = update(s, Msg::Put(i))
        if i % 16 == 0 { s = update(s, Msg::Tick) }
        i = i + 1
    }
    LEN(s.c)
}
""",
}


def program(op, holder, n):
    typ, init, expr, length = OPS[op]
    src = HOLDERS[holder].replace("OP_S", expr.replace("@", "s.c")).replace("OP", expr.replace("@", "c"))
    src = src.replace("INIT", init).replace("LEN", length)
    return src.replace(": T", ": " + typ).replace("-> T", "-> " + typ).replace("COUNT", str(n))


def py_peer(op, n):
    """CPython doing the same n operations on a list / dict in a local (the machine's own
    cost per element at that size, measured beside the VM's)."""
    if op.startswith("list"):
        c = []
        for i in range(n):
            c.append(i)
        return len(c)
    c = {}
    for i in range(n):
        c[str(i)] = i
        if op == "map_remove":
            c.pop(str(i - n // 2), None)
    return len(c)


def expected(op, n):
    return n // 2 if op == "map_remove" else n


def run_once(module):
    m = _vm.Machine(module, max_steps=10**9)
    m.set_entry(next(i for i, f in enumerate(module.functions) if f.name == "main"), (MapValue(),))
    t0 = time.perf_counter()
    m.run()
    return time.perf_counter() - t0, m


@pytest.mark.parametrize("holder", list(HOLDERS))
@pytest.mark.parametrize("op", list(OPS))
def test_scaling(benchmark, op, holder):
    sizes = SIZES if benchmark.enabled else SIZES[:1]
    per, ratio = {}, {}
    for n in sizes:
        module = compile_source(program(op, holder, n))
        vm, py = [], []
        for _ in range(3 if n < 1_000_000 else 1):      # interleaved with the CPython peer
            dt, m = run_once(module)
            assert (m.result, m.error) == (expected(op, n), None), (op, holder, n)
            vm.append(dt)
            t0 = time.perf_counter()
            assert py_peer(op, n) == expected(op, n)
            py.append(time.perf_counter() - t0)
        per[n] = min(vm) / n * 1e9
        ratio[n] = min(vm) / min(py)
    if not benchmark.enabled:
        return
    benchmark.pedantic(lambda: None, rounds=1, iterations=1)
    benchmark.extra_info.update({str(n): v for n, v in per.items()})
    cells = " ".join(f"{n // 1000}k={v:.0f}ns(/py {ratio[n]:.2f})" for n, v in per.items())
    print(f"\n{op:12s} {holder:8s} {cells}  1M/1k={per[SIZES[-1]] / per[SIZES[0]]:.2f}")


MAP_100K = """fn main(m0: Map<String, Int>) -> Int {
    let mut m = m0
    let mut i = 0
    while i < 100000 { m = __builtin_map_set(m, "key" ++ __builtin_int_to_string(i * 7919 % 100000), i)  i = i + 1 }
    let mut t = 0
    i = 0
    while i < 100000 {
        match __builtin_map_get(m, "key" ++ __builtin_int_to_string(i)) { Some(v) => { t = t + v } None => {} }
        i = i + 1
    }
    t
}
"""


def py_map_100k():
    m = {}
    for i in range(100000):
        m["key" + str(i * 7919 % 100000)] = i
    t = 0
    for i in range(100000):
        v = m.get("key" + str(i))
        if v is not None:
            t += v
    return t


def test_map_100k_string_keys_against_dict(benchmark):
    module = compile_source(MAP_100K)
    want = py_map_100k()
    vm, py = [], []
    for _ in range(5 if benchmark.enabled else 1):     # interleaved
        dt, m = run_once(module)
        assert (m.result, m.error) == (want, None)
        vm.append(dt)
        t0 = time.perf_counter()
        py_map_100k()
        py.append(time.perf_counter() - t0)
    if not benchmark.enabled:
        return
    benchmark.pedantic(lambda: None, rounds=1, iterations=1)
    benchmark.extra_info.update({"vm_s": min(vm), "python_s": min(py)})
    print(f"\nmap build + lookup, 100k String keys: vm={min(vm) * 1000:.1f} ms "
          f"python dict={min(py) * 1000:.1f} ms /python={min(vm) / min(py):.2f}")
