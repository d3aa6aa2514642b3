"""`is_small_json` and the shortcut `render` and `tool_result` take for small responses:
the same text and structured content as the measured path."""
import json

from hypothesis import given, settings, strategies as st

import pytest

from boruna.core.json_text import SMALL_CHARS, SMALL_NODES, is_small_json, pretty_small
from boruna.mcp.results import tool_result
from boruna.service.envelope import SMALL_TEXT_BOUND, render

scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                    st.floats(allow_nan=True, allow_infinity=True),
                    st.text(max_size=40), st.text(alphabet="\ud800\udfff\x00\n\"\\é", max_size=5))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.tuples(inner, inner),
    st.dictionaries(st.text(max_size=8), inner, max_size=5)), max_leaves=40)


@settings(max_examples=300, deadline=None)
@given(values)
def test_render_shortcut_matches_the_measured_render(value):
    response = {"success": True, "protocol_version": 1, "result": value}
    assert render(response) == render(response, max_bytes=SMALL_TEXT_BOUND - 1)


@settings(max_examples=200, deadline=None)
@given(values)
def test_tool_result_structured_content_is_the_text_parsed(value):
    response = {"success": True, "protocol_version": 1, "result": value}
    result = tool_result(response)
    text = result.content[0].text
    assert text == render(response)
    assert result.structured_content == json.loads(text)


@settings(max_examples=500, deadline=None)
@given(values)
def test_pretty_small_is_the_json_modules_indented_text(value):
    if not is_small_json(value):
        return
    try:
        want = json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)
    except ValueError:
        with pytest.raises(ValueError):
            pretty_small(value)
        return
    assert pretty_small(value) == want


def test_pretty_small_layout():
    value = {"a": [1, -2.5, None, True, False, "x\"\n\u00e9"], "b": {}, "c": [], "d": {"e": ()}}
    assert pretty_small(value) == json.dumps(value, indent=2, ensure_ascii=False)
    assert pretty_small(1e300) == "1e+300" and pretty_small(-0.0) == "-0.0"
    for bad in (float("nan"), float("inf"), [float("-inf")]):
        with pytest.raises(ValueError):
            pretty_small(bad)


def test_bounds():
    assert is_small_json({"a": [1, 2.5, None, True, "x"]})
    assert not is_small_json(list(range(SMALL_NODES)))          # 65 values with the list
    assert is_small_json(list(range(SMALL_NODES - 1)))
    assert not is_small_json("x" * (SMALL_CHARS + 1))
    assert is_small_json("x" * SMALL_CHARS)
    assert not is_small_json({1: 2})                             # a key json.dumps converts
    assert not is_small_json(10 ** 20) and is_small_json(10 ** 20 - 1)
    assert not is_small_json(object())
    nested = []
    for _ in range(SMALL_NODES):
        nested = [nested]
    assert not is_small_json(nested)
