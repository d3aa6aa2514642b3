"""README.md is accurate: its opening commands, its terminal session (replayed and compared
line by line), its tool table and its links."""
import re
import shutil
from pathlib import Path

from boruna.mcp.tools import TOOLS_BY_NAME

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text()


def _session():
    block = re.search(r"## A 30-second session\n+```console\n(.*?)```", README, re.S).group(1)
    steps, current = [], None
    for line in block.splitlines():
        if line.startswith("$ "):
            current = [line[2:], []]
            steps.append(current)
        else:
            current[1].append(line)
    return steps


def test_readme_starts_with_the_two_commands():
    assert README.startswith(
        "```bash\n"
        "pip install . && boruna-mcp --help\n"
        'pip install -e ".[test]" && python -m pytest\n'
        "```\n")


def test_readme_session_replays(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    steps = _session()
    assert [command.split(" ")[:2] for command, _ in steps] == [
        ["cat", "hello.ax"], ["boruna", "run"], ["cat", "typo.ax"], ["boruna", "check"],
        ["boruna", "repair"], ["boruna", "run"]]
    for command, expected in steps:
        words = command.split(" ", 1)
        if words[0] == "cat":
            Path(words[1]).write_text("\n".join(expected) + "\n")
            continue
        result = cli(*words[1].split())
        assert (result.out + result.err).splitlines() == expected, command
    assert Path("typo.ax").read_text() == Path("hello.ax").read_text()


def test_readme_session_exit_codes(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    files = {command.split(" ", 1)[1]: "\n".join(out) + "\n"
             for command, out in _session() if command.startswith("cat ")}
    for name, text in files.items():
        Path(name).write_text(text)
    assert cli("run", "hello.ax").code == 0
    assert cli("check", "typo.ax").code == 1
    assert cli("repair", "typo.ax").code == 0
    assert cli("check", "typo.ax").code == 0


def test_readme_lists_every_mcp_tool_once():
    rows = re.findall(r"^\| `(boruna_\w+)` \|", README, re.M)
    assert len(rows) == 20
    assert sorted(rows) == sorted(TOOLS_BY_NAME)


def test_readme_links_exist():
    links = re.findall(r"\]\(([^)#]+)\)", README)
    assert "docs/policy.schema.json" in links and "docs/compatibility.md" in links
    for link in links:
        assert (REPO / link).exists(), link


def test_readme_layout_paths_exist():
    block = re.search(r"## Project layout\n+```\n(.*?)```", README, re.S).group(1)
    top = None
    for line in block.splitlines():
        name = line.split()[0]
        if not line.startswith(" "):
            top = name
            path = REPO / name
        else:
            path = REPO / top / name
        assert path.exists(), path

