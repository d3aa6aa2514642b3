"""The C fast paths of the cold builtins (vm/cold.pxi): ParseInt and StringTrim on ASCII
strings, StrStartsWith / StringStartsWith on strings give exactly what the Python
implementations of vm/builtins.py give (which they fall back to for everything else),
with the same steps, work and memory accounting."""
import pytest

from boruna import _vm
from boruna.bytecode.module import Function, Module
from boruna.runtime.execute import run
from boruna.vm.builtins import IMPLEMENTATIONS

TEXTS = [
    "", " ", "0", "-0", "+0", "+", "-", "12", " 12 ", "\t\n\x0b\x0c\r42\r\n", "\x1c7", "7\x1f",
    "1 2", "12a", "a12", "--1", "+-1", "0x10", "1_000", "007", "-007",
    "9223372036854775807", "-9223372036854775808", "9223372036854775808",
    "-9223372036854775809", "99999999999999999999", "\u00a012\u00a0", "\u008512", "12\u3000",
    "\u0661\u0662", "\uff11", "1\u0301", "\U0001f600", "   ", "x", "xy", "yx", "\u00e9t\u00e9",
]
PREFIXES = ["", "x", "xy", "1", " ", "\u00e9", "\U0001f600", "9223"]


def _one(op, args):
    code = [("PushConst", k) for k in range(len(args))] + [(op,), ("Ret",)]
    return run(Module("m", constants=list(args), functions=[Function("main", 0, 0, code)]))


@pytest.mark.parametrize("op", ["ParseInt", "StringTrim"])
def test_one_string_builtins_match_the_python_implementation(op):
    for text in TEXTS:
        out = _one(op, [text])
        assert out.ok, (op, text, out.error)
        want = IMPLEMENTATIONS[op](text)
        assert (type(out.result), out.result, out.steps) == (type(want), want, 4), (op, text)


@pytest.mark.parametrize("op", ["StrStartsWith", "StringStartsWith"])
def test_starts_with_matches_the_python_implementation(op):
    for text in TEXTS:
        for prefix in PREFIXES + TEXTS[:8]:
            out = _one(op, [text, prefix])
            assert (out.result, out.steps) == (text.startswith(prefix), 5), (text, prefix)


def test_exact_values_and_type_errors():
    assert _one("ParseInt", [" -9223372036854775808\n"]).result == -9223372036854775808
    assert _one("ParseInt", ["9223372036854775808"]).result == 0
    assert _one("StringTrim", ["\x0b a b \x0c"]).result == "a b"
    assert _one("StringTrim", ["\u00a0a\u2003"]).result == "a"
    out = _one("ParseInt", [5])
    assert (out.ok, out.error) == (False, "type error: expected String, got Int")
    out = _one("StrStartsWith", ["ab", 1])
    assert (out.ok, out.error) == (False, "type error: expected String, got Int")


def test_work_limit_and_memory_cap_as_the_python_path():
    text = " " * 50 + "12" + " " * 50
    code = [("PushConst", 0), ("ParseInt",), ("PushConst", 0), ("StringTrim",), ("MakeList", 2),
            ("Ret",)]
    module = Module("m", constants=[text], functions=[Function("main", 0, 0, code)])
    m = _vm.Machine(module, max_work=150)
    assert m.run() == _vm.FAILED
    assert (m.error, m.steps) == ("work limit exceeded: builtins processed more than 150 "
                                  "characters or elements", 4)
    m = _vm.Machine(module, max_work=204)
    assert m.run() == _vm.FINISHED
    assert m.result == (12, "12")


def _machine(op, args):
    code = [("PushConst", k) for k in range(len(args))] + [(op,), ("Ret",)]
    m = _vm.Machine(Module("m", constants=list(args), functions=[Function("main", 0, 0, code)]))
    m.run()
    return m


SPLIT_TEXTS = ["", ",", ",,", "a", "a,b", ",a,", "1,x2, 7 ", "\u00e9,\u00e9", "\U0001f600,",
               "a;b;;c", "x" * 300 + "," + "y" * 300]
SEPS = [",", ";", ", ", "\u00e9", "\U0001f600", "ab", "x" * 301]


def test_split_matches_the_python_implementation():
    for text in SPLIT_TEXTS:
        for sep in SEPS + [""]:
            out = _machine("StringSplit", [text, sep])
            want = IMPLEMENTATIONS["StringSplit"](text, sep)
            assert (out.result, out.steps) == (want, 5), (text, sep)
            assert out.work == len(text) + len(sep) + len(want), (text, sep)


def test_join_matches_the_python_implementation():
    lists = [(), ("",), ("a",), ("a", "b"), ("", ""), ("\u00e9", "\U0001f600", "x"),
             tuple("abcdefghijklmnopq"), ("x" * 300, "y")]
    for items in lists:
        for sep in SEPS + [""]:
            out = _machine("StringJoin", [items, sep])
            want = IMPLEMENTATIONS["StringJoin"](items, sep)
            assert (out.result, out.steps) == (want, 5), (items, sep)
            assert out.work == len(items) + len(sep) + len(want), (items, sep)


def test_join_past_a_quarter_of_the_string_limit_matches_the_python_implementation():
    # 1,000,000 pieces of 5 to 7 characters: past MAX_STRING_BYTES / 4 characters, so the
    # UTF-8 size decides (ASCII: one byte a character, still in C); a non-ASCII piece sends
    # the join to the Python implementation; past the byte limit both fail alike
    from boruna.core.limits import MAX_STRING_BYTES

    ascii_items = tuple(f"k{i}" for i in range(900_000))
    mixed = ascii_items[:-1] + ("\u00e9",)
    for items, sep in [(ascii_items, ","), (ascii_items, "--"), (mixed, ",")]:
        out = _machine("StringJoin", [items, sep])
        want = IMPLEMENTATIONS["StringJoin"](items, sep)
        assert len(want) > MAX_STRING_BYTES // 4
        assert (out.result, out.steps) == (want, 5), sep
        assert out.work == len(items) + len(sep) + len(want), sep
    big = ("x" * 4096,) * (MAX_STRING_BYTES // 4096)
    out = _machine("StringJoin", [big, ","])
    assert (out.result, out.steps) == (None, 3)
    assert out.error == (f"string too large: {MAX_STRING_BYTES + len(big) - 1} bytes exceeds "
                         f"the limit of {MAX_STRING_BYTES} bytes")


def test_split_join_type_errors_as_the_python_path():
    for op, args, msg in [
            ("StringSplit", [1, ","], "type error: expected String, got Int"),
            ("StringSplit", ["a", None], "type error: expected String, got Unit"),
            ("StringJoin", [("a", 1), ","], "type error: expected String, got Int"),
            ("StringJoin", ["ab", ","], "type error: expected List, got String"),
            ("StringJoin", [("a",), 2], "type error: expected String, got Int")]:
        out = _one(op, args)
        assert (out.ok, out.error, out.steps) == (False, msg, 3), (op, args)


def test_split_join_work_limit_and_memory_cap_at_the_boundary():
    text = ",".join(["ab"] * 20)           # 59 chars, 20 pieces, joined back: 59 chars
    code = [("PushConst", 0), ("PushConst", 1), ("StringSplit",), ("PushConst", 1),
            ("StringJoin",), ("Ret",)]
    module = Module("m", constants=[text, ","], functions=[Function("main", 0, 0, code)])
    # split: 59 + 1 in, 20 out; join: 20 + 1 in, 59 out
    for work, want in [(59, ("work", 3)), (79, ("work", 3)), (80, ("work", 5)),
                       (100, ("work", 5)), (159, ("work", 5)), (160, (None, 7))]:
        m = _vm.Machine(module, max_work=work)
        m.run()
        kind = "work" if m.error and m.error.startswith("work limit exceeded") else m.error
        assert (kind, m.steps) == want, work
    assert m.result == text
    # split charges 56 + 8 * 20 = 216, join 49 + 59 = 108: the first walk (at a quarter of
    # the cap, which the 8,192 bytes of locals exceed) comes at the split up to cap 867, at
    # the join up to 1,299
    for cap, steps in [(867, 3), (868, 5), (1299, 5), (1300, 7)]:
        m = _vm.Machine(module, max_value_memory=cap)
        m.run()
        assert m.steps == steps, cap
