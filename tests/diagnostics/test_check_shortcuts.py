"""Shortcuts of `check_source` (issue 25, ninth round) and what they stand for.

- Code generation runs first with the name checks riding along (`collector._compiles`, as
  `compile_source` runs it): when it gives a module, the name checker and the later codegen
  step are skipped, since they would find nothing. Every program below gets the very same
  diagnostics with the shortcut and with it switched off.
- The type checker converts a builtin signature without type variables once; `Why` writes a
  call argument's text out when it is read.
"""
import pytest

from boruna.diagnostics import collector
from boruna.diagnostics.collector import check_source
from boruna.diagnostics.types import signatures
from boruna.diagnostics.types.infer import Why
from boruna.diagnostics.types.types import INT, Con, Var, VarSupply
from boruna.language.frontend import parse

PROGRAMS = {
    "valid": ("fn f(a: Int) -> Int { a + 1 }\nfn main() -> Int { f(2) }\n", True, []),
    "no main": ("fn f(a: Int) -> Int { a + 1 }\n", True, ["MISSING_MAIN"]),
    "type error only": ('fn main() -> Int { "s" }\n', True, ["E009"]),
    "undefined name": ("fn main() -> Int { y }\n", False, ["E003"]),
    "arity": ("fn f(a: Int) -> Int { a }\nfn main() -> Int { f(1, 2) }\n", False, ["E009"]),
    "assign undeclared": ("fn main() -> Int { z = 1\n 0 }\n", False, ["E003"]),
    "list of 300": ("fn main() -> Int { let xs = [" + ", ".join(["1"] * 300) + "]\n"
                    " list_len(xs) }\n", False, ["E008"]),
    "builtin as value": ("fn main() -> Int { let f = list_len\n 0 }\n", False, ["E008"]),
    "spread field unknown": ("type A { x: Int }\nfn main() -> Int { let a = A { x: 1 }\n"
                             " let b = A { ..a, q: 2 }\n b.x }\n", False, ["E006"]),
}


def _full(found):
    return [d.to_full_dict() for d in found.diagnostics]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_the_codegen_shortcut_changes_no_diagnostic(name, monkeypatch):
    source, compiles, codes = PROGRAMS[name]
    program = parse(source)
    assert collector._compiles(program, []) is compiles
    with_shortcut = check_source(source)
    assert [d.code for d in with_shortcut.diagnostics] == codes
    monkeypatch.setattr(collector, "_compiles", lambda program, libraries: False)
    assert _full(check_source(source)) == _full(with_shortcut)


def test_the_name_checker_runs_only_when_codegen_stops(monkeypatch):
    ran = []
    real = collector._name_errors
    monkeypatch.setattr(collector, "_name_errors",
                        lambda *args: ran.append(1) or real(*args))
    check_source(PROGRAMS["valid"][0])
    assert ran == []
    check_source(PROGRAMS["undefined name"][0])
    assert ran == [1]


def test_a_signature_without_type_variables_is_converted_once():
    supply = VarSupply()
    first = signatures.signature_of("__builtin_int_to_string", supply)
    assert first == ((INT,), Con("String"))
    assert signatures.signature_of("__builtin_int_to_string", supply) is first
    assert supply.count == 0
    assert signatures.signature_of("no_such_builtin", supply) is None


def test_a_generic_signature_gets_fresh_variables_at_each_call():
    supply = VarSupply()
    params, ret = signatures.signature_of("list_len", supply)
    assert ret == INT and params[0].name == "List" and isinstance(params[0].args[0], Var)
    again, _ = signatures.signature_of("list_len", supply)
    assert again[0].args[0] is not params[0].args[0]
    assert [params[0].args[0].id, again[0].args[0].id] == [1, 2]
    assert "list_len" not in signatures._FIXED


def test_why_writes_an_argument_text_when_read():
    assert Why((2, "area", True)).what == "the 2nd argument of `area`"
    assert Why((1, "this function value", False)).what == (
        "the 1st argument of this function value")
    why = Why((11, "f", True), label="L", contract=True, annotation="A", returned=True,
              holder=("fn", "x"))
    inner = why.inner(f"an element of {why.what}")
    assert inner.what == "an element of the 11th argument of `f`"
    assert (inner.label, inner.contract, inner.annotation, inner.returned, inner.holder) == (
        "L", True, "A", True, ("fn", "x"))
    assert Why("the value of `x`").what == "the value of `x`"
