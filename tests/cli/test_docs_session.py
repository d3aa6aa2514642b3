"""The terminal session in docs/cli.md is real: replay it and compare every output."""
import re
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _session():
    text = (REPO / "docs" / "cli.md").read_text()
    block = re.search(r"## A short session.*?```console\n(.*?)```", text, re.S).group(1)
    steps, current = [], None
    for line in block.splitlines():
        if line.startswith("$ "):
            current = [line[2:], []]
            steps.append(current)
        else:
            current[1].append(line)
    return steps


def test_docs_session_replays(cli, tmp_path, monkeypatch):
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    steps = _session()
    assert len(steps) >= 8
    for command, expected in steps:
        words = command.split(" ", 1)
        if words[0] == "cat":
            Path(words[1]).write_text("\n".join(expected) + "\n")
            continue
        assert words[0] == "boruna", command
        argv = re.findall(r'"[^"]*"|\S+', words[1])
        result = cli(*[a.strip('"') for a in argv])
        assert (result.out + result.err).splitlines() == expected, command
