"""Runtime support speed: value display/encoding, policy parsing, gateway calls.

Run: python -m pytest benchmarks/test_bench_runtime_support.py --benchmark-only
"""
import json

from boruna.core.capabilities import STEP_INPUT
from boruna.core.display import display, float_to_string
from boruna.service.encoding import format_value
from boruna.runtime.gateway import CapabilityGateway
from boruna.runtime.policy import Policy, parse_policy_text
from boruna.core.values import Enum, MapValue, Record, Some

# ~100k leaves: records of mixed scalars, options, enums and maps
BIG_VALUE = tuple(
    Record(0, (i, float(i) / 7.0, f"item-{i}", Some(Enum(1, i % 3, (i, True))),
               MapValue({"k": i, "s": "x"})))
    for i in range(10_000))
FLOATS = [i / 7.0 for i in range(10_000)] + [1e16 * i for i in range(1, 1000)]
POLICY_TEXT = json.dumps({
    "schema_version": 1, "default_allow": False,
    "rules": {"net.fetch": {"allow": True, "budget": 10}, "fs.read": {"allow": True, "budget": 0}},
    "net_policy": {"allowed_domains": [f"*.d{i}.example" for i in range(500)],
                   "allowed_methods": ["GET", "HEAD"], "timeout_ms": 2500}})


def test_bench_display_big_value(benchmark):
    text = benchmark(display, BIG_VALUE)
    assert text.startswith('[Record#0{0, 0, "item-0"')


def test_bench_format_value_big_value(benchmark):
    out = benchmark(format_value, BIG_VALUE)
    assert len(out) == 10_000


def test_bench_float_to_string(benchmark):
    out = benchmark(lambda: [float_to_string(x) for x in FLOATS])
    assert out[7] == "1"


def test_bench_policy_parse(benchmark):
    policy = benchmark(parse_policy_text, POLICY_TEXT)
    assert policy.budget("net.fetch") == 10


def test_bench_gateway_10k_calls(benchmark):
    def calls():
        gw = CapabilityGateway(Policy.allow_all())
        declared = [STEP_INPUT]
        for _ in range(10_000):
            gw.call(declared, STEP_INPUT, ["x"])
        return gw
    gw = benchmark(calls)
    assert gw.usage == {"step.input": 10_000}
