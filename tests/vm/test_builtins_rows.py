"""The db_query row accessors: row_int, row_float, row_string, row_bool, row_is_null."""
import sqlite3

import pytest

from boruna.diagnostics.collector import check_source
from boruna.runtime.execute import run
from boruna.compiler import compile_source
from boruna.service.running import run_tool
from boruna.core.values import MapValue

ROW = MapValue({"id": 7, "name": "pear", "price": 1.25, "active": 1, "note": None})


def _call(expr: str):
    # the row comes in as the entry function's argument
    source = f"fn main(r: Map<String, Dynamic>) -> String {{\n    {expr}\n}}\n"
    from boruna.runtime.execute import call_function
    module = compile_source(source)
    return call_function(module, "main", (ROW,))


@pytest.mark.parametrize("expr, value", [
    ('row_int(r, "id")', 7), ('row_float(r, "price")', 1.25), ('row_float(r, "id")', 7.0),
    ('row_string(r, "name")', "pear"), ('row_bool(r, "active")', True),
    ('row_is_null(r, "note")', True), ('row_is_null(r, "name")', False)])
def test_each_accessor_reads_its_type(expr, value):
    outcome = _call(expr)
    assert outcome.ok and outcome.result == value and type(outcome.result) is type(value)


@pytest.mark.parametrize("expr, message", [
    ('row_int(r, "name")', "type error: column `name`: expected Int, got String"),
    ('row_string(r, "id")', "type error: column `id`: expected String, got Int"),
    ('row_int(r, "qty")', "row has no column `qty` (columns: active, id, name, note, price)"),
    ('row_bool(r, "id")', "type error: column `id`: expected Bool (or 0/1), got 7"),
    ('row_float(r, "note")', "type error: column `note`: expected Float, got Unit")])
def test_a_wrong_column_stops_the_run_with_its_name(expr, message):
    assert _call(expr).error == message


MIXED = """fn main() -> Int !{db.query} {
    let rows = db_query("select name, qty from items order by name")
    let mut total = 0
    let mut names = ""
    for r in rows {
        match __builtin_map_get(r, "name") { Some(n) => { names = names ++ n }, None => {} }
        total = total + row_int(r, "qty")
    }
    total
}
"""


def test_rows_with_string_and_int_columns_check_clean():
    assert [d.code for d in check_source(MIXED).diagnostics] == []


def test_rows_from_a_live_database(tmp_path):
    from boruna.runtime.live import HandlerConfig

    db = tmp_path / "shop.db"
    with sqlite3.connect(db) as conn:
        conn.executescript("create table items (name text, qty integer);"
                           "insert into items values ('apple', 3), ('pear', 4);")
    config = HandlerConfig.from_env(True, None, str(db), False, None)
    outcome = run(compile_source(MIXED), handler=config.handler("allow-all"))
    assert (outcome.ok, outcome.result) == (True, 7)
    assert run_tool(MIXED)["result"] == 0        # the mock database has no rows
