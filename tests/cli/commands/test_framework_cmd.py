"""`boruna framework validate` / `boruna framework test` on the counter example."""
import json
from pathlib import Path

from boruna.cli.commands.framework_cmd import split_messages
from boruna.service import framework_test_tool, render, validate_app_tool

COUNTER = Path(__file__).resolve().parents[3] / "examples" / "counter_app.ax"
NO_VIEW = ("type State { n: Int }\nfn init() -> State { State { n: 0 } }\n"
           "fn update(state: State, msg: Int) -> State { state }\n")


def test_split_messages():
    assert split_messages(["a:1,b:2", "c", " , "]) == ["a:1", "b:2", "c"]
    assert split_messages([]) == []


def test_validate_counter(cli):
    result = cli("framework", "validate", COUNTER)
    assert result.code == 0
    assert result.out == ("valid App protocol\n  init:     yes\n  update:   yes\n  view:     yes\n"
                          "  policies: none (using defaults)\n  state type: State\n"
                          "  message type: Msg\n")


def test_validate_json_equals_tool(cli, tmp_path):
    bad = tmp_path / "bad.ax"
    bad.write_text(NO_VIEW)
    for path, code in ((COUNTER, 0), (bad, 1)):
        result = cli("framework", "validate", path, "--json")
        assert result.code == code
        assert result.out == render(validate_app_tool(path.read_text())) + "\n"


def test_validate_reports_violations(cli, tmp_path):
    bad = tmp_path / "bad.ax"
    bad.write_text(NO_VIEW)
    result = cli("framework", "validate", bad)
    assert result.code == 1
    assert result.out.startswith("invalid App protocol\n")
    assert "  view:     MISSING\n" in result.out
    assert f"error: {bad}: missing required function: view()\n" in result.err


def test_test_counter(cli):
    result = cli("framework", "test", COUNTER, "-m", "increment:5,decrement:2", "-m", "reset")
    assert result.code == 0
    assert result.out == ('init state: [0]\n'
                          'cycle 1 (increment:5): state=[5]\n  view: ["counter", "5"]\n'
                          'cycle 2 (decrement:2): state=[3]\n  view: ["counter", "3"]\n'
                          'cycle 3 (reset): state=[0]\n  view: ["counter", "0"]\n'
                          '\nfinal state: [0]\ncycles: 3\n')


def test_test_json_equals_tool(cli):
    result = cli("framework", "test", COUNTER, "--messages", "increment:5,decrement:2", "--json")
    assert result.code == 0
    expected = framework_test_tool(COUNTER.read_text(), ["increment:5", "decrement:2"])
    assert result.out == render(expected) + "\n"
    assert json.loads(result.out)["final_state"] == [3]


def test_test_missing_view_fails(cli, tmp_path):
    bad = tmp_path / "bad.ax"
    bad.write_text(NO_VIEW)
    result = cli("framework", "test", bad, "-m", "x")
    assert result.code == 1
    assert "missing required function: view" in result.err


FAILING = """type State { n: Int }
type Msg { tag: String, payload: Int }
type UpdateResult { state: State, effects: List<Int> }
fn init() -> State { State { n: 1 } }
fn update(state: State, msg: Msg) -> UpdateResult {
    UpdateResult { state: State { n: state.n * 10 / msg.payload }, effects: [] }
}
fn view(state: State) -> Int { state.n }
"""


def test_failing_cycle_stops_with_exit_1(cli, tmp_path):
    app = tmp_path / "fail.ax"
    app.write_text(FAILING)
    result = cli("framework", "test", app, "-m", "a:2,b:0,c:1")
    assert result.code == 1
    assert result.out == "init state: [1]\ncycle 1 (a:2): state=[5]\n  view: 5\n"
    assert result.err.splitlines()[0] == ("error: cycle 2 (b:0) failed: runtime error: "
                                          "division by zero")
    assert result.err.splitlines()[1].startswith(f" --> {app}:")   # where (issue 23)
    as_json = cli("framework", "test", app, "-m", "a:2,b:0,c:1", "--json")
    assert as_json.code == 1
    assert as_json.out == render(framework_test_tool(FAILING, ["a:2", "b:0", "c:1"])) + "\n"


BIG_STATE_APP = """type State { text: String }
type Msg { tag: String, payload: Int }
type Effect { kind: String, payload: String, callback_tag: String }
type UpdateResult { state: State, effects: List<Effect> }
type UINode { tag: String, text: String }
fn init() -> State {
    let mut s = "x"
    let mut i = 0
    while i < 21 { s = s ++ s
        i = i + 1 }
    State { text: s }
}
fn update(state: State, msg: Msg) -> UpdateResult { UpdateResult { state: state, effects: [] } }
fn view(state: State) -> UINode { UINode { tag: "t", text: state.text } }
"""


def test_states_over_the_output_budget_are_refused_in_one_line(cli, tmp_path):
    path = tmp_path / "big.ax"
    path.write_text(BIG_STATE_APP)
    result = cli("framework", "test", path, "-m", ",".join(["tick"] * 256))
    assert (result.code, result.out) == (1, "")
    assert result.err == "error: serialized output exceeded 16777216 bytes\n"
