"""`boruna run` prints records and enums by their declared names."""
import sys

from boruna.cli.named_display import MAX_DEPTH, named_display
from boruna.compiler import compile_source
from boruna.core.values import Enum, Record


def test_records_and_enums_are_named(cli, tmp_path):
    prog = tmp_path / "shapes.ax"
    prog.write_text("enum Shape { Circle(Float), Empty }\ntype P { x: Int, s: Shape }\n"
                    "fn main() -> List<P> {\n"
                    "    [P { x: 1, s: Shape::Circle(2.5) }, P { x: 2, s: Shape::Empty }]\n}\n")
    result = cli("run", prog)
    assert (result.code, result.out) == (
        0, "[P { x: 1, s: Shape::Circle(2.5) }, P { x: 2, s: Shape::Empty }]\nsteps: 11\n")


def test_options_results_and_scalars_keep_the_display_form(cli, tmp_path):
    prog = tmp_path / "opt.ax"
    prog.write_text('fn main() -> Option<Result<Int, String>> {\n    Some(Err("x"))\n}\n')
    assert cli("run", prog).out == 'Some(Err("x"))\nsteps: 7\n'


def test_unknown_type_ids_fall_back_to_the_display_form():
    module = compile_source("type P { x: Int }\nfn main() -> Int { 0 }\n")
    assert named_display(Record(7, (1,)), module) == "Record#7{1}"
    assert named_display(Record(0, (1, 2)), module) == "Record#0{1, 2}"
    assert named_display(Enum(0, 0, 1), module) == "Enum#0::0(1)"
    assert named_display(Record(0, (1,)), module) == "P { x: 1 }"


def test_deep_values_fall_back_without_recursion_errors():
    module = compile_source("type Box { inner: Int }\nfn main() -> Int { 0 }\n")
    levels = sys.getrecursionlimit() * 3
    value = 0
    for _ in range(levels):
        value = Record(0, (value,))
    named, rest = MAX_DEPTH + 1, levels - (MAX_DEPTH + 1)
    assert named_display(value, module) == (
        "Box { inner: " * named + "Record#0{" * rest + "0" + "}" * rest + " }" * named)
