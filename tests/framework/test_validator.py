"""The App protocol validator (docs/spec/tooling.md §3.2, §7.3)."""
from pathlib import Path

import pytest

from boruna.language.errors import CompileError
from boruna.language.frontend import parse
from boruna.framework import validate_app

COUNTER = (Path(__file__).parent / "programs" / "counter_app.ax").read_text(encoding="utf-8")

FUNCS = """
fn init() -> Int { 0 }
fn update(s: Int, m: Int) -> Int { s }
fn view(s: Int) -> Int { s }
"""


def without(source: str, fn_name: str) -> str:
    start = source.index(f"fn {fn_name}(")
    end = source.index("\n}\n", start) + 3
    return source[:start] + source[end:]


def test_v1_counter_is_a_valid_app():
    assert validate_app(COUNTER).to_dict() == {
        "has_init": True, "has_update": True, "has_view": True, "has_policies": False,
        "state_type": "State", "message_type": "Msg", "errors": [], "valid": True}


def test_v2_missing_update_is_reported_not_raised():
    report = validate_app(without(COUNTER, "update"))
    assert report.valid is False and report.has_update is False
    assert report.errors == ["missing required function: update()"]
    assert report.failure_message() == "validation: missing required function: update()"


def test_v3_errors_in_source_order_then_missing_functions():
    report = validate_app("fn init(x: Int) -> Int { x }\n"
                          "fn view(a: Int, b: Int) -> Int { a }\n"
                          "fn policies() -> Int !{net.fetch} { 0 }\n")
    assert report.errors == [
        "init() must take 0 parameters",
        "view() must take 1 parameter (state), got 2",
        "policies() must be pure — no capability annotations allowed",
        "missing required function: update()"]
    assert report.has_policies and report.has_view and report.has_init
    assert report.valid is False


def test_v4_update_arity_and_purity():
    report = validate_app("fn init() -> Int { 0 }\n"
                          "fn update(a: Int, b: Int, c: Int) -> Int !{fs.read} { a }\n"
                          "fn view(s: Int) -> Int { s }\n")
    assert report.errors == ["update() must take 2 parameters (state, msg), got 3",
                             "update() must be pure — no capability annotations allowed"]


def test_view_purity_and_policies_parameters():
    report = validate_app("fn init() -> Int !{time.now} { 0 }\n"
                          "fn update(a: Int, b: Int) -> Int { a }\n"
                          "fn view() -> Int !{ui} { 0 }\n"
                          "fn policies(x: Int) -> Int { x }\n")
    assert report.errors == ["view() must take 1 parameter (state), got 0",
                             "view() must be pure — no capability annotations allowed",
                             "policies() must take 0 parameters"]


def test_v5_last_matching_type_wins():
    src = ("type AppState { a: Int }\ntype CounterState { b: Int }\n"
           "type Message { tag: String }\ntype AppMessage { tag: String }\n" + FUNCS)
    report = validate_app(src)
    assert (report.state_type, report.message_type) == ("CounterState", "Message")


def test_v6_no_types():
    report = validate_app(FUNCS)
    assert report.state_type is None and report.message_type is None and report.valid


def test_v7_enum_counts_as_message_type():
    assert validate_app("enum Msg { Inc, Dec }\n" + FUNCS).message_type == "Msg"


def test_v8_names_are_not_checked():
    assert validate_app(COUNTER.replace("text: state.label", "text: lbl")).valid


def test_v9_lexer_error_raises_compile_error():
    with pytest.raises(CompileError) as info:
        validate_app("fn init() -> Int { @ }")
    assert info.value.code == "E001"
    assert info.value.to_dict() == {"severity": "error", "code": "E001",
                                    "message": 'unexpected character: "@"', "line": 1,
                                    "col": 20}


def test_v10_policies_detected():
    src = COUNTER + ("type PolicySet { capabilities: List<String>, max_effects: Int, max_steps: Int }\n"
                     "fn policies() -> PolicySet { PolicySet { capabilities: [], max_effects: 0,"
                     " max_steps: 10 } }\n")
    report = validate_app(src)
    assert report.has_policies and report.valid


def test_duplicates_are_each_checked_and_program_input_accepted():
    src = FUNCS + "fn init(a: Int) -> Int { a }\nfn init(b: Int) -> Int { b }\n"
    report = validate_app(parse(src))
    assert report.errors == ["init() must take 0 parameters"] * 2


def test_empty_source_misses_everything():
    report = validate_app("")
    assert report.errors == ["missing required function: init()",
                             "missing required function: update()",
                             "missing required function: view()"]
    assert not (report.has_init or report.has_update or report.has_view)
