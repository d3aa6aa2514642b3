"""Throughput of the pinned Unicode functions (boruna.core.unicode) on 1.1M-char texts.

Run: python -m pytest benchmarks/test_bench_unicode.py --benchmark-only
"""
from boruna.core.unicode import debug_str, to_lower, to_upper, trim

MIXED = "Grüße, Ελλάδα ΣΑΣ мир " * 50_000      # 1.1M chars, 150,000 capital sigmas
ASCII = "hello world " * 100_000


def test_bench_to_upper_mixed(benchmark):
    assert benchmark(to_upper, MIXED).startswith("GRÜSSE")


def test_bench_to_lower_mixed_with_sigmas(benchmark):
    assert benchmark(to_lower, MIXED).endswith("σας мир ")


def test_bench_to_upper_ascii(benchmark):
    assert benchmark(to_upper, ASCII).startswith("HELLO")


def test_bench_debug_str_mixed(benchmark):
    assert benchmark(debug_str, MIXED).startswith('"Grüße')


def test_bench_trim_mixed(benchmark):
    assert benchmark(trim, "\u3000" + MIXED + "\x85") == MIXED.strip(" ")
