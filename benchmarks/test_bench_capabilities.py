"""Capability call speed: 10,000 `time_now()` calls under the mock, recorded to a tape, and
replayed from it (each includes the run's event-log digest where a tape needs one).

Run: python -m pytest benchmarks/test_bench_capabilities.py --benchmark-only
"""
from boruna import service

SOURCE = ("fn main() -> Int !{time.now} {\n let mut i = 0\n let mut t = 0\n"
          " while i < 10000 {\n  t = t + time_now() - 1700000000\n  i = i + 1\n }\n i\n}")
TAPE = service.read_tape(service.run(service.RunRequest.of(SOURCE, record=True)).tape())


def test_mock_calls(benchmark):
    result = benchmark(lambda: service.run(service.RunRequest.of(SOURCE)))
    assert result.outcome.result == 10000


def test_recorded_calls(benchmark):
    result = benchmark(lambda: service.run(service.RunRequest.of(SOURCE, record=True)).tape())
    assert result.startswith("{")


def test_replayed_calls(benchmark):
    result = benchmark(lambda: service.run(service.RunRequest.of(SOURCE, replay=TAPE)))
    assert result.success
