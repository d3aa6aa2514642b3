"""jsonread: serde_json-compatible parsing and error texts."""
import pytest

from boruna.core.jsonread import JsonSyntaxError, loads


@pytest.mark.parametrize("text, value", [
    ('{"a": [1, 2.5, "x", true, false, null]}', {"a": [1, 2.5, "x", True, False, None]}),
    ('{"a": 1, "a": 2}', {"a": 2}),
    ('"\\u00e9\\ud83d\\ude00\\n"', "é😀\n"),
    (" [ ] ", []),
    ("18446744073709551615", 18446744073709551615),
    ("-9223372036854775808", -9223372036854775808),
])
def test_values(text, value):
    assert loads(text) == value


def test_number_typing_follows_serde():
    assert type(loads("18446744073709551616")) is float
    assert type(loads("-9223372036854775809")) is float
    neg_zero = loads("-0")
    assert type(neg_zero) is float and str(neg_zero) == "-0.0"
    assert type(loads("1.0")) is float and type(loads("1e2")) is float


@pytest.mark.parametrize("text, message", [
    ("", "EOF while parsing a value at line 1 column 0"),
    ('{"default_allow": true,', "EOF while parsing a value at line 1 column 23"),
    ('{"default_allow":true}  }', "trailing characters at line 1 column 25"),
    ('{"a":1', "EOF while parsing an object at line 1 column 6"),
    ("[1,2", "EOF while parsing a list at line 1 column 4"),
    ('{"a" 1}', "expected `:` at line 1 column 6"),
    ("[1 2]", "expected `,` or `]` at line 1 column 4"),
    ('{"a":1 "b":2}', "expected `,` or `}` at line 1 column 8"),
    ("[1,]", "trailing comma at line 1 column 4"),
    ('{"a":1,}', "trailing comma at line 1 column 8"),
    ("{1:2}", "key must be a string at line 1 column 2"),
    ('"abc', "EOF while parsing a string at line 1 column 4"),
    ('"\\x"', "invalid escape at line 1 column 3"),
    ("nope", "expected ident at line 1 column 2"),
    ("x", "expected value at line 1 column 1"),
    ("01", "invalid number at line 1 column 2"),
    ("NaN", "expected value at line 1 column 1"),
    ('{\n  "a": 1,\n  }', "trailing comma at line 3 column 3"),
    ("[" * 129, "recursion limit exceeded at line 1 column 128"),
])
def test_syntax_errors(text, message):
    with pytest.raises(JsonSyntaxError) as info:
        loads(text)
    assert info.value.message == message


def test_control_characters_in_strings_are_rejected():
    with pytest.raises(JsonSyntaxError) as info:
        loads('"a\tb"')
    assert info.value.message.startswith("control character (\\u0000-\\u001F) found while "
                                         "parsing a string at line 1 column 3")


from hypothesis import given, settings, strategies as st  # noqa: E402

from boruna.core.jsonread import _Reader  # noqa: E402

_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2 ** 70), max_value=2 ** 70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=4),
    max_leaves=20)


def _typed(v):
    if isinstance(v, dict):
        return {k: _typed(x) for k, x in sorted(v.items())}
    if isinstance(v, list):
        return [_typed(x) for x in v]
    return (type(v).__name__, repr(v))


@settings(max_examples=150)
@given(_json_values, st.booleans())
def test_fast_path_agrees_with_the_reference_reader(value, ascii_only):
    import json
    text = json.dumps(value, ensure_ascii=ascii_only)
    slow = _Reader(text).parse_value()
    assert _typed(loads(text)) == _typed(slow)


def test_nesting_limit_is_127_containers():
    assert loads("[" * 127 + "]" * 127) is not None
    with pytest.raises(JsonSyntaxError) as info:
        loads("[" * 128 + "]" * 128)
    assert info.value.message == "recursion limit exceeded at line 1 column 128"
    with pytest.raises(JsonSyntaxError):
        loads('{"a":' * 128 + "1" + "}" * 128)
