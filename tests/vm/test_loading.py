"""Loading a module into a machine (vm/loading.pxi): the reuse plan and the encoded words
kept on each function from the module's second load on, used only while the function is what
they were made from, and instructions encoded by one lookup in the opcode table."""
import copy

import pytest

from boruna import _vm
from boruna.compiler import compile_source

P = ("fn grow(xs: List<Int>, x: Int) -> List<Int> { list_push(xs, x) }\n"
     "fn main() -> Int { let mut xs = [] let mut i = 0\n"
     "  while i < 50 { xs = grow(xs, i) i = i + 1 }\n"
     "  let ys = xs list_len(xs) * 1000 + list_len(ys) + list_get(ys, 49) }")
# the same functions; main keeps the list it grows in a record's field
Q = ("fn grow(xs: List<Int>, x: Int) -> List<Int> { list_push(xs, x) }\n"
     "type S { items: List<Int>, n: Int }\n"
     "fn main() -> Int { let mut s = S { items: [], n: 0 } let mut i = 0\n"
     "  while i < 40 { s = S { ..s, items: grow(s.items, i) } i = i + 1 }\n"
     "  list_len(s.items) * 7 + list_get(s.items, 39) }")


def _main(module):
    return next(i for i, f in enumerate(module.functions) if f.name == "main")


def _outcome(module):
    m = _vm.Machine(module, max_steps=10**6, trace=True)
    m.set_entry(_main(module), ())
    m.run()
    return (m.result, m.error, m.steps, m.work, list(m.trace))


def _kept(module, k):
    """The plan kept for the module's function `k`, as `_reuse_plan` returns it."""
    snap, tables, arity, moves, flat = module._vm_plans[k]
    return list(moves), {flat[k]: list(flat[k + 2:k + 2 + flat[k + 1]])
                         for k in range(0, len(flat), 4)}


def test_a_module_loaded_again_uses_the_plan_kept_on_its_functions():
    module = compile_source(P)
    first = _outcome(module)
    assert first[0] == 50099 and first[1] is None
    assert module._vm_loads == 1
    assert not hasattr(module, "_vm_plans")             # loaded once: nothing kept
    assert _outcome(module) == first
    assert module._vm_loads == 2
    for k, f in enumerate(module.functions):
        kept = module._vm_plans[k]
        want = _vm._reuse_plan(f.code, f.match_tables, int(f.arity))
        again = _vm._cached_plan(f, module._vm_plans, k)
        assert _kept(module, k) == want and (list(again[0]), again[1]) == want
        assert module._vm_plans[k] is kept              # not analysed again
    assert any(_kept(module, k)[0] for k in range(len(module.functions)))
    assert _outcome(module) == first


def test_a_function_changed_after_loading_is_analysed_again():
    q = compile_source(Q)
    want = _outcome(copy.deepcopy(q))
    assert want[0] == 40 * 7 + 39 and want[1] is None
    # the code list replaced, then changed in place: each load sees what the code is now
    for change in ("replace", "in_place"):
        module = compile_source(P)
        _outcome(module)
        _outcome(module)                   # the plans are kept
        mp, mq = module.functions[_main(module)], q.functions[_main(q)]
        if change == "replace":
            mp.code = list(mq.code)
        else:
            mp.code[:] = mq.code
        mp.locals, mp.match_tables, mp.lines = mq.locals, mq.match_tables, mq.lines
        module.types = q.types
        module.constants = q.constants
        assert _outcome(module) == want
        assert _kept(module, _main(module)) == _vm._reuse_plan(mq.code, mq.match_tables,
                                                               mq.arity)


def test_a_changed_arity_or_match_table_is_a_different_plan():
    module = compile_source(P)
    _outcome(module)
    _outcome(module)
    grow = module.functions[0]
    store = module._vm_plans
    kept = store[0]
    grow.arity = 1
    again = _vm._cached_plan(grow, store, 0)
    assert (list(again[0]), again[1]) == _vm._reuse_plan(grow.code, grow.match_tables, 1)
    assert store[0] is not kept and store[0][2] == 1
    grow.arity = 2
    grow.match_tables = [[(0, 1)]]
    assert store[0][1] == ()
    _vm._cached_plan(grow, store, 0)
    assert store[0][1] == (((0, 1),),)


def test_instructions_that_are_lists_are_analysed_every_time():
    module = compile_source(P)
    want = _outcome(copy.deepcopy(module))
    for f in module.functions:
        f.code = [list(ins) for ins in f.code]
    assert _outcome(module) == want
    assert _outcome(module) == want
    assert module._vm_plans == {}


def test_malformed_instructions_fail_as_before_the_table_lookup():
    module = compile_source("fn main() -> Int { 1 }")
    f = module.functions[0]
    cases = [(("PushConst",), "malformed instruction ('PushConst',)"),
             (("NoSuchOp", 1), "malformed instruction ('NoSuchOp', 1)"),
             (("PushConst", -1), "operand out of range in ('PushConst', -1)"),
             (("PushConst", True), "operand out of range in ('PushConst', True)"),
             (("Jmp", 2 ** 32), "operand out of range in ('Jmp', 4294967296)"),
             # an empty instruction and ops short of their operands read past the tuple
             # before loading checked bounds (a segfault for these three)
             ((), "malformed instruction ()"),
             (("Match",), "malformed instruction ('Match',)"),
             (("Jmp",), "malformed instruction ('Jmp',)"),
             (("GetField",), "malformed instruction ('GetField',)"),
             (("LoadLocal",), "malformed instruction ('LoadLocal',)")]
    for ins, text in cases:
        f.code = [("PushConst", 0), ins, ("Ret",)]
        m = _vm.Machine(module)
        m.run()
        assert text in m.error, (ins, m.error)
    f.code = [("Jmp", 10 ** 6)]           # a jump past the end goes to the implicit return
    m = _vm.Machine(module)
    m.run()
    assert m.error is None and m.steps == 3 and m.result is None


def test_an_empty_match_arm_is_refused_at_load_not_read_past():
    module = compile_source("fn main() -> Int { 1 }")
    f = module.functions[0]
    f.code = [("PushConst", 0), ("Match", 0), ("Ret",)]
    f.match_tables = [[()]]
    with pytest.raises(IndexError):
        _vm.Machine(module)


def test_a_module_loaded_again_copies_the_words_kept_for_its_functions():
    module = compile_source(P)
    first = _outcome(module)
    assert not hasattr(module, "_vm_code")              # loaded once: nothing kept
    assert _outcome(module) == first
    kept = dict(module._vm_code)
    assert sorted(kept) == list(range(len(module.functions)))
    for k, f in enumerate(module.functions):
        objs, key, words, flags = kept[k]
        assert objs == tuple(f.code) and len(words) == len(f.code) * 4 * 8
        assert len(flags) == len(f.code)
    assert _outcome(module) == first
    # the third load copied the kept words: the entries are the ones the second load made
    assert all(module._vm_code[k] is kept[k] for k in kept)
    # a fresh copy encoded twice makes the same words
    other = copy.deepcopy(module)
    del other._vm_code
    _outcome(other)
    assert {k: v[1:] for k, v in other._vm_code.items()} == {k: v[1:] for k, v in kept.items()}


def test_a_replaced_instruction_or_a_changed_count_encodes_again():
    module = compile_source(P)
    first = _outcome(module)
    _outcome(module)
    m = _main(module)
    kept = module._vm_code[m]
    code = module.functions[m].code
    code[0] = tuple(list(code[0]))                      # equal, but a new object
    assert _outcome(module) == first
    assert module._vm_code[m] is not kept and module._vm_code[m][2] == kept[2]
    kept = module._vm_code[m]
    module.constants = list(module.constants) + [7]    # the constant count is in the key
    assert _outcome(module)[:2] == first[:2]
    assert module._vm_code[m] is not kept
    assert module._vm_code[m][1][1] == len(module.constants)
    # the same module loaded untraced is its own entry: the words differ without tracing
    again = _vm.Machine(module, max_steps=10**6)
    again.set_entry(m, ())
    again.run()
    assert again.result == first[0] and again.steps == first[2]
    assert module._vm_code[m][1][5] is False


def test_code_that_names_the_machines_own_lists_is_not_kept():
    module = compile_source("fn main() -> Int { 1 }")
    f = module.functions[0]
    for code in ([("PushConst", 0), ("PushConst", 99), ("Ret",)],     # OP_FAIL
                 [("PushConst", 0), ("GetFieldNamed", "x"), ("Ret",)]):
        f.code = code
        for _ in range(3):
            run = _vm.Machine(module)
            run.run()
            assert run.error is not None
        assert 0 not in module._vm_code
    f.code = [("PushConst", 0), ("Ret",)]
    for _ in range(3):
        run = _vm.Machine(module)
        run.run()
        assert run.result == 1 and run.error is None
    assert module._vm_code[0][0] == tuple(f.code)
