"""Step limit, call depth, operand stack, memory caps, wall clock, cancellation, progress."""
import threading

import pytest

from boruna import _vm
from boruna.bytecode.module import Function, Module
from boruna.compiler import compile_source
from boruna.api import run

ONE_PLUS_TWO = "fn main() -> Int { 1 + 2 }\n"


@pytest.mark.parametrize("max_steps, ok, steps", [
    (0, False, 1), (1, False, 2), (4, False, 5), (5, True, 5), (6, True, 5),
])
def test_step_limit_boundaries(max_steps, ok, steps):
    out = run(ONE_PLUS_TWO, max_steps=max_steps)
    assert out.ok is ok
    assert out.steps == steps
    if not ok:
        assert out.error == f"max execution steps exceeded ({max_steps})"
        assert out.error_kind == "runtime_error"


@pytest.mark.parametrize("slice_steps", [1, 3, 1000])
def test_step_limit_identical_when_sliced(slice_steps):
    src = "fn main() -> Int {\n    let mut i = 0\n    while true {\n        i = i + 1\n    }\n    i\n}\n"
    out = run(src, max_steps=1000, slice_steps=slice_steps, on_progress=lambda s: None)
    assert out.error == "max execution steps exceeded (1000)"
    assert out.steps == 1001


def test_deep_recursion_reports_call_depth_not_python_error():
    src = "fn down(n: Int) -> Int {\n    if n == 0 { 0 } else { down(n - 1) + 1 }\n}\n" \
          "fn main() -> Int { down(100000) }\n"
    out = run(src)
    assert out.error == "stack overflow (max 256)"
    assert out.steps == 2 + 255 * 8


def test_recursion_to_exactly_255_frames_succeeds():
    src = "fn down(n: Int) -> Int {\n    if n == 0 { 0 } else { down(n - 1) + 1 }\n}\n" \
          "fn main() -> Int { down(254) }\n"
    out = run(src)
    assert out.ok and out.result == 254


def test_operand_stack_limit_4096():
    # hand-built: push a constant forever
    module = Module("m", constants=[1], functions=[
        Function("main", 0, 0, [("PushConst", 0), ("Jmp", 0)])])
    out = run(module)
    assert out.error == "stack overflow (max 4096)"
    assert out.steps == 4096 * 2 + 1


def test_for_body_values_do_not_leak_onto_the_stack():
    src = "fn main() -> Int {\n    let mut n = 0\n    for x in __builtin_string_chars(\"" + "a" * 5000 + \
          "\") {\n        n = n + 1\n        x\n    }\n    n\n}\n"
    out = run(src)
    assert out.ok, out.error
    assert out.result == 5000


def test_string_size_cap():
    src = "fn main() -> Int {\n    let mut s = \"ab\"\n    while true {\n        s = s ++ s\n    }\n    0\n}\n"
    out = run(src)
    assert not out.ok
    assert out.error == ("string too large: 33554432 bytes exceeds the limit of "
                         "16777216 bytes")


def test_list_size_cap():
    src = "fn main() -> Int {\n    let mut xs = [0, 1, 2, 3, 4, 5, 6, 7]\n    while true {\n" \
          "        xs = __builtin_list_concat(xs, xs)\n    }\n    0\n}\n"
    out = run(src)
    assert out.error == ("collection too large: 1048576 elements exceeds the limit of "
                         "1000000 elements")


def test_total_value_memory_cap():
    # 1 MiB strings kept alive in a growing list: fails at the machine's live-value cap
    src = """fn main() -> Int {
    let mut s = "abcdefgh"
    let mut i = 0
    while i < 17 {
        s = s ++ s
        i = i + 1
    }
    let mut keep = []
    let mut n = 0
    while true {
        keep = list_push(keep, s ++ __builtin_int_to_string(n))
        n = n + 1
    }
    0
}
"""
    m = _vm.Machine(compile_source(src), max_value_memory=32 * 1024 * 1024)
    assert m.run() == _vm.FAILED
    assert m.error == "memory limit exceeded: live values use more than 33554432 bytes"
    assert m.error_kind == "memory_limit"


def test_memory_cap_counts_shared_values_once():
    # a 1 MiB string referenced 200 times is 1 MiB live, not 200 MiB
    src = """fn main() -> Int {
    let mut s = "abcdefgh"
    let mut i = 0
    while i < 17 {
        s = s ++ s
        i = i + 1
    }
    let mut keep = []
    let mut n = 0
    let mut t = ""
    while n < 200 {
        keep = list_push(keep, s)
        t = s ++ "x"
        n = n + 1
    }
    list_len(keep) + __builtin_string_len(t)
}
"""
    m = _vm.Machine(compile_source(src), max_value_memory=32 * 1024 * 1024)
    assert m.run() == _vm.FINISHED, m.error
    assert m.result == 200 + 1024 * 1024 + 1


def test_default_caps_are_documented_values():
    assert _vm.MAX_VALUE_MEMORY == 256 * 1024 * 1024
    assert _vm.MAX_STRING_BYTES == 16 * 1024 * 1024
    assert _vm.MAX_COLLECTION_LEN == 1_000_000


def test_wall_clock_limit():
    src = "fn main() -> Int {\n    let mut i = 0\n    while true {\n        i = i + 1\n    }\n    i\n}\n"
    out = run(src, max_wall_ms=20, max_steps=10**12)
    assert out.error == "wall-clock execution limit exceeded (20 ms)"
    assert out.error_kind == "wall_time"
    assert out.steps % 1024 == 0


def test_cancel_event_stops_between_slices():
    src = "fn main() -> Int {\n    let mut i = 0\n    while true {\n        i = i + 1\n    }\n    i\n}\n"
    ev = threading.Event()
    seen = []

    def progress(steps):
        seen.append(steps)
        if len(seen) == 3:
            ev.set()

    out = run(src, max_steps=10**12, slice_steps=1000, on_progress=progress, cancel_event=ev)
    assert out.error_kind == "cancelled"
    assert out.error == "execution cancelled"
    assert out.steps == 3000
    assert seen == [1000, 2000, 3000]


def test_execute_bounded_statuses_and_resume():
    m = _vm.Machine(compile_source(ONE_PLUS_TWO))
    m.set_entry(0)
    assert m.execute_bounded(2) == _vm.PAUSED and m.steps == 2
    assert m.execute_bounded(2) == _vm.PAUSED and m.steps == 4
    assert m.execute_bounded(2) == _vm.FINISHED and m.steps == 5
    assert m.result == 3
    assert m.execute_bounded(2) == _vm.FINISHED


def test_no_functions_is_invalid_function_index_zero():
    out = run("type P { a: Int }\n")
    assert out.error == "invalid function index: 0"
    assert out.steps == 0


def test_receive_blocks_in_actor_mode_and_resumes_with_message():
    m = _vm.Machine(compile_source("fn main() -> Int { receive }\n"))
    m.in_actor = True
    m.set_entry(0)
    assert m.execute_bounded(100) == _vm.BLOCKED
    assert m.steps == 1
    m.deliver(41)
    assert m.execute_bounded(100) == _vm.FINISHED
    assert m.result == 41
    assert m.steps == 4


def test_event_log_growth_counts_toward_the_memory_cap():
    src = "fn main() -> Int {\n    while true {\n        emit 1\n    }\n    0\n}\n"
    m = _vm.Machine(compile_source(src), max_value_memory=1024 * 1024, max_steps=10**9)
    assert m.run() == _vm.FAILED
    assert m.error == "memory limit exceeded: live values use more than 1048576 bytes"
    assert 3000 < len(m.ui_output) < 10000


def test_contract_checks_in_a_loop_within_default_cap():
    src = ("fn pos(n: Int) -> Int\n    requires n >= 0\n{\n    n\n}\n"
           "fn main() -> Int {\n    let mut i = 0\n    while i < 20000 {\n"
           "        i = pos(i) + 1\n    }\n    i\n}\n")
    out = run(src)
    assert out.ok and out.result == 20000


def test_max_steps_none_means_the_default():
    out = run(ONE_PLUS_TWO, max_steps=None)
    assert out.ok and out.result == 3 and out.steps == 5


def test_trace_is_kept_on_error_runs_too():
    out = run("fn main() -> Int { 1 / 0 }\n", trace=True)
    assert out.error == "division by zero"
    assert out.trace == ["[main:0] PushConst(0)  stack_depth=0",
                         "[main:1] PushConst(1)  stack_depth=1",
                         "[main:2] Div  stack_depth=2"]


def test_wall_clock_is_checked_after_slow_builtins():
    # each step builds a 524,288-element list: far fewer than 1,024 steps blow a 50 ms budget
    src = """fn main() -> Int {
    let mut xs = [0, 1, 2, 3, 4, 5, 6, 7]
    let mut i = 0
    while i < 16 {
        xs = __builtin_list_concat(xs, xs)
        i = i + 1
    }
    while true {
        let ys = __builtin_list_reverse(xs)
    }
    0
}
"""
    out = run(src, max_wall_ms=50, max_steps=10**12)
    assert out.error_kind == "wall_time"
    assert out.steps < 1024


def test_machine_cancel_event_is_seen_inside_a_long_slice():
    src = "fn main() -> Int {\n    let mut i = 0\n    while true {\n        i = i + 1\n    }\n    i\n}\n"
    ev = threading.Event()
    m = _vm.Machine(compile_source(src), max_steps=10**13)
    m.cancel_event = ev
    timer = threading.Timer(0.05, ev.set)
    timer.start()
    status = m.run()
    timer.cancel()
    assert status == _vm.FAILED
    assert (m.error, m.error_kind) == ("execution cancelled", "cancelled")
    assert m.steps % 1024 == 0


def test_run_cancellation_lands_on_a_checkpoint():
    src = "fn main() -> Int {\n    let mut i = 0\n    while true {\n        i = i + 1\n    }\n    i\n}\n"
    ev = threading.Event()
    timer = threading.Timer(0.05, ev.set)
    timer.start()
    out = run(src, max_steps=10**13, slice_steps=100_000, on_progress=lambda s: None,
              cancel_event=ev)
    timer.cancel()
    assert (out.error_kind, out.error) == ("cancelled", "execution cancelled")
    assert out.steps % 1024 == 0 or out.steps % 100_000 == 0


def test_run_cancellation_is_seen_between_expensive_steps():
    """Each replace over 1 MiB costs ~1 ms, so 1,024 steps take seconds: the Machine itself
    sees the event (after every builtin) instead of the run waiting for a slice boundary."""
    src = ("fn main() -> Int {\n    let mut s = \"ab\"\n    let mut n = 0\n"
           "    while n < 19 {\n        s = s ++ s\n        n = n + 1\n    }\n"
           "    let mut t = s\n    while true {\n"
           "        t = __builtin_string_replace(s, \"a\", \"c\")\n    }\n    0\n}\n")
    ev = threading.Event()
    timer = threading.Timer(0.2, ev.set)
    timer.start()
    out = run(src, max_steps=10**13, slice_steps=10**12, max_wall_ms=60_000,
              on_progress=lambda s: None, cancel_event=ev)
    timer.cancel()
    assert (out.error_kind, out.error) == ("cancelled", "execution cancelled")


def test_deeply_nested_values_are_built_compared_and_freed_safely():
    src = """fn main() -> Int {
    let mut x = []
    let mut y = []
    let mut r = Some(1)
    let mut i = 0
    while i < 200000 {
        x = [x]
        y = [y]
        r = Some(r)
        i = i + 1
    }
    if x == y { list_len(x) } else { 0 }
}
"""
    out = run(src, max_steps=10**8)
    assert out.ok, out.error
    assert out.result == 1


def test_wall_check_lands_on_1024_multiples_whatever_the_slices():
    src = "fn main() -> Int {\n    let mut i = 0\n    while true {\n        i = i + 1\n    }\n    i\n}\n"
    m = _vm.Machine(compile_source(src), max_steps=10**9, max_wall_ms=0)
    assert m.execute_bounded(1023) == _vm.PAUSED
    assert m.steps == 1023
    import time
    time.sleep(0.002)
    assert m.execute_bounded(5000) == _vm.FAILED
    assert m.error == "wall-clock execution limit exceeded (0 ms)"
    assert m.steps == 1024


def test_kept_trace_lines_count_toward_the_memory_cap():
    src = "fn main() -> Int {\n    let mut i = 0\n    while true {\n        i = i + 1\n    }\n    i\n}\n"
    m = _vm.Machine(compile_source(src), trace=True, trace_limit=10_000_000,
                    max_value_memory=1024 * 1024, max_steps=10**9)
    assert m.run() == _vm.FAILED
    assert m.error == "memory limit exceeded: live values use more than 1048576 bytes"
    assert len(m.trace) < 20_000


# ------------------------------------------------------------------ the work budget

CONCAT_THEN_REPLACE = ('fn main() -> String {\n    let a = "abc" ++ "defgh"\n'
                       '    __builtin_string_replace(a, "c", "CC")\n}\n')


@pytest.mark.parametrize("max_work, ok, steps, work", [
    (28, True, 10, 28),      # ++ reads/builds 8 chars; replace reads 8 + 1 + 2, builds 9
    (27, False, 8, 28),      # the replace result overruns
    (18, False, 8, 19),      # the replace operands overrun, before it runs
    (7, False, 3, 8),        # the ++ overruns, before it runs
])
def test_work_budget_charges_builtins_by_operand_and_result_size(max_work, ok, steps, work):
    m = _vm.Machine(compile_source(CONCAT_THEN_REPLACE), max_work=max_work)
    m.run()
    assert (m.steps, m.work) == (steps, work)
    if ok:
        assert m.result == "abCCdefgh" and m.error is None
    else:
        assert m.error == (f"work limit exceeded: builtins processed more than {max_work} "
                           "characters or elements")
        assert m.error_kind == "work_limit"


def test_work_budget_leaves_step_counts_alone():
    m = _vm.Machine(compile_source(CONCAT_THEN_REPLACE))
    m.run()
    assert (m.result, m.steps, m.work, m.max_work) == ("abCCdefgh", 10, 28, 1 << 33)
    assert run(CONCAT_THEN_REPLACE).steps == 10


def test_constant_time_builtins_cost_no_work():
    src = ('fn main() -> Int {\n    let xs = [1, 2, 3]\n'
           '    list_len(xs) + list_get(xs, 0)\n}\n')
    m = _vm.Machine(compile_source(src), max_work=0)
    m.run()
    assert (m.result, m.error, m.work) == (4, None, 0)



@pytest.mark.parametrize("trace", [False, True])
@pytest.mark.parametrize("slice_steps", [0, 1, 7, 1000])
def test_a_set_cancel_event_stops_at_the_first_clock_check_traced_or_not(trace, slice_steps):
    # a traced machine passes its checkpoint at every step (where the trace line is written);
    # the wall clock and cancellation are still looked at every 1,024 steps only
    src = ("fn main() -> Int {\n let mut acc = 0\n let mut i = 0\n"
           " while i < 300000 { acc = acc + i % 7  i = i + 1 }\n acc\n}\n")
    m = _vm.Machine(compile_source(src), trace=trace, max_steps=10**9, trace_limit=3000)
    ev = threading.Event()
    ev.set()
    m.cancel_event = ev
    if slice_steps:
        while m.execute_bounded(slice_steps) == _vm.PAUSED:
            pass
    else:
        m.run()
    assert (m.error, m.steps) == ("execution cancelled", 1024)
    if trace:
        assert (m.trace_total, len(m.trace)) == (1023, 1023)
        assert m.trace[-1] == "[main:17] StoreLocal(1)  stack_depth=1"
    else:
        assert (m.trace_total, m.trace) == (0, [])


# 250 frames of 6 local slots each grow the machine's locals from 256 slots to 2,048, then a
# list of 30,000 pairs makes memory walks due: the walks count each local slot at 32 bytes
# (BOR_VAL_CHARGE, what a slot cost before Val's payload became a union), so the smallest
# memory limit the run fits in is the one the 32-byte slots gave
LOCALS_DEEP = """fn down(n: Int, a: Int, b: Int, c: Int) -> Int {
    let d = a + b
    let e = d + c
    if n == 0 { fill(e) } else { down(n - 1, b, c, e % 1000) + 1 }
}
fn fill(k: Int) -> Int {
    let mut xs = []
    let mut i = 0
    while i < 30000 { xs = list_push(xs, [i, k])  i = i + 1 }
    list_len(xs)
}
fn main() -> Int { down(250, 1, 2, 3) }"""


def test_local_slots_are_charged_32_bytes_each_whatever_the_value_layout():
    module = compile_source(LOCALS_DEEP)
    fits = _vm.Machine(module, max_value_memory=2_442_276, max_steps=10**8)
    assert fits.run() == _vm.FINISHED
    assert fits.result == 30250
    short = _vm.Machine(module, max_value_memory=2_442_275, max_steps=10**8)
    assert short.run() == _vm.FAILED
    assert short.error_kind == "memory_limit"
