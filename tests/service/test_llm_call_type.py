"""`llm_call` is a String for the checker, the mock, the live handler and a delegated answer
(blind trial, issue 23): a program typing it `String` checks clean and runs under the mock;
one typing it a Map is an E009 error before it runs."""
from boruna.service.diagnostics import check_tool
from boruna.service.running import run_tool

CLASSIFY = ('fn classify(t: String) -> String !{llm.call} {\n    llm_call("classify: " ++ t)\n}\n\n'
            'fn main() -> String !{llm.call} {\n    "label: " ++ classify("spam?")\n}\n')
AS_MAP = ('fn ask(p: String) -> Map<String, Dynamic> !{llm.call} {\n    llm_call(p)\n}\n\n'
          'fn main() -> Int !{llm.call} {\n    __builtin_map_len(ask("q"))\n}\n')


def test_a_string_answer_checks_clean_and_runs_under_the_mock():
    assert check_tool(CLASSIFY)["diagnostics"] == []
    response = run_tool(CLASSIFY)
    assert response["success"] is True, response
    assert response["result"] == 'label: {"mock": true, "status": "ok"}'


def test_typing_the_answer_as_a_map_is_an_e009_error():
    errors = [(d["id"], d["severity"], d["message"], d["location"]["line"])
              for d in check_tool(AS_MAP)["diagnostics"]]
    assert errors == [("E009", "error", "type mismatch: the result of `ask` should be "
                       "`Map<String, _>`, but it is `String`", 2)]



def test_a_delegated_answer_must_be_a_string():
    from boruna.runtime.suspend import SuspendError, answer_value

    assert answer_value("llm.call", "spam") == "spam"
    try:
        answer_value("llm.call", {"label": "spam"})
    except SuspendError as err:
        assert (err.kind, str(err.message)) == (
            "invalid_answer", "answer for llm.call: expected String at $, got an object "
                              "(the builtin returns String)")
    else:
        raise AssertionError("a Map answer was accepted")
