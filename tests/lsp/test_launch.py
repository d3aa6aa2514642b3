"""`boruna-lsp`'s command line (`lsp/launch.py`)."""
from __future__ import annotations

import pytest

from boruna.lsp.launch import main, parse_args


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("boruna-lsp ")


def test_a_missing_libs_directory_is_refused(capsys, tmp_path):
    assert main(["--libs-dir", str(tmp_path / "nope")]) == 2
    assert capsys.readouterr().err == (f"boruna-lsp: libs directory '{tmp_path / 'nope'}' does "
                                       f"not exist or is not a directory\n")


def test_options():
    args = parse_args(["--stdio", "--libs-dir", "libs", "--debounce-ms", "0"])
    assert (args.libs_dir, args.debounce_ms, args.log_level) == ("libs", 0, "WARNING")
    with pytest.raises(SystemExit):
        parse_args(["--debounce-ms", "-1"])
