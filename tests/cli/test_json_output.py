"""Every command is arguments -> one service use case -> rendering: text and `--json` of the
same invocation make exactly one call, to the same use case, and `--json` prints that
result's `to_json()`."""
import json

import pytest

from boruna import service
from boruna.cli import json_output
from boruna.cli.errors import CliError
from boruna.service import InvalidParams

from .conftest import EXAMPLES

HELLO = str(EXAMPLES / "hello.ax")
APP = str(EXAMPLES / "counter_app.ax")
WORKFLOW = ('{"schema_version": 1, "name": "w", "version": "1.0", "steps": '
            '{"a": {"kind": "source", "source": "a.ax"}}, "edges": []}')
POLICY = '{"schema_version": 1, "default_allow": true, "rules": {}}'

# (use case, argv without --json, whether the command takes --json)
COMMANDS = [
    ("compile_module", ["compile", HELLO, "-o", "{tmp}/h.axbc"], True),
    ("run", ["run", HELLO], True),
    ("parse_ast", ["ast", HELLO], True),
    ("list_symbols", ["symbols", HELLO], True),
    ("check", ["check", HELLO], True),
    ("repair", ["repair", HELLO, "--dry-run"], True),
    ("list_codes", ["codes"], True),
    ("validate_app", ["framework", "validate", APP], True),
    ("framework_test", ["framework", "test", APP, "-m", "increment:1"], True),
    ("validate_workflow", ["workflow", "validate", "{tmp}/workflow.json"], True),
    ("list_templates", ["template", "list"], True),
    ("apply_template", ["template", "apply", "crud-admin", "--args",
                        "entity_name=u,fields=name", "-o", "-"], True),
    ("list_capabilities", ["capability", "list"], True),
    ("validate_policy", ["policy", "validate", "{tmp}/policy.json"], True),
    ("show_policy", ["policy", "show", "{tmp}/policy.json"], False),
    ("format_code", ["fmt", "{tmp}/formatted.ax"], True),
]
USE_CASES = sorted({name for name, _argv, _json in COMMANDS})


@pytest.fixture
def calls(monkeypatch):
    """Every use case of `boruna.service` wrapped to record its name and its result."""
    seen = []
    for name in USE_CASES:
        real = getattr(service, name)

        def counted(*args, _name=name, _real=real, **kwargs):
            result = _real(*args, **kwargs)
            seen.append((_name, result))
            return result

        monkeypatch.setattr(service, name, counted)
    return seen


def test_the_table_names_sixteen_commands():
    assert len(COMMANDS) == 16


INVOCATIONS = [(use_case, argv, as_json) for use_case, argv, has_json in COMMANDS
               for as_json in ((False, True) if has_json else (False,))]


@pytest.mark.parametrize("use_case, argv, as_json", INVOCATIONS,
                         ids=[f"{c[0]}-{'json' if c[2] else 'text'}" for c in INVOCATIONS])
def test_each_invocation_is_one_service_call(cli, calls, tmp_path, monkeypatch, use_case, argv,
                                             as_json):
    (tmp_path / "workflow.json").write_text(WORKFLOW)
    (tmp_path / "policy.json").write_text(POLICY)
    (tmp_path / "formatted.ax").write_text("fn main() -> Int {\n    1\n}\n")
    monkeypatch.chdir(tmp_path)
    words = [word.replace("{tmp}", str(tmp_path)) for word in argv]
    words += ["--json"] if as_json else []
    result = cli(*words)
    assert result.code == 0, result.err
    assert [name for name, _result in calls] == [use_case]
    if as_json:
        assert json.loads(result.out) == calls[0][1].to_json()


def test_call_turns_invalid_params_into_a_cli_error():
    def refuse():
        raise InvalidParams("source exceeds 1 MB limit")

    with pytest.raises(CliError) as info:
        json_output.call(refuse)
    assert (info.value.message, info.value.exit_code) == ("source exceeds 1 MB limit", 1)


def test_source_limit_is_the_tool_limit_under_json_only():
    class Args:
        json = True

    assert json_output.source_limit(Args) == 1_048_576
    Args.json = False
    assert json_output.source_limit(Args) is None
