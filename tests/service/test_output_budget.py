"""The output budget (issue #15 item 3): every response is capped while it is measured, and
values sharing one large part are not materialised once per reference."""
import json
import tracemalloc

import pytest

from boruna.service import framework_test_tool, ok, render, run_sealed_tool, run_tool
from boruna.service.envelope import DEFAULT_MAX_OUTPUT_BYTES, PRETTY_DEPTH
from boruna.core.json_text import compact_json, json_size
from boruna.service.output_budget import OutputBudget, OutputLimitExceeded

PEAK_BYTES = 300 * 1024 * 1024

# a 2 MiB string (21 doublings of "x"), then a list of 256 references to it
SHARED_STRING = """fn main() -> List<String> {
    let mut s = "x"
    let mut i = 0
    while i < 21 { s = s ++ s
        i = i + 1 }
    let mut l = []
    let mut j = 0
    while j < 256 { l = list_push(l, s)
        j = j + 1 }
    l
}
"""

EMIT_256 = """fn main() -> Int {
    let mut s = "x"
    let mut i = 0
    while i < 21 { s = s ++ s
        i = i + 1 }
    let mut j = 0
    while j < 256 { emit s
        j = j + 1 }
    0
}
"""

# 256 references to one list of 60,000 Ints
SHARED_LIST = """fn main() -> List<List<Int>> {
    let mut xs = []
    let mut i = 0
    while i < 60000 { xs = list_push(xs, i)
        i = i + 1 }
    let mut l = []
    let mut j = 0
    while j < 256 { l = list_push(l, xs)
        j = j + 1 }
    l
}
"""

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


def _limit_response(steps=None):
    response = {"success": False, "protocol_version": 1, "error_kind": "limit_exceeded",
                "message": f"serialized output exceeded {DEFAULT_MAX_OUTPUT_BYTES} bytes",
                "limit_kind": "output_bytes", "limit": DEFAULT_MAX_OUTPUT_BYTES,
                "phase": "serialization"}
    if steps is not None:
        response["steps"] = steps
    return response


def _rendered_with_peak(call):
    """`render(call())` parsed, and the peak of Python allocations meanwhile."""
    tracemalloc.start()
    try:
        text = render(call())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return json.loads(text), peak


def _deep_list(depth):
    value = [1]
    for level in range(depth):
        value = [level, value] if level % 2 else {"k": value, "n": []}
    return value


VALUES = [
    None, True, False, 0, -12, 1.5, float("nan"), float("inf"), "", "é\u2028\"\\\n\x01",
    "\ud800 lone", [], {}, [1, [2, [3, []]]], {"a": {"b": [], "c": {}}, "é": [None, 1.0]},
    {1: "int key", True: "bool key"}, _deep_list(70), [_deep_list(3)] * 3,
]


@pytest.mark.parametrize("value", VALUES)
def test_json_size_is_the_exact_length_of_render_and_compact_json(value):
    pretty = render(value, max_bytes=10**9).encode("utf-8")
    compact = compact_json(value).encode("utf-8", "backslashreplace")
    assert json_size(value, 10**9, PRETTY_DEPTH) == len(pretty)
    assert json_size(value, 10**9) == len(compact)


def test_json_size_stops_once_over_the_limit():
    value = {"a": ["xyz", 12]}                        # {"a":["xyz",12]} = 16 bytes
    assert json_size(value, 16) == 16
    assert json_size(value, 15) is None
    assert json_size(["x" * 100], 50) is None


def test_render_answers_limit_exceeded_for_an_oversized_response_keeping_steps():
    response = ok(result="x" * 100, steps=7, ui_output=[])
    assert json.loads(render(response, max_bytes=100)) == {
        "success": False, "protocol_version": 1, "error_kind": "limit_exceeded",
        "message": "serialized output exceeded 100 bytes", "limit_kind": "output_bytes",
        "limit": 100, "phase": "serialization", "steps": 7}
    text = render(response, max_bytes=len(render(response)))
    assert json.loads(text) == response


def test_budget_charges_until_its_limit():
    budget = OutputBudget(10)
    budget.charge(10)
    with pytest.raises(OutputLimitExceeded) as info:
        budget.charge(1)
    assert info.value.limit == 10


def test_run_returning_256_references_to_a_2_mib_string_is_limit_exceeded():
    response, peak = _rendered_with_peak(lambda: run_tool(SHARED_STRING))
    assert response == _limit_response(steps=3620)
    assert peak < PEAK_BYTES


def test_run_emitting_a_2_mib_string_256_times_is_limit_exceeded():
    response, peak = _rendered_with_peak(lambda: run_tool(EMIT_256))
    assert response["error_kind"] == "limit_exceeded"
    assert response["limit_kind"] == "output_bytes"
    assert response["limit"] == DEFAULT_MAX_OUTPUT_BYTES
    assert peak < PEAK_BYTES


def test_run_returning_256_references_to_one_list_stops_while_encoding():
    response, peak = _rendered_with_peak(lambda: run_tool(SHARED_LIST))
    assert response == _limit_response(steps=run_steps(SHARED_LIST))
    assert peak < PEAK_BYTES


def run_steps(source):
    from boruna.api import run

    return run(source).steps


def test_a_lower_max_output_bytes_is_the_limit_reported():
    response = run_tool(SHARED_STRING, limits={"max_output_bytes": 1000})
    assert response == {"success": False, "protocol_version": 1, "error_kind": "limit_exceeded",
                        "message": "serialized output exceeded 1000 bytes",
                        "limit_kind": "output_bytes", "limit": 1000,
                        "phase": "serialization", "steps": 3620}


def test_run_sealed_of_a_shared_string_is_limit_exceeded():
    response, peak = _rendered_with_peak(lambda: run_sealed_tool(SHARED_STRING))
    assert response == _limit_response(steps=3620)
    assert peak < PEAK_BYTES


def test_framework_test_with_a_2_mib_state_and_256_messages_is_limit_exceeded():
    response, peak = _rendered_with_peak(
        lambda: framework_test_tool(BIG_STATE_APP, ["tick"] * 256))
    assert response == _limit_response()
    assert peak < PEAK_BYTES


class _Tally:
    def __init__(self):
        self.total = 0

    def charge(self, n):
        self.total += n


def _vm_values():
    from boruna.core.values import NONE, Enum, Err, MapValue, Ok, Record, Some

    inner = (1, "ab", 2.5, float("nan"), True, None)
    return [
        (), (1,), ((),), ((1,),), inner, (inner, inner), "é" * 3, Some(()), NONE, Ok((1, 2)),
        Err("e"), Record(0, (1, (2, "x"))), Enum(0, 1, (3,)), MapValue({"k": (1,), "é": NONE}),
        MapValue({}), (Some((Record(1, ()),)), MapValue({"a": ((),)})),
    ]


@pytest.mark.parametrize("brief", [False, True])
def test_encoder_charges_never_exceed_the_compact_size(brief):
    from boruna.service.encoding import format_value, format_value_brief

    encode = format_value_brief if brief else format_value
    for value in _vm_values():
        tally = _Tally()
        encoded = encode(value, None, tally)
        assert encoded == encode(value, None)
        assert 0 < tally.total <= len(compact_json(encoded).encode("utf-8")), value
