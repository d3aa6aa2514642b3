"""The App test runner on the real VM (docs/spec/tooling.md §3.3–§3.5, §7.4)."""
from pathlib import Path

import pytest

from boruna.language.errors import CompileError
from boruna.framework import AppRuntime, FrameworkError, run_app_test
from boruna.assets.templates import apply_template

REPO = Path(__file__).resolve().parents[2]

COUNTER = (Path(__file__).parent / "programs" / "counter_app.ax").read_text(encoding="utf-8")

POLICY_APP = """\
type State { n: Int }
type Msg { tag: String, payload: Int }
type Effect { kind: String, payload: String, callback_tag: String }
type UpdateResult { state: State, effects: List<Effect> }
type UINode { tag: String, text: String }
type PolicySet { capabilities: List<String>, max_effects: Int, max_steps: Int }

fn init() -> State { State { n: 0 } }
fn update(state: State, msg: Msg) -> UpdateResult {
    if msg.tag == "fetch" {
        UpdateResult { state: State { n: state.n + 1 }, effects: [Effect { kind: "http_request", payload: "https://x", callback_tag: "done" }] }
    } else {
        UpdateResult { state: State { n: state.n + 1 }, effects: [ELSE_EFFECTS] }
    }
}
fn view(state: State) -> UINode { UINode { tag: "n", text: "v" } }
fn policies() -> PolicySet { PolicySet { capabilities: [CAPS], max_effects: 1, max_steps: 1000 } }
"""
DBQ = 'Effect { kind: "db_query", payload: "q", callback_tag: "rows" }'


def policy_app(else_effects=DBQ, caps='"db.query"'):
    return POLICY_APP.replace("ELSE_EFFECTS", else_effects).replace("CAPS", caps)


def cycle(message, state, ui=("counter", "c"), effects=0):
    return {"message": message, "state": list(state), "effects": effects, "ui_tree": list(ui)}


def test_t1_counter():
    r = run_app_test(COUNTER, ["add:5", "add:-2", "reset", "noop:x"])
    assert r.ok and r.error is None
    assert r.init_state == [0, "c"]
    assert r.cycles == [cycle("add:5", [5, "c"]), cycle("add:-2", [3, "c"]),
                        cycle("reset", [0, "c"]), cycle("noop:x", [0, "c"])]
    assert r.final_state == [0, "c"] and r.total_cycles == 4
    assert r.to_dict() == {"init_state": [0, "c"], "cycles": r.cycles,
                           "final_state": [0, "c"], "total_cycles": 4}


def test_message_echo_is_untrimmed_and_cli_string_form_works():
    r = run_app_test(COUNTER, "add:2,  add : 9 ,add:1")
    assert [c["message"] for c in r.cycles] == ["add:2", "  add : 9 ", "add:1"]
    assert r.final_state == [3, "c"]          # "add " is not "add"


def test_t3_runtime_failure_keeps_partial_cycles():
    r = run_app_test(COUNTER, ["add:1", "add:abc", "add:2"])
    err = "runtime error: type error: expected numeric, got String"
    assert r.ok is False
    assert r.error == f"cycle 2 failed: {err}"
    assert r.init_state == [0, "c"]
    assert r.cycles == [cycle("add:1", [1, "c"]), {"message": "add:abc", "error": err}]
    assert r.to_dict() == {"message": f"cycle 2 failed: {err}", "init_state": [0, "c"],
                           "cycles": r.cycles}


def test_t4_effects_counted_unknown_kinds_reported():
    src = COUNTER.replace(
        'UpdateResult { state: state, effects: [] }',
        'UpdateResult { state: state, effects: ['
        'Effect { kind: "http_request", payload: "u", callback_tag: "a" }, '
        'Effect { kind: "storage_write", payload: "k", callback_tag: "b" }, '
        'Effect { kind: "emit_ui", payload: "x", callback_tag: "c" }, '
        'Effect { kind: "timer", payload: "1", callback_tag: "d" }] }')
    r = run_app_test(src, ["tick"])
    assert r.ok
    assert r.cycles[0]["effects"] == 3
    assert r.cycles[0]["unknown_effects"] == [
        {"index": 1, "kind": "storage_write", "reason": "unknown effect kind"}]


def test_t5_capability_denied_by_policy():
    r = run_app_test(policy_app(), ["query", "fetch", "query"])
    err = ("policy violation: effect HttpRequest requires capability 'net.fetch' which is not "
           "in the policy")
    assert r.error == f"cycle 2 failed: {err}"
    assert r.cycles == [{"message": "query", "state": [1], "effects": 1, "ui_tree": ["n", "v"]},
                        {"message": "fetch", "error": err}]


def test_t6_effect_count_limit():
    r = run_app_test(policy_app(else_effects=f"{DBQ}, {DBQ}"), ["query"])
    assert r.error == "cycle 1 failed: policy violation: too many effects: 2 exceeds limit of 1"


def test_t7_empty_capability_list_fails_closed():
    r = run_app_test(policy_app(caps=""), ["query"])
    assert r.error == ("cycle 1 failed: policy violation: effect DbQuery requires capability "
                       "'db.query' which is not in the policy")


def test_policy_override_replaces_policies():
    r = run_app_test(policy_app(), ["fetch"], policy={"capabilities": ["net.fetch"]})
    assert r.ok and r.cycles[0]["effects"] == 1


def test_policy_rejection_leaves_state_unchanged():
    app = AppRuntime(__import__("boruna.compiler", fromlist=["x"]).compile_source(policy_app()))
    with pytest.raises(FrameworkError):
        app.send("fetch", 0)
    assert app.cycle == 0 and app.state.fields == (0,)


def test_t8_no_messages():
    r = run_app_test(COUNTER, [])
    assert r.ok and r.cycles == [] and r.final_state == [0, "c"] and r.total_cycles == 0


def test_t9_missing_view():
    r = run_app_test(COUNTER[:COUNTER.index("fn view")], ["add:1"])
    assert r.ok is False and r.error == "missing required function: view"
    assert r.to_dict() == {"message": "missing required function: view"}


def test_t10_update_must_return_a_record():
    src = COUNTER.replace("fn update(state: State, msg: Msg) -> UpdateResult {",
                          "fn update(state: State, msg: Msg) -> Int { 1 }\nfn old(state: State, msg: Msg) -> UpdateResult {")
    r = run_app_test(src, ["go"])
    assert r.error == ("cycle 1 failed: effect error: update() must return a Record with "
                       "[state, effects] fields")


def test_t11_positional_state_quirk():
    src = ("type State { count: Int, label: String }\n"
           "type Msg { tag: String, payload: Int }\n"
           "type UINode { tag: String, text: String }\n"
           'fn init() -> State { State { count: 7, label: "x" } }\n'
           "fn update(state: State, msg: Msg) -> State { state }\n"
           'fn view(state: State) -> UINode { UINode { tag: "v", text: "t" } }\n')
    r = run_app_test(src, ["go"])
    assert r.ok
    assert r.cycles == [{"message": "go", "state": 7, "effects": 0, "ui_tree": ["v", "t"]}]
    assert r.final_state == 7


def test_t12_compile_failure_raises():
    with pytest.raises(CompileError) as info:
        run_app_test(COUNTER.replace("text: state.label", "text: lbl"), [])
    assert info.value.code == "E009"


def test_init_failure_is_a_runtime_error():
    r = run_app_test(COUNTER.replace('State { count: 0, label: "c" }',
                                     'State { count: 1 / 0, label: "c" }'), [])
    assert r.error == "runtime error: division by zero" and r.started is False


def test_view_failure_after_transition():
    src = COUNTER.replace('UINode { tag: "counter", text: state.label }',
                          'UINode { tag: "counter", text: state.label ++ 1 }')
    app_result = run_app_test(src, ["add:1"])
    assert app_result.error.startswith("cycle 1 failed: runtime error: ")


def test_step_limit_from_policies_is_enforced():
    src = policy_app().replace(
        'fn view(state: State) -> UINode { UINode { tag: "n", text: "v" } }',
        'fn spin(n: Int) -> Int { let mut i = 0 while i < n { i = i + 1 } i }\n'
        'fn view(state: State) -> UINode { UINode { tag: "n", text: __builtin_int_to_string(spin(5000)) } }')
    r = run_app_test(src, ["query"])
    assert r.error == "cycle 1 failed: runtime error: max execution steps exceeded (1000)"


def test_max_steps_bounds_every_call():
    src = COUNTER.replace('State { count: 0, label: "c" }',
                          'State { count: spin(100000), label: "c" }') + (
        "fn spin(n: Int) -> Int { let mut i = 0 while i < n { i = i + 1 } i }\n")
    r = run_app_test(src, [], max_steps=500)
    assert r.error == "runtime error: max execution steps exceeded (500)"


def test_cycle_limit():
    r = run_app_test(COUNTER, ["add:1"] * 4, max_cycles=3)
    assert r.error == "cycle 4 failed: max cycles exceeded: 3"
    assert len(r.cycles) == 4


def test_t14_auth_app_template_end_to_end():
    src = apply_template(REPO / "templates", "auth-app", ["app_name=x"]).source
    r = run_app_test(src, ["login", "login_response:ok", "token_saved"])
    assert r.ok
    assert r.init_state == [0, "", "viewer", "", "idle", "", 0]
    assert r.cycles[0] == {"message": "login", "state": [0, "", "viewer", "", "authenticating", "", 1],
                           "effects": 1, "ui_tree": ["login-form", "authenticating"]}
    assert r.cycles[1] == {"message": "login_response:ok",
                           "state": [1, "", "viewer", "session", "authenticated", "", 1],
                           "effects": 0, "ui_tree": ["dashboard", ""],
                           "unknown_effects": [{"index": 0, "kind": "storage_write",
                                                "reason": "unknown effect kind"}]}
    assert r.cycles[2]["state"] == [1, "", "viewer", "session", "ready", "", 1]
    assert r.cycles[2]["effects"] == 0 and r.total_cycles == 3


SPIN = "fn spin(n: Int) -> Int { let mut i = 0 while i < n { i = i + 1 } i }\n"


def test_wall_clock_budget_covers_the_whole_run():
    src = COUNTER.replace("UpdateResult { state: state, effects: [] }",
                          "UpdateResult { state: State { count: spin(200000), label: \"c\" }, effects: [] }") + SPIN
    r = run_app_test(src, ["tick"] * 10_000, max_wall_ms=50)
    assert r.ok is False
    assert r.error.endswith("runtime error: wall-clock execution limit exceeded (50 ms)")
    assert len(r.cycles) < 10_000


def test_cancel_event_stops_the_run():
    import threading
    stop = threading.Event()
    stop.set()
    r = run_app_test(COUNTER, ["add:1"], cancel_event=stop)
    assert r.ok is False and r.error == "runtime error: execution cancelled"


def test_deeply_nested_state_is_reported_not_crashing():
    src = COUNTER.replace('UpdateResult { state: state, effects: [] }',
                          'UpdateResult { state: State { count: 1, label: nest(30000) }, effects: [] }') + (
        "fn nest(n: Int) -> List<Int> { let mut x = [] let mut i = 0 "
        "while i < n { x = [x] i = i + 1 } x }\n")
    r = run_app_test(src, ["deep"])
    assert r.ok
    for value in (r.final_state[1], r.cycles[0]["ui_tree"][1]):
        depth, node = 0, value
        while node:
            node, depth = node[0], depth + 1
        assert depth == 30000


def test_capability_use_in_update_is_a_purity_error():
    src = COUNTER.replace('UpdateResult { state: state, effects: [] }',
                          'UpdateResult { state: State { count: 0, label: step_input("x") }, effects: [] }')
    r = run_app_test(src, ["other"])
    assert r.error == "cycle 1 failed: function `update` must not have capability annotations"


def test_capability_use_in_init_is_allowed_and_in_policies_denied():
    src = COUNTER.replace('State { count: 0, label: "c" }',
                          'State { count: 0, label: step_input("seed") }')
    r = run_app_test(src, [])
    assert r.ok and type(r.init_state[1]) is str
    denied = run_app_test(policy_app().replace(
        "fn policies() -> PolicySet {", 'fn policies() -> PolicySet { let s = step_input("p")'), [])
    assert denied.error == "runtime error: capability denied: step.input"
