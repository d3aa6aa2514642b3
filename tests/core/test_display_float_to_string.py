"""float_to_string: Rust `{}` of f64 (docs/spec/vm.md §3.6)."""
import math
import struct

import pytest
from hypothesis import given, settings, strategies as st

from boruna.core.display import float_to_string


@pytest.mark.parametrize("value, expected", [
    (1.0, "1"),
    (-0.5, "-0.5"),
    (0.1 + 0.2, "0.30000000000000004"),
    (1.0 / 3.0, "0.3333333333333333"),
    (1e16, "10000000000000000"),
    (1e23, "100000000000000000000000"),
    (1e-7, "0.0000001"),
    (0.000001, "0.000001"),
    (-0.0, "-0"),
    (0.0, "0"),
    (math.inf, "inf"),
    (-math.inf, "-inf"),
    (math.nan, "NaN"),
    (100.0, "100"),
    (2.5, "2.5"),
    (-1234.5678, "-1234.5678"),
    (123456789012345680.0, "123456789012345680"),
    (5e-324, "0." + "0" * 323 + "5"),
    (1.7976931348623157e308, "17976931348623157" + "0" * 292),
])
def test_spec_examples_and_edges(value, expected):
    assert float_to_string(value) == expected


def test_1e31_reached_by_multiplication():
    x = 1.0
    for _ in range(31):
        x = x * 10.0
    assert float_to_string(x) == "9999999999999999000000000000000"


def test_nan_with_sign_bit_is_still_nan():
    neg_nan = struct.unpack("<d", struct.pack("<Q", 0xFFF8000000000000))[0]
    assert float_to_string(neg_nan) == "NaN"


@settings(max_examples=200)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_round_trips_and_never_uses_an_exponent(x):
    text = float_to_string(x)
    assert "e" not in text and "E" not in text
    assert not text.endswith(".0")
    assert float(text) == x
    if x == 0:
        assert text == ("-0" if math.copysign(1, x) < 0 else "0")
