"""`boruna codes` / `boruna lang codes`: the diagnostic code registry."""
import json

from boruna.diagnostics.registry import CODES


def test_codes_text_lists_every_code(cli):
    result = cli("codes")
    assert result.code == 0
    lines = result.out.splitlines()
    assert lines[0].split() == ["CODE", "NAME", "CATEGORY", "SUMMARY"]
    listed = [line.split()[0] for line in lines[1:]]
    assert listed[:9] == ["E001", "E002", "E003", "E004", "E005", "E006", "E007", "E008", "E009"]
    assert lines[1].split()[:3] == ["E001", "lexer-error", "lexical"]


def test_codes_json(cli):
    result = cli("codes", "--json")
    assert result.code == 0
    doc = json.loads(result.out)
    assert doc["version"] == 1
    assert doc["codes"][:9] == [info.to_dict() for info in CODES.values()]
    assert list(doc["codes"][0]) == ["code", "name", "summary", "category"]


def test_lang_codes_alias(cli):
    assert cli("lang", "codes", "--json").out == cli("codes", "--json").out
