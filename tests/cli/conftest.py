"""Fixtures for the CLI tests: run `boruna` in-process (`cli`) or as a real process
(`run_boruna`), and the paths of the repository's examples."""
from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from boruna.cli.main import main

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys, monkeypatch):
    """`cli("run", "x.ax")` -> Result(code, out, err), run in this process without colour."""
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("CLICOLOR_FORCE", raising=False)

    def call(*argv: str) -> Result:
        capsys.readouterr()
        code = main([str(a) for a in argv])
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return call


def boruna_process(*argv: str, cwd=None, env_extra=None, timeout: float = 60,
                   input_bytes: bytes | None = None) -> subprocess.CompletedProcess:
    """Run `python -m boruna.cli ARGV...` as a child process and capture its output."""
    env = dict(os.environ)
    env.pop("FORCE_COLOR", None)
    env.pop("CLICOLOR_FORCE", None)
    env.pop("BORUNA_DEBUG", None)
    if env_extra:
        env.update(env_extra)
    return subprocess.run([sys.executable, "-m", "boruna.cli", *map(str, argv)], cwd=cwd,
                          env=env, capture_output=True, timeout=timeout, input=input_bytes)


@pytest.fixture
def run_boruna():
    return boruna_process
