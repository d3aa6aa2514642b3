"""Every function of every standard library, called from a program that imports the library
(docs/spec/tooling.md §6.3, §7.7 L1–L6). Records compare as tuples of their fields, lists as lists."""
import re
from pathlib import Path

import pytest

from boruna.core.values import Enum, Err, MapValue, Ok, Record, Some

LIBS = Path(__file__).resolve().parents[2] / "libs"

SMOKE = {"std-ui": 0, "std-validation": 0, "std-forms": 1, "std-authz": 1, "std-http": 0,
         "std-db": 1, "std-sync": 2, "std-routing": 1, "std-storage": 2,
         "std-notifications": 1, "std-testing": 3, "std-llm": 0, "std-json": 0, "std-guard": 0}

OK_V = (True, "", "")
P = "authz_default_policy()"
Q = 'db_select("t", "*")'

CASES = {
    "std-ui": [
        ('node("x", "y")', ("x", "y")),
        ('row(text("a"), text("b"))', ("row", "a")),
        ('column(text("a"), text("b"))', ("column", "a")),
        ('stack(text("a"), badge("b", "info"))', ("stack", "a")),
        ('container(button("Save", "save"))', ("container", "Save")),
        ('card("Users", empty_node())', ("card", "Users")),
        ('section("Intro", divider())', ("section", "Intro")),
        ('button("Go", "clicked")', ("button", "Go")),
        ('input("email", "a@b", "changed")', ("input", "email")),
        ('select_field("role", "admin", "picked")', ("select", "role")),
        ('checkbox("agree", 1, "toggled")', ("checkbox", "agree")),
        ('table_view("name|email", 4)', ("table", "name|email")),
        ('error_display("boom")', ("error", "boom")),
        ('text("hi")', ("text", "hi")),
        ('badge("new", "info")', ("badge", "new")),
        ("empty_node()", ("empty", "")),
        ("divider()", ("divider", "")),
    ],
    "std-validation": [
        ("validation_ok()", OK_V),
        ('validation_fail("f", "bad")', (False, "f", "bad")),
        ('check(false, "f", "m")', (False, "f", "m")),
        ('string_length("héllo")', 5),
        ('validate_required("name", "")', (False, "name", "is required")),
        ('validate_required("name", "x")', OK_V),
        ('validate_not_empty("name", "")', (False, "name", "is required")),
        ('validate_min_length("pw", "abc", 4)', (False, "pw", "too short")),
        ('validate_min_length("pw", "abcd", 4)', OK_V),
        ('validate_max_length("pw", "abcde", 4)', (False, "pw", "too long")),
        ('validate_numeric("age", " 42 ")', OK_V),
        ('validate_numeric("age", "4x")', (False, "age", "must be numeric")),
        ('validate_min_value("age", 17, 18)', (False, "age", "below minimum")),
        ('validate_max_value("age", 121, 120)', (False, "age", "above maximum")),
        ('validate_max_value("age", 120, 120)', OK_V),
        ('validate_equals("pw2", "a", "b")', (False, "pw2", "does not match")),
        ('validate_contains("e", "ab", "@")', (False, "e", "must contain expected substring")),
        ('validate_starts_with("u", "ftp://x", "https://")', (False, "u", "must start with expected prefix")),
        ('validate_ends_with("f", "a.txt", ".ax")', (False, "f", "must end with expected suffix")),
        ('validate_ends_with("f", "a.ax", ".ax")', OK_V),
        ('validation_merge(validation_fail("a", "x"), validation_fail("b", "y"))', (False, "a", "x")),
        ('validation_merge(validation_ok(), validation_fail("b", "y"))', (False, "b", "y")),
        ("parse_int(\"42\")", 42),
    ],
    "std-forms": [
        ("form_init(3)", (3, False, True, "", "", "")),
        ('field_init("email")', ("email", "", False, False, "")),
        ('field_set_value(field_init("e"), "v")', ("e", "v", False, True, "")),
        ('field_touch(field_init("e"))', ("e", "", True, False, "")),
        ('field_set_error(field_init("e"), "bad")', ("e", "", False, False, "bad")),
        ('field_clear_error(field_set_error(field_init("e"), "bad"))', ("e", "", False, False, "")),
        ('field_is_valid(field_set_error(field_init("e"), "bad"))', False),
        ('field_is_valid(field_init("e"))', True),
        ('field_reset(field_touch(field_set_value(field_init("e"), "v")))', ("e", "", False, False, "")),
        ('form_set_field(form_init(2), "name", "Ada")', (2, False, True, "name", "Ada", "")),
        ('form_set_error(form_init(2), "name", "is required")', (2, False, False, "name", "", "is required")),
        ('form_clear_errors(form_set_error(form_init(2), "n", "e"))', (2, False, True, "n", "", "")),
        ('form_submit(form_set_error(form_init(2), "n", "e"))', (2, False, False, "n", "", "e")),
        ("form_submit(form_init(2))", (2, True, True, "", "", "")),
        ('form_reset(form_submit(form_set_field(form_init(2), "a", "b")))', (2, False, True, "", "", "")),
        ('form_is_valid(form_set_error(form_init(1), "a", "e"))', False),
        ("form_is_submitted(form_submit(form_init(1)))", True),
    ],
    "std-authz": [
        (P, ("admin", "editor", "viewer", 100, 50, 10)),
        (f'authz_role_level({P}, "editor")', 50),
        (f'authz_role_level({P}, "ghost")', 0),
        ('decide(true, "y", "n")', (1, "y")),
        (f'authz_check({P}, "editor", "users", "delete")', (0, "only admin can delete")),
        (f'authz_check({P}, "admin", "users", "delete")', (1, "delete permitted")),
        (f'authz_check({P}, "viewer", "users", "read")', (1, "read permitted")),
        (f'authz_check({P}, "ghost", "users", "read")', (0, "insufficient role for read")),
        (f'authz_check({P}, "viewer", "users", "write")', (0, "insufficient role for write")),
        (f'authz_check({P}, "editor", "users", "write")', (1, "write permitted")),
        (f'authz_check({P}, "admin", "users", "archive")', (0, "unknown action")),
        (f'authz_require_role({P}, "editor", 50)', (1, "role level sufficient")),
        (f'authz_require_role({P}, "viewer", 50)', (0, "role level insufficient")),
        (f'authz_guard_update({P}, "viewer", "posts", "write")', 0),
        (f'at_least({P}, "admin", 100)', 1),
        (f'authz_is_admin({P}, "editor")', 0),
        (f'authz_is_admin({P}, "admin")', 1),
        (f'authz_can_write({P}, "editor")', 1),
        (f'authz_can_read({P}, "ghost")', 0),
    ],
    "std-http": [
        ('http_effect("u", "cb")', ("http_request", "u", "cb")),
        ('http_get("https://x/a", "got")', ("http_request", "https://x/a", "got")),
        ('http_post("/p", "{}", "posted")', ("http_request", "/p", "posted")),
        ('http_put("/p", "{}", "put")', ("http_request", "/p", "put")),
        ('http_delete("/p/1", "gone")', ("http_request", "/p/1", "gone")),
        ('http_request(HttpRequest { method: "PATCH", url: "/r", body: "", content_type: "" }, "cb")',
         ("http_request", "/r", "cb")),
        ("http_retry_config(5, 10, 3)", (5, 10, 3)),
        ("http_default_retry()", (3, 1000, 2)),
        ('http_parse_status("404")', 404),
        ('http_parse_status("nope")', 0),
        ("http_is_success(204)", 1),
        ("http_is_success(301)", 0),
        ("http_is_error(404)", 1),
        ("http_is_error(399)", 0),
        ("http_should_retry(429)", 1),
        ("http_should_retry(404)", 0),
        ("http_should_retry(503)", 1),
        ("http_next_backoff(http_default_retry(), 0)", 1000),
        ("http_next_backoff(http_default_retry(), 1)", 2000),
        ("http_next_backoff(http_default_retry(), 2)", 4000),
        ("http_next_backoff(http_default_retry(), 7)", 4000),
    ],
    "std-db": [
        ('db_query("SELECT", "t", "a", "b")', ("SELECT", "t", "a", "b", "", 0, 0)),
        (Q, ("SELECT", "t", "*", "", "", 0, 0)),
        ('db_insert("t", "a,b", "1,2")', ("INSERT", "t", "a,b", "1,2", "", 0, 0)),
        ('db_update("t", "a = 1", "id = 2")', ("UPDATE", "t", "a = 1", "id = 2", "", 0, 0)),
        ('db_delete("t", "id = 2")', ("DELETE", "t", "", "id = 2", "", 0, 0)),
        (f'db_where(db_where({Q}, "a = 1"), "b = 2")', ("SELECT", "t", "*", "b = 2", "", 0, 0)),
        (f'db_order({Q}, "name")', ("SELECT", "t", "*", "", "name", 0, 0)),
        (f"db_limit({Q}, 5)", ("SELECT", "t", "*", "", "", 5, 0)),
        (f"db_offset({Q}, 9)", ("SELECT", "t", "*", "", "", 0, 9)),
        (f"db_paginate({Q}, 3, 20)", ("SELECT", "t", "*", "", "", 20, 40)),
        (f"db_paginate({Q}, 0, 20)", ("SELECT", "t", "*", "", "", 20, 0)),
        (f'db_to_effect(db_delete("t", "x"), "deleted")', ("db_query", "DELETE", "deleted")),
        ("pagination_info(2, 10, 45)", (2, 10, 45, 5)),
        ("pagination_info(1, 10, 0)", (1, 10, 0, 1)),
        ("pagination_info(1, 0, 7)", (1, 0, 7, 1)),
        ("pagination_has_next(pagination_info(5, 10, 45))", 0),
        ("pagination_has_next(pagination_info(4, 10, 45))", 1),
        ("pagination_has_prev(pagination_info(1, 10, 45))", 0),
        ("pagination_next_page(pagination_info(5, 10, 45))", 5),
        ("pagination_next_page(pagination_info(2, 10, 45))", 3),
        ("pagination_prev_page(pagination_info(1, 10, 45))", 1),
        ("pagination_prev_page(pagination_info(3, 10, 45))", 2),
    ],
    "std-sync": [
        ("sync_init()", (1, 0, 0, "idle", 0, 0, 0, 0)),
        ("sync_queue_edit(sync_init())", (1, 1, 0, "syncing", 1, 0, 0, 0)),
        ("sync_queue_edit(sync_go_offline(sync_init()))", (0, 1, 0, "queued", 1, 0, 0, 0)),
        ("sync_mark_synced(sync_queue_edit(sync_init()))", (1, 0, 1, "synced", 1, 1, 0, 0)),
        ("sync_mark_synced(sync_init())", (1, 0, 1, "synced", 0, 0, 0, 0)),
        ("sync_go_offline(sync_init())", (0, 0, 0, "offline", 0, 0, 0, 0)),
        ("sync_go_online(sync_go_offline(sync_init()))", (1, 0, 0, "synced", 0, 0, 0, 0)),
        # L5: init, queue, queue, mark_synced, offline, queue, online
        ("sync_go_online(sync_queue_edit(sync_go_offline(sync_mark_synced("
         "sync_queue_edit(sync_queue_edit(sync_init()))))))", (1, 2, 1, "syncing", 3, 2, 0, 0)),
        ("sync_detect_conflict(sync_init())", (1, 0, 0, "conflict", 0, 0, 1, 0)),
        ('sync_resolve_conflict(sync_detect_conflict(sync_init()), "mine")',
         (1, 0, 0, "resolving", 1, 0, 1, 1)),
        ('sync_effect("POST /sync", "synced")', ("http_request", "POST /sync", "synced")),
        ("sync_needs_push(sync_queue_edit(sync_init()))", 1),
        ("sync_needs_push(sync_init())", 0),
        ("sync_is_idle(sync_init())", 1),
        ("sync_is_idle(sync_queue_edit(sync_init()))", 0),
        ("sync_has_conflicts(sync_detect_conflict(sync_init()))", 1),
        ('sync_has_conflicts(sync_resolve_conflict(sync_detect_conflict(sync_init()), "x"))', 0),
    ],
    "std-routing": [
        ('route_define("home", "/")', ("home", "/", 0)),
        ('route_define_with_param("user", "/users/:id", 1)', ("user", "/users/:id", 1)),
        ('route_match_path(route_define("home", "/"), "/")', (1, "home", "", "")),
        ('route_match_path(route_define("home", "/"), "/x")', (0, "", "", "")),
        ("route_no_match()", (0, "", "", "")),
        ('route_navigate("home")', "home"),
        ('route_navigate_with_param("user", "42")', "user"),
        ('route_is_active("home", "home")', 1),
        ('route_is_active("home", "about")', 0),
        ('route_match_first(route_define("a", "/a"), route_define("b", "/b"), '
         'route_define("c", "/c"), "/b")', (1, "b", "", "")),
        ('route_match_first(route_define("a", "/x"), route_define("b", "/x"), '
         'route_define("c", "/c"), "/x")', (1, "a", "", "")),
        ('route_match_first(route_define("a", "/a"), route_define("b", "/b"), '
         'route_define("c", "/c"), "/nope")', (0, "", "", "")),
    ],
    "std-storage": [
        ('storage_key("prefs", "theme")', ("prefs", "theme")),
        ('storage_effect("storage_read", "ns", "cb")', ("storage_read", "ns", "cb")),
        ('storage_get("prefs", "theme", "loaded")', ("storage_read", "prefs", "loaded")),
        ('storage_set("prefs", "theme", "dark", "saved")', ("storage_write", "prefs", "saved")),
        ('storage_delete("prefs", "theme", "gone")', ("storage_delete", "prefs", "gone")),
        ('storage_list("prefs", "listed")', ("storage_list", "prefs", "listed")),
        ('storage_make_entry("p", "k", "v", 3)', ("p", "k", "v", 3)),
        ('storage_bump_version(storage_make_entry("p", "k", "v", 3), "w")', ("p", "k", "w", 4)),
        ('storage_is_newer(storage_make_entry("p", "k", "v", 4), storage_make_entry("p", "k", "v", 3))', 1),
        ('storage_is_newer(storage_make_entry("p", "k", "v", 3), storage_make_entry("p", "k", "v", 3))', 0),
    ],
    "std-notifications": [
        ("notification_init(3)", (1, 0, 3, "", "", 0)),
        ('notification_make(7, "info", "hi", 3000)', (7, "info", "hi", 3000)),
        ('notification_push(notification_init(3), "warning", "careful", 5000)',
         (2, 1, 3, "warning", "careful", 1)),
        ('notification_dismiss(notification_push(notification_init(3), "i", "m", 1), 1)',
         (2, 0, 3, "i", "m", 1)),
        ("notification_dismiss(notification_init(3), 1)", (1, 0, 3, "", "", 0)),
        ("notification_dismiss_effect(4, 3000)", ("timer", "dismiss", "notification_dismissed")),
        ('notification_count(notification_push(notification_push(notification_init(3), "a", "b", 1), "c", "d", 1))', 2),
        ('notification_is_full(notification_push(notification_init(1), "a", "b", 1))', 1),
        ("notification_is_full(notification_init(1))", 0),
        ('notification_info(notification_init(3), "error", "fyi")', (2, 1, 3, "info", "fyi", 1)),
        ('notification_success(notification_init(3), "saved")', (2, 1, 3, "success", "saved", 1)),
        ('notification_warning(notification_init(3), "w")', (2, 1, 3, "warning", "w", 1)),
        ('notification_error(notification_init(3), "e")', (2, 1, 3, "error", "e", 1)),
    ],
    "std-testing": [
        ('outcome(true, "l", "f")', (1, "l", "ok")),
        ('assert_eq_int(4, 4, "sum")', (1, "sum", "ok")),
        ('assert_eq_int(4, 5, "sum")', (0, "sum", "mismatch")),
        ('assert_eq_string("a", "b", "s")', (0, "s", "mismatch")),
        ('assert_true(0, "t")', (0, "t", "expected true")),
        ('assert_true(2, "t")', (1, "t", "ok")),
        ('assert_false(1, "f")', (0, "f", "expected false")),
        ('assert_gt(1, 1, "g")', (0, "g", "not greater than")),
        ('assert_lt(1, 1, "l")', (0, "l", "not less than")),
        ('assert_lt(0, 1, "l")', (1, "l", "ok")),
        ('assert_not_empty("", "n")', (0, "n", "was empty")),
        ('test_summary(assert_true(1, "a"), assert_true(0, "b"), assert_true(1, "c"))', (3, 2, 1)),
        ('test_all_passed_2(assert_true(1, "a"), assert_true(1, "b"))', 1),
        ('test_all_passed_3(assert_true(1, "a"), assert_true(1, "b"), assert_true(0, "c"))', 0),
    ],
    "std-llm": [
        ('default_llm_request("sys", "usr")', ("sys", "usr", 1024, 72)),
        ('llm_payload(default_llm_request("s", "u"))', "s|u"),
        ('llm_call(LlmRequest { system_prompt: "s", user_prompt: "u", max_tokens: 5, temperature: 0 }, "done")',
         ("llm_call", "s|u", "done")),
        ('llm_prompt("be brief", "hi", "answered")', ("llm_call", "be brief|hi", "answered")),
        ('llm_json_call(default_llm_request("s", "u"), "parsed")', ("llm_json_call", "s|u", "parsed")),
    ],
    "std-json": [
        ('json_ok("1")', (True, "1", "")),
        ('json_err("bad")', (False, "", "bad")),
        ("int_to_string(-42)", "-42"),
        ('json_key("k")', '"k": '),
        ('json_string_field("name", "Ada")', '"name": "Ada"'),
        ('json_key("a\\"b")', '"a\\"b": '),
        ('json_string_field("q", "say \\"hi\\"\\n")', '"q": "say \\"hi\\"\\n"'),
        ('json_string("tab\\there")', '"tab\\there"'),
        ('json_int_field("n", 42)', '"n": 42'),
        ('json_bool_field("ok", true)', '"ok": true'),
        ('json_null_field("x")', '"x": null'),
        ('json_object("\\"a\\": 1")', '{"a": 1}'),
        ('json_array_wrap("1, 2")', "[1, 2]"),
        ('json_array(["1", "\\"b\\""])', '[1, "b"]'),
        ("json_array([])", "[]"),
        ('escape_char("\\"")', '\\"'),
        ('escape_char("\\\\")', "\\\\"),
        ('escape_char("x")', "x"),
        ('json_escape("a\\"b\\\\c\\nd\\te")', 'a\\"b\\\\c\\nd\\te'),
    ],
    "std-guard": [
        ("guard_pass()", (True, "")),
        ('guard_fail("too long")', (False, "too long")),
        ('to_guard(true, "ignored")', (True, "")),
        ('to_guard(false, "kept")', (False, "kept")),
        ('char_count("日本")', 2),
        ('is_non_empty("   ")', False),
        ('is_non_empty(" x ")', True),
        ('min_length("abc", 3)', True),
        ('max_length("abcd", 3)', False),
        ('length_between("日本語", 1, 3)', True),
        ('length_between("", 1, 3)', False),
        ('is_in_range("x", 0, 9)', False),
        ('is_in_range(" 9 ", 0, 9)', True),
        ('is_in_range("10", 0, 9)', False),
        ('is_in_range_float("0.5", 0.0, 1.0)', True),
        ('is_in_range_float("1.5", 0.0, 1.0)', False),
        ('is_in_range_float("abc", 0.0, 1.0)', False),
        ('matches_prefix("https://x", "https://")', True),
        ('matches_suffix("a.ax", ".json")', False),
        ('matches_contains("Hello", "hello")', False),
        ('list_contains_str(["a", "b"], "b")', True),
        ('list_contains_str([], "b")', False),
        ('is_one_of("red", ["red", "green"])', True),
        ('not_in_banlist("drop", ["drop", "rm"])', False),
        ('not_in_banlist("ls", ["drop", "rm"])', True),
        ('contains_ci("Hello World", "WORLD")', True),
        ("looks_like_refusal(\"As an AI, I can't\")", True),
        ('looks_like_refusal("I CANNOT do that")', True),
        ('looks_like_refusal("Here is the answer")', False),
        ('is_probably_json(" [1] ")', True),
        ('is_probably_json("{")', False),
        ('is_probably_json("{\\"a\\": 1}")', True),
        ('is_probably_json("[1}")', False),
    ],
}


def plain(value):
    """Runtime value → comparable Python data (records as tuples, lists as lists)."""
    t = type(value)
    if t is Record:
        return tuple(plain(f) for f in value.fields)
    if t is tuple:
        return [plain(v) for v in value]
    if t in (Some, Ok, Err):
        return (t.__name__, plain(value.value))
    if t is Enum:
        return ("enum", value.variant, plain(value.payload))
    if t is MapValue:
        return {k: plain(v) for k, v in value.items()}
    return value


def run_source(source: str):
    from boruna.compiler import compile_source
    from boruna.api import run

    outcome = run(compile_source(source, libs_dir=str(LIBS)))
    assert outcome.ok, outcome.error
    return outcome.result


def batch_program(lib: str, exprs: list[str]) -> str:
    """One program evaluating every expression; main returns them as a list."""
    lines = [f'import "{lib}"']
    for i, expr in enumerate(exprs):
        lines.append(f"fn case_{i}() {{ {expr} }}")
    lines.append("fn main() { [" + ", ".join(f"case_{i}()" for i in range(len(exprs))) + "] }")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("lib", sorted(CASES))
def test_every_case_of_the_library(lib):
    exprs = [e for e, _ in CASES[lib]]
    results = plain(run_source(batch_program(lib, exprs)))
    got = dict(zip(exprs, results))
    expected = {e: v for e, v in CASES[lib]}
    mismatches = {e: (got[e], expected[e]) for e in exprs
                  if got[e] != expected[e] or type(got[e]) is not type(expected[e])}
    assert mismatches == {}


def _function_names(lib: str) -> list[str]:
    text = (LIBS / lib / "src" / "core.ax").read_text()
    return [n for n in re.findall(r"^fn ([A-Za-z_][A-Za-z0-9_]*)\(", text, re.M) if n != "main"]


@pytest.mark.parametrize("lib", sorted(CASES))
def test_every_library_function_is_exercised(lib):
    called = " ".join(e for e, _ in CASES[lib])
    missing = [n for n in _function_names(lib) if not re.search(rf"\b{n}\(", called)]
    assert missing == []


@pytest.mark.parametrize("lib, value", sorted(SMOKE.items()))
def test_l1_main_smoke_result_is_deterministic(lib, value):
    from boruna.assets.libraries import self_test
    assert self_test(LIBS, lib) == value


def test_all_libraries_import_together_without_clashes():
    imports = "\n".join(f'import "{lib}"' for lib in sorted(SMOKE))
    src = imports + '\nfn main() -> Int { authz_can_read(authz_default_policy(), "viewer") ' \
                    '+ http_is_error(500) + pagination_info(1, 10, 30).total_pages }\n'
    assert run_source(src) == 5
    names = [n for lib in sorted(SMOKE) for n in _function_names(lib)]
    dup = sorted({n for n in names if names.count(n) > 1})
    assert dup == []


def test_an_app_built_from_libraries_runs_under_the_framework():
    from boruna.framework import run_app_test, validate_app

    app = """\
import "std-http"
import "std-ui"
import "std-validation"
type State { status: String, fetched: Int }
type Msg { tag: String, payload: String }
type UpdateResult { state: State, effects: List<Effect> }
fn init() -> State { State { status: "idle", fetched: 0 } }
fn update(state: State, msg: Msg) -> UpdateResult {
    match msg.tag {
        "load" => UpdateResult { state: State { ..state, status: "loading" },
                                 effects: [http_get("/api/items", "loaded")] },
        "loaded" => {
            if http_is_success(msg.payload) == 1 {
                UpdateResult { state: State { ..state, status: "ready", fetched: state.fetched + 1 }, effects: [] }
            } else {
                UpdateResult { state: State { ..state, status: "failed" }, effects: [] }
            }
        },
        "name" => {
            let v: ValidationResult = validate_min_length("name", msg.payload, 3)
            UpdateResult { state: State { ..state, status: v.error_message }, effects: [] }
        },
        _ => UpdateResult { state: state, effects: [] },
    }
}
fn view(state: State) -> UINode { card(state.status, empty_node()) }
"""
    assert validate_app(app.replace('import "', "// import \"")).valid
    r = run_app_test(app, ["load", "loaded:200", "loaded:503", "name:Al"], libs_dir=str(LIBS))
    assert r.ok, r.error
    assert [c["effects"] for c in r.cycles] == [1, 0, 0, 0]
    assert r.cycles[1]["state"] == ["ready", 1] and r.cycles[1]["ui_tree"] == ["card", "ready"]
    assert r.cycles[2]["state"] == ["failed", 1]
    assert r.final_state == ["too short", 1]
