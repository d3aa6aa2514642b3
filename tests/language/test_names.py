"""Name and arity checks (docs/spec/language.md §3): scopes, order of checks, messages, suggestions,
positions; and the public builtin table."""
import pytest

from boruna.language.errors import CompileError
from boruna.language.frontend import check
from boruna.language.names import BUILTIN_ARITIES, arity_message
from boruna.language.suggest import keyword_suggestion, levenshtein, unique_within_one


def error(source):
    with pytest.raises(CompileError) as info:
        check(source)
    err = info.value
    assert err.code == "E009"
    return (err.message, err.line, err.col)


def ok(source):
    assert check(source) is not None


def test_builtin_table_has_the_42_names_and_arities():
    # the reference's 42, then issue 13's capability builtins and map_new
    assert len(BUILTIN_ARITIES) == 55
    assert list(BUILTIN_ARITIES)[42:] == ["net_fetch", "fs_read", "fs_write", "db_query",
                                          "time_now", "random", "llm_call", "map_new",
                                          "row_int", "row_float", "row_string", "row_bool",
                                          "row_is_null"]
    assert BUILTIN_ARITIES["__builtin_string_replace"] == 3
    assert BUILTIN_ARITIES["step_input"] == 1
    assert BUILTIN_ARITIES["__builtin_guard"] == 3
    assert BUILTIN_ARITIES["list_get"] == 2
    assert sum(BUILTIN_ARITIES.values()) == 81
    assert "int_to_string" not in BUILTIN_ARITIES


@pytest.mark.parametrize("name,arity", sorted(BUILTIN_ARITIES.items()))
def test_every_builtin_resolves_and_is_arity_checked(name, arity):
    args = ", ".join(["0"] * arity)
    ok(f"fn main() {{ {name}({args}) }}")
    wrong = ", ".join(["0"] * (arity + 1))
    assert error(f"fn main() {{ {name}({wrong}) }}") == (
        arity_message(name, arity, arity + 1), 1, 13)


def test_arity_message_singular_and_plural():
    assert arity_message("f", 1, 0) == "function 'f' expects 1 argument, got 0"
    assert arity_message("f", 0, 2) == "function 'f' expects 0 arguments, got 2"
    assert arity_message("f", 2, 1) == "function 'f' expects 2 arguments, got 1"


# ------------------------------------------------------------------ scopes (§3.3)

def test_let_value_is_checked_before_the_name_is_bound():
    assert error("fn f() { let x = x }") == ("undefined variable: x\n  did you mean: 'f'?", 1, 18)
    ok("fn f(x: Int) { let x = x }")


def test_block_scopes_do_not_leak():
    for opener in ("if true { let t = 1 } else { let t = 2 }", "while c { let t = 1 }",
                   "for i in xs { let t = i }", "{ let t = 1 }"):
        assert error(f"fn f(c: Bool, xs: Int) {{ {opener}\n t }}")[0].startswith(
            "undefined variable: t")


def test_loop_variable_only_inside_the_body():
    ok("fn walk(xs: Int) { for item in xs { item } }")
    assert error("fn walk(xs: Int) { for item in xs { 1 }\n item }")[0] == \
        "undefined variable: item"
    assert error("fn walk() { for item in item { 1 } }")[0] == "undefined variable: item"


def test_match_bindings_are_scoped_per_arm():
    ok("fn f(o: Int) { match o { Some(Ok(x)) => x, Circle(r) => r, n => n } }")
    assert error("fn f(o: Int) { match o { Some(x) => 1, _ => x } }")[0] == \
        "undefined variable: x"      # 'o' and 'f' tie
    assert error("fn f(obj: Int) { match obj { Some(x) => 1, _ => x } }")[0] == \
        "undefined variable: x\n  did you mean: 'f'?"
    assert error("fn f(o: Int) { match o { N => N } }") == ("undefined variable: N", 1, 31)


def test_assignment_needs_an_existing_name_and_creates_none():
    ok("fn f() { let t = 1\n t = 2 }")
    ok("fn helper() { 1 }\nfn f() { helper = 2 }")          # E008 later, not E009
    assert error("fn f() { counter = 3 }") == ("undefined variable: counter", 1, 10)


def test_assignment_target_is_checked_before_its_value():
    assert error("fn main() { alpha = beta }")[0] == "undefined variable: alpha"


def test_functions_are_visible_before_declaration_and_duplicates_override():
    ok("fn main() { later(1) }\nfn later(x: Int) { x }")
    assert error("fn g(a: Int) { a }\nfn g() { 0 }\nfn main() { g(1) }")[0] == \
        "function 'g' expects 0 arguments, got 1"


def test_user_function_overrides_builtin_arity():
    ok("fn list_len(a: Int, b: Int) { a }\nfn main() { list_len(1, 2) }")


def test_local_callee_is_never_arity_checked():
    ok("fn apply(f: Fn(Int) -> Int) { f(1, 2, 3) }")
    ok("fn area(w: Int) { w }\nfn main(area: Int) { area(1, 2) }")


def test_check_order_callee_then_arguments_then_arity():
    assert error("fn main() { undefined(1) }")[0] == "undefined variable: undefined"
    assert error("fn add(a: Int, b: Int) { a }\nfn main() { add(zz) }")[0] == \
        "undefined variable: zz"


def test_requires_and_ensures_and_type_definitions_are_not_checked():
    ok("fn check(n: Int) -> Int requires limit > n ensures result >= 0 { n }")
    ok("type T { a: Nope }\nenum E { A(Missing) }")


def test_every_expression_form_is_visited():
    for expr in ("-u", "!u", "u.f", "f(u)", "[1, u]", "Some(u)", "Ok(u)", "Err(u)", "spawn u",
                 "emit u", "send u 1", "send 1 u", "P { a: u }", "P { ..u }", "E::V(u)",
                 "if u { 1 }", "if true { u }", "if true { 1 } else { u }", "match u { _ => 1 }",
                 "match 1 { _ => u }", "{ u }", "1 + u", "u ++ 1"):
        assert error(f"fn f() {{ {expr} }}")[0].startswith("undefined variable: u"), expr
    for stmt in ("return u", "while u { 1 }", "while true { u }", "for i in u { 1 }",
                 "for i in [] { u }", "let a = u"):
        assert error(f"fn f() {{ {stmt} }}")[0].startswith("undefined variable: u"), stmt


def test_literals_and_receive_need_nothing():
    ok('fn f() { 1 2.5 "s" true None receive E::V [] }')


def test_error_positions_point_at_the_identifier_or_call():
    assert error("fn f() {\n    let a = 1\n    g(a) + zz\n}") == ("undefined variable: g", 3, 5)
    assert error("fn two(a: Int, b: Int) { a }\nfn f() {\n  1 + two(1)\n}") == \
        ("function 'two' expects 2 arguments, got 1", 3, 7)


# ------------------------------------------------------------------ suggestions (§4.6)

def test_suggestion_rules():
    assert error("fn helper() { 1 }\nfn main() { helpr() }")[0] == \
        "undefined variable: helpr\n  did you mean: 'helper'?"
    assert error("fn m() { x }")[0] == "undefined variable: x\n  did you mean: 'm'?"
    # a local and a function of the same name are two candidates: no suggestion
    assert error("fn foo() { 1 }\nfn main() { let foo = 2\n fo }")[0] == "undefined variable: fo"
    # transposition is distance 2
    assert error("fn main() { let width = 4\n widht }")[0] == "undefined variable: widht"
    assert error("fn main() { list_lenn([1]) }")[0] == \
        "undefined variable: list_lenn\n  did you mean: 'list_len'?"


def test_levenshtein():
    assert levenshtein("kitten", "sitting") == 3
    assert levenshtein("widht", "width") == 2
    assert levenshtein("", "abc") == 3
    assert levenshtein("é", "e") == 1
    assert levenshtein("same", "same") == 0


def test_unique_within_one_counts_duplicates_and_skips_exact():
    assert unique_within_one("fooo", ["foo", "bar"]) == "foo"
    assert unique_within_one("foo", ["foo", "foo2"]) == "foo2"
    assert unique_within_one("fo", ["foo", "foo"]) is None
    assert unique_within_one("a", ["ab", "ac"]) is None
    assert unique_within_one("zzz", ["foo"]) is None


@pytest.mark.parametrize("word,keyword", [
    ("fnn", "fn"), ("typ", "type"), ("enm", "enum"), ("exprt", "export"), ("modul", "module"),
    ("inn", "in"), ("im", None), ("i", None), ("xyz", None), ("fn", "in"), ("lett", "let"),
])
def test_keyword_suggestion(word, keyword):
    assert keyword_suggestion(word) == keyword
