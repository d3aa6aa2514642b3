"""Every tool's success and failure shapes over MCP, with exact values."""
import json

COUNTER = """type State { count: Int }
type Msg { tag: String, payload: Int }
type Effect { kind: String, payload: String, callback_tag: String }
type UpdateResult { state: State, effects: List<Effect> }
type UINode { tag: String, text: String }

fn init() -> State {
    State { count: 0 }
}

fn update(state: State, msg: Msg) -> UpdateResult {
    match msg.tag {
        "inc" => UpdateResult { state: State { count: state.count + msg.payload }, effects: [] },
        "div" => UpdateResult { state: State { count: state.count / msg.payload }, effects: [] },
        _ => UpdateResult { state: state, effects: [] },
    }
}

fn view(state: State) -> UINode {
    UINode { tag: "n", text: "x" }
}
"""

WORKFLOW = {"schema_version": 1, "name": "pipeline", "version": "2.0.0",
            "steps": {"m": {"kind": "external_trigger"}, "n": {"kind": "external_trigger"},
                      "a": {"kind": "approval_gate", "required_role": "lead"}},
            "edges": [["m", "a"]]}


def test_compile(mcp_server):
    payload, _ = mcp_server.call("boruna_compile", {"source": "fn main() -> Int { 1 + 2 }",
                                                    "name": "calc"})
    assert payload == {"success": True, "protocol_version": 1, "module": {
        "name": "calc", "version": 1, "functions": 1, "types": 0, "constants": 2, "entry": 0}}
    failure, text = mcp_server.call("boruna_compile", {"source": "fn main() -> Int { x }"})
    assert failure == {"success": False, "protocol_version": 1, "errors": [
        {"severity": "error", "code": "E003", "message": "undefined variable: x",
         "line": failure["errors"][0]["line"], "col": failure["errors"][0]["col"]}]}
    assert text.startswith('{\n  "success": false,\n  "protocol_version": 1,\n  "errors": [')


def test_ast(mcp_server):
    payload, _ = mcp_server.call("boruna_ast", {"source": "fn f() { }"})
    assert payload == {"success": True, "protocol_version": 1, "truncated": False, "ast": {
        "module_name": None, "items": [{"Function": {
            "name": "f", "params": [], "return_type": None, "capabilities": [], "intent": None,
            "requires": [], "ensures": [], "body": {"stmts": []}, "exported": False}}]}}
    failure, _ = mcp_server.call("boruna_ast", {"source": "fn f( {"})
    assert failure["success"] is False and failure["errors"][0]["code"] == "E002"


def test_symbols(mcp_server):
    payload, _ = mcp_server.call("boruna_symbols", {"source": "fn f(a: Int) -> Int { a }"})
    assert payload["symbols"] == [{
        "kind": "fn", "name": "f", "signature": "fn f(a: Int) -> Int",
        "params": [{"name": "a", "type": "Int"}], "return_type": "Int", "capabilities": [],
        "requires": 0, "ensures": 0, "intent": None, "exported": False}]
    failure, _ = mcp_server.call("boruna_symbols", {"source": "fn ("})
    assert (failure["success"], failure["error_kind"]) == (False, "parse_error")


def test_validate_app(mcp_server):
    payload, _ = mcp_server.call("boruna_validate_app", {"source": COUNTER})
    assert payload == {"success": True, "protocol_version": 1, "has_init": True,
                       "has_update": True, "has_view": True, "has_policies": False,
                       "state_type": "State", "message_type": "Msg", "errors": [],
                       "valid": True}
    failure, _ = mcp_server.call("boruna_validate_app", {"source": "fn init( {"})
    assert failure["success"] is False and failure["errors"][0]["code"] == "E002"


def test_framework_test(mcp_server):
    payload, _ = mcp_server.call("boruna_framework_test",
                                 {"source": COUNTER, "messages": ["inc:5", "inc:-2", "other"]})
    assert payload == {"success": True, "protocol_version": 1, "init_state": [0],
                       "cycles": [{"message": "inc:5", "state": [5], "effects": 0,
                                   "ui_tree": ["n", "x"]},
                                  {"message": "inc:-2", "state": [3], "effects": 0,
                                   "ui_tree": ["n", "x"]},
                                  {"message": "other", "state": [3], "effects": 0,
                                   "ui_tree": ["n", "x"]}],
                       "final_state": [3], "total_cycles": 3}
    failure, _ = mcp_server.call("boruna_framework_test",
                                 {"source": COUNTER, "messages": ["inc:1", "div:0"]})
    assert failure == {"success": False, "protocol_version": 1, "error_kind": "framework_error",
                       "message": "cycle 2 failed: runtime error: division by zero",
                       "init_state": [0],
                       "cycles": [{"message": "inc:1", "state": [1], "effects": 0,
                                   "ui_tree": ["n", "x"]},
                                  {"message": "div:0",
                                   "error": "runtime error: division by zero"}],
                       "location": {"line": 14, "col": 55, "function": "update"}, "stack": [{"function": "update", "line": 14, "col": 55}]}


def test_workflow_validate(mcp_server):
    payload, _ = mcp_server.call("boruna_workflow_validate",
                                 {"workflow_json": json.dumps(WORKFLOW)})
    assert payload == {"success": True, "protocol_version": 1, "workflow_name": "pipeline",
                       "workflow_version": "2.0.0", "steps_count": 3, "edges_count": 1,
                       "execution_order": ["m", "n", "a"]}
    broken = dict(WORKFLOW, edges=[["m", "a"], ["a", "m"], ["m", "zz"]])
    failure, _ = mcp_server.call("boruna_workflow_validate", {"workflow_json": json.dumps(broken)})
    assert failure["error_kind"] == "validation_error"
    assert failure["errors"][0] == {"kind": "UnknownStep",
                                    "message": "edge references unknown step 'zz'"}
    assert failure["errors"][-1]["kind"] == "Cycle"


def test_template_apply_failures(mcp_server):
    bad_arg, _ = mcp_server.call("boruna_template_apply",
                                 {"template_name": "crud-admin", "args": ["entity_name"]})
    assert bad_arg == {"success": False, "protocol_version": 1, "error_kind": "invalid_args",
                       "message": "argument must be key=value format, got: entity_name"}
    unknown, _ = mcp_server.call("boruna_template_apply", {"template_name": "nope", "args": []})
    assert unknown == {"success": False, "protocol_version": 1, "error_kind": "template_error",
                       "message": "template 'nope' not found"}


def test_bundled_templates_are_served_and_compile(mcp_server):
    listing, _ = mcp_server.call("boruna_template_list", {})
    names = [t["name"] for t in listing["templates"]]
    assert names == ["auth-app", "crud-admin", "form-basic", "offline-sync", "realtime-feed"]
    assert listing["count"] == 5
    applied, _ = mcp_server.call("boruna_template_apply", {
        "template_name": "form-basic", "args": ["form_name=Signup", "fields=a,b"],
        "validate": True})
    assert applied["success"] is True and applied["validation"] == {"passed": True}
    assert applied["output_file"] == "form-basic_app.ax"
    assert "// Form: Signup" in applied["source"]


def test_run_sealed_failures(mcp_server):
    denied, _ = mcp_server.call("boruna_run_sealed", {
        "source": 'fn main() -> String !{step.input} {\n    step_input("a")\n}\n',
        "policy": "deny-all"})
    assert denied == {"success": False, "protocol_version": 1,
                      "error_kind": "capability_denied",
                      "message": "capability denied: step.input", "capability": "step.input",
                      "steps": 2, "location": {"line": 2, "col": 5, "function": "main"}, "stack": [{"function": "main", "line": 2, "col": 5}]}
    policy, _ = mcp_server.call("boruna_run_sealed", {"source": "fn main() { }", "policy": 3})
    assert policy["error_kind"] == "invalid_policy"


def test_policy_validate(mcp_server):
    bad, _ = mcp_server.call("boruna_policy_validate", {
        "policy_json": '{"net_policy": {"allowed_methods": ["get"]}}'})
    assert bad == {"success": True, "protocol_version": 1, "ok": False, "schema_version": 1,
                   "errors": [{"error_kind": "policy.invalid_net_policy",
                               "field": "allowed_methods",
                               "message": 'policy.invalid_net_policy: net_policy.allowed_methods: '
                                          'method "get" must be upper-case ("GET")'}]}


def test_check_reports_findings_as_success(mcp_server):
    payload, _ = mcp_server.call("boruna_check", {"source": "fn helper() -> Int { 1 }"})
    assert payload["success"] is True and payload["file"] == "<source>"
    assert payload["diagnostics_count"] == len(payload["diagnostics"])
