"""Frontend speed: lex + parse + name check of a ~1 MB program of many small functions.

Target: under 1.5 s per round on the project machine (the Rust reference takes ~0.15 s).
Run: `python -m pytest benchmarks/test_frontend_speed.py --benchmark-only`.
"""
import pytest

from boruna.language.frontend import check, parse
from boruna.language.lexer import lex

FUNCTION = """fn step_{i}(n: Int, label: String) -> Int !{{net}} intent "step {i}" {{
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
def megabyte_program():
    parts = []
    size = 0
    i = 0
    while size < 1_000_000:
        text = FUNCTION.format(i=i, j=max(i - 1, 0))
        parts.append(text)
        size += len(text)
        i += 1
    return "".join(parts)


def test_lex_parse_check_1mb(benchmark, megabyte_program):
    program = benchmark.pedantic(check, args=(megabyte_program,), rounds=3, iterations=1)
    assert len(program.items) > 2000


def test_lex_only_1mb(benchmark, megabyte_program):
    stream = benchmark.pedantic(lex, args=(megabyte_program,), rounds=3, iterations=1)
    assert len(stream.kinds) > 200_000


def test_parse_only_1mb(benchmark, megabyte_program):
    program = benchmark.pedantic(parse, args=(megabyte_program,), rounds=3, iterations=1)
    assert len(program.items) > 2000
