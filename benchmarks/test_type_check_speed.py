"""Type-checker speed (issue 12): the type pass and the capability-effects pass over a ~1 MB
program of many small functions (`diagnostics/types/`, parse excluded). Target: ≤ 1 s.
Run: `python -m pytest benchmarks/test_type_check_speed.py --benchmark-only`.
"""
import pytest

from boruna.diagnostics.context import CheckContext
from boruna.diagnostics.types.effects import check_effects
from boruna.diagnostics.types.infer import check_types
from boruna.language.frontend import parse

FUNCTION = """fn step_{i}(n: Int, label: String) -> Int {{
    let mut total = n * {i} + 1
    let items = [1, 2, 3, total]
    for x in items {{ total = total + x }}
    if total > 100 && label != "skip" {{
        total = total - step_{j}(n - 1, label ++ "!")
    }} else {{
        total = list_len(items)
    }}
    match Some(total) {{
        Some(v) => v % 7,
        None => 0
    }}
}}
"""


@pytest.fixture(scope="module")
def megabyte_context():
    parts, size, i = [], 0, 0
    while size < 1_000_000:
        text = FUNCTION.format(i=i, j=max(i - 1, 0))
        parts.append(text)
        size += len(text)
        i += 1
    source = "".join(parts)
    return source, parse(source)


def test_type_check_1mb(benchmark, megabyte_context):
    source, program = megabyte_context

    def run():
        ctx = CheckContext.build(source, "<bench>", program)
        return check_types(ctx) + check_effects(ctx)

    found = benchmark.pedantic(run, rounds=3, iterations=1)
    assert found == []


def test_check_source_1mb(benchmark, megabyte_context):
    """The whole `boruna check` pipeline (parse, names, every analyzer, codegen) on 1 MB;
    printed with its ratio to parsing alone, timed in the same run. Target: ≤ 1 s."""
    import time

    from boruna.diagnostics.collector import check_source

    source, _program = megabyte_context
    parse_best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        parse(source)
        parse_best = min(parse_best, time.perf_counter() - start)
    found = benchmark.pedantic(check_source, args=(source,), rounds=3, iterations=1)
    assert [d.id for d in found.diagnostics] == ["MISSING_MAIN"]    # no `fn main` in it
    if benchmark.stats is not None:
        best = benchmark.stats.stats.min
        print(f"\ncheck_source 1 MB: {best:.3f} s, parse alone {parse_best:.3f} s, "
              f"ratio {best / parse_best:.2f}")
