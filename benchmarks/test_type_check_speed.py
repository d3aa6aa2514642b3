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
