"""boruna_workflow_validate and the template tools through the service layer."""
import json
from pathlib import Path

from boruna.service import template_apply_tool, template_list_tool, workflow_validate_tool

REPO_TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def _workflow(steps, edges, **extra):
    doc = {"schema_version": 1, "name": "code_review", "version": "1.0.0", "steps": steps,
           "edges": edges, **extra}
    return json.dumps(doc)


SOURCE_STEP = {"kind": "source", "source": "step.ax"}


def test_valid_workflow_reports_counts_and_order_in_seed_order():
    text = _workflow({"fetch_pr": SOURCE_STEP, "analyze": SOURCE_STEP, "post_comment": SOURCE_STEP},
                     [["fetch_pr", "analyze"], ["analyze", "post_comment"]])
    response = workflow_validate_tool(text)
    assert response == {"success": True, "protocol_version": 1, "workflow_name": "code_review",
                        "workflow_version": "1.0.0", "steps_count": 3, "edges_count": 2,
                        "execution_order": ["fetch_pr", "analyze", "post_comment"]}
    assert list(response)[2:] == ["workflow_name", "workflow_version", "steps_count",
                                  "edges_count", "execution_order"]


def test_cycle_kind_is_cycle():
    text = _workflow({"a": SOURCE_STEP, "b": SOURCE_STEP}, [["a", "b"], ["b", "a"]])
    assert workflow_validate_tool(text) == {
        "success": False, "protocol_version": 1, "error_kind": "validation_error",
        "errors": [{"kind": "Cycle", "message": "cycle detected: resolved 0 of 2 steps"}]}


def test_malformed_json_is_parse_error():
    response = workflow_validate_tool("{not json")
    assert response["success"] is False and response["error_kind"] == "parse_error"
    assert response["message"].startswith("invalid workflow JSON: ")


def _template_dir(tmp_path):
    root = tmp_path / "templates"
    (root / "greeter").mkdir(parents=True)
    (root / "greeter" / "template.json").write_text(json.dumps({
        "name": "greeter", "version": "0.2.0", "description": "says hello",
        "dependencies": ["std.ui"], "capabilities": [],
        "args": {"who": {"type": "string", "required": True, "description": "name"},
                 "greeting": {"type": "string", "required": False, "description": "word"}}}))
    (root / "greeter" / "app.ax.template").write_text(
        'fn main() -> String {\n    "{{greeting}}, {{who}}"\n}\n')
    return root


def test_template_list_on_a_directory(tmp_path):
    response = template_list_tool(_template_dir(tmp_path))
    assert response == {"success": True, "protocol_version": 1, "count": 1, "templates": [
        {"name": "greeter", "version": "0.2.0", "description": "says hello",
         "dependencies": ["std.ui"], "capabilities": [], "args": ["greeting", "who"],
         "origin": "local"}]}


def test_template_list_on_a_missing_directory_is_template_error(tmp_path):
    response = template_list_tool(tmp_path / "absent")
    assert response["success"] is False and response["error_kind"] == "template_error"
    assert response["message"].startswith("read templates dir: ")


def test_template_apply_renders_in_seed_order(tmp_path):
    response = template_apply_tool(_template_dir(tmp_path), "greeter", ["who=Ada", "greeting=Hi"])
    assert response == {"success": True, "protocol_version": 1, "template_name": "greeter",
                        "output_file": "greeter_app.ax",
                        "source": 'fn main() -> String {\n    "Hi, Ada"\n}\n',
                        "dependencies": ["std.ui"], "capabilities": []}


def test_template_apply_argument_without_equals_is_invalid_args(tmp_path):
    response = template_apply_tool(_template_dir(tmp_path), "greeter", ["who"])
    assert response == {"success": False, "protocol_version": 1, "error_kind": "invalid_args",
                        "message": "argument must be key=value format, got: who"}


def test_template_apply_unknown_and_unsafe_names_are_template_errors(tmp_path):
    root = _template_dir(tmp_path)
    assert template_apply_tool(root, "nope", [])["message"] == "template 'nope' not found"
    assert template_apply_tool(root, "../x", [])["message"] == "invalid template name '../x'"
    assert template_apply_tool(root, "greeter", [])["message"] == "missing required argument: who"


def test_template_apply_honours_a_set_cancel_event(tmp_path):
    import threading

    stop = threading.Event()
    stop.set()
    response = template_apply_tool(_template_dir(tmp_path), "greeter", ["who=Ada"],
                                   validate=True, cancel_event=stop)
    assert response == {"success": False, "protocol_version": 1, "error_kind": "cancelled",
                        "message": "execution cancelled"}


def _bomb_args():
    """Arguments that reference each other: `entity_name` = ten `{{g1}}`, `g1` = ten
    `{{g2}}`, ... Expanded recursively each `{{entity_name}}` would be 10^8 copies of `g8`."""
    args = ["entity_name=" + "{{g1}}" * 10]
    args += [f"g{k}=" + "{{g%d}}" % (k + 1) * 10 for k in range(1, 8)]
    return args + ["g8=BOOM"]


def test_template_apply_substitutes_once_so_the_nested_args_bomb_stays_small():
    args = _bomb_args()
    request = json.dumps({"template_name": "offline-sync", "args": args})
    assert len(request) == 599          # the bomb was a 567-byte request
    response = template_apply_tool(REPO_TEMPLATES, "offline-sync", args)
    assert response["success"] is True
    source = response["source"]
    assert "// Entity: " + "{{g1}}" * 10 in source
    assert "{{g2}}" not in source and "BOOM" not in source
    assert len(source.encode()) < 20_000


def test_template_apply_caps_the_rendered_size(tmp_path):
    root = tmp_path / "templates"
    (root / "big").mkdir(parents=True)
    (root / "big" / "template.json").write_text(json.dumps({
        "name": "big", "version": "1", "description": "", "dependencies": [],
        "capabilities": [], "args": {}}))
    (root / "big" / "app.ax.template").write_text("{{a}}" * 1000)
    assert template_apply_tool(root, "big", ["a=" + "x" * 1048])["success"] is True
    assert template_apply_tool(root, "big", ["a=" + "x" * 1049]) == {
        "success": False, "protocol_version": 1, "error_kind": "template_error",
        "message": "rendered template exceeds 1048576 bytes"}
