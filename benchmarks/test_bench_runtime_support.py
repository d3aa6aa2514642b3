"""Runtime support speed: value display/encoding, policy parsing, gateway calls, actors.

Run: python -m pytest benchmarks/test_bench_runtime_support.py --benchmark-only
"""
import json

from boruna.compiler import compile_source
from boruna.runtime.actors import ActorSystem
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
ACTORS = compile_source(
    "fn worker() -> Int {\n"
    "    let mut total = 0\n"
    "    let mut i = 0\n"
    "    while i < 10 {\n"
    "        total = total + receive\n"
    "        i = i + 1\n"
    "    }\n"
    "    total\n"
    "}\n"
    "fn main() -> Int {\n"
    "    let mut k = 0\n"
    "    while k < 20 {\n"
    "        let w = spawn worker\n"
    "        let mut j = 0\n"
    "        while j < 10 {\n"
    "            send w j\n"
    "            j = j + 1\n"
    "        }\n"
    "        k = k + 1\n"
    "    }\n"
    "    k\n"
    "}\n")


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


def test_bench_actor_system_20_workers(benchmark):
    def schedule():
        system = ActorSystem()
        system.spawn_root(ACTORS, CapabilityGateway(Policy.allow_all()))
        return system, system.run()
    system, result = benchmark(schedule)
    assert result == 20 and system.result_of(20) == 45
