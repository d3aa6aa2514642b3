"""Value semantics, arithmetic, builtins and capability calls (docs/spec/vm.md §2.1, §3, §4.6, §5)."""
import math

import pytest

from boruna.bytecode.module import Function, Module
from boruna.service.encoding import format_value
from boruna.api import run
from boruna.runtime.execute import call_function
from boruna.compiler import compile_source
from boruna.core.values import NONE, MapValue, Some


def main(body, ret="Int"):
    return f"fn main() -> {ret} {{\n    {body}\n}}\n"


def ok(body, ret="Int"):
    out = run(main(body, ret))
    assert out.ok, out.error
    return format_value(out.result, out.module)


def err(body):
    out = run(main(body))
    assert not out.ok
    return out.error


@pytest.mark.parametrize("body, expected", [
    ('parse_int(" 12 ")', 12),
    ('parse_int("1.5")', 0),
    ('parse_int("+7")', 7),
    ('parse_int("1_000")', 0),
    ('__builtin_int_parse(" 12")', {"option": "None"}),
    ('__builtin_int_parse("-12")', {"option": "Some", "value": -12}),
    ('__builtin_int_parse("9223372036854775808")', {"option": "None"}),
    ('__builtin_float_parse("1e3")', {"option": "Some", "value": 1000.0}),
    ('__builtin_float_parse("inf")', {"option": "Some", "value": None}),
    ('__builtin_float_parse(".5")', {"option": "Some", "value": 0.5}),
    ('__builtin_float_parse("abc")', {"option": "None"}),
    ('try_parse_int(" x")', {"result": "Err", "value": "invalid integer:  x"}),
    ('__builtin_string_split("a::b::", "::")', ["a", "b", ""]),
    ('__builtin_string_split("abc", "")', ["a", "b", "c"]),
    ('__builtin_string_replace("aXbX", "X", "-")', "a-b-"),
    ('__builtin_string_slice("héllo", 0, 2)', ""),
    ('__builtin_string_slice("héllo", 1, 3)', "é"),
    ('__builtin_string_slice("abc", 2, 1)', ""),
    ('__builtin_string_slice("abc", 0, 9)', ""),
    ('__builtin_string_to_upper("straße")', "STRASSE"),
    ('__builtin_string_trim("\\t x \\n")', "x"),
    ('__builtin_string_chars("añb")', ["a", "ñ", "b"]),
    ('__builtin_string_len("añb")', 4),
    ('__builtin_string_ends_with("abc", "bc")', True),
    ('str_contains("abc", "d")', False),
    ('__builtin_list_tail([])', []),
    ('__builtin_list_head([])', {"option": "None"}),
    ('__builtin_list_reverse([1, 2, 3])', [3, 2, 1]),
    ('__builtin_list_is_empty([])', True),
    ('__builtin_bool_to_string(false)', "false"),
    ('__builtin_float_to_string(1.0 / 3.0)', "0.3333333333333333"),
    ('__builtin_float_to_string(-0.5 * 0.0)', "-0"),
    ('[spawn w, spawn w]', [{"actor_id": 0}, {"actor_id": 1}]),
    ('1 == 1.0', False),
    ('true == 1', False),
    ('[1, "a"] == [1, "a"]', True),
    ('"b" > "a"', True),
    ('-7 / 2', -3),
    ('7 % -3', 1),
    ('2 * 0.5', 1.0),
    ('!0', True),
    ('"" || [0]', True),
    ('-9223372036854775807 - 1', -9223372036854775808),
])
def test_expression_values(body, expected):
    src = "fn w() -> Int { 0 }\n" + main(body, "Int")
    out = run(src)
    assert out.ok, out.error
    assert format_value(out.result, out.module) == expected


@pytest.mark.parametrize("body, message", [
    ("5.5 % 2.0", "type error: expected Int, got Float"),
    ('"n=" ++ 5', "type error: expected String, got Int"),
    ('5 ++ "n"', "type error: expected String, got Int"),
    ("-9223372036854775807 - 2", "integer overflow in subtraction"),
    ("9223372036854775807 * 2", "integer overflow in multiplication"),
    ("-(-9223372036854775807 - 1)", "integer overflow in negation"),
    ("(-9223372036854775807 - 1) / -1", "integer overflow in division"),
    ("(-9223372036854775807 - 1) % -1", "integer overflow in remainder"),
    ("1.0 / 0.0", "division by zero"),
    ('"a" / 0', "division by zero"),
    ('1 + "a"', "type error: expected numeric, got String"),
    ('"a" + 1', "type error: expected numeric, got String"),
    ("-true", "type error: expected numeric, got Bool"),
    ('list_get("abc", 0)', "type error: expected List, got String"),
    ('list_get([1], "0")', "type error: expected Int, got String"),
    ('list_get([1], -1)', "list index out of bounds: index -1, length 1"),
    ('__builtin_string_join([1], ",")', "type error: expected String, got Int"),
    ('__builtin_string_replace("a", 1, "b")', "type error: expected String, got non-String"),
    ('__builtin_string_slice("a", "0", 1)', "type error: expected String, Int, Int, got wrong types"),
    ('__builtin_float_to_string(1)', "type error: expected Float, got Int"),
    ('__builtin_map_len([])', "type error: expected Map, got List"),
    ('"a" < 1', "type error: expected comparable, got String"),
])
def test_runtime_errors(body, message):
    assert err(body) == message


def test_main_with_parameters_sees_unit():
    out = run("fn main(x: Int) -> Int { x }\n")
    assert out.ok and out.result is None and out.steps == 3


def test_debug_builtins_write_stderr(capsys):
    out = run(main('__builtin_debug_msg("value:", __builtin_debug(5) + 1)'))
    assert out.result == 6
    assert capsys.readouterr().err == "5\nvalue: 6\n"


def _hand_module(constants, code, nlocals=0):
    return Module("m", constants=list(constants),
                  functions=[Function("main", 0, nlocals, code)])


def test_nan_ordering_compares_as_equal():
    nan = float("nan")
    for op, expected in [("Lt", False), ("Lte", True), ("Gt", False), ("Gte", True),
                         ("Eq", False), ("Neq", True)]:
        out = run(_hand_module([nan, 1.0], [("PushConst", 0), ("PushConst", 1), (op,), ("Ret",)]))
        assert out.result is expected, op


def test_float_equality_is_ieee():
    out = run(_hand_module([0.0, -0.0], [("PushConst", 0), ("PushConst", 1), ("Eq",), ("Ret",)]))
    assert out.result is True


def test_map_builtins_on_hand_built_maps():
    m = MapValue({"b": 2, "a": 1})
    code = [("PushConst", 0), ("PushConst", 1), ("PushConst", 2), ("MapSet",),
            ("Dup",), ("MapKeys",), ("StoreLocal", 0), ("PushConst", 1), ("MapGet",),
            ("LoadLocal", 0), ("MakeList", 2), ("Ret",)]
    out = run(_hand_module([m, "c", 3], code, nlocals=1))
    assert out.ok, out.error
    assert out.result == (Some(3), ("a", "b", "c"))


def test_halt_finishes_without_the_extra_step():
    out = run(_hand_module([9], [("PushConst", 0), ("Halt",)]))
    assert out.ok and out.result == 9 and out.steps == 2


def test_legacy_list_record():
    from boruna.core.values import Record
    legacy = Record(65535, (4, 5))
    out = run(_hand_module([legacy, 1], [("PushConst", 0), ("PushConst", 1), ("ListGet",),
                                          ("Ret",)]))
    assert out.result == 5


def test_step_input_under_policies():
    src = 'fn main() -> String { step_input("doc") }\n'
    assert run(src).result == ""
    denied = run(src, policy="deny-all")
    assert denied.error == "capability denied: step.input" and denied.steps == 2
    budget = {"rules": {"step.input": {"allow": True, "budget": 1}}, "default_allow": False}
    two = run('fn main() -> String { step_input("a") ++ step_input("b") }\n', policy=budget)
    assert two.error == "capability budget exceeded: step.input"
    assert run(src).capabilities_called == ["step.input"]


def test_capcall_not_declared_by_the_function_is_denied():
    module = Module("m", constants=["x"], functions=[
        Function("main", 0, 0, [("PushConst", 0), ("CapCall", 10, 1), ("Ret",)])])
    assert run(module).error == "capability denied: step.input"
    module.functions[0].code[1] = ("CapCall", 77, 1)
    assert run(module).error == "unknown capability id: 77"


def test_contract_counterexample_shows_arguments():
    src = 'fn f(a: Int, s: String) -> Int\n    requires a > 0\n{\n    a\n}\n' \
          'fn main() -> Int { f(-1, "q") }\n'
    assert run(src).error == '"precondition 1 failed in `f`" [counterexample: (-1, "q")]'
    src2 = 'fn f(a: Int) -> Int\n    ensures result < 0\n{\n    a\n}\nfn main() -> Int { f(3) }\n'
    assert run(src2).error == '"postcondition 1 failed in `f`" [counterexample: (3)]'


def test_emit_fills_ui_output_in_order():
    out = run('fn main() -> Int {\n    emit 1\n    emit "two"\n    emit [3]\n    0\n}\n')
    assert out.ui_output == [1, "two", (3,)]


def test_call_function_with_arguments():
    module = compile_source("type S { n: Int }\nfn update(s: S, d: Int) -> S { S { n: s.n + d } }\n")
    from boruna.core.values import Record
    out = call_function(module, "update", [Record(0, (4,)), 3])
    assert out.ok and out.result == Record(0, (7,))
    assert call_function(module, "nope", []).error == "function not found: nope"


def test_integer_results_stay_in_i64():
    assert ok("9223372036854775807") == 9223372036854775807
    out = run(_hand_module([1e308, 10.0], [("PushConst", 0), ("PushConst", 1), ("Mul",),
                                           ("Ret",)]))
    assert math.isinf(out.result)


def test_identifier_arm_binds_the_payload():
    out = run("enum Sh { Circle(Int), Dot }\nfn main() -> Int { match Sh::Circle(3) { s => s } }\n")
    assert out.ok and out.result == 3


def test_float_display_in_errors_and_results():
    out = run(main("__builtin_float_to_string(100000000000000000000000.0 * 100000000.0)",
                   "String"))
    assert out.result == "10000000000000000000000000000000"


def test_globals_jmpif_and_nop_in_hand_built_bytecode():
    module = Module("m", constants=[5, 0], globals=["g"], functions=[Function("main", 0, 0, [
        ("LoadGlobal", 0),            # Unit
        ("Pop",),
        ("PushConst", 0), ("StoreGlobal", 0), ("Nop",),
        ("PushConst", 1), ("JmpIf", 9),   # 0 is falsy: no jump
        ("LoadGlobal", 0), ("Ret",),
        ("PushConst", 1), ("Ret",),
    ])])
    out = run(module)
    assert out.ok and out.result == 5
    assert out.steps == 10


def test_out_of_range_python_ints_are_rejected_cleanly():
    module = compile_source("fn id(x: Int) -> Int { x }\n")
    out = call_function(module, "id", [2**70])
    assert out.error == "integer overflow in conversion"
    assert call_function(module, "id", [-(2**63)]).result == -(2**63)
    assert call_function(module, "id", [True]).result is True
    assert call_function(module, "id", [1.5]).result == 1.5


def test_handler_results_are_normalised_to_vm_values():
    from boruna.runtime.gateway import CapabilityGateway

    class JsonHandler:
        def handle(self, cap, args):
            return {"items": [1, 2, {"k": "v"}], "ok": True}

    module = compile_source('fn main() -> Int {\n    let m = step_input("x")\n'
                            '    __builtin_map_len(m)\n}\n')
    from boruna import _vm
    m = _vm.Machine(module, gateway=CapabilityGateway(None, JsonHandler()))
    assert m.run() == _vm.FINISHED, m.error
    assert m.result == 2
