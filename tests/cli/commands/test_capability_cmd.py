"""`boruna capability list` and `boruna policy validate`, text and --json."""
import json

from boruna.service import capability_list_tool, policy_validate_tool, render



def write(path, text: str):
    path.write_text(text, encoding="utf-8")
    return path

HASH = "sha256:980d017dc54e30c39c329484b501fbe46914d9ad344bfcb4610b0280f4300a67"


def test_capability_list_text(cli):
    result = cli("capability", "list")
    assert result.code == 0
    lines = result.out.splitlines()
    assert lines[1] == f"capability_set_hash: {HASH}"
    assert lines[4] == "capabilities (11):"
    assert lines[5] == "  actor.send   v1"
    assert lines[11] == "  net.fetch    v1  net_fetch()"
    assert lines[-1] == "  ui.render    v1"
    assert len(lines) == 16


def test_capability_list_json_is_the_tool_response(cli):
    result = cli("capability", "list", "--json")
    assert result.code == 0
    assert result.out == render(capability_list_tool()) + "\n"
    assert json.loads(result.out)["capability_set_hash"] == HASH


VALID = '{"schema_version": 1, "default_allow": false, "rules": {"net.fetch": {"allow": true, "budget": 0}}}'
UNKNOWN_FIELD = '{"schema_version": 1, "rules": {}, "bogus": 1}'


def test_policy_validate_ok(cli, tmp_path):
    path = write(tmp_path / "p.json", VALID)
    result = cli("policy", "validate", path)
    assert (result.code, result.out, result.err) == (0, f"OK: {path}\n", "")


def test_policy_validate_invalid_exits_1(cli, tmp_path):
    path = write(tmp_path / "p.json", UNKNOWN_FIELD)
    result = cli("policy", "validate", path)
    assert result.code == 1
    assert result.out == ""
    assert result.err == (f"error: {path}: policy.unknown_field: unknown field \"bogus\" "
                          "at bogus\n")


def test_policy_validate_json_equals_tool(cli, tmp_path):
    for body, code in ((VALID, 0), (UNKNOWN_FIELD, 1), ("not json", 1), ('"allow-all"', 1)):
        path = write(tmp_path / "p.json", body)
        result = cli("policy", "validate", path, "--json")
        assert result.code == code, body
        assert result.out == render(policy_validate_tool(body)) + "\n"


def test_policy_validate_missing_file(cli, tmp_path):
    result = cli("policy", "validate", tmp_path / "none.json")
    assert result.code == 1
    assert result.err == (f"error: {tmp_path / 'none.json'}: policy.io_error: cannot read "
                          f"'{tmp_path / 'none.json'}': no such file or directory\n")


def test_policy_validate_directory(cli, tmp_path):
    result = cli("policy", "validate", tmp_path, "--json")
    assert result.code == 1
    assert result.out == ""
    assert result.err == f"error: policy.io_error: cannot read '{tmp_path}': is a directory\n"


def test_policy_show(cli, tmp_path):
    path = write(tmp_path / "p.json", '{"schema_version": 1, "default_allow": false, '
                                      '"rules": {"net.fetch": {"allow": true, "budget": 3}}}')
    result = cli("policy", "show", path)
    assert result.code == 0
    assert result.out == ("Schema version: 1\nDefault behavior: deny\nRules:\n"
                          "  net.fetch      allow  budget=3\nNet policy: (default)\n")
    assert cli("policy", "show", "allow-all").out.splitlines()[1] == "Default behavior: allow"


def test_policy_show_invalid(cli, tmp_path):
    path = write(tmp_path / "p.json", UNKNOWN_FIELD)
    result = cli("policy", "show", path)
    assert result.code == 1
    assert result.err.startswith(f"error: {path}: policy.unknown_field: ")
