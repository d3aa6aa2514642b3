"""String builders (vm/string_builders.pxi): `s = s ++ t` on an ASCII String nothing but the
operand holds appends into room the machine over-allocated. None of it may be seen: every
String still readable keeps its text, results, steps, traces and errors equal the copying
path's (STR_IN_PLACE off), and building a String by appends, through a local, a call, a record
field or an App-style reducer, spends the appended characters as work (the copies spent the
whole String each time)."""
import importlib.util
import pathlib

import pytest

from boruna import _vm
from boruna.compiler import compile_source
from boruna.core.values import MapValue
from boruna.runtime.gateway import CapabilityGateway

_spec = importlib.util.spec_from_file_location(
    "test_reuse", pathlib.Path(__file__).with_name("test_reuse.py"))
_reuse = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_reuse)
_run = _reuse._run          # a Machine run of `main(*args)`


def _copying(monkeypatch):
    monkeypatch.setattr(_vm, "STR_IN_PLACE", False)


GROW = {
    "local": ("fn main() -> String { let mut s = \"\" let mut i = 0\n"
              "  while i < COUNT { s = s ++ \"ab\" i = i + 1 } s }"),
    "call": ("fn add(s: String, x: String) -> String { s ++ x }\n"
             "fn main() -> String { let mut s = \"\" let mut i = 0\n"
             "  while i < COUNT { s = add(s, \"ab\") i = i + 1 } s }"),
    "field": ("type S { text: String, n: Int }\n"
              "fn main() -> String { let mut st = S { text: \"\", n: 0 } let mut i = 0\n"
              "  while i < COUNT { st = S { ..st, text: st.text ++ \"ab\" } i = i + 1 } st.text }"),
    "reducer": ("type S { text: String, n: Int }\n"
                "fn update(s: S, i: Int) -> S { S { ..s, text: s.text ++ \"ab\", n: s.n + 1 } }\n"
                "fn main() -> String { let mut s = S { text: \"\", n: 0 } let mut i = 0\n"
                "  while i < COUNT { s = update(s, i) i = i + 1 } s.text }"),
}


def _builder_work(count, piece):
    """What building `count` pieces of `piece` characters spends: a copy (the result's
    length) while the result is under 64 characters and whenever the room runs out (room:
    twice the result), the piece's length otherwise."""
    work, cap = 0, 0
    for k in range(1, count + 1):
        n = k * piece
        if n <= cap:
            work += piece
        else:
            work += n
            if n >= 64:
                cap = 2 * n
    return work


@pytest.mark.parametrize("how", list(GROW))
def test_building_by_appends_spends_the_appended_characters(how, monkeypatch):
    src = GROW[how].replace("COUNT", "3000")
    fast = _run(src)
    assert (fast.result, fast.error) == ("ab" * 3000, None)
    assert fast.work == _builder_work(3000, 2)
    _copying(monkeypatch)
    slow = _run(src)
    assert (slow.result, slow.error, slow.steps) == (fast.result, None, fast.steps)
    assert slow.work == sum(2 * k for k in range(1, 3001))


KEPT = [
    # the old String is read after the append: it keeps its text
    ("fn main() -> String { let mut s = \"\" let mut i = 0\n"
     "  while i < 40 { s = s ++ \"xy\" i = i + 1 }\n"
     "  let t = s let u = s ++ \"!\" t ++ \"|\" ++ u }",
     "xy" * 40 + "|" + "xy" * 40 + "!"),
    # kept in a list while it grows on
    ("fn main() -> List<String> { let mut s = \"\" let mut out: List<String> = [] let mut i = 0\n"
     "  while i < 100 { s = s ++ \"q\" if i % 30 == 29 { out = list_push(out, s) } i = i + 1 }\n"
     "  list_push(out, s) }",
     tuple("q" * n for n in (30, 60, 90, 100))),
    # two records share the String: growing one's field leaves the other's
    ("type S { text: String, n: Int }\n"
     "fn main() -> String { let mut s = \"\" let mut i = 0\n"
     "  while i < 70 { s = s ++ \"z\" i = i + 1 }\n"
     "  let a = S { text: s, n: 0 } let b = S { text: s, n: 1 }\n"
     "  let c = S { ..a, text: a.text ++ \"-\" } b.text ++ \"/\" ++ c.text }",
     "z" * 70 + "/" + "z" * 70 + "-"),
]


@pytest.mark.parametrize("src, want", KEPT)
def test_strings_still_read_keep_their_text(src, want, monkeypatch):
    fast = _run(src)
    assert (fast.result, fast.error) == (want, None)
    _copying(monkeypatch)
    slow = _run(src)
    assert (slow.result, slow.error, slow.steps) == (want, None, fast.steps)


def test_a_string_looked_up_in_a_map_between_appends_hashes_its_new_text():
    # every lookup hashes `s` (CPython caches a str's hash): an append in place must forget it
    src = ("fn main(m: Map<String, Int>) -> Int { let mut s = \"\" let mut i = 0 let mut hits = 0\n"
           "  while i < 200 { s = s ++ \"k\"\n"
           "    hits = hits + match __builtin_map_get(m, s) { Some(v) => v, None => 0 }\n"
           "    i = i + 1 } hits }")
    keys = {"k" * n: n for n in (10, 64, 65, 66, 100, 129, 130, 200)}
    m = _run(src, MapValue(keys))
    assert (m.result, m.error) == (sum(keys.values()), None)


def test_non_ascii_text_is_copied_as_before(monkeypatch):
    src = GROW["local"].replace("COUNT", "500").replace("\"ab\"", "\"\u00e9b\"")
    fast = _run(src)
    assert (fast.result, fast.error) == ("\u00e9b" * 500, None)
    assert fast.work == sum(2 * k for k in range(1, 501))
    # an ASCII String meeting a non-ASCII piece is copied, then grows on as a copy
    src = ("fn main() -> String { let mut s = \"\" let mut i = 0\n"
           "  while i < 300 { s = s ++ (if i == 150 { \"\u00e9\" } else { \"a\" }) i = i + 1 } s }")
    fast = _run(src)
    _copying(monkeypatch)
    slow = _run(src)
    assert fast.result == slow.result == "a" * 150 + "\u00e9" + "a" * 149
    assert fast.steps == slow.steps and fast.work < slow.work


def test_the_string_limit_is_met_as_by_the_copies(monkeypatch):
    src = ("fn main() -> Int { let mut s = \"\" let mut i = 0\n"
           "  while i < 200 { s = s ++ \"PIECE\" i = i + 1 } __builtin_string_len(s) }"
           ).replace("PIECE", "x" * 100_000)
    fast = _run(src)
    _copying(monkeypatch)
    slow = _run(src)
    assert (fast.error, fast.error_kind, fast.steps) == (slow.error, slow.error_kind, slow.steps)
    assert fast.error == "string too large: 16800000 bytes exceeds the limit of 16777216 bytes"
    # 167 appends fit and the 168th fails after spending its work: the copies spent every
    # result's length, the builders the pieces and the copies that regrew them
    assert slow.work == sum(100_000 * k for k in range(1, 169))
    assert fast.work < slow.work // 5


def test_memory_caps_are_met_where_the_copies_meet_them(monkeypatch):
    # both paths charge the allocation accounting what the live values grow by (the piece,
    # or the whole new String when the old one is still held), so walks fall at the same steps
    src = ("fn main() -> Int { let mut s = \"\" let mut parts: List<String> = [] let mut i = 0\n"
           "  while i < 4000 { s = s ++ \"abcdefgh\" if i % 500 == 0 { parts = list_push(parts, s) }\n"
           "    i = i + 1 } __builtin_string_len(s) + list_len(parts) }")
    fast = _run(src)
    assert (fast.result, fast.error) == (32_008, None)
    kinds = []
    for cap in (20_000, 60_000, 150_000, 400_000):
        fast = _run(src, max_value_memory=cap)
        monkeypatch.setattr(_vm, "STR_IN_PLACE", False)
        slow = _run(src, max_value_memory=cap)
        monkeypatch.undo()
        assert (fast.result, fast.error, fast.steps) == (slow.result, slow.error, slow.steps), cap
        kinds.append(fast.error_kind)
    assert kinds == ["memory_limit", "memory_limit", None, None]


def test_a_restored_machine_keeps_appending_in_place():
    src = GROW["local"].replace("COUNT", "2000")
    module = compile_source(src)
    whole = _vm.Machine(module, gateway=CapabilityGateway())
    whole.run()
    for at in (50, 700, 4000, whole.steps - 3):
        m = _vm.Machine(module, gateway=CapabilityGateway())
        m.execute_bounded(at)
        data = m.snapshot()
        r = _vm.Machine.restore(data, module)
        assert r.snapshot() == data
        while r.execute_bounded(0) == _vm.PAUSED:
            pass
        assert (r.result, r.steps, r.work) == (whole.result, whole.steps, whole.work)
    assert whole.work == _builder_work(2000, 2)


def test_a_snapshot_without_string_builders_has_no_header_for_them():
    src = "fn main() -> String { let mut s = \"ab\" let mut i = 0 while i < 5 { s = s ++ \"c\" i = i + 1 } s }"
    module = compile_source(src)
    m = _vm.Machine(module)
    m.execute_bounded(20)
    assert b"str_builders" not in m.snapshot()
    src = GROW["local"].replace("COUNT", "100")
    module = compile_source(src)
    m = _vm.Machine(module)
    m.execute_bounded(1200)
    assert b"str_builders" in m.snapshot()


def test_a_one_character_string_appended_to_charges_the_same_after_a_restore():
    """`s = "" ++ int_to_string(0)` leaves s the str `int_to_string` made, an object of its
    own that only s holds, so the next `s ++ t` charges t's length. A snapshot writes that
    String by identity (kind H_CHAR), not by text, so the restored s is again an object of its
    own, not CPython's shared "0", and a memory cap is met at the same step from every pause
    point (before: at step 26 instead of 40 under a 775-byte cap, from the pauses after the
    first IntToString)."""
    module = compile_source("""fn main() -> Int {
    let mut s = ""
    let mut i = 0
    while i < 400 { s = s ++ __builtin_int_to_string(i)  i = i + 1 }
    __builtin_string_len(s)
}
""")
    for cap in (775, 1_500, 3_000):
        whole = _vm.Machine(module, max_value_memory=cap)
        whole.run()
        assert whole.error == f"memory limit exceeded: live values use more than {cap} bytes"
        for at in range(1, min(30, whole.steps)):
            m = _vm.Machine(module, max_value_memory=cap)
            m.set_entry(module.entry)
            assert m.execute_bounded(at) == _vm.PAUSED
            r = _vm.Machine.restore(m.snapshot(), module)
            while r.execute_bounded(0) == _vm.PAUSED:
                pass
            assert (r.steps, r.error, r.work) == (whole.steps, whole.error, whole.work), (cap, at)
