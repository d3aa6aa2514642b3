"""The examples in docs/cli.md, templates/README.md and libs/README.md work as written."""
import re
import shlex
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_cli_md_workflow_example_is_valid(cli, tmp_path):
    text = (REPO / "docs" / "cli.md").read_text()
    example = re.search(r"A workflow file looks like.*?```json\n(.*?)```", text, re.S).group(1)
    (tmp_path / "workflow.json").write_text(example)
    result = cli("workflow", "validate", tmp_path)
    assert (result.code, result.err) == (0, "")
    assert result.out.splitlines() == [
        "workflow 'review' v1.0 is valid", "  steps: 3", "  edges: 1",
        "  execution order: fetch -> approve -> publish"]


def test_templates_readme_commands_run(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = (REPO / "templates" / "README.md").read_text()
    block = re.search(r"```bash\n(.*?)```", text, re.S).group(1)
    commands = [shlex.split(line) for line in block.splitlines() if line.strip()]
    assert [c[:3] for c in commands] == [
        ["boruna", "template", "list"], ["boruna", "template", "apply"],
        ["boruna", "framework", "test"]]
    for argv in commands:
        result = cli(*argv[1:])
        assert (result.code, result.err) == (0, ""), argv
    assert result.out.splitlines()[-1] == "cycles: 3"


def test_libs_readme_example_runs(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = (REPO / "libs" / "README.md").read_text()
    example = re.search(r"```\n(import .*?)```", text, re.S).group(1)
    Path("example.ax").write_text(example)
    result = cli("run", "example.ax")
    assert (result.code, result.out, result.err) == (0, "true\nsteps: 29\n", "")


def test_cli_md_policy_example(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = (REPO / "docs" / "cli.md").read_text()
    example = re.search(r"call budget.*?```json\n(.*?)```", text, re.S).group(1)
    Path("policy.json").write_text(example)
    assert cli("policy", "validate", "policy.json").out == "OK: policy.json\n"
    calls = "    let a = step_input(\"a\")\n    let b = step_input(\"b\")\n"
    Path("two.ax").write_text("fn main() -> String !{step.input} {\n" + calls + "    b\n}\n")
    Path("three.ax").write_text("fn main() -> String !{step.input} {\n" + calls
                                + "    step_input(\"c\")\n}\n")
    assert cli("run", "-p", "policy.json", "two.ax").code == 0
    result = cli("run", "-p", "policy.json", "three.ax")
    assert (result.code, result.err.splitlines()[0]) == (
        1, "error: runtime error: capability budget exceeded: step.input")
