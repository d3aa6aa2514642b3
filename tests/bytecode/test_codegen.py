"""Codegen's instruction tuples: operand-free instructions and LoadLocal/StoreLocal of the
first 256 slots are shared objects (immutable), equal to the tuples they stand for; codegen
without the name check before it (`names_checked=False`)."""
import pytest

from boruna.compiler import compile_source


def test_shared_instructions_are_equal_and_identical():
    source = ("fn f(a: Int, b: Int) -> Int { let c = a + b\n c * a }\n"
              "fn main() -> Int { f(1, 2) + f(3, 4) }")
    module = compile_source(source)
    f, main = module.functions
    assert f.code == [("LoadLocal", 0), ("LoadLocal", 1), ("Add",), ("StoreLocal", 2),
                      ("LoadLocal", 2), ("LoadLocal", 0), ("Mul",), ("Ret",)]
    assert f.code[0] is f.code[5] and f.code[3] is not f.code[4]
    assert f.code[-1] is main.code[-1] and main.code[-2] is f.code[2]


def test_locals_past_the_shared_slots_get_their_own_tuples():
    lets = "\n".join(f"let v{i} = {i}" for i in range(300))
    module = compile_source(f"fn main() -> Int {{ {lets}\n v299 + v0 }}")
    code = module.functions[0].code
    assert code[-4:] == [("LoadLocal", 299), ("LoadLocal", 0), ("Add",), ("Ret",)]
    assert code[2 * 299 + 1] == ("StoreLocal", 299)
    again = compile_source(f"fn main() -> Int {{ {lets}\n v299 + v0 }}").functions[0].code
    assert again[-4] == code[-4] and again[-4] is not code[-4]
    assert again[-3] is code[-3]


def test_generate_without_the_name_check_stops_where_it_would_object():
    from boruna.bytecode.codegen import NameCheckNeeded, generate
    from boruna.language.frontend import parse

    def unchecked(source):
        return generate(parse(source), "m", names_checked=False)

    with pytest.raises(NameCheckNeeded):
        unchecked("fn f(a: Int) -> Int { a }\nfn main() -> Int { f(1, 2) }")
    with pytest.raises(NameCheckNeeded):
        unchecked("type P { a: Int }\nfn main() -> Int { let p = P { a: 1 }\n P { ..p, b: 2 }.a }")
    with pytest.raises(NameCheckNeeded):
        unchecked("type P { a: Int }\nfn main() -> Int { let p = P { a: 1 }\n P { ..p, a: 2, a: 3 }.a }")
    # a local shadowing the function: no arity rule, as in the name check
    source = "fn f(a: Int) -> Int { a }\nfn main() -> Int { let f = 1\n f }"
    assert unchecked(source) == generate(parse(source), "m")
