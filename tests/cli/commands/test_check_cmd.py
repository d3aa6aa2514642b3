"""`boruna check`: one diagnostic pass per invocation, `--json -o` included."""
import json

import pytest

import boruna.diagnostics

TYPO = "fn main() -> Int {\n    let count = 3\n    countt * 2\n}\n"


@pytest.mark.parametrize("flags", [[], ["--json"]], ids=["text", "json"])
def test_check_with_output_checks_once(cli, monkeypatch, tmp_path, flags):
    seen = []
    real = boruna.diagnostics.check_source

    def counted(*args, **kwargs):
        seen.append(args[1:2])
        return real(*args, **kwargs)

    monkeypatch.setattr(boruna.diagnostics, "check_source", counted)
    source = tmp_path / "typo.ax"
    source.write_text(TYPO)
    saved = tmp_path / "diag.json"
    result = cli("check", source, "-o", saved, *flags)
    assert result.code == 1
    assert seen == [(str(source),)]
    full = json.loads(saved.read_text())
    assert [d["id"] for d in full["diagnostics"]] == ["E003"]
    assert full["diagnostics"][0]["suggested_patches"][0]["edits"][0]["new_text"] == "    count * 2"
    if flags:
        assert json.loads(result.out)["diagnostics_count"] == 1
    else:
        assert result.out.splitlines()[-1] == (
            f"{source}: 1 error; 1 fix available (run: boruna repair {source})")
