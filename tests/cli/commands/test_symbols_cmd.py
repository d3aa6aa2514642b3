"""`boruna symbols FILE`: the declared API, as signatures or as the boruna_symbols JSON."""
from pathlib import Path

from boruna.service import render, symbols_tool

COUNTER = Path(__file__).resolve().parents[3] / "examples" / "counter_app.ax"


def test_symbols_text(cli):
    result = cli("symbols", COUNTER)
    assert result.code == 0
    assert result.out.splitlines() == [
        "type State { count: Int }",
        "type Msg { tag: String, payload: Int }",
        "type Effect { kind: String, payload: String, callback_tag: String }",
        "type UpdateResult { state: State, effects: List<Effect> }",
        "type UINode { tag: String, text: String }",
        "fn init() -> State",
        "fn update(state: State, msg: Msg) -> UpdateResult",
        "fn view(state: State) -> UINode",
        "fn main() -> Int",
    ]


def test_symbols_json_equals_tool(cli, tmp_path):
    bad = tmp_path / "bad.ax"
    bad.write_text("fn (")
    for path, code in ((COUNTER, 0), (bad, 1)):
        result = cli("symbols", path, "--json")
        assert result.code == code
        assert result.out == render(symbols_tool(path.read_text())) + "\n"


def test_symbols_parse_error_is_drawn(cli, tmp_path):
    bad = tmp_path / "bad.ax"
    bad.write_text("fn (")
    result = cli("symbols", bad)
    assert result.code == 1
    assert result.err == (f"error[E002]: expected identifier, found LParen\n --> {bad}:1:4\n"
                          "  |\n1 | fn (\n  |    ^\n")
