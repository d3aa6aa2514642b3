"""`boruna framework test`: a cycle that fails at run time shows where, as `boruna run` does."""

APP = """type State { count: Int }
type Msg { tag: String, payload: Int }
type Effect { kind: String, payload: String, callback_tag: String }
type UpdateResult { state: State, effects: List<Effect> }
type UINode { tag: String, text: String }
fn init() -> State { State { count: 0 } }
fn update(state: State, msg: Msg) -> UpdateResult {
    let next = state.count / msg.payload
    UpdateResult { state: State { count: next }, effects: [] }
}
fn view(state: State) -> UINode { UINode { tag: "c", text: "x" } }
"""


def test_a_failing_cycle_is_drawn_with_its_place(cli, tmp_path):
    path = tmp_path / "app.ax"
    path.write_text(APP)
    result = cli("framework", "test", path, "-m", "inc:1,inc:0")
    assert result.code == 1
    assert result.err.splitlines() == [
        "error: cycle 2 (inc:0) failed: runtime error: division by zero",
        f" --> {path}:8:16",
        "  |",
        "8 |     let next = state.count / msg.payload",
        "  |                ^^^^^",
        f"  = note: in update at {path}:8:16",
    ]
