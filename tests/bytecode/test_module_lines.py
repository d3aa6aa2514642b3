"""The line table (`Function.lines`, `Function.position`) and its `.axbc` form."""
import json

from boruna.bytecode import axbc
from boruna.bytecode.module import Function
from boruna.compiler import compile_source

SOURCE = """fn pick(xs: List<Int>, i: Int) -> Int {
    list_get(xs, i)
}

fn main() -> Int {
    let xs = [1, 2, 3]
    let n = 10 / list_len(xs)
    pick(xs, n)
}
"""


def _places(fn):
    return [(ins[0], fn.position(pc)) for pc, ins in enumerate(fn.code)]


def test_the_table_names_the_failing_instructions_places():
    module = compile_source(SOURCE)
    pick, main = module.functions
    assert ("ListGet", (2, 5)) in _places(pick)
    places = _places(main)
    assert ("Div", (7, 13)) in places
    assert ("ListLen", (7, 18)) in places
    assert ("Call", (8, 5)) in places


def test_entries_are_written_only_where_the_position_changes():
    fn = compile_source("fn main() -> Int { 1 + 2 + 3 }").functions[0]
    # the function itself, then the two additions (both at col 20: one entry)
    assert fn.lines == [0, 1, 1, 2, 1, 20]
    assert [fn.position(pc) for pc in range(len(fn.code))] == [
        (1, 1), (1, 1), (1, 20), (1, 20), (1, 20), (1, 20)]


def test_a_function_without_a_table_has_no_positions():
    fn = Function("f", 0, 0, [("PushConst", 0), ("Ret",)])
    assert fn.position(0) is None


def test_axbc_carries_the_table_and_reads_files_without_it():
    module = compile_source(SOURCE)
    again = axbc.from_bytes(axbc.to_bytes(module))
    assert [f.lines for f in again.functions] == [f.lines for f in module.functions]
    obj = json.loads(axbc.to_json(module))
    for f in obj["functions"]:
        del f["lines"]                 # a file written before line tables
    old = axbc.from_json(json.dumps(obj))
    assert [f.lines for f in old.functions] == [[], []]
    assert [f.code for f in old.functions] == [f.code for f in module.functions]


def test_a_malformed_table_is_a_serialization_error():
    module = compile_source("fn main() -> Int { 1 }")
    obj = json.loads(axbc.to_json(module))
    obj["functions"][0]["lines"] = [0, 1]
    try:
        axbc.from_json(json.dumps(obj))
    except axbc.AxbcError as err:
        assert err.message == ("serialization error: invalid length 2, expected "
                               "(pc, line, col) triples")
    else:
        raise AssertionError("accepted")
