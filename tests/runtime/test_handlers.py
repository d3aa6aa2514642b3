"""MockHandler and ReplayHandler return values (docs/spec/vm.md §5.5, §5.6)."""
import pytest

from boruna.core.capabilities import by_wire_name
from boruna.runtime.handlers import HandlerError, MockHandler, ReplayHandler
from boruna.core.values import _same


@pytest.mark.parametrize("cap, args, expected", [
    ("time.now", [], 1700000000),
    ("random", [], 0.42),
    ("net.fetch", ["https://x"], '{"mock": true, "url": ""https://x""}'),
    ("net.fetch", [], '{"mock": true, "url": ""}'),
    ("net.fetch", [5], '{"mock": true, "url": "5"}'),
    ("fs.read", ["a.txt"], 'mock file content for "a.txt"'),
    ("fs.read", [], "mock file content for "),
    ("fs.write", ["p", "data"], True),
    ("db.query", ["select 1"], ()),
    ("ui.render", [], None),
    ("actor.spawn", [], None),
    ("actor.send", [], None),
    ("step.input", ["x"], ""),
])
def test_mock_values(cap, args, expected):
    result = MockHandler().handle(by_wire_name(cap), args)
    assert _same(result, expected)


def test_llm_call_returns_text_as_a_live_answer_does():
    result = MockHandler().handle(by_wire_name("llm.call"), ["prompt"])
    assert result == '{"mock": true, "status": "ok"}'



def test_replay_handler_serves_results_in_order_then_fails():
    handler = ReplayHandler(["a", 2])
    cap = by_wire_name("time.now")
    assert handler.handle(cap, []) == "a"
    assert handler.handle(by_wire_name("random"), [1]) == 2
    with pytest.raises(HandlerError) as info:
        handler.handle(cap, [])
    assert info.value.message == "replay log exhausted"
