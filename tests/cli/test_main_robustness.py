"""No input file makes `boruna` crash: arbitrary bytes and mutated programs end with exit 0
or 1 and at most clean `error...` lines on stderr, never a traceback or an internal error."""
import contextlib
import io
import os
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boruna.cli.main import main

SEED_PROGRAM = (
    "type P { x: Int, y: Int }\n"
    "enum Shape { Dot, Circle(Int) }\n"
    "fn area(s: Shape) -> Int {\n    match s {\n        Dot => 0,\n        Circle(r) => r * r,\n    }\n}\n"
    "fn main() -> Int {\n    let p = P { x: 1, y: 2 }\n    let mut i = 0\n"
    "    while i < 3 { i = i + 1 }\n    area(Shape::Circle(p.x + i))\n}\n"
)


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def _check_clean(code, err):
    assert code in (0, 1), (code, err)
    assert "Traceback" not in err
    assert "internal error" not in err, err


def _mutations():
    def mutate(data):
        pos, cut, insert = data
        pos %= len(SEED_PROGRAM) + 1
        return (SEED_PROGRAM[:pos] + insert + SEED_PROGRAM[pos + cut:]).encode("utf-8")
    return st.tuples(st.integers(0, 10_000), st.integers(0, 12),
                     st.text(alphabet="{}()[]<>:;,.=!+-*/%\"'_ \nxyzmatchfnletif0123456789",
                             max_size=8)).map(mutate)


INPUTS = st.one_of(st.binary(max_size=300), st.text(max_size=200).map(str.encode), _mutations())


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=INPUTS, command=st.sampled_from(["ast", "check", "compile", "run", "validate"]))
def test_any_source_file_ends_cleanly(data, command):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "fuzz.ax")
        with open(path, "wb") as handle:
            handle.write(data)
        argv = {
            "ast": ["ast", path],
            "check": ["check", path],
            "compile": ["compile", path, "-o", os.path.join(tmp, "out.axbc")],
            "run": ["run", path, "--max-steps", "20000"],
            "validate": ["framework", "validate", path],
        }[command]
        code, _out, err = _run(argv)
        _check_clean(code, err)


@settings(max_examples=60, deadline=None)
@given(data=st.binary(max_size=400))
def test_any_bytecode_file_ends_cleanly(data):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "fuzz.axbc")
        with open(path, "wb") as handle:
            handle.write(data)
        code, _out, err = _run(["run", path, "--max-steps", "20000"])
        _check_clean(code, err)
