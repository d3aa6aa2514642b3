"""Every code block of the agent documents does what the text around it claims: each `ax`
block of the guide and of `boruna://workflows` checks without errors and runs (an App
through the framework), each `json` block is a valid workflow."""
import json
import re

import pytest

from boruna.service import agent_docs
from boruna.service.diagnostics import check_tool
from boruna.service.framework import framework_test_tool
from boruna.service.running import run_tool
from boruna.service.workflow import workflow_validate_tool

BLOCK = re.compile(r"```(ax|json)\n(.*?)```", re.S)

# what the text around a block says its run returns (a line of the block -> the result)
CLAIMED = {
    "fn manhattan(p: Point) -> Int {": 7,
    'let total = sum_even([1, 2, 3, 4, 10])': "sum of evens: 16",
    "    send a 21\n    [a, b]": [{"actor_id": 0}, {"actor_id": 1}],
    # the workflow steps return records of their declared outputs (step_input → "" here)
    'Summary { summary: "summary: " ++ text }': ["summary: "],
    '__builtin_int_to_string(__builtin_string_len(text)) ++ " chars" }': ["summary of 0 chars"],
    'Page { body: net_fetch("https://example.com/news") }':
        ['{"mock": true, "url": ""https://example.com/news""}'],
}


def _blocks(text, lang):
    return [body for kind, body in BLOCK.findall(text) if kind == lang]


def _documents():
    return {"guide": agent_docs.guide(), "workflows": agent_docs.document("boruna://workflows")}


def _all(lang):
    return [pytest.param(body, id=f"{name}-{k}")
            for name, text in _documents().items()
            for k, body in enumerate(_blocks(text, lang))]


@pytest.mark.parametrize("source", _all("ax"))
def test_every_ax_block_checks_clean_and_runs(source):
    errors = [d for d in check_tool(source)["diagnostics"] if d["severity"] == "error"]
    assert errors == []
    if "fn main(" in source:
        response = run_tool(source)
        assert response["success"] is True, response
        for line, result in CLAIMED.items():
            if line in source:
                got = response["result"]
                assert (got["fields"] if isinstance(got, dict) else got) == result
    else:
        assert "fn update(" in source
        response = framework_test_tool(source, ["increment:2", "reset", "increment:1"])
        assert response["success"] is True, response
        assert response["final_state"] == [1]


@pytest.mark.parametrize("text", _all("json"))
def test_every_json_block_is_a_valid_workflow(text):
    response = workflow_validate_tool(text)
    assert response["success"] is True, response
    assert response["execution_order"] == ["fetch", "summarize", "review"]
    assert json.loads(text)["schema_version"] == 1


def test_every_claimed_result_belongs_to_a_block():
    sources = [p.values[0] for p in _all("ax")]
    for line in CLAIMED:
        assert any(line in s for s in sources), line


def test_the_first_screen_says_and_or_evaluate_both_sides():
    head = agent_docs.guide().split("## 1.")[0]
    assert "**`&&` and `||` evaluate both sides**" in head
    assert "Type mismatches are errors (E009)" in head
    assert "no file system" not in agent_docs.guide()


def test_the_workflows_resource_is_listed():
    uris = [d["uri"] for d in agent_docs.documents()]
    assert "boruna://workflows" in uris
    assert agent_docs.document("boruna://workflows").startswith("# Boruna workflows")


def test_the_mock_answers_the_guide_lists_are_the_mock_handlers():
    source = ('fn main() -> List<String> !{fs.read, fs.write, net.fetch, db.query, time.now, '
              'random} {\n    [fs_read("p"), __builtin_bool_to_string(fs_write("p", "x")), '
              'net_fetch("u"), __builtin_int_to_string(list_len(db_query("q"))), '
              '__builtin_int_to_string(time_now()), __builtin_float_to_string(random()), '
              'step_input("s")]\n}\n')
    assert run_tool(source)["result"] == ['mock file content for "p"', "true",
                                          '{"mock": true, "url": ""u""}', "0", "1700000000",
                                          "0.42", ""]
    guide = agent_docs.guide()
    for text in ('`fs_read(p)` → `mock file content for "p"`', "`fs_write` → `true`",
                 '`net_fetch(u)` → `{"mock": true, "url": ""u""}`', "`db_query` → `[]`",
                 "`time_now()` → `1700000000`", "`random()` → `0.42`", '`step_input` → `""`'):
        assert text in guide


FILE_BLOCK = re.compile(r"`([\w.]+)`:\n```(?:ax|json)\n(.*?)```", re.S)


def test_the_guides_workflow_example_runs_as_written(tmp_path):
    from boruna.service.workflow_runs import workflow_run_tool

    files = dict(FILE_BLOCK.findall(agent_docs.guide()))
    assert sorted(files) == ["fetch.ax", "summarize.ax", "workflow.json"]
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    response = workflow_run_tool(directory=str(tmp_path), data_dir=str(tmp_path / "data"),
                                 allowed_root=tmp_path)
    assert response["success"] is True, response
    assert response["status"] == "paused"
    body = '{"mock": true, "url": ""https://example.com/news""}'
    # the String body arrives as is (quoted JSON text would be 2 chars longer)
    assert response["outputs"] == {"fetch": {"body": body},
                                   "summarize": {"summary": f"summary of {len(body)} chars"}}
    assert response["waiting"] == [{"step": "review", "status": "awaiting_approval",
                                    "required_role": "editor"}]


def test_the_guide_says_outputs_are_a_contract_and_how_step_input_reads_a_string():
    for text in (agent_docs.guide(), agent_docs.document("boruna://workflows")):
        flat = " ".join(text.split())
        assert "a type label (informational)" not in flat
        assert "**record with those fields**" in flat
        assert "**as is** (`hello`, not `\"hello\"`)" in flat
