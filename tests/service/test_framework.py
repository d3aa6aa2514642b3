"""boruna_validate_app and boruna_framework_test through the service layer."""
from boruna.service import framework_test_tool, validate_app_tool

COUNTER = """type State { count: Int, label: String }
type Msg { tag: String, payload: Int }
type Effect { kind: String, payload: String, callback_tag: String }
type UpdateResult { state: State, effects: List<Effect> }
type UINode { tag: String, text: String }

fn init() -> State {
    State { count: 0, label: "start" }
}

fn update(state: State, msg: Msg) -> UpdateResult {
    match msg.tag {
        "increment" => UpdateResult { state: State { ..state, count: state.count + msg.payload }, effects: [] },
        "fetch" => UpdateResult { state: state, effects: [Effect { kind: "http_request", payload: "u", callback_tag: "got" }] },
        "boom" => UpdateResult { state: State { ..state, count: 1 / 0 }, effects: [] },
        _ => UpdateResult { state: state, effects: [] },
    }
}

fn view(state: State) -> UINode {
    UINode { tag: "counter", text: state.label }
}
"""


def test_conforming_app_is_valid():
    assert validate_app_tool(COUNTER) == {
        "success": True, "protocol_version": 1, "has_init": True, "has_update": True,
        "has_view": True, "has_policies": False, "state_type": "State", "message_type": "Msg",
        "errors": [], "valid": True}


def test_violations_are_success_with_valid_false():
    source = ("type AppState { n: Int }\nfn init(x: Int) -> AppState { AppState { n: x } }\n"
              "fn update(s: AppState) -> AppState { s }\n")
    assert validate_app_tool(source) == {
        "success": True, "protocol_version": 1, "has_init": True, "has_update": True,
        "has_view": False, "has_policies": False, "state_type": "AppState",
        "message_type": None,
        "errors": ["init() must take 0 parameters",
                   "update() must take 2 parameters (state, msg), got 1",
                   "missing required function: view()"],
        "valid": False}


def test_unparsable_app_uses_the_errors_array():
    response = validate_app_tool("fn init( {")
    assert response["success"] is False and response["errors"][0]["code"] == "E002"


def test_messages_drive_cycles_with_brief_values():
    response = framework_test_tool(COUNTER, ["increment:2", " increment : 3", "fetch", "noop"])
    assert response == {
        "success": True, "protocol_version": 1,
        "init_state": [0, "start"],
        "cycles": [
            {"message": "increment:2", "state": [2, "start"], "effects": 0,
             "ui_tree": ["counter", "start"]},
            {"message": " increment : 3", "state": [2, "start"], "effects": 0,
             "ui_tree": ["counter", "start"]},
            {"message": "fetch", "state": [2, "start"], "effects": 1,
             "ui_tree": ["counter", "start"]},
            {"message": "noop", "state": [2, "start"], "effects": 0,
             "ui_tree": ["counter", "start"]},
        ],
        "final_state": [2, "start"],
        "total_cycles": 4}


def test_failing_cycle_returns_partial_cycles():
    response = framework_test_tool(COUNTER, ["increment:1", "boom"])
    assert response == {
        "success": False, "protocol_version": 1, "error_kind": "framework_error",
        "message": "cycle 2 failed: runtime error: division by zero",
        "init_state": [0, "start"],
        "cycles": [{"message": "increment:1", "state": [1, "start"], "effects": 0,
                    "ui_tree": ["counter", "start"]},
                   {"message": "boom", "error": "runtime error: division by zero"}],
        "location": {"line": 15, "col": 65, "function": "update"}, "stack": [{"function": "update", "line": 15, "col": 65}]}


def test_missing_view_is_a_framework_error():
    source = COUNTER.split("fn view")[0]
    assert framework_test_tool(source, []) == {
        "success": False, "protocol_version": 1, "error_kind": "framework_error",
        "message": "missing required function: view"}


def test_compile_failure_uses_the_errors_array():
    response = framework_test_tool("fn init() -> Int { x }", [])
    assert response["success"] is False and response["errors"][0]["code"] == "E003"


SPIN_UPDATE = COUNTER.replace(
    '_ => UpdateResult { state: state, effects: [] },',
    '_ => UpdateResult { state: State { ..state, count: spin(20000) }, effects: [] },') + """
fn spin(n: Int) -> Int {
    let mut i = 0
    while i < n {
        i = i + 1
    }
    i
}
"""


def test_framework_test_total_step_bound_is_a_limit_error():
    response = framework_test_tool(SPIN_UPDATE, ["tick"] * 5, max_total_steps=500_000)
    assert response == {
        "success": False, "protocol_version": 1, "error_kind": "limit_exceeded",
        "message": "cycle 3 failed: runtime error: total step budget exceeded (500000 steps)",
        "limit_kind": "total_steps", "limit": 500_000, "phase": "execution",
        "cycles_completed": 2}
    assert framework_test_tool(SPIN_UPDATE, ["tick"] * 2, max_total_steps=500_000)["success"]


def test_framework_test_wall_clock_bound_is_a_limit_error():
    response = framework_test_tool(SPIN_UPDATE.replace("spin(20000)", "spin(2000000000)"),
                                   ["tick"], max_wall_ms=5)
    assert response == {
        "success": False, "protocol_version": 1, "error_kind": "limit_exceeded",
        "message": "cycle 1 failed: runtime error: wall-clock execution limit exceeded (5 ms)",
        "limit_kind": "wall_ms", "limit": 5, "phase": "execution", "cycles_completed": 0}


def test_framework_test_honours_a_set_cancel_event():
    import threading

    stop = threading.Event()
    stop.set()
    assert framework_test_tool(SPIN_UPDATE, ["tick"], cancel_event=stop) == {
        "success": False, "protocol_version": 1, "error_kind": "cancelled",
        "message": "execution cancelled"}
