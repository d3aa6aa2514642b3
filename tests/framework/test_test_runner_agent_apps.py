"""App programs an agent would write, driven through `validate_app`/`run_app_test` with odd
message lists; every state and ui_tree checked in the brief encoding (docs/spec/tooling.md §3.5)."""
from boruna.diagnostics import check_source
from boruna.framework import run_app_test, validate_app

FORM = '''
type State { name: String, age: Int, errors: List<String>, submitted: Bool }
type Msg { tag: String, payload: String }
type Effect { kind: String, payload: String, callback_tag: String }
type UpdateResult { state: State, effects: List<Effect> }
type UINode { tag: String, text: String }
type PolicySet { capabilities: List<String>, max_effects: Int, max_steps: Int }

fn init() -> State { State { name: "", age: 0, errors: [], submitted: false } }

fn validate(state: State) -> List<String> {
    let errs = []
    if state.name == "" { errs = list_push(errs, "name is required") }
    if state.age < 18 { errs = list_push(errs, "must be an adult") }
    errs
}

fn update(state: State, msg: Msg) -> UpdateResult {
    match msg.tag {
        "name" => UpdateResult { state: State { ..state, name: msg.payload }, effects: [] }
        "age" => UpdateResult { state: State { ..state, age: msg.payload }, effects: [] }
        "submit" => {
            let errs = validate(state)
            if list_len(errs) == 0 {
                UpdateResult { state: State { ..state, errors: [], submitted: true },
                               effects: [Effect { kind: "http_request", payload: state.name, callback_tag: "saved" },
                                         Effect { kind: "emit_ui", payload: "toast", callback_tag: "" }] }
            } else {
                UpdateResult { state: State { ..state, errors: errs }, effects: [] }
            }
        }
        "saved" => UpdateResult { state: state, effects: [Effect { kind: "storage_write", payload: "x", callback_tag: "" }] }
        _ => UpdateResult { state: state, effects: [] }
    }
}

fn view(state: State) -> UINode {
    if state.submitted { UINode { tag: "done", text: state.name } } else { UINode { tag: "form", text: state.name } }
}

fn policies() -> PolicySet { PolicySet { capabilities: ["net.fetch", "ui.render"], max_effects: 2, max_steps: 5000 } }
'''


def test_form_app_validates_and_checks_clean():
    v = validate_app(FORM)
    assert (v.valid, v.has_policies, v.state_type, v.message_type, v.errors) == \
        (True, True, "State", "Msg", [])
    assert [d for d in check_source(FORM).diagnostics if d.severity == "error"] == []


def test_form_app_cycle_by_cycle():
    r = run_app_test(FORM, ["submit", "name:Zoë Ünïcode", "age:17", "submit", "age: 30 ",
                            "submit", "saved", "bogus:x:y"])
    assert r.ok is True and r.error is None
    name = "Zoë Ünïcode"
    both = ["name is required", "must be an adult"]
    assert r.init_state == ["", 0, [], False]
    assert r.cycles == [
        {"message": "submit", "state": ["", 0, both, False], "effects": 0, "ui_tree": ["form", ""]},
        {"message": "name:Zoë Ünïcode", "state": [name, 0, both, False], "effects": 0,
         "ui_tree": ["form", name]},
        {"message": "age:17", "state": [name, 17, both, False], "effects": 0,
         "ui_tree": ["form", name]},
        {"message": "submit", "state": [name, 17, ["must be an adult"], False], "effects": 0,
         "ui_tree": ["form", name]},
        {"message": "age: 30 ", "state": [name, 30, ["must be an adult"], False], "effects": 0,
         "ui_tree": ["form", name]},
        {"message": "submit", "state": [name, 30, [], True], "effects": 2,
         "ui_tree": ["done", name]},
        {"message": "saved", "state": [name, 30, [], True], "effects": 0,
         "ui_tree": ["done", name],
         "unknown_effects": [{"index": 0, "kind": "storage_write", "reason": "unknown effect kind"}]},
        {"message": "bogus:x:y", "state": [name, 30, [], True], "effects": 0,
         "ui_tree": ["done", name]},
    ]
    assert (r.final_state, r.total_cycles) == ([name, 30, [], True], 8)


def test_comma_separated_string_empty_list_and_hundreds_of_messages():
    r = run_app_test(FORM, "name:a,age:40,submit")
    assert [c["state"] for c in r.cycles] == [["a", 0, [], False], ["a", 40, [], False],
                                              ["a", 40, [], True]]
    r = run_app_test(FORM, [])
    assert r.to_dict() == {"init_state": ["", 0, [], False], "cycles": [],
                           "final_state": ["", 0, [], False], "total_cycles": 0}
    r = run_app_test(FORM, ["name:x", "age:20"] + ["submit"] * 300)
    assert r.ok and r.total_cycles == 302
    assert r.cycles[-1] == {"message": "submit", "state": ["x", 20, [], True], "effects": 2,
                            "ui_tree": ["done", "x"]}


def test_policy_limits_apply_to_the_form_effects():
    tight = FORM.replace("max_effects: 2", "max_effects: 1")
    r = run_app_test(tight, ["name:x", "age:20", "submit"])
    assert r.ok is False
    assert r.error == "cycle 3 failed: policy violation: too many effects: 2 exceeds limit of 1"
    assert r.cycles[-1] == {"message": "submit",
                            "error": "policy violation: too many effects: 2 exceeds limit of 1"}
    no_ui = FORM.replace('["net.fetch", "ui.render"]', '["net.fetch"]')
    r = run_app_test(no_ui, ["name:x", "age:20", "submit"])
    assert r.error == ("cycle 3 failed: policy violation: effect EmitUi requires capability "
                       "'ui.render' which is not in the policy")
    assert r.cycles[1]["state"] == ["x", 20, [], False]
