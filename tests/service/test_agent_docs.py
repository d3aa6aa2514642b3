"""The agent docs (`service.agent_docs`): generated tables match the code, every code has an
explanation whose erroneous example really triggers it and whose fix is clean, and the
guide's programs compile and run."""
import re

import pytest

from boruna.assets.directories import default_libs_dir, default_templates_dir
from boruna.assets.libraries import list_libraries
from boruna.assets.templates import list_templates
from boruna.diagnostics.registry import ALL_CODES
from boruna.language.names import BUILTIN_ARITIES
from boruna.service import agent_docs, check_tool, repair_tool, run_tool

AX_BLOCK = re.compile(r"```ax\n(.*?)```", re.S)


def _errors(source):
    return [(d["id"], d["severity"]) for d in check_tool(source)["diagnostics"]]


def test_builtins_table_is_the_one_builtin_table():
    from boruna.core.builtins import BUILTINS

    table = agent_docs.builtins_table()
    rows = [line for line in table.splitlines()[2:]]
    assert len(rows) == len(BUILTINS) == len(BUILTIN_ARITIES) == 55
    assert rows[0] == "| `list_len` | 1 | `(List<T>) -> Int` | number of elements |"
    assert rows[42:] == [
        "| `net_fetch` | 1 | `(String) -> String` | the body of an HTTP GET of the URL |",
        "| `fs_read` | 1 | `(String) -> String` | the text of a file under the file root |",
        "| `fs_write` | 2 | `(String, String) -> Bool` | writes the text to a file under the file "
        "root |",
        "| `db_query` | 1 | `(String) -> List<Map<String, Dynamic>>` | the rows of one SQL "
        "statement, each a Map from column name to value (read them with row_int, row_float, "
        "row_string, row_bool, row_is_null) |",
        "| `time_now` | 0 | `() -> Int` | the time in Unix seconds |",
        "| `random` | 0 | `() -> Float` | a Float in [0, 1) |",
        "| `llm_call` | 1 | `(String) -> String` | the LLM's answer to the prompt (text) |",
        "| `map_new` | 0 | `() -> Map<String, V>` | an empty Map |",
        "| `row_int` | 2 | `(Map<String, Dynamic>, String) -> Int` | the Int value of a row's "
        "column |",
        "| `row_float` | 2 | `(Map<String, Dynamic>, String) -> Float` | the Float value of a "
        "row's column (an Int column is converted) |",
        "| `row_string` | 2 | `(Map<String, Dynamic>, String) -> String` | the String value of "
        "a row's column |",
        "| `row_bool` | 2 | `(Map<String, Dynamic>, String) -> Bool` | a row's 0/1 (or Bool) "
        "column as a Bool |",
        "| `row_is_null` | 2 | `(Map<String, Dynamic>, String) -> Bool` | whether a row's "
        "column is NULL |",
    ]


def test_guide_lists_every_builtin_and_capability():
    guide = agent_docs.guide()
    assert "<!--" not in guide
    for name, arity in BUILTIN_ARITIES.items():
        assert f"| `{name}` | {arity} | `" in guide
    assert "| `net.fetch` | `net.fetch`, `net` | `net_fetch` |" in guide
    assert "| `step.input` | `step.input`, `step_input` | `step_input` |" in guide
    assert "| `actor.spawn` | `actor_spawn` | — |" in guide


def test_guide_programs_check_clean_and_run():
    blocks = AX_BLOCK.findall(agent_docs.guide())
    assert len(blocks) == 7         # the actors example; §10's fetch.ax and summarize.ax
    assert [_errors(b) for b in blocks] == [[], [], [], [], [], [], []]
    assert run_tool(blocks[0])["result"] == 7
    assert run_tool(blocks[4])["result"] == "sum of evens: 16"


@pytest.mark.parametrize("code", list(ALL_CODES))
def test_every_code_is_explained_with_an_example_that_triggers_it_and_a_clean_fix(code):
    text = agent_docs.explain(code)
    info = ALL_CODES[code]
    assert text.startswith(f"# {code}: {info.name} ({info.category})\n\n{info.summary}\n")
    assert agent_docs.explain(code.lower()) == text
    assert agent_docs.document(f"boruna://codes/{code}") == text
    erroneous, fixed = AX_BLOCK.findall(text)
    reported = {c for c, severity in _errors(erroneous)}
    assert reported == ({"E003"} if code == "E004" else {code})
    assert [e for e in _errors(fixed) if e[1] == "error"] == []
    assert _errors(fixed) == []


def test_e007_example_is_undeclared_use_directly_through_a_value_and_through_a_callee():
    erroneous, fixed = AX_BLOCK.findall(agent_docs.explain("E007"))
    assert [(d["id"], d["severity"], d["message"].split(" \u2014 ")[0], d["location"]["line"])
            for d in check_tool(erroneous)["diagnostics"]] == [
        ("E007", "error", "capability violation: `load` uses `fs.read` but does not declare it", 2),
        ("E007", "error", "capability violation: `twice` uses `fs.read` through the function "
         "value `f` but does not declare it", 6),
        ("E007", "error", "capability violation: `main` uses `fs.read` through `twice` but does "
         "not declare it", 10),
    ]
    assert check_tool(fixed)["diagnostics"] == []
    assert repair_tool(erroneous)["repaired_source"] == fixed
    assert run_tool(fixed)["result"] == 'mock file content for "notes.txt"' * 2
    assert run_tool(fixed, policy="deny-all")["message"] == "capability denied: fs.read"


def test_unknown_code_and_uri_have_no_document():
    assert agent_docs.explain("E999") is None
    assert agent_docs.document("boruna://codes/e003") is None
    assert agent_docs.document("boruna://nothing") is None


def test_codes_index_lists_every_code():
    index = agent_docs.document("boruna://codes")
    for info in ALL_CODES.values():
        assert f"| `{info.code}` | {info.name} | {info.category} |" in index


def test_libraries_document_every_library_with_signatures_but_not_main():
    text = agent_docs.libraries(default_libs_dir())
    infos = list_libraries(default_libs_dir())
    assert len(infos) == 14
    for info in infos:
        assert f"## {info.dir_name} ({info.name} {info.version})" in text
    assert "fn main()" not in text
    assert "fn validation_ok() -> ValidationResult" in text


def test_templates_document_every_template_and_argument():
    text = agent_docs.templates(default_templates_dir())
    for info in list_templates(default_templates_dir()):
        assert f"## {info.name} {info.version}" in text
        for arg in info.args:
            assert f"| `{arg}` |" in text
    assert "separated by '\\|'" in text


def test_missing_directories_are_said_plainly(tmp_path):
    assert agent_docs.libraries(tmp_path / "none").endswith(
        "No libraries are available to this server.")
    assert "Templates unavailable: " in agent_docs.templates(tmp_path / "none")


def test_prompt_placeholders_are_filled_once():
    got = agent_docs.prompt("write_program", {"task": "print {source} literally"})
    assert "print {source} literally" in got["messages"][0]["text"]
    assert got["messages"][1] == {"uri": "boruna://guide"}
    with pytest.raises(agent_docs.PromptError):
        agent_docs.prompt("write_program", {"task": 3})
