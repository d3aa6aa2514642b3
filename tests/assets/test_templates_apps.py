"""The shipped templates as Apps: rendered with their documented arguments they compile,
pass the App validator and behave as documented under the framework test runner."""
from pathlib import Path

import pytest

from boruna.framework import run_app_test, validate_app
from boruna.assets.templates import apply_template

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

ARGS = {
    "auth-app": ["app_name=x"],
    "crud-admin": ["entity_name=products", "fields=name|price"],
    "form-basic": ["form_name=signup", "fields=name|email"],
    "offline-sync": ["entity_name=todos"],
    "realtime-feed": ["feed_name=events"],
}


def render(name, args=None):
    return apply_template(TEMPLATES, name, ARGS[name] if args is None else args).source


@pytest.mark.parametrize("name", sorted(ARGS))
def test_template_compiles_and_is_a_valid_app(name):
    out = apply_template(TEMPLATES, name, ARGS[name], validate=True)
    assert out.validation == {"passed": True}
    report = validate_app(out.source)
    assert report.valid, report.errors
    assert report.state_type == "State" and report.message_type == "Msg"
    assert report.has_policies is (name != "form-basic")


def test_tp13_bad_argument_fails_validation_not_the_call():
    out = apply_template(TEMPLATES, "crud-admin", ['entity_name=bad"name', "fields=f"],
                         validate=True)
    assert out.validation["passed"] is False
    assert out.validation["error"].startswith("template output does not compile: ")
    assert out.to_dict()["validation"] == out.validation


def final(name, messages, **kw):
    r = run_app_test(render(name, **kw), messages)
    assert r.ok, r.error
    return r


def test_crud_admin_roles_and_queries():
    r = final("crud-admin", ["create", "created", "create", "created", "delete", "deleted",
                             "set_role:viewer", "create", "search:ada"])
    # State: mode, role, item_count, selected, search_query, status, detail
    assert [c["effects"] for c in r.cycles] == [1, 0, 1, 0, 1, 0, 0, 0, 1]
    assert r.cycles[5]["state"] == ["list", "admin", 1, "", "", "ok", "deleted"]
    assert r.cycles[7]["state"][5:] == ["error", "insufficient role for write"]
    assert r.cycles[7]["ui_tree"] == ["admin-error", "insufficient role for write"]
    assert r.final_state == ["searching", "viewer", 1, "", "ada", "pending", ""]
    editor = final("crud-admin", ["set_role:editor", "delete"])
    assert editor.final_state[5:] == ["error", "only admin can delete"]


def test_form_basic_validation_flow():
    r = final("form-basic", ["submit", "set_field1:Ada", "set_field2:ada@example.com", "submit",
                             "reset", "set_field1"])
    # State: field1_value, field2_value, field1_error, field2_error, submitted, valid, status
    assert r.cycles[0]["state"] == ["", "", "is required", "is required", 0, 0, "invalid"]
    assert r.cycles[0]["ui_tree"] == ["form", "field1 is required"]
    assert r.cycles[3]["state"] == ["Ada", "ada@example.com", "", "", 1, 1, "submitted"]
    assert r.cycles[3]["ui_tree"] == ["form", "submitted"]
    assert r.final_state == ["", "", "is required", "", 0, 1, "editing"]
    assert all(c["effects"] == 0 for c in r.cycles)


def test_offline_sync_queue_and_reconnect():
    r = final("offline-sync", ["add", "sync_response:ok", "go_offline", "add", "remove",
                               "go_online", "sync_response:conflict", "conflict_resolved"])
    assert [c["effects"] for c in r.cycles] == [1, 0, 0, 0, 0, 1, 1, 0]
    assert [c["ui_tree"][1] for c in r.cycles] == [
        "syncing", "synced", "offline", "queued", "queued", "syncing", "conflict", "synced"]
    # item_count, online, pending, synced, status, local_v, remote_v, conflicts, resolved, last
    assert r.final_state == [1, 1, 1, 1, "synced", 3, 3, 1, 1, "remove"]


def test_realtime_feed_polling_and_rate_limit():
    msgs = ["subscribe", "poll_tick"] + [f"event_received:e{i}" for i in range(11)] + [
        "reset_window", "event_received:late", "unsubscribe", "poll_tick"]
    r = final("realtime-feed", msgs)
    assert r.cycles[0]["effects"] == 1 and r.cycles[1]["effects"] == 2
    assert r.cycles[11]["ui_tree"] == ["feed", "e9"]
    # subscribed, received, last, window, limit, limited, poll_active, polls, errors, notes
    assert r.cycles[12]["state"] == [1, 10, "e9", 10, 10, 1, 1, 1, 0, 10]
    assert r.final_state == [0, 11, "late", 1, 10, 1, 0, 1, 0, 11]
    assert r.cycles[-1]["ui_tree"] == ["feed", "unsubscribed"]


def test_realtime_feed_interval_argument_reaches_the_timer():
    src = render("realtime-feed", ["feed_name=events", "poll_interval_ms=250"])
    assert 'payload: "250"' in src
    assert final("realtime-feed", ["subscribe"], args=["feed_name=e", "poll_interval_ms=5"]).ok


def test_auth_app_logout_and_session_restore():
    r = final("auth-app", ["login", "login_response:denied", "check_session",
                           "session_checked:tok", "set_role:admin", "logout", "token_cleared",
                           "session_checked"])
    # authenticated, username, role, token, status, error, login_attempts
    assert r.cycles[1]["state"] == [0, "", "viewer", "", "error", "invalid credentials", 1]
    assert r.cycles[3]["state"] == [1, "", "viewer", "tok", "authenticated", "invalid credentials", 1]
    assert r.cycles[4]["state"][2] == "admin"
    assert r.cycles[5]["unknown_effects"][0]["kind"] == "storage_delete"
    assert r.final_state == [0, "", "viewer", "", "idle", "invalid credentials", 1]


@pytest.mark.parametrize("name, value", [("auth-app", 1), ("crud-admin", 1), ("form-basic", 1),
                                         ("offline-sync", 1), ("realtime-feed", 1)])
def test_template_main_smoke_entry(name, value):
    from boruna.compiler import compile_source
    from boruna.api import run
    outcome = run(compile_source(render(name)))
    assert outcome.ok and outcome.result == value


@pytest.mark.parametrize("name", sorted(ARGS))
def test_template_output_checks_with_no_diagnostics_not_even_warnings(name):
    from boruna.service.diagnostics import check_tool

    assert check_tool(render(name))["diagnostics"] == []
